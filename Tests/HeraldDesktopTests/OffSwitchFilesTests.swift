import Foundation
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// The key files as `OffSwitchFiles` reads and edits them, in temporary folders.
final class OffSwitchFilesTests: XCTestCase {
    var directory: URL!
    var environment: [String: String] = [:]
    var systemFile: String { directory.path + "/etc/xdg/herald/herald.conf" }
    var userFile: String { directory.path + "/config/herald/herald.conf" }

    override func setUpWithError() throws {
        directory = try Fixtures.temporaryDirectory("herald-off-switches")
        environment = ["HOME": directory.path + "/home", "XDG_CONFIG_HOME": directory.path + "/config",
                       "XDG_CONFIG_DIRS": directory.path + "/site:" + directory.path + "/etc/xdg"]
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func testTheProcessVariablesReadNameTheSameFilesAsTheWholeEnvironment() {
        let names = ["HOME", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS"]
        let saved = names.map { name in getenv(name).map { String(cString: $0) } }
        defer { for (name, value) in zip(names, saved) { if let value { setenv(name, value, 1) } else { unsetenv(name) } } }
        for (name, value) in environment { setenv(name, value, 1) }
        XCTAssertEqual(OffSwitchFiles.systemFiles(environment: ProcessEnvironment.read()), OffSwitchFiles.systemFiles(environment: ProcessInfo.processInfo.environment))
        XCTAssertEqual(OffSwitchFiles.userFile(environment: ProcessEnvironment.read()), OffSwitchFiles.userFile(environment: ProcessInfo.processInfo.environment))
        XCTAssertEqual(OffSwitchFiles.systemFiles(environment: ProcessEnvironment.read()), [directory.path + "/site/herald/herald.conf", systemFile])
    }

    func testTheFilesAreUnderTheXDGConfigFoldersWithEtcXdgAndDotConfigByDefault() {
        XCTAssertEqual(OffSwitchFiles.systemFiles(environment: [:]), ["/etc/xdg/herald/herald.conf"])
        XCTAssertEqual(OffSwitchFiles.systemFiles(environment: ["XDG_CONFIG_DIRS": "/a:relative::/b"]), ["/a/herald/herald.conf", "/b/herald/herald.conf"])
        XCTAssertEqual(OffSwitchFiles.userFile(environment: ["HOME": "/home/ada"]), "/home/ada/.config/herald/herald.conf")
        XCTAssertEqual(OffSwitchFiles.userFile(environment: ["HOME": "/home/ada", "XDG_CONFIG_HOME": "relative"]), "/home/ada/.config/herald/herald.conf")
    }

    /// The key files hang from the base directories every other path of Herald's comes from,
    /// for every environment, `HOME` unset included (`BaseDirectoriesTests`).
    func testTheKeyFilesAreUnderTheBaseDirectoriesForEveryEnvironment() {
        let environments: [[String: String]] = [
            ["HOME": "/home/u"], [:], ["HOME": "relative/home"], ["HOME": ""], ["HOME": "/"],
            ["HOME": "/home/u", "XDG_CONFIG_HOME": "config", "XDG_CONFIG_DIRS": "etc:"],
            ["XDG_CONFIG_HOME": "/c", "XDG_CONFIG_DIRS": "/a:rel:/b"],
        ]
        for environment in environments {
            let directories = BaseDirectories(environment: environment)
            XCTAssertEqual(OffSwitchFiles.userFile(environment: environment), directories.configHome + "/herald/herald.conf", "\(environment)")
            XCTAssertEqual(OffSwitchFiles.systemFiles(environment: environment), directories.configDirs.map { $0 + "/herald/herald.conf" }, "\(environment)")
            XCTAssertTrue(OffSwitchFiles.files(environment: environment) == (OffSwitchFiles.systemFiles(environment: environment), OffSwitchFiles.userFile(environment: environment)), "\(environment)")
        }
    }

    func testMissingFilesSayNothingAndReadingCreatesNothing() throws {
        let switches = try OffSwitchFiles.read(environment: environment)
        XCTAssertEqual(switches, OffSwitches(system: [OffSwitchSettings(file: directory.path + "/site/herald/herald.conf"), OffSwitchSettings(file: systemFile)],
                                             user: OffSwitchSettings(file: userFile)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testTheAdministratorsFileGivesMutesAndMirrorsAndTheUsersOnlyMutes() throws {
        try write("""
            # Company policy
            [all]
            Muted=true

            [app org.example.App]
            Muted=false
            FeedURL=https://mirror.example.com/org.example.App/feed.plist

            [unrelated]
            Key=value
            """, to: systemFile)
        try write("[app org.example.App]\nMuted=true\nFeedURL=https://elsewhere.example.com/feed.plist\n", to: userFile)
        let switches = try OffSwitchFiles.read(environment: environment)
        XCTAssertEqual(switches.system[1], OffSwitchSettings(file: systemFile, allMuted: true, apps: [
            "org.example.App": .init(muted: false, feedURL: "https://mirror.example.com/org.example.App/feed.plist")]))
        XCTAssertEqual(switches.user, OffSwitchSettings(file: userFile, apps: ["org.example.App": .init(muted: true)]))
        XCTAssertEqual(switches.decision(for: "org.example.App"),
                       OffSwitchDecision(mute: Mute(by: .user, scope: .app, file: userFile),
                                         mirror: FeedMirror(url: "https://mirror.example.com/org.example.App/feed.plist", file: systemFile)))
    }

    func testAFileThatIsNoKeyFileOrAMutedThatIsNoBooleanIsAnErrorNamingTheFile() throws {
        try write("[all]\nMuted=yes\n", to: systemFile)
        XCTAssertThrowsError(try OffSwitchFiles.read(environment: environment)) { error in
            XCTAssertEqual(error as? OffSwitchFileError, OffSwitchFileError(file: systemFile, reason: "[all] Muted must be true or false, not 'yes'"))
        }
        try write("[all\n", to: systemFile)
        XCTAssertThrowsError(try OffSwitchFiles.read(environment: environment)) { error in
            XCTAssertEqual(error as? OffSwitchFileError, OffSwitchFileError(file: systemFile, reason: "line 1 is not a group, a key=value pair or a comment"))
        }
    }

    func testAnEditKeepsTheRestOfTheUsersFileAndDropsAGroupLeftEmpty() throws {
        try write("# mine\n[all]\nMuted=true\n", to: userFile)
        try apply(.set(group: "app org.example.App", key: "Muted", value: false))
        XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8), "# mine\n[all]\nMuted=true\n\n[app org.example.App]\nMuted=false\n")
        try apply(.remove(group: "all", key: "Muted"))
        XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8), "# mine\n[app org.example.App]\nMuted=false\n")
    }

    /// The bytes an edit writes, as GLib's key-file writer wrote them for files it keeps as they
    /// are: a new group after a blank line, a new key after its group's last key, a changed key
    /// as `key=value`, and nothing at all when the last key goes.
    func testAnEditWritesNewGroupsAndKeysAsGLibDid() throws {
        let cases: [(before: String, edit: OffSwitchEdit, after: String)] = [
            ("", .set(group: "all", key: "Muted", value: true), "[all]\nMuted=true\n"),
            ("# Muted by hand\n\n[all]\n# until Friday\nMuted=false\n\n[app org.example.App]\nFeedURL=https://e.com/f\n",
             .set(group: "app org.example.App", key: "Muted", value: true),
             "# Muted by hand\n\n[all]\n# until Friday\nMuted=false\n\n[app org.example.App]\nFeedURL=https://e.com/f\nMuted=true\n"),
            ("# Muted by hand\n\n[all]\n# until Friday\nMuted=false\n", .set(group: "all", key: "Muted", value: true),
             "# Muted by hand\n\n[all]\n# until Friday\nMuted=true\n"),
            ("[all]\nMuted=true", .set(group: "app org.example.App", key: "Muted", value: false), "[all]\nMuted=true\n\n[app org.example.App]\nMuted=false\n"),
            ("\n", .set(group: "all", key: "Muted", value: true), "\n[all]\nMuted=true\n"),
            ("[all]\nMuted=true\n", .remove(group: "all", key: "Muted"), ""),
            ("[all]\nMuted=true\n# until Friday\n", .remove(group: "all", key: "Muted"), ""),
            ("[all]\nMuted=true\nOther=1\n", .remove(group: "all", key: "Muted"), "[all]\nOther=1\n"),
            ("[app org.example.App]\nMuted=true\n\n[all]\nMuted=true\n", .remove(group: "app org.example.App", key: "Muted"), "[all]\nMuted=true\n"),
        ]
        for (before, edit, after) in cases {
            try write(before, to: userFile)
            try apply(edit)
            XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8), after, "\(before.debugDescription) \(edit)")
        }
    }

    func testAnEditKeepsCommentsAndOtherLinesByteForByte() throws {
        try write("# mine\r\n[all]  \n# why\nOther = 1 \n\n# for the next group\n[app org.example.App]\nMuted = true", to: userFile)
        try apply(.set(group: "all", key: "Muted", value: true))
        try apply(.remove(group: "app org.example.App", key: "Muted"))
        XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8), "# mine\r\n[all]  \n# why\nOther = 1 \nMuted=true\n\n# for the next group\n")
    }

    /// An unmute takes: a key set twice is removed on every line, not only the last.
    func testRemovingAKeySetTwiceRemovesEveryLineOfIt() throws {
        try write("[all]\nMuted=true\nMuted=true\n", to: userFile)
        try apply(.remove(group: "all", key: "Muted"))
        XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8), "")
        XCTAssertEqual(try OffSwitchFiles.read(environment: environment).user, OffSwitchSettings(file: userFile))
    }

    func testBooleansAreWhatGLibTakesForOne() throws {
        for (raw, value) in [("true", true), ("1", true), ("  false", false), ("0 \t", false), ("true\r", true)] as [(String, Bool)] {
            try write("[all]\nMuted=\(raw)\n", to: systemFile)
            XCTAssertEqual(try OffSwitchFiles.read(environment: environment).system[1].allMuted, value, raw)
        }
        for (raw, shown) in [("TRUE", "TRUE"), ("\\strue", " true"), ("1 0", "1 0"), ("", "")] {
            try write("[all]\nMuted=\(raw)\n", to: systemFile)
            XCTAssertThrowsError(try OffSwitchFiles.read(environment: environment), raw) { error in
                XCTAssertEqual(error as? OffSwitchFileError, OffSwitchFileError(file: systemFile, reason: "[all] Muted must be true or false, not '\(shown)'"))
            }
        }
    }

    func testDesktopEntryAndOffSwitchFilesReadEscapesAlike() throws {
        let value = #"  https://e.com/a\sb\\c\;d?x=\te  "#
        try write("[app org.example.App]\nFeedURL=\(value)\n", to: systemFile)
        let read = try OffSwitchFiles.read(environment: environment).system[1].apps["org.example.App"]?.feedURL
        XCTAssertEqual(read, "https://e.com/a b\\c\\;d?x=\te  ")
        XCTAssertEqual(DesktopEntry.parse("[Desktop Entry]\nExec=\(value)\n")["Exec"], read)
    }

    func testTheFirstEditMakesTheUsersFolderForTheUserAlone() throws {
        try apply(.set(group: "all", key: "Muted", value: true))
        XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8), "[all]\nMuted=true\n")
        let folder = try FileManager.default.attributesOfItem(atPath: directory.path + "/config/herald")
        XCTAssertEqual((folder[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    /// Makes one edit, whatever the files say.
    func apply(_ edit: OffSwitchEdit) throws {
        try OffSwitchFiles.change(environment: environment) { _ in ([edit], ()) }
    }

    func testAFIFOInPlaceOfAKeyFileIsAnErrorAtOnceNotAWait() throws {
        for file in [systemFile, userFile] {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            XCTAssertEqual(mkfifo(file, 0o600), 0)
            let started = Date()
            XCTAssertThrowsError(try OffSwitchFiles.read(environment: environment)) { error in
                XCTAssertEqual(error as? OffSwitchFileError, OffSwitchFileError(file: file, reason: "it is a FIFO, not a regular file"))
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 1)
            unlink(file)
        }
    }

    func testAnEditOfALinkedUsersFileChangesTheFileItPointsToAndKeepsTheLink() throws {
        let dotfiles = directory.path + "/dotfiles"
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try write("# mine\n", to: dotfiles + "/herald.conf")
        XCTAssertEqual(chmod(dotfiles + "/herald.conf", 0o640), 0)
        try FileManager.default.createDirectory(atPath: (userFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertEqual(symlink(dotfiles + "/herald.conf", userFile), 0)
        try apply(.set(group: "all", key: "Muted", value: true))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: userFile), dotfiles + "/herald.conf")
        XCTAssertEqual(try String(contentsOfFile: dotfiles + "/herald.conf", encoding: .utf8), "# mine\n\n[all]\nMuted=true\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: dotfiles + "/herald.conf")
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o640)
    }
}
