import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

private var session: DesktopSession { InProcessDesktop.session }
/// The one message each app shows, with a link.
private let key = "2024/06/01"
private let feed = Fixtures.xmlFeed([key: ["Title": "Version 3", "Message": "Out now", "ActionURL": "https://example.com/v3"]])

/// `Herald.appWillQuit()` (DESIGN.md D23): the messages an app still shows when it quits are
/// handed to the Herald agent, or to GNOME Shell's list, instead of being closed; where no agent
/// can run they close as before. The answers the agent records meanwhile reach the delegate at
/// the app's next launch (`HeraldEvent.answeredWhileAway`). Stand-ins for the agent and the
/// shell's list own their names on the in-process bus and record every call
/// (Tests/support/handover_mocks.py).
final class AppQuitHandoverTests: XCTestCase {
    /// Starts the stand-ins `mocks` names on the in-process bus, stopped when the test ends.
    func standIns(_ mocks: [String]) throws -> HandoverStandIns {
        let standIns = try HandoverStandIns(mocks, in: session)
        addTeardownBlock { standIns.stop() }
        return standIns
    }

    /// Installs the agent's desktop entry where GNOME Shell looks for it, for this test.
    func installAgentDesktopEntry() throws {
        let applications = URL(fileURLWithPath: session.environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let entry = applications.appendingPathComponent("org.herald.Agent.desktop")
        // The shipped entry with the agent's full path, as install.sh writes it.
        let shipped = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("desktop/org.herald.Agent.desktop"), encoding: .utf8)
        let libexecdir = URL(fileURLWithPath: TestPaths.agent).deletingLastPathComponent().path
        try shipped.replacingOccurrences(of: "@LIBEXECDIR@", with: libexecdir).write(to: entry, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: entry) }
    }

    func testAMessageShownWhenTheAppQuitsIsHandedToTheAgentAndTheAppsOwnNotificationIsClosed() throws {
        let agent = try standIns(["--agent"])
        try MainContext.assumeIsolated {
            let appID = "org.example.QuitToAgent"
            let (herald, recorder) = try showMessage(appID)
            let closesBefore = try session.serverCalls().filter { $0.method == "CloseNotification" }.count
            herald.appWillQuit()
            XCTAssertFalse(herald.isBusy, "nothing waits in the app")
            let holds = agent.calls(of: "Hold")
            XCTAssertEqual(holds.count, 1)
            let arguments = try XCTUnwrap(holds.first)
            XCTAssertEqual(arguments.prefix(2).compactMap { $0 as? String }, [appID, key])
            XCTAssertEqual((arguments.last as? [String: Any])?["summary"] as? String, "Version 3")
            XCTAssertEqual(try session.serverCalls().filter { $0.method == "CloseNotification" }.count, closesBefore + 1,
                           "the app's own notification is taken down")
            let state = try herald.store.load()
            XCTAssertEqual(state.handedOver[key]?.place, .agent)
            XCTAssertEqual(state.handedOver[key]?.agentProcessID, agent.processID)
            XCTAssertEqual(state.handedOver[key]?.link, "https://example.com/v3")
            XCTAssertEqual(state.presenting, [:], "the app's claim became the handover")
            XCTAssertEqual(recorder.events.last, "finished")
            XCTAssertFalse(recorder.events.contains { $0.hasPrefix("closed ") }, "a handed-over message is not closed: \(recorder.events)")
        }
    }

    func testWithGNOMEShellsListTheMessageIsPostedThereWhenTheAppQuits() throws {
        let shell = try standIns(["--gtk", "--agent"])
        try installAgentDesktopEntry()
        try MainContext.assumeIsolated {
            let appID = "org.example.QuitToList"
            let (herald, _) = try showMessage(appID)
            herald.appWillQuit()
            let posted = shell.calls(of: "AddNotification")
            XCTAssertEqual(posted.count, 1)
            let arguments = try XCTUnwrap(posted.first)
            XCTAssertEqual(arguments.prefix(2).compactMap { $0 as? String }, ["org.herald.Agent", appID + " " + key])
            XCTAssertEqual(shell.calls(of: "Hold").count, 0)
            XCTAssertEqual(try herald.store.load().handedOver[key]?.place, .desktopList)
        }
    }

    func testAMessageWhoseClaimIsNoLongerTheAppsIsClosedAtQuitNotHandedOver() throws {
        let agent = try standIns(["--agent"])
        try MainContext.assumeIsolated {
            let (herald, recorder) = try showMessage("org.example.QuitLapsed")
            // Another process took the message since: the claim is no longer this check's.
            try herald.store.update { state in state.presenting[key] = .init(processID: 1, check: "other.1", until: Date.distantFuture) }
            herald.appWillQuit()
            XCTAssertEqual(agent.calls(of: "Hold").count, 0)
            XCTAssertEqual(try herald.store.load().handedOver, [:], "nothing is handed over that was not this check's")
            XCTAssertTrue(recorder.events.contains("closed \(key) closed-by-herald"), "\(recorder.events)")
        }
    }

    func testWithoutAnAgentTheAppsMessagesCloseWhenItQuitsAndShowAgainLater() throws {
        try MainContext.assumeIsolated {
            let (herald, recorder) = try showMessage("org.example.QuitAlone")
            herald.appWillQuit()
            XCTAssertFalse(herald.isBusy)
            XCTAssertTrue(recorder.events.contains("closed \(key) closed-by-herald"), "\(recorder.events)")
            let state = try herald.store.load()
            XCTAssertEqual(state.handedOver, [:])
            XCTAssertEqual(state.presenting, [:])
            XCTAssertEqual(state.viewed, [])
        }
    }

    func testAnswersGivenWhileTheAppWasAwayReachItsDelegateAtTheNextLaunchOnce() throws {
        try MainContext.assumeIsolated {
            let appID = "org.example.Returning"
            let herald = try Herald(configuration: .init(feedURL: nil, appID: appID, appVersion: "1.0",
                                                         environment: InProcessDesktop.environment(forApp: appID)))
            // What the agent records for two clicks while the app is not running.
            let given = Date(timeIntervalSince1970: 1_800_000_000)
            try herald.store.update { state in
                for (key, answer, minutes) in [("b", Answer.ignore, 2.0), ("a", Answer.view, 1.0)] {
                    state = CheckPolicy.handOver(key, Handover(place: .desktopList, link: nil, since: given), in: state)
                    state = CheckPolicy.applyHandedOver(answer, to: key, state: state, now: given.addingTimeInterval(minutes * 60))!.state
                }
            }
            let recorder = AnswersGivenAwayListener()
            herald.delegate = recorder
            herald.appLaunched()
            XCTAssertTrue(spin(10) { recorder.finished == 1 })
            XCTAssertEqual(recorder.heard.map(\.key), ["a", "b"], "oldest first")
            XCTAssertEqual(recorder.heard.map(\.answer), [.view, .ignore])
            XCTAssertEqual(recorder.heard.map(\.at), [given.addingTimeInterval(60), given.addingTimeInterval(120)])
            XCTAssertEqual(try herald.store.load().answeredAway, [:])
            herald.appLaunched()
            XCTAssertTrue(spin(10) { recorder.finished == 2 })
            XCTAssertEqual(recorder.heard.count, 2, "each answer is told once")
        }
    }
}

/// Launches `appID`'s Herald and runs the loop until its message is on screen.
@MainContext
private func showMessage(_ appID: String) throws -> (Herald, EventRecorder) {
    let herald = try makeHerald(appID, feed: feed)
    let recorder = EventRecorder(session: session, answer: nil)
    herald.delegate = recorder
    herald.appLaunched()
    XCTAssertTrue(spin(15) { recorder.events.contains("shown \(key)") }, "\(recorder.events)")
    return (herald, recorder)
}
