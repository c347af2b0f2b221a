import Foundation
import HeraldTestSupport
import XCTest

/// The person's inbox through the built `herald`, against a loopback feed and python3-dbusmock's
/// notification server on a private bus: what a check kept for the person is listed with its
/// state (`herald inbox`, text and `--json`), shown in full, answered as the notification's
/// buttons answer (once, whichever answers first), marked withdrawn when its feed drops it, and
/// recorded by checks of two apps at once.
final class InboxEndToEndTests: XCTestCase {
    let app = "org.example.App"
    let feed = Fixtures.xmlFeed([
        "2027/01/03": ["Title": "Version 2 is out", "Message": "Faster.\nSmaller.", "ActionURL": "https://example.com/v2", "ActionButton": "Read"],
        "2027/01/02": ["Title": "A tip", "Message": "Press F1.", "Category": "tip"],
        "2027/01/01": ["Title": "For old versions only", "MaxVersion": "0.5"],
    ])

    /// The text with every moment Herald printed written as `<time>`: when a message reached
    /// the person is the time of the test's run.
    func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"#, with: "<time>", options: .regularExpression)
    }

    /// A check of `appID` that ends once its notifications are answered or closed, or after `wait` seconds.
    func check(_ session: DesktopSession, _ server: FeedServer, appID: String? = nil, wait: String = "1") throws -> ChildProcess {
        try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID ?? app, "--app-version", "1.0",
                            "--show-on-first-launch", "--force", "--wait", wait])
    }

    /// A session whose budget shows one message a day: the newest is shown, the tip waits.
    func sessionShowingOne() throws -> (DesktopSession, FeedServer) {
        let session = try DesktopSession()
        XCTAssertEqual(try session.run(["budget", "--per-day", "1", "--per-week", "10"]).status, 0)
        return (session, try session.serveFeed(feed))
    }

    /// A session, the budget out of the way, in which this app and org.example.Other each
    /// checked the feed once.
    func sessionWithTwoAppsChecked() throws -> DesktopSession {
        let session = try DesktopSession()
        try session.setBudgetOutOfTheWay()
        let server = try session.serveFeed(feed)
        XCTAssertEqual(try check(session, server).wait(), 0)
        XCTAssertEqual(try check(session, server, appID: "org.example.Other").wait(), 0)
        return session
    }

    var ledgerFile: (DesktopSession) -> URL = { URL(fileURLWithPath: $0.environment["XDG_STATE_HOME"]! + "/herald/attention/ledger.json") }

    func testAnAnswerFromTheInboxTakesAMessageHandedOverToTheAgentOffTheScreen() throws {
        let session = try DesktopSession(server: .none, bus: false, display: false)
        addTeardownBlock { session.stop() }
        try session.startBus(activating: "org.herald.Agent", command: TestPaths.agent + " --idle-exit 5")
        try session.startMockServer(capabilities: "actions body")
        let server = try session.serveFeed(Fixtures.xmlFeed(["2027/01/03": ["Title": "Version 2 is out", "ActionURL": "https://example.com/v2"]]))
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", app, "--app-version", "1.0",
                                      "--show-on-first-launch", "--force"])
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(run.events.filter { $0["event"] as? String == "shown" }.map { $0["handedOver"] as? String }, ["agent"], run.output)
        XCTAssertTrue(eventually(within: 10) { ((try? session.notifyCalls().count) ?? 0) == 1 }, "the agent shows it")
        XCTAssertEqual(try session.run(["inbox", "ignore", "2027/01/03"]), ToolRun(status: 0, output: "\(app) 2027/01/03: ignored\n"))
        XCTAssertTrue(eventually(within: 10) {
            // The mock server numbers its notifications from 1: the one shown is 1.
            (try? session.serverCalls())?.contains { $0.method == "CloseNotification" && ($0.args.first as? Int) == 1 } ?? false
        }, "the agent takes the notification off the screen: \(String(describing: try? session.serverCalls().map(\.method)))")
        XCTAssertEqual(try session.state(appID: app)["ignored"] as? [String], ["2027/01/03"])
        XCTAssertNil((try session.state(appID: app)["handedOver"] as? [String: Any])?["2027/01/03"], "handed over no more")
    }

    func testTheInboxListsWhatReachedThePersonWithItsStateNewestFirst() throws {
        let (session, server) = try sessionShowingOne()
        XCTAssertEqual(try session.run(["inbox"]), ToolRun(status: 0, output: "no message reached you through Herald in the last 180 days\n"))
        XCTAssertEqual(try check(session, server).wait(), 0)
        let list = try session.run(["inbox"])
        XCTAssertEqual(list.status, 0, list.description)
        XCTAssertEqual(timeless(list.output), """
            \(app)
              2027/01/03: shown, not answered; reached <time>, last shown <time>
                Version 2 is out
                Faster.
                Smaller.
                https://example.com/v2
              2027/01/02: waiting for room in the attention budget; room again <time>; reached <time>
                A tip
                Press F1.

            """)
        let json = try session.run(["inbox", "--app-id", app, "--json"])
        XCTAssertEqual(timeless(json.output), #"""
            {"app":"org.example.App","button":"Read","category":"announcement","detail":"shown, not answered","id":"2027/01/03","lastShown":"<time>","link":"https://example.com/v2","message":"Faster.\nSmaller.","reached":"<time>","state":"shown","title":"Version 2 is out"}
            {"app":"org.example.App","button":null,"category":"tip","detail":"waiting for room in the attention budget; room again <time>","id":"2027/01/02","lastShown":null,"link":null,"message":"Press F1.","reached":"<time>","state":"waiting-for-room","title":"A tip","until":"<time>"}

            """#)
        XCTAssertEqual(try session.run(["inbox", "--app-id", "org.example.Other"]),
                       ToolRun(status: 0, output: "no message of org.example.Other reached you through Herald in the last 180 days\n"))
    }

    /// Once the person mutes the app, its messages not answered say so (with who muted it, in
    /// `--json`); an answer given before stands; unmuted, each is back where it was.
    func testAMutedAppsMessagesSayTheAppIsMutedUntilItIsUnmuted() throws {
        let (session, server) = try sessionShowingOne()
        XCTAssertEqual(try check(session, server).wait(), 0)
        XCTAssertEqual(try session.run(["inbox", "ignore", "2027/01/03"]).status, 0)
        XCTAssertEqual(try session.run(["mute", "--app-id", app]).status, 0)
        let states = { (run: ToolRun) in run.output.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return [object["id"], object["state"], object["detail"], object["mutedBy"]].map { ($0 as? String) ?? "-" }.joined(separator: " | ")
        } }
        XCTAssertEqual(states(try session.run(["inbox", "--json"])), [
            "2027/01/03 | ignored | ignored | -",
            "2027/01/02 | app-muted | its app is muted by the person | user",
        ])
        XCTAssertEqual(try session.run(["unmute", "--app-id", app]).status, 0)
        XCTAssertEqual(states(try session.run(["inbox", "--json"])).last?.hasPrefix("2027/01/02 | waiting-for-room | "), true)
    }

    func testAnAppWhoseStateCannotBeReadIsNamedAndTheOtherAppsAreListed() throws {
        let session = try sessionWithTwoAppsChecked()
        // A folder where the other app's state file should be: no user can read it as a state.
        let stateFile = URL(fileURLWithPath: session.environment["XDG_STATE_HOME"]! + "/herald/org.example.Other.json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: stateFile.path))
        try FileManager.default.removeItem(at: stateFile)
        try FileManager.default.createDirectory(at: stateFile, withIntermediateDirectories: false)
        let listed = try session.run(["inbox", "--json"])
        let complaint = try session.run(["inbox", "--app-id", "org.example.Other"])
        XCTAssertEqual(complaint.status, 73, complaint.description)
        let unreadable = "herald: org.example.Other: cannot read \(stateFile.path): it is a directory, not a regular file"
        XCTAssertEqual(complaint.output, "")
        XCTAssertEqual(complaint.errorOutput, unreadable + "\n")
        XCTAssertEqual(listed.status, 73, listed.description)
        XCTAssertEqual(listed.errorOutput, unreadable + "; its messages are left out\n")
        XCTAssertEqual(listed.output.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return [object["app"], object["id"], object["state"]].map { ($0 as? String) ?? "-" }.joined(separator: " ")
        }, ["\(app) 2027/01/03 shown", "\(app) 2027/01/02 shown"])
        XCTAssertEqual(try session.run(["inbox", "ignore", "2027/01/02", "--app-id", app]).status, 0, "the readable app is answered")
    }

    func testShowPrintsOneMessageInFull() throws {
        let (session, server) = try sessionShowingOne()
        XCTAssertEqual(try check(session, server).wait(), 0)
        let shown = try session.run(["inbox", "show", "2027/01/03"])
        XCTAssertEqual(timeless(shown.output), """
            app: \(app)
            id: 2027/01/03
            state: shown, not answered
            reached: <time>
            last shown: <time>
            category: announcement
            title: Version 2 is out
            link: https://example.com/v2
            button: Read
            message:
              Faster.
              Smaller.

            """)
        XCTAssertEqual(try session.run(["inbox", "show", "2027/01/01"]), ToolRun(
            status: 64, output: "", errorOutput: "herald: no message 2027/01/01 is in your inbox; 'herald inbox' lists them\n"))
    }

    func testAnIDTwoAppsShareNeedsTheApp() throws {
        let session = try sessionWithTwoAppsChecked()
        XCTAssertEqual(try session.run(["inbox", "show", "2027/01/02"]), ToolRun(status: 64, output: "", errorOutput: """
            herald: 2 apps have a message 2027/01/02 (org.example.App, org.example.Other): say which with --app-id ID

            """))
        XCTAssertEqual(try session.run(["inbox", "ignore", "2027/01/02", "--app-id", "org.example.Other"]),
                       ToolRun(status: 0, output: "org.example.Other 2027/01/02: ignored\n"))
        XCTAssertEqual(try session.state(appID: "org.example.Other")["ignored"] as? [String], ["2027/01/02"])
        XCTAssertEqual(try session.state(appID: app)["ignored"] as? [String], [])
    }

    func testViewFromTheInboxRecordsTheAnswerOpensTheLinkAndLeavesTheBudget() throws {
        let (session, server) = try sessionShowingOne()
        XCTAssertEqual(try check(session, server).wait(), 0, "closed unanswered after its second")
        let ledger = try Data(contentsOf: ledgerFile(session))
        XCTAssertEqual(try session.run(["inbox", "view", "2027/01/03"]),
                       ToolRun(status: 0, output: "\(app) 2027/01/03: viewed; opened https://example.com/v2\n"))
        XCTAssertTrue(eventually { session.openedLinks == ["https://example.com/v2"] }, "\(session.openedLinks)")
        XCTAssertEqual(try session.state(appID: app)["viewed"] as? [String], ["2027/01/03"])
        XCTAssertEqual(try Data(contentsOf: ledgerFile(session)), ledger, "the budget is untouched")
        XCTAssertEqual(try session.run(["inbox", "view", "2027/01/03"]),
                       ToolRun(status: 0, output: "\(app) 2027/01/03 was answered already: viewed; nothing recorded\n"))
        XCTAssertEqual(session.openedLinks, ["https://example.com/v2"])
        let list = try session.run(["inbox"])
        XCTAssertEqual(timeless(list.output).split(separator: "\n")[1], "  2027/01/03: viewed; reached <time>, last shown <time>")
    }

    func testAnAnswerGivenByTheNotificationAndByTheInboxIsRecordedOnce() throws {
        let (session, server) = try sessionShowingOne()
        let run = try check(session, server, wait: "20")
        XCTAssertTrue(eventually { run.events.contains { $0["event"] as? String == "shown" } }, run.output + run.errorOutput)
        let id = try XCTUnwrap(run.events.first { $0["event"] as? String == "shown" }?["id"] as? Int)
        try session.invoke("ignore", on: id)
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(try session.run(["inbox", "view", "2027/01/03"]),
                       ToolRun(status: 0, output: "\(app) 2027/01/03 was answered already: ignored; nothing recorded\n"))
        let state = try session.state(appID: app)
        XCTAssertEqual(state["ignored"] as? [String], ["2027/01/03"])
        XCTAssertEqual(state["viewed"] as? [String], [])
        XCTAssertEqual(session.openedLinks, [])
    }

    func testAMessageItsPublisherWithdrawsStaysListedMarkedWithdrawn() throws {
        let session = try DesktopSession()
        try session.setBudgetOutOfTheWay()
        let server = try session.serveFeed(feed)
        XCTAssertEqual(try check(session, server).wait(), 0)
        let inbox = URL(fileURLWithPath: session.environment["XDG_STATE_HOME"]! + "/herald/inbox/inbox.json")
        let written = try FileManager.default.attributesOfItem(atPath: inbox.path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(try check(session, server).wait(), 0)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: inbox.path)[.modificationDate] as? Date, written,
                       "a check that sees nothing new does not write the inbox")
        try server.publish("feed.plist", Fixtures.xmlFeed(["2027/01/02": ["Title": "A tip", "Message": "Press F1.", "Category": "tip"]]))
        XCTAssertEqual(try check(session, server).wait(), 0)
        let list = try session.run(["inbox", "--json"])
        XCTAssertEqual(list.output.split(separator: "\n").map { timeless(String($0)) }.first, #"""
            {"app":"org.example.App","button":"Read","category":"announcement","detail":"withdrawn by its publisher <time>","id":"2027/01/03","lastShown":"<time>","link":"https://example.com/v2","message":"Faster.\nSmaller.","reached":"<time>","since":"<time>","state":"withdrawn","title":"Version 2 is out"}
            """#)
    }

    func testChecksOfTwoAppsAtOnceBothLandInTheInbox() throws {
        let session = try DesktopSession()
        // Nothing is shown: every message is held back, and each check ends at once.
        XCTAssertEqual(try session.run(["budget", "--per-day", "0", "--per-week", "0"]).status, 0)
        let server = try session.serveFeed(feed)
        for round in 0..<8 {
            let apps = ["org.example.A\(round)", "org.example.B\(round)"]
            let barrier = try ProcessBarrier()
            let checks = try apps.map { appID in
                try barrier.start(TestPaths.herald, ["check", "--feed", server.url("feed.plist"), "--app-id", appID, "--app-version", "1.0",
                                                     "--show-on-first-launch"],
                                  environment: session.environment, directory: session.directory, name: "\(appID)")
            }
            try barrier.release()
            for child in checks { XCTAssertEqual(child.wait(seconds: 30), 0, child.errorOutput) }
            let listed = try session.run(["inbox", "--json"]).output.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
            XCTAssertEqual(Set(listed.compactMap { $0["app"] as? String }), Set((0...round).flatMap { ["org.example.A\($0)", "org.example.B\($0)"] }), "round \(round)")
        }
    }

    func testAClickOnANotificationAnsweredFromTheInboxMeanwhileRecordsNothingOverIt() throws {
        let (session, server) = try sessionShowingOne()
        let run = try check(session, server, wait: "20")
        XCTAssertTrue(eventually { run.events.contains { $0["event"] as? String == "shown" } }, run.output + run.errorOutput)
        XCTAssertEqual(try session.run(["inbox", "view", "2027/01/03"]),
                       ToolRun(status: 0, output: "\(app) 2027/01/03: viewed; opened https://example.com/v2\n"))
        let id = try XCTUnwrap(run.events.first { $0["event"] as? String == "shown" }?["id"] as? Int)
        try session.invoke("ignore", on: id)
        XCTAssertEqual(run.wait(), 0)
        let state = try session.state(appID: app)
        XCTAssertEqual(state["viewed"] as? [String], ["2027/01/03"])
        XCTAssertEqual(state["ignored"] as? [String], [], "the inbox's answer stands")
    }
}
