import Foundation
import HeraldTestSupport
import XCTest

/// `herald check` hands its messages over where the session bus can start the Herald agent
/// (DESIGN.md D23, "Which route a herald check takes"): to GNOME Shell's list when
/// `org.gtk.Notifications` has an owner and the agent's desktop entry is installed, else to the
/// agent; it records the handover and exits at once. Stand-ins for the shell's list and the
/// agent record every call (Tests/support/handover_mocks.py).
final class HandoverEndToEndTests: XCTestCase {
    let appID = "org.example.Tested"
    let key = "2024/02/20"
    let feed = Fixtures.xmlFeed([
        "2024/02/20": ["Title": "New release", "Message": "See what's new & more", "ActionURL": "https://example.com/new", "ActionButton": "Read"],
    ])

    /// A session whose bus can start `org.herald.Agent` (a service file; nothing starts it unless
    /// asked), a freedesktop notification server, and the stand-ins `mocks` asks for.
    func session(mocks: [String], agentActivatable: Bool = true, agentDesktopEntry: Bool = true,
                 agentProgram: String = TestPaths.agent) throws -> (DesktopSession, log: URL) {
        let session = try DesktopSession(capabilities: nil, bus: false)
        addTeardownBlock { session.stop() }
        if agentActivatable {
            try session.startBus(activating: "org.herald.Agent", command: "/bin/false")
        } else {
            try session.startBus(activating: "org.example.Unrelated", command: "/bin/false")
        }
        try session.startMockServer(capabilities: "actions body body-markup")
        if agentDesktopEntry { try session.installAgentDesktopEntry(program: agentProgram) }
        let log = session.directory.appendingPathComponent("handover-calls.log")
        if !mocks.isEmpty {
            let mock = try ChildProcess("/usr/bin/python3", [TestPaths.support("handover_mocks.py"), log.path] + mocks,
                                        environment: session.environment, directory: session.directory, name: "handover-mocks")
            addTeardownBlock { mock.stop() }
            guard eventually({ mock.output == "ready\n" }) else { throw TestSetupError("the stand-ins did not start: \(mock.errorOutput)") }
            mockProcessID = mock.process.processIdentifier
        }
        return (session, log)
    }

    var mockProcessID: Int32 = 0

