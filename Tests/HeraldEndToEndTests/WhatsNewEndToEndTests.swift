import Foundation
import HeraldTestSupport
import XCTest

/// "What's new" through the real `herald check`: with `--whats-new` (or `WhatsNew=true` in a
/// registration), an app that starts a newer version than the one Herald last saw shows one
/// notification made from its AppStream metainfo's release notes, cumulative since that version;
/// a first run, the same version again, and an app without the option show nothing. The
/// notification server shows no buttons, so showing a message is viewing it (D11).
final class WhatsNewEndToEndTests: XCTestCase {
    static let appID = "org.example.App"

    /// The body of "What's new in 1.2" after 1.0, as the server receives it (body markup escaped).
    static let body = """
        1.2
        Sync is twice as fast.
        • Folders can be shared
        • The --quiet option &amp; its short form

        1.1
        Dark style follows the desktop.
        • Fixed a crash at start
        """

    /// A session whose server shows no buttons, with the budget out of the way, its environment
    /// with a data folder holding the app's metainfo (`Fixtures.metainfo`), and an empty feed.
    func setUpSession() throws -> (session: DesktopSession, environment: [String: String], server: FeedServer) {
        let session = try DesktopSession(capabilities: "body body-markup")
        addTeardownBlock { session.stop() }
        let data = session.directory.appendingPathComponent("system-data")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("metainfo"), withIntermediateDirectories: true)
        try Fixtures.metainfo(appID: Self.appID).write(to: data.appendingPathComponent("metainfo/\(Self.appID).metainfo.xml"),
                                                       atomically: true, encoding: .utf8)
        let server = try session.serveFeed(#"{}"#)
        addTeardownBlock { server.stop() }
        return (session, ["XDG_DATA_DIRS": data.path + ":/usr/share"], server)
    }

    /// Runs `herald check --json` for the app at `version` with `options`; returns its decisions.
    func check(_ session: DesktopSession, _ environment: [String: String], _ server: FeedServer, version: String,
               _ options: [String] = ["--whats-new"]) throws -> [String] {
        let run = try session.run(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", Self.appID, "--app-version", version,
                                   "--show-on-first-launch", "--no-handover", "--wait", "1"] + options, environment: environment)
        XCTAssertEqual(run.status, 0, run.description)
        return run.checkDecisions
    }

    func testAnUpdateShowsTheNotesSinceTheVersionLastSeenOnceAndAFirstRunShowsNothing() throws {
        let (session, environment, server) = try setUpSession()
        XCTAssertEqual(try check(session, environment, server, version: "1.0"), [], "a first run records the version")
        XCTAssertEqual(try session.notifyCalls().count, 0)
        // The feed is not due again for half a day: the message comes without it.
        XCTAssertEqual(try check(session, environment, server, version: "1.2"), ["whats-new/1.2: shown"])
        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.map(\.summary), ["What's new in 1.2"])
        XCTAssertEqual(calls.first?.body, Self.body)
        XCTAssertEqual(try check(session, environment, server, version: "1.2"), [], "shown once")
        XCTAssertEqual(try check(session, environment, server, version: "1.1"), [], "a downgrade shows nothing")
        XCTAssertEqual(try session.notifyCalls().count, 1)
    }

    func testTheMessageIsKeptInThePersonsInboxAndNoFeedWithdrawsIt() throws {
        let (session, environment, server) = try setUpSession()
        XCTAssertEqual(try check(session, environment, server, version: "1.0"), [])
        // Not due: the feed is not fetched, and the message still reaches the inbox.
        XCTAssertEqual(try check(session, environment, server, version: "1.2"), ["whats-new/1.2: shown"])
        // A fetched feed without it does not withdraw it.
        XCTAssertEqual(try check(session, environment, server, version: "1.2", ["--whats-new", "--force"]), [])
        let inbox = try session.run(["inbox", "--app-id", Self.appID], environment: environment)
        XCTAssertEqual(inbox.status, 0, inbox.description)
        XCTAssertEqual(inbox.output.replacingOccurrences(of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"#, with: "<time>",
                                                         options: .regularExpression), """
            \(Self.appID)
              whats-new/1.2: viewed; reached <time>, last shown <time>
                What's new in 1.2
            \(Self.body.replacingOccurrences(of: "&amp;", with: "&").split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n"))

            """)
    }

    func testOverTheBudgetTheVersionIsRecordedAndTheMessageWaitsForRoomAsAnAnnouncement() throws {
        let (session, environment, server) = try setUpSession()
        XCTAssertEqual(try check(session, environment, server, version: "1.0"), [])
        try Data("[budget]\nPerDay=0\nPerWeek=10\n".utf8).write(to: session.userKeyFile)
        XCTAssertEqual(try check(session, environment, server, version: "1.2"), ["whats-new/1.2: over-day-budget"])
        let stateFile = URL(fileURLWithPath: session.environment["XDG_STATE_HOME"]! + "/herald/\(Self.appID).json")
        let state = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: stateFile)) as? [String: Any])
        XCTAssertEqual(state["seenVersion"] as? [String: String], ["version": "1.2", "unreadSince": "1.0"],
                       "the version is recorded though its message waits")
        try session.setBudgetOutOfTheWay()
        let mute = try session.run(["mute", "--app-id", Self.appID, "--category", "announcement"])
        XCTAssertEqual(mute.status, 0, mute.description)
        XCTAssertEqual(try check(session, environment, server, version: "1.2"), ["whats-new/1.2: category-muted"], "muted with the announcements")
        XCTAssertEqual(try session.notifyCalls().count, 0)
        let unmute = try session.run(["unmute", "--app-id", Self.appID, "--category", "announcement"])
        XCTAssertEqual(unmute.status, 0, unmute.description)
        XCTAssertEqual(try check(session, environment, server, version: "1.2"), ["whats-new/1.2: shown"], "with room, it shows")
        XCTAssertEqual(try session.notifyCalls().map(\.body), [Self.body])
    }

    func testWithoutTheOptionAnUpdateShowsNothing() throws {
        let (session, environment, server) = try setUpSession()
        XCTAssertEqual(try check(session, environment, server, version: "1.0", []), [])
        XCTAssertEqual(try check(session, environment, server, version: "1.2", []), [])
        XCTAssertEqual(try session.notifyCalls().count, 0)
    }

    func testARegistrationWithWhatsNewShowsTheNotesAtTheCheckAfterTheUpdate() throws {
        let (session, environment, server) = try setUpSession()
        let folder = session.environment["XDG_DATA_HOME"]! + "/herald/apps"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func register(version: String) throws {
            try "[Herald]\nFeed=\(server.url("feed.plist"))\nVersion=\(version)\nWhatsNew=true\nNoHandover=true\nWait=1\n"
                .write(toFile: folder + "/\(Self.appID).conf", atomically: true, encoding: .utf8)
        }
        for version in ["1.0", "1.2", "1.2"] {
            try register(version: version)
            let run = try session.run(["check", "--registered", "--json"], environment: environment)
            XCTAssertEqual(run.status, 0, run.description)
        }
        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.map(\.summary), ["What's new in 1.2"])
        XCTAssertEqual(calls.first?.body, Self.body)
    }
}
