import Foundation
import HeraldTestSupport
import XCTest

/// `herald apps` and `herald autostart` run against a private XDG tree of registrations
/// (desktop/docs/registration.md): the user's data folder and two packages' folders.
final class AppRegistrationEndToEndTests: XCTestCase {
    private var session: DesktopSession!
    /// The user's data folder, `$XDG_DATA_HOME`.
    private var user: String { session.environment["XDG_DATA_HOME"]! }
    /// The packages' data folders, `$XDG_DATA_DIRS`.
    private var local: String { session.directory.appendingPathComponent("local-share").path }
    private var system: String { session.directory.appendingPathComponent("share").path }

    override func setUpWithError() throws {
        session = try DesktopSession(capabilities: nil, bus: false)
    }

    override func tearDown() {
        session.stop()
    }

    private func herald(_ arguments: [String]) throws -> ToolRun {
        try session.run(arguments, environment: ["XDG_DATA_DIRS": local + ":" + system])
    }

    @discardableResult
    private func write(_ path: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Writes the app's login entry from before, as `herald autostart enable` wrote it, running
    /// `herald check` with `options` after the feed and app id; `last` ends the group.
    @discardableResult
    private func writeLoginEntry(_ options: String = "", last: String = "X-Herald-AppID=org.example.App") throws -> String {
        let entry = session.environment["XDG_CONFIG_HOME"]! + "/autostart/org.example.App.herald.desktop"
        return try write(entry, """
            [Desktop Entry]
            Type=Application
            Name=App messages
            Exec=herald check --feed https://example.org/feed.plist --app-id org.example.App\(options)
            \(last)

            """)
    }

    /// Four registrations: the user's own, one a package's that the user's shadows, one in a
    /// desktop entry with a metainfo, and one with a typo.
    private func registerFour() throws -> (mine: String, shadowed: String, entry: String, metainfo: String, typo: String) {
        let mine = try write(user + "/herald/apps/org.example.Mine.conf", "[Herald]\nFeed=https://example.org/mine.plist\nVersion=1.4\n")
        let shadowed = try write(system + "/herald/apps/org.example.Mine.conf", "[Herald]\nFeed=https://example.org/package.plist\n")
        let entry = try write(local + "/applications/org.example.Entry.desktop", """
            [Desktop Entry]
            Type=Application
            Name=Entry
            Exec=entry
            X-Herald-Feed=https://example.org/entry.json
            X-Herald-CheckPeriod=2

            """)
        let metainfo = try write(system + "/metainfo/org.example.Entry.metainfo.xml", """
            <component><releases><release version="2.9"/><release version="2.10"/></releases></component>
            """)
        let typo = try write(system + "/herald/apps/org.example.Typo.conf", "[Herald]\nFeed=https://example.org/typo.plist\nCheckPeriod=1\nMaxx=2\n")
        return (mine, shadowed, entry, metainfo, typo)
    }

    func testHeraldAppsListsEachAppAlignedThenTheShadowedAndTheProblemsAndExits65() throws {
        let files = try registerFour()
        XCTAssertEqual(try herald(["apps"]), ToolRun(status: 65, output: """
            org.example.Entry  https://example.org/entry.json  2.10 (\(files.metainfo))  \(files.entry)
            org.example.Mine   https://example.org/mine.plist  1.4 (Version=)\(String(repeating: " ", count: files.metainfo.count - 7))  \(files.mine)
            shadowed: \(files.shadowed) (org.example.Mine is registered by \(files.mine))
            problem: \(files.typo):4: unknown key “Maxx”; did you mean “Max”?

            """))
    }

    func testHeraldAppsJSONIsOneObjectPerAppShadowedRegistrationAndProblem() throws {
        let files = try registerFour()
        XCTAssertEqual(try herald(["apps", "--json"]), ToolRun(status: 65, output: """
            {"app":"org.example.Entry","feed":"https://example.org/entry.json","file":"\(files.entry)","kind":"app","version":"2.10","versionFrom":"\(files.metainfo)"}
            {"app":"org.example.Mine","feed":"https://example.org/mine.plist","file":"\(files.mine)","kind":"app","version":"1.4","versionFrom":"Version="}
            {"app":"org.example.Mine","by":"\(files.mine)","file":"\(files.shadowed)","kind":"shadowed"}
            {"file":"\(files.typo)","kind":"problem","line":4,"problem":"unknown key “Maxx”; did you mean “Max”?"}

            """))
    }

    func testHeraldAppsWithoutRegistrationsSaysSoAndExits0() throws {
        XCTAssertEqual(try herald(["apps"]), ToolRun(status: 0, output: "no app is registered\n"))
        let file = try write(user + "/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/feed.plist\n")
        XCTAssertEqual(try herald(["apps", "--json"]), ToolRun(status: 0, output: """
            {"app":"org.example.App","feed":"https://example.org/feed.plist","file":"\(file)","kind":"app","version":null,"versionFrom":null}

            """))
    }

    func testEnableRefusesAnOptionARegistrationDoesNotTakeAndWritesNothing() throws {
        XCTAssertEqual(try herald(["autostart", "enable", "--app-id", "org.example.App", "--feed", "https://example.org/feed.plist", "--force"]),
                       ToolRun(status: 64, output: "", errorOutput: """
                        herald: --force cannot go into a registration: it is for a check run by hand
                        herald: see 'herald autostart enable --help'

                        """))
        XCTAssertFalse(FileManager.default.fileExists(atPath: user + "/herald"))
    }

    func testEnableWritesWhatHeraldAppsListsAndDisableNamesThePackagesRegistrationThatRemains() throws {
        let package = try write(system + "/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/package.plist\n")
        let mine = user + "/herald/apps/org.example.App.conf"
        XCTAssertEqual(try herald(["autostart", "enable", "--app-id", "org.example.App", "--feed", "https://example.org/mine.plist",
                                   "--app-version", "3", "--allow-scheme", "example", "--allow-scheme", "other", "--max", "2"]),
                       ToolRun(status: 0, output: "registered: \(mine)\n"))
        XCTAssertEqual(try String(contentsOfFile: mine, encoding: .utf8), """
            [Herald]
            Feed=https://example.org/mine.plist
            Version=3
            Max=2
            AllowScheme=example;other

            """)
        XCTAssertEqual(try herald(["apps"]), ToolRun(status: 0, output: """
            org.example.App  https://example.org/mine.plist  3 (Version=)  \(mine)
            shadowed: \(package) (org.example.App is registered by \(mine))

            """))
        XCTAssertEqual(try herald(["autostart", "disable", "--app-id", "org.example.App"]), ToolRun(status: 0, output: """
            disabled: removed \(mine)
            still registered by \(package); 'herald mute --app-id org.example.App' silences the app

            """))
        XCTAssertEqual(try herald(["autostart", "status", "--app-id", "org.example.App"]), ToolRun(status: 0, output: "registered: \(package)\n"))
    }

    func testStatusNamesTheMistakesOfTheAppsRegistrationAndExits65() throws {
        let file = try write(user + "/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/feed.plist\nMax=none\n")
        XCTAssertEqual(try herald(["autostart", "status", "--app-id", "org.example.App"]), ToolRun(status: 65, output: """
            not registered: \(file):3: “Max” is not a number: “none”

            """))
    }

    func testStatusSaysALoginEntryFromBeforeIsTurnedOffAndWhatItWouldRun() throws {
        let entry = try writeLoginEntry(last: "Hidden=true")
        XCTAssertEqual(try herald(["autostart", "status", "--app-id", "org.example.App"]), ToolRun(status: 0, output: """
            has a login entry from before, turned off in it (Hidden=true or X-GNOME-Autostart-enabled=false): \(entry)
            runs: herald check --feed https://example.org/feed.plist --app-id org.example.App

            """))
    }

    func testEnableRefusesToMoveALoginEntryWhoseOptionsACheckWouldRefuse() throws {
        let entry = try writeLoginEntry(" --public-key AAAA")
        XCTAssertEqual(try herald(["autostart", "enable", "--app-id", "org.example.App", "--feed", "https://example.org/feed.plist"]),
                       ToolRun(status: 64, output: "", errorOutput: """
                        herald: the login entry \(entry) cannot be moved into a registration: \
                        the public key is not an Ed25519 key: expected 32 bytes in base64; give the option anew

                        """))
        XCTAssertTrue(FileManager.default.fileExists(atPath: entry), "the entry keeps working")
        XCTAssertFalse(FileManager.default.fileExists(atPath: user + "/herald"))
    }

    /// Two `herald autostart enable`s of one app let through one barrier at once, twenty rounds:
    /// they take turns under the lock, so the login entry is moved by one of them only (its
    /// options go into that one's registration), and the other, which finds no entry, writes
    /// the registration that stays.
    func testTwoEnablesAtOnceTakeTurnsAndTheLoginEntryIsMovedOnce() throws {
        let registration = user + "/herald/apps/org.example.App.conf"
        for round in 1...20 {
            let entry = try writeLoginEntry(" --max 2")
            let moved = "moved: removed the login entry \(entry); its options are kept where this command gives none\n"
            let barrier = try ProcessBarrier()
            let feeds = ["https://example.org/first.plist", "https://example.org/second.plist"]
            let enables = try feeds.enumerated().map { index, feed in
                try barrier.start(TestPaths.herald, ["autostart", "enable", "--app-id", "org.example.App", "--feed", feed],
                                  environment: session.environment.merging(["XDG_DATA_DIRS": local + ":" + system]) { $1 },
                                  directory: session.directory, name: "round-\(round)-enable-\(index)")
            }
            try barrier.release()
            let runs = enables.map { ToolRun(status: $0.wait(seconds: 30), output: $0.output, errorOutput: $0.errorOutput) }
            let mover = try XCTUnwrap(runs.firstIndex { $0.output.hasSuffix(moved) }, "round \(round): \(runs)")
            let last = 1 - mover
            XCTAssertEqual(runs[mover], ToolRun(status: 0, output: "registered: \(registration)\n" + moved), "round \(round)")
            XCTAssertEqual(runs[last], ToolRun(status: 0, output: "registered: \(registration)\n"), "round \(round)")
            XCTAssertEqual(try String(contentsOfFile: registration, encoding: .utf8), "[Herald]\nFeed=\(feeds[last])\n", "round \(round)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: entry), "round \(round)")
        }
    }
}
