import Foundation
import HeraldTestSupport
import XCTest

/// Answers that survive exit (DESIGN.md D23) on the real servers (../shared/DESKTOPS.md), each
/// on a private session bus that starts the Herald agent from the package's own service file,
/// with the agent's desktop entry installed: `herald check` hands its message over and exits at
/// once; the message stays where the desktop keeps it, outlives every Herald process (and, in
/// GNOME Shell's list, the shell itself); a real click then starts or reaches the agent, which
/// records the answer once and opens the link once. What is asserted is read from the state
/// file, the link recorder, the bus and the screen. With HERALD_SCREENSHOTS=DIR set, the
/// screenshots are kept there.
final class RealDesktopHandoverTests: XCTestCase {
    let key = Matrix.linkKey
    let link = Matrix.link["ActionURL"]!
    let agentName = "org.herald.Agent"

    /// The server on a desktop of its own whose bus can start the agent; skipped when a program is missing.
    func desktop(_ server: RealServer) throws -> RealDesktop {
        try startRealDesktop(server, agent: true)
    }

    /// Publishes one message with a link and runs `herald check --wait 600` to its end (at most
    /// 30 s); returns the run and how long it took.
    func check(on desktop: RealDesktop) throws -> (run: ChildProcess, seconds: Double) {
        let feed = try FeedServer(directory: desktop.directory.appendingPathComponent("feed"))
        addTeardownBlock { feed.stop() }
        try feed.publish("feed.plist", Fixtures.xmlFeed([key: Matrix.link]))
        let started = Date()
        let run = try desktop.herald(["check", "--feed", feed.url("feed.plist"), "--app-id", desktop.appID, "--force", "--json", "--wait", "600"],
                                     name: "herald-check")
        run.wait(seconds: 30)
        return (run, Date().timeIntervalSince(started))
    }

