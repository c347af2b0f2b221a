import Foundation
import Glibc
import HeraldCore
import HeraldTestSupport
import XCTest

/// One XDG base-directory rule: the state, cache, key-file and desktop-entry paths all come
/// from `BaseDirectories`, so they agree for every environment, `HOME` unset included (the
/// CLI's autostart entry: `AutostartTests`; the key files: `OffSwitchFilesTests`).
final class BaseDirectoriesTests: XCTestCase {
    private let appID = "org.example.App"

    /// The user's home folder in the password database, read here without Herald.
    private var passwordHome: String { String(cString: getpwuid(getuid())!.pointee.pw_dir) }

    private func dropping(_ suffix: String, from path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        XCTAssertTrue(path.hasSuffix(suffix), "\(path) does not end in \(suffix)", file: file, line: line)
        return String(path.dropLast(suffix.count))
    }

    func testEveryUserOfTheBaseDirectoriesAgreesForOneEnvironmentHomeUnsetIncluded() throws {
        let environments: [([String: String], config: String, state: String, cache: String, systemConfig: [String])] = [
            (["HOME": "/home/u"], "/home/u/.config", "/home/u/.local/state", "/home/u/.cache", ["/etc/xdg"]),
            ([:], passwordHome + "/.config", passwordHome + "/.local/state", passwordHome + "/.cache", ["/etc/xdg"]),
            (["HOME": "relative/home"], passwordHome + "/.config", passwordHome + "/.local/state", passwordHome + "/.cache", ["/etc/xdg"]),
            (["HOME": ""], passwordHome + "/.config", passwordHome + "/.local/state", passwordHome + "/.cache", ["/etc/xdg"]),
            (["HOME": "/"], "/.config", "/.local/state", "/.cache", ["/etc/xdg"]),
            (["HOME": "/home/u", "XDG_CONFIG_HOME": "config", "XDG_STATE_HOME": "", "XDG_CACHE_HOME": "~/c", "XDG_CONFIG_DIRS": "etc:"],
             "/home/u/.config", "/home/u/.local/state", "/home/u/.cache", ["/etc/xdg"]),
            (["XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/k", "XDG_CONFIG_DIRS": "/a:rel:/b"],
             "/c", "/s", "/k", ["/a", "/b"]),
        ]
        for (environment, config, state, cache, systemConfig) in environments {
            let directories = BaseDirectories(environment: environment)
            XCTAssertEqual(directories.configHome, config, "\(environment)")
            XCTAssertEqual(directories.stateHome, state, "\(environment)")
            XCTAssertEqual(directories.cacheHome, cache, "\(environment)")
            XCTAssertEqual(directories.configDirs, systemConfig, "\(environment)")
            let paths = try HeraldPaths(appID: appID, environment: environment)
            XCTAssertEqual(dropping("/herald/\(appID).json", from: paths.stateFile), state, "\(environment)")
            XCTAssertEqual(dropping("/herald/\(appID).lock", from: paths.lockFile), state, "\(environment)")
            XCTAssertEqual(dropping("/herald/\(appID).feed", from: paths.cachedFeedFile), cache, "\(environment)")
        }
    }

    func testTheDesktopEntryIsLookedForInTheSameDataFolders() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let applications = root.appendingPathComponent("home/.local/share/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nName=Mine\n".write(to: applications.appendingPathComponent(appID + ".desktop"), atomically: true, encoding: .utf8)
        let environment = ["HOME": root.path + "/home", "XDG_DATA_HOME": "relative", "XDG_DATA_DIRS": ":"]
        XCTAssertEqual(BaseDirectories(environment: environment).dataHome, root.path + "/home/.local/share")
        XCTAssertEqual(BaseDirectories(environment: environment).dataDirs, ["/usr/local/share", "/usr/share"])
        XCTAssertEqual(DesktopEntry.installed(appID: appID, environment: environment)?["Name"], "Mine")
    }

    func testWithNoHomeAnywhereTheRootFolderIsTheHome() {
        let directories = BaseDirectories(environment: [:], passwordHome: { nil })
        XCTAssertEqual(directories, BaseDirectories(environment: ["HOME": "/"]))
        XCTAssertEqual([directories.home, directories.configHome, directories.stateHome, directories.cacheHome, directories.dataHome],
                       ["/", "/.config", "/.local/state", "/.cache", "/.local/share"])
        XCTAssertEqual(BaseDirectories(environment: [:], passwordHome: { "relative" }).home, "/")
    }
}
