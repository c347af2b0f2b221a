import Foundation
import Glibc
import HeraldCore
import XCTest
@testable import herald

/// The autostart entry `herald autostart enable` writes, and where.
final class AutostartTests: XCTestCase {
    func testEntryTextRoundTripsThroughTheParser() {
        let entry = Autostart.entry(appID: "org.e.App", appName: "Example", command: ["/usr/bin/herald", "check", "--app-id", "org.e.App"])
        let parsed = DesktopEntry.parse(entry.text + "\n[Desktop Action x]\nName=ignored\n")
        XCTAssertEqual(parsed, entry)
        XCTAssertEqual(parsed["X-Herald-AppID"], "org.e.App")
        XCTAssertEqual(parsed["Exec"].map(DesktopEntry.arguments(ofExec:)), ["/usr/bin/herald", "check", "--app-id", "org.e.App"])
    }

    func testTheEntrysPathIsFoundInTheVariablesReadAsInTheWholeEnvironment() {
        let whole = ProcessInfo.processInfo.environment
        XCTAssertEqual(Autostart.path(appID: "org.example.App", environment: ProcessEnvironment.read()), Autostart.path(appID: "org.example.App", environment: whole))
    }

    func testAutostartPathFollowsXDGConfigHome() {
        XCTAssertEqual(Autostart.path(appID: "a.b", environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]), "/c/autostart/a.b.herald.desktop")
        XCTAssertEqual(Autostart.path(appID: "a.b", environment: ["HOME": "/h"]), "/h/.config/autostart/a.b.herald.desktop")
    }

    func testTheAutostartEntryIsInTheConfigHomeOfTheOneBaseDirectoryRuleHomeUnsetIncluded() {
        // The account's home as the password database gives it, read here without Herald.
        let account = String(cString: getpwuid(getuid())!.pointee.pw_dir)
        let entry = "/autostart/org.example.App.herald.desktop"
        let expected: [([String: String], String)] = [
            (["HOME": "/home/u"], "/home/u/.config" + entry), ([:], account + "/.config" + entry),
            (["HOME": "relative/home"], account + "/.config" + entry), (["HOME": ""], account + "/.config" + entry),
            (["XDG_CONFIG_HOME": "/c"], "/c" + entry), (["HOME": "/h", "XDG_CONFIG_HOME": "rel"], "/h/.config" + entry),
        ]
        for (environment, path) in expected {
            XCTAssertEqual(Autostart.path(appID: "org.example.App", environment: environment), path, "\(environment)")
        }
    }
}