    /// The app's state file as written.
    func stateFile(_ desktop: RealDesktop) throws -> [String: Any] {
        let path = desktop.stateHome + "/herald/\(desktop.appID).json"
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// The answers in the state file and what is still handed over.
    func answers(_ desktop: RealDesktop) throws -> [String: [String]] {
        let state = try stateFile(desktop)
        return ["viewed": state["viewed"] as? [String] ?? [], "ignored": state["ignored"] as? [String] ?? [],
                "reminded": ((state["reminded"] as? [String: Any]) ?? [:]).keys.sorted(),
                "handedOver": ((state["handedOver"] as? [String: Any]) ?? [:]).keys.sorted()]
    }

    /// `answers` once the message was viewed: recorded, and handed over no more.
    var viewedOnce: [String: [String]] { ["viewed": [key], "ignored": [], "reminded": [], "handedOver": []] }

    /// Sends SIGKILL to every `herald` process on the desktop's bus but `sparing`; returns how
    /// many there were, once all are gone.
    func killHerald(on desktop: RealDesktop, sparing: Int32? = nil) -> Int {
        let victims = desktop.heraldProcesses().filter { $0 != sparing }
        for pid in victims { kill(pid, SIGKILL) }
        XCTAssertTrue(eventually { desktop.heraldProcesses().allSatisfy { $0 == sparing } }, "every herald process killed")
        return victims.count
    }

    // MARK: GNOME Shell: the shell's list

    /// Runs the check on GNOME Shell and asserts that it posted the message to the shell's list
    /// as the agent's notification, recorded the handover and exited at once, with no Herald
    /// process left; returns the notification's id.
    func assertACheckHandsOverToTheShellsListAndExits(on desktop: RealDesktop, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let mark = desktop.mark()
        let (run, seconds) = try check(on: desktop)
        XCTAssertEqual(run.process.terminationStatus, 0, run.errorOutput, file: file, line: line)
        XCTAssertLessThan(seconds, 5, "the check waits for nothing it handed over (--wait 600)", file: file, line: line)
        let shown = run.events.filter { $0["event"] as? String == "shown" }
        XCTAssertEqual(shown.map { $0["handedOver"] as? String }, ["desktop-list"], run.output, file: file, line: line)
        let handover = try XCTUnwrap((try stateFile(desktop)["handedOver"] as? [String: [String: Any]])?[key], "the handover is in the state file",
                                     file: file, line: line)
        XCTAssertEqual(handover["place"] as? String, "desktop-list", file: file, line: line)
        XCTAssertEqual(handover["link"] as? String, link, file: file, line: line)
        XCTAssertEqual(desktop.calls("org.gtk.Notifications", "AddNotification", since: mark).count, 1, file: file, line: line)
        XCTAssertEqual(desktop.notifyCalls(since: mark).count, 0, "nothing went to the freedesktop server", file: file, line: line)
        let notificationID = "\(desktop.appID) \(key)"
        XCTAssertEqual(try desktop.storedShellNotifications(), [["app": agentName, "id": notificationID, "title": shellTitle, "body": Matrix.link["Message"]!]],
                       "the shell stored it as the agent's", file: file, line: line)
        XCTAssertEqual(killHerald(on: desktop), 0, "no herald process is left after the check", file: file, line: line)
        XCTAssertNil(desktop.ownerProcessID(of: agentName), "no agent runs before a click", file: file, line: line)
        return notificationID
    }

    /// The title the check gives a message in the shell's list: "APP NAME: TITLE" (the app name
    /// is the app id when none is given).
    var shellTitle: String { "org.example.App: \(Matrix.link["Title"]!)" }

    /// That the bus started the agent once, at GNOME Shell's request, and it runs now.
    func assertTheShellStartedTheAgent(on desktop: RealDesktop, file: StaticString = #filePath, line: UInt = #line) throws -> Int32 {
        let agent = try XCTUnwrap(desktop.ownerProcessID(of: agentName), "the agent runs", file: file, line: line)
        XCTAssertTrue(startedBySessionBus(agent), "the bus started the agent", file: file, line: line)
        XCTAssertEqual(desktop.busActivations.count, 1, "started once: \(desktop.busActivations)", file: file, line: line)
        XCTAssertTrue(desktop.busActivations.first?.hasPrefix("Activating service name='\(agentName)' requested by") == true, "\(desktop.busActivations)",
                      file: file, line: line)
        XCTAssertTrue(desktop.busActivations.first?.contains(#"comm="/usr/bin/gnome-shell"#) == true, "at the shell's request: \(desktop.busActivations)",
                      file: file, line: line)
        return agent
    }

    func testOnGnomeShellAHandedOverMessageOutlivesHeraldAndAShellRestartAndItsClickStartsTheAgentWhichRecordsTheAnswerAndOpensTheLinkOnce() throws {
        let desktop = try desktop(.gnomeShell)
        let notificationID = try assertACheckHandsOverToTheShellsListAndExits(on: desktop)
        let banner = try desktop.drawnText(within: 10) { $0.normalized.contains(Matrix.link["Title"]!) }
        XCTAssertEqual(banner?.text.normalized, "\(shellTitle) \(Matrix.link["Message"]!)", "the shell shows the banner")

        try desktop.restartGnomeShell()
        XCTAssertEqual(try desktop.storedShellNotifications().map { $0["id"] }, [notificationID], "still stored after the restart")

        // The list shortens the title to its width, and says when it came ("Just now").
        let listed = try desktop.gnomeShellList { $0.centre(of: "Faster sync") != nil }
        guard let point = listed?.centre(of: "Faster sync") else {
            return XCTFail("the shell's list shows the message after the restart: \(listed?.normalized ?? "nothing")")
        }
        XCTAssertTrue(listed?.normalized.hasPrefix("\(desktop.appID): Version") == true, listed?.normalized ?? "")
        XCTAssertTrue(listed?.normalized.hasSuffix(Matrix.link["Message"]!) == true, listed?.normalized ?? "")
        let beforeClick = desktop.mark()
        try desktop.click(x: point.x, y: point.y, times: 2)
        XCTAssertTrue(eventually(within: 15) { (try? self.answers(desktop)) == self.viewedOnce }, "the click is recorded as view: \(String(describing: try? answers(desktop)))")
        XCTAssertTrue(eventually(within: 10) { desktop.session.openedLinks == [self.link] }, "the link opens: \(desktop.session.openedLinks)")
        let agent = try assertTheShellStartedTheAgent(on: desktop)
        let activations = desktop.calls("org.freedesktop.Application", "ActivateAction", since: beforeClick)
        XCTAssertEqual(activations.count, 1, "one activation for the double click")
        let stateFolder = URL(fileURLWithPath: desktop.environment["XDG_STATE_HOME"]! + "/herald").resolvingSymlinksInPath().path
        let target = ((activations.first?["args"] as? [Any])?.dropFirst().first as? [[String]])?.first ?? []
        let token = target.last ?? ""
        XCTAssertEqual(token.count, 32, "the handover's token: \(target)")
        XCTAssertEqual(activations.map { ($0["args"] as? [Any])?.prefix(2).description },
                       [#"["answer", [["\#(desktop.appID)", "\#(key)", "view", "\#(stateFolder)", "\#(token)"]]]"#],
                       "the body's click is the default action: view, in the check's state folder, with the handover's token")
        let shell = desktop.ownerProcessID(of: "org.gtk.Notifications")
        XCTAssertEqual(activations.compactMap { ($0["sender"] as? String).flatMap { processIDOwning($0, environment: desktop.environment) } }, [shell].compactMap { $0 },
                       "GNOME Shell sent it")
        XCTAssertEqual(try desktop.storedShellNotifications().map { $0["id"] }, [], "the shell forgot it once clicked")

        // A stale copy clicked again: the same call, as the shell makes it.
        let again = try runToCompletion("/usr/bin/gapplication", ["action", agentName, "answer",
                                                                  "('\(desktop.appID)', '\(key)', 'view', '\(stateFolder)', '\(token)')"],
                                        environment: desktop.environment)
        XCTAssertEqual(again.status, 1, "refused: nothing is handed over any more")
        XCTAssertTrue(eventually(within: 20) { desktop.ownerProcessID(of: self.agentName) == nil && !processIsRunning(agent) }, "the agent exits when idle")
        XCTAssertEqual(try answers(desktop), viewedOnce, "recorded once")
        XCTAssertEqual(desktop.session.openedLinks, [link], "opened once")
    }

    func testOnGnomeShellAButtonOfAHandedOverBannerStartsTheAgentWhichRecordsThatButtonsAnswerAndOpensNothing() throws {
        let desktop = try desktop(.gnomeShell)
        _ = try assertACheckHandsOverToTheShellsListAndExits(on: desktop)
        // The shell draws a banner's buttons while the pointer is on it.
        let label = "Remind Me Later"
        guard let banner = try desktop.drawnText(within: 10, hover: true, until: { $0.centre(of: label) != nil }),
              let point = banner.text.centre(of: label) else {
            return XCTFail("the banner shows \(label) under the pointer")
        }
        try desktop.click(x: point.x, y: point.y)
        let remindedOnce: [String: [String]] = ["viewed": [], "ignored": [], "reminded": [key], "handedOver": []]
        XCTAssertTrue(eventually(within: 15) { (try? self.answers(desktop)) == remindedOnce }, "the click is recorded as remind: \(String(describing: try? answers(desktop)))")
        let agent = try assertTheShellStartedTheAgent(on: desktop)
        XCTAssertEqual(try desktop.storedShellNotifications().map { $0["id"] }, [], "the shell forgot it once clicked")
        XCTAssertTrue(eventually(within: 20) { desktop.ownerProcessID(of: self.agentName) == nil && !processIsRunning(agent) }, "the agent exits when idle")
        XCTAssertEqual(try answers(desktop), remindedOnce)
        XCTAssertEqual(desktop.session.openedLinks, [], "only view opens the link")
    }

    // MARK: Plasma and xfce4-notifyd: held by the agent

    /// `herald check` hands the message to the agent and exits; the popup (`drawn`, its whole
    /// text) stays past the server's own expiry with no check running; a real click on its view
    /// button is recorded once and opens the link once, and a second click there does nothing.
    func assertTheAgentHoldsTheMessageUntilARealClickAnswersItOnce(_ server: RealServer, drawn expected: String,
                                                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let desktop = try desktop(server)
        let mark = desktop.mark()
        let (run, seconds) = try check(on: desktop)
        XCTAssertEqual(run.process.terminationStatus, 0, run.errorOutput, file: file, line: line)
        XCTAssertLessThan(seconds, 5, "the check waits for nothing it handed over (--wait 600)", file: file, line: line)
        let ended = Date()
        let shown = run.events.filter { $0["event"] as? String == "shown" }
        XCTAssertEqual(shown.map { $0["handedOver"] as? String }, ["agent"], run.output, file: file, line: line)
        let agent = try XCTUnwrap(desktop.ownerProcessID(of: agentName), "the agent runs", file: file, line: line)
        XCTAssertTrue(startedBySessionBus(agent), "the bus started the agent", file: file, line: line)
        XCTAssertEqual(desktop.busActivations.count, 1, "started once: \(desktop.busActivations)", file: file, line: line)
        let handover = try XCTUnwrap((try stateFile(desktop)["handedOver"] as? [String: [String: Any]])?[key], file: file, line: line)
        XCTAssertEqual(handover["place"] as? String, "agent", file: file, line: line)
        XCTAssertEqual(handover["agentProcessID"] as? Int, Int(agent), file: file, line: line)
        XCTAssertEqual(handover["link"] as? String, link, file: file, line: line)
        let notifySenders = desktop.calls("org.freedesktop.Notifications", "Notify", since: mark)
            .map { ($0["sender"] as? String).flatMap { processIDOwning($0, environment: desktop.environment) } }
        XCTAssertEqual(notifySenders, [agent], "the agent, not the check, asked the server to show it", file: file, line: line)

        func comparable(_ text: String) -> String { ScreenText.normalize(text).replacingOccurrences(of: " ", with: "").lowercased() }
        let isTheMessage = { (text: ScreenText) in comparable(text.text) == comparable(expected) }
        let drawn = try desktop.drawnText(within: 15, until: isTheMessage)
        XCTAssertEqual(drawn.map { comparable($0.text.text) }, comparable(expected), "\(server.rawValue): drawn: \(drawn?.text.normalized ?? "nothing")",
                       file: file, line: line)
        XCTAssertEqual(killHerald(on: desktop, sparing: agent), 0, "the check has gone: no herald process but the agent", file: file, line: line)
        // The popup must outlive the server's own expiry (xfce4-notifyd 10 s, Plasma 5 s): only
        // time shows that.
        Thread.sleep(until: ended.addingTimeInterval(12))
        let label = Matrix.link["ActionButton"]!
        guard let still = try desktop.drawnText(within: 2, until: isTheMessage), isTheMessage(still.text), let point = still.text.centre(of: label) else {
            return XCTFail("\(server.rawValue): the popup is gone 12 s after the check ended", file: file, line: line)
        }
        XCTAssertTrue(processIsRunning(agent), file: file, line: line)
        try desktop.click(x: point.x, y: point.y)
        XCTAssertTrue(eventually(within: 10) { (try? self.answers(desktop)) == self.viewedOnce }, "\(server.rawValue): the click is recorded as view: \(String(describing: try? answers(desktop)))",
                      file: file, line: line)
        XCTAssertTrue(eventually(within: 10) { desktop.session.openedLinks == [self.link] }, "the link opens: \(desktop.session.openedLinks)", file: file, line: line)
        XCTAssertTrue(try eventually(within: 10) { try desktop.drawnText(within: 0, until: isTheMessage).map { !isTheMessage($0.text) } ?? true },
                      "\(server.rawValue): the answered popup goes", file: file, line: line)
        try desktop.click(x: point.x, y: point.y)
        XCTAssertTrue(eventually(within: 20) { desktop.ownerProcessID(of: self.agentName) == nil && !processIsRunning(agent) },
                      "the agent exits once it holds nothing", file: file, line: line)
        XCTAssertEqual(try answers(desktop), viewedOnce, "recorded once", file: file, line: line)
        XCTAssertEqual(desktop.session.openedLinks, [link], "opened once", file: file, line: line)
    }

    func testOnPlasmaTheAgentHoldsTheMessageAfterTheCheckExitsAndARealClickOnViewIsRecordedOnceAndOpensTheLinkOnce() throws {
        // Without a desktop entry for the app, its id heads the popup.
        try assertTheAgentHoldsTheMessageUntilARealClickAnswersItOnce(.plasma, drawn: "org.example.App " + Matrix.linkAsTyped + " What's new Remind Me Later Ignore")
    }

    func testOnXfce4NotifydTheAgentHoldsTheMessageAfterTheCheckExitsAndARealClickOnViewIsRecordedOnceAndOpensTheLinkOnce() throws {
        try assertTheAgentHoldsTheMessageUntilARealClickAnswersItOnce(.xfce4Notifyd, drawn: Matrix.linkAsTyped + " What's new Remind Me Later Ignore")
    }
}