    /// The calls the stand-ins received, in order.
    func calls(_ log: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func check(_ session: DesktopSession, _ url: String, _ extra: [String] = []) throws -> (run: ToolRun, seconds: Double) {
        try session.timedRun(["check", "--json", "--feed", url, "--app-id", appID, "--app-name", "Tested App", "--show-on-first-launch",
                              "--force", "--wait", "600"] + extra, within: 15)
    }

    /// The state file as written.
    func stateFile(_ session: DesktopSession) throws -> [String: Any] {
        let path = session.environment["XDG_STATE_HOME"]! + "/herald/\(appID).json"
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// The check's state folder as a handover names it: `$XDG_STATE_HOME/herald`, links resolved.
    func stateFolder(_ session: DesktopSession) -> String {
        URL(fileURLWithPath: session.environment["XDG_STATE_HOME"]! + "/herald").resolvingSymlinksInPath().path
    }

    func handedOver(_ session: DesktopSession) throws -> [String: [String: Any]] {
        try stateFile(session)["handedOver"] as? [String: [String: Any]] ?? [:]
    }

    func testACheckPostsToTheDesktopListWithTheDesignsDictionaryRecordsTheHandoverAndExitsAtOnce() throws {
        let (session, log) = try session(mocks: ["--gtk"])
        let server = try session.serveFeed(feed)
        let (run, seconds) = try check(session, server.url("feed.plist"))
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertLessThan(seconds, 5, "the check waits for nothing it handed over (--wait 600)")
        XCTAssertEqual(run.output, """
            {"entries":1,"event":"fetched","format":"xml-plist","problems":[]}
            {"event":"detected","keys":["\(key)"]}
            {"event":"shown","handedOver":"desktop-list","id":0,"key":"\(key)","title":"New release"}

            """)
        let posted = calls(log)
        XCTAssertEqual(posted.map { $0["method"] as? String }, ["AddNotification"])
        let text = try XCTUnwrap(posted.first?["text"] as? String)
        let folder = stateFolder(session)
        let token = try XCTUnwrap(handedOver(session)[key]?["token"] as? String)
        XCTAssertEqual(token.count, 32)
        XCTAssertEqual(text, """
            ('org.herald.Agent', '\(appID) \(key)', {'title': <'Tested App: New release'>, 'body': <"See what's new & more">, \
            'priority': <'normal'>, 'default-action': <'app.answer'>, 'default-action-target': <('\(appID)', '\(key)', 'view', '\(folder)', '\(token)')>, \
            'buttons': <[{'label': <'Read'>, 'action': <'app.answer'>, 'target': <('\(appID)', '\(key)', 'view', '\(folder)', '\(token)')>}, \
            {'label': <'Remind Me Later'>, 'action': <'app.answer'>, 'target': <('\(appID)', '\(key)', 'remind', '\(folder)', '\(token)')>}, \
            {'label': <'Ignore'>, 'action': <'app.answer'>, 'target': <('\(appID)', '\(key)', 'ignore', '\(folder)', '\(token)')>}]>, \
            'icon': <('themed', <['org.herald.Herald']>)>})
            """)
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing went to the freedesktop server")
        let handover = try XCTUnwrap(handedOver(session)[key])
        XCTAssertEqual(handover["place"] as? String, "desktop-list")
        XCTAssertEqual(handover["link"] as? String, "https://example.com/new")
        XCTAssertNil(handover["agentProcessID"])
        XCTAssertEqual((try stateFile(session)["presenting"] as? [String: Any])?.count, 0, "the claim became the handover")
    }

    func testASecondCheckDoesNotPostAHandedOverMessageAgain() throws {
        let (session, log) = try session(mocks: ["--gtk"])
        let server = try session.serveFeed(feed)
        XCTAssertEqual(try check(session, server.url("feed.plist")).run.status, 0)
        let (again, _) = try check(session, server.url("feed.plist"))
        XCTAssertEqual(again.status, 0, again.errorOutput)
        let skipped = again.output.split(separator: "\n").filter { $0.contains(#""event":"skipped""#) }
        XCTAssertEqual(skipped.count, 1, again.output)
        XCTAssertTrue(skipped.first?.contains(#""reason":"handed-over""#) == true, again.output)
        XCTAssertEqual(calls(log).map { $0["method"] as? String }, ["AddNotification"], "posted once")
        let explained = try session.run(["check", "--explain", "--json", "--feed", server.url("feed.plist"), "--app-id", appID])
        XCTAssertEqual(explained.status, 0, explained.errorOutput)
        XCTAssertTrue(explained.output.contains(#""reason":"handed-over""#), explained.output)
    }

    func testACheckOfAFeedWithoutAHandedOverMessageRemovesItFromTheListAndForgetsIt() throws {
        let (session, log) = try session(mocks: ["--gtk"])
        let server = try session.serveFeed(feed)
        XCTAssertEqual(try check(session, server.url("feed.plist")).run.status, 0)
        XCTAssertNotNil(try handedOver(session)[key])
        try server.publish("feed.plist", Fixtures.xmlFeed([:]))
        let (run, seconds) = try check(session, server.url("feed.plist"))
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertLessThan(seconds, 5)
        let removals = calls(log).filter { $0["method"] as? String == "RemoveNotification" }
        XCTAssertEqual(removals.map { $0["text"] as? String }, ["('org.herald.Agent', '\(appID) \(key)')"])
        let state = try stateFile(session)
        XCTAssertEqual(try handedOver(session).count, 0, "forgotten: \(state)")
    }

    func testWithoutTheDesktopListTheAgentHoldsTheMessageAndTheStateNamesItsProcess() throws {
        let (session, log) = try session(mocks: ["--agent"], agentActivatable: false)
        let server = try session.serveFeed(feed)
        let (run, seconds) = try check(session, server.url("feed.plist"))
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertLessThan(seconds, 5, run.errorOutput)
        XCTAssertTrue(run.output.hasSuffix(#"{"event":"shown","handedOver":"agent","id":7,"key":"\#(key)","title":"New release"}"# + "\n"), run.output)
        let held = calls(log)
        XCTAssertEqual(held.map { $0["method"] as? String }, ["Hold"])
        let token = try XCTUnwrap(handedOver(session)[key]?["token"] as? String)
        XCTAssertEqual(held.first?["text"] as? String, """
            ('\(appID)', '\(key)', '\(stateFolder(session))', '\(token)', {'summary': <'New release'>, 'body': <"See what's new & more">, 'app-name': <'Tested App'>, \
            'icon': <'org.herald.Herald'>, 'urgency': <byte 0x01>, 'actions': <[('default', 'Read'), ('view', 'Read'), \
            ('remind', 'Remind Me Later'), ('ignore', 'Ignore')]>, 'desktop-entry': <'\(appID)'>, 'category': <'announcement'>})
            """)
        XCTAssertEqual(try session.notifyCalls().count, 0)
        let handover = try XCTUnwrap(handedOver(session)[key])
        XCTAssertEqual(handover["place"] as? String, "agent")
        XCTAssertEqual(handover["agentProcessID"] as? Int, Int(mockProcessID))
        // The agent owning its name takes the withdrawal.
        try server.publish("feed.plist", Fixtures.xmlFeed([:]))
        XCTAssertEqual(try check(session, server.url("feed.plist")).run.status, 0)
        XCTAssertEqual(calls(log).last?["text"] as? String, "('\(appID)', '\(key)', '\(token)')")
        XCTAssertEqual(calls(log).last?["method"] as? String, "Withdraw")
        XCTAssertEqual(try handedOver(session).count, 0)
    }

    /// Shown through the freedesktop server and waited for, as before the agent: the check is
    /// still running after it showed the message, and nothing is handed over.
    func assertShownAndWaitedForAsToday(_ session: DesktopSession, _ log: URL, _ extra: [String] = [], handoverCalls: [String] = []) throws {
        let server = try session.serveFeed(feed)
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch",
                                      "--wait", "600"] + extra)
        XCTAssertTrue(eventually { run.events.contains { $0["event"] as? String == "shown" } }, run.output + run.errorOutput)
        XCTAssertEqual(try session.notifyCalls().count, 1)
        XCTAssertFalse(run.output.contains("handedOver"), run.output)
        usleep(500_000)
        XCTAssertTrue(run.process.isRunning, "the check waits for the answer")
        XCTAssertEqual(calls(log).map { $0["method"] as? String }, handoverCalls)
        XCTAssertEqual(try handedOver(session).count, 0)
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(), 143)
    }

    func testAnAgentEntryWhoseProgramTheShellCannotFindSendsTheMessageToTheAgentNotTheList() throws {
        // GLib, and so GNOME Shell, takes an entry whose Exec program is not there for no app,
        // and refuses its notifications.
        let (session, log) = try session(mocks: ["--gtk", "--agent"], agentProgram: "herald-not-installed")
        let server = try session.serveFeed(feed)
        let (run, _) = try check(session, server.url("feed.plist"))
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(calls(log).map { $0["method"] as? String }, ["Hold"])
        XCTAssertEqual(try handedOver(session)[key]?["place"] as? String, "agent")
    }

    func testWithoutAnAgentTheBusCanStartACheckShowsAndWaitsAsToday() throws {
        let (session, log) = try session(mocks: ["--gtk"], agentActivatable: false)
        try assertShownAndWaitedForAsToday(session, log)
    }

    func testNoHandoverKeepsTheCheckShowingAndWaiting() throws {
        let (session, log) = try session(mocks: ["--gtk"])
        try assertShownAndWaitedForAsToday(session, log, ["--no-handover"])
    }

    func testAListThatRefusesTheMessageFallsBackToTheFreedesktopServerAndLeavesNoHandover() throws {
        let (session, log) = try session(mocks: ["--gtk", "--refuse"])
        try assertShownAndWaitedForAsToday(session, log, handoverCalls: ["AddNotification"])
        XCTAssertEqual((try stateFile(session)["presenting"] as? [String: Any])?.count, 0, "the claim went when the check was stopped")
    }
}
