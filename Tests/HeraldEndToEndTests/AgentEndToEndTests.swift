import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// `herald-agent`, started by D-Bus on a private session bus whose only service is the agent
/// (`org.herald.Agent.service` pointing at the built tool): a click calls it exactly as GNOME
/// Shell does (`gapplication action`), and `herald check` hands it notifications to hold.
final class AgentEndToEndTests: XCTestCase {
    let appID = "org.example.App"
    let key = "2026/01/01"
    let link = "https://example.com/new"

    /// A session whose bus starts `herald-agent` (idle after one second) for `org.herald.Agent`.
    func agentSession(server: Bool = false) throws -> DesktopSession {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.startBus(activating: "org.herald.Agent", command: TestPaths.agent + " --idle-exit 1")
        if server { try session.startMockServer(capabilities: "actions body body-markup") }
        return session
    }

    func store(_ session: DesktopSession, appID: String? = nil) throws -> FileStateStore {
        FileStateStore(paths: try HeraldPaths(appID: appID ?? self.appID, environment: session.environment))
    }

    /// Writes the handover as `herald check` does before it posts the message, with its token;
    /// returns the token.
    @discardableResult
    func handOver(_ key: String, in session: DesktopSession, place: Handover.Place = .desktopList, link: String? = nil,
                  rules: URLRules = URLRules()) throws -> String {
        let handover = Handover(place: place, link: link ?? self.link, since: Date()).issued(under: rules)
        try store(session).update { state in
            state = CheckPolicy.handOver(key, handover, in: state)
        }
        return try XCTUnwrap(handover.token)
    }

    /// The token of the handover of `key` in the state.
    func token(_ key: String? = nil, in session: DesktopSession) throws -> String {
        try XCTUnwrap(try store(session).load().handedOver[key ?? self.key]?.token)
    }

    /// The state folder a check of this session names in its handovers.
    func stateFolder(_ session: DesktopSession) throws -> String {
        URL(fileURLWithPath: try store(session).paths.stateDirectory).resolvingSymlinksInPath().path
    }

    /// `gapplication action org.herald.Agent answer "(APP, KEY, ANSWER, STATE FOLDER, TOKEN)"`, as
    /// the shell calls it for a message in its list; the token the state's handover holds unless
    /// one is given.
    func click(_ answer: String, key: String? = nil, appID: String? = nil, token: String? = nil, in session: DesktopSession,
               environment extra: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let token = token ?? (try? self.token(key, in: session)) ?? "none"
        let target = "('\(appID ?? self.appID)', '\(key ?? self.key)', '\(answer)', '\(try stateFolder(session))', '\(token)')"
        return try runToCompletion("/usr/bin/gapplication", ["action", "org.herald.Agent", "answer", target],
                                   environment: session.environment.merging(extra) { _, new in new })
    }

    /// The sentences the agent said on standard error (the bus's, as in a real session).
    func agentSaid(_ session: DesktopSession) -> [String] {
        session.busErrorOutput.split(separator: "\n").map(String.init).filter { $0.hasPrefix("herald-agent: ") }
    }

    /// The agent's process id, or `nil` while nothing owns its name.
    func agentProcessID(_ session: DesktopSession) throws -> Int32? { processIDOwning("org.herald.Agent", environment: session.environment) }

    func isRunning(_ pid: Int32) -> Bool { processIsRunning(pid) }

    /// `gdbus call` of a method of the agent's `org.herald.Agent1`.
    func agentCall(_ method: String, _ arguments: [String], in session: DesktopSession) throws -> (status: Int32, output: String) {
        try runToCompletion("/usr/bin/gdbus", ["call", "--session", "--dest", "org.herald.Agent", "--object-path", "/org/herald/Agent",
                                               "--method", "org.herald.Agent1." + method] + arguments, environment: session.environment)
    }

    func testAClickAsTheShellSendsItStartsTheAgentWhichRecordsTheAnswerOpensTheLinkAndExits() throws {
        let session = try agentSession()
        defer { session.stop() }
        try handOver(key, in: session)
        let started = Date()
        let click = try click("view", in: session, environment: ["DESKTOP_STARTUP_ID": "herald-test-startup"])
        XCTAssertEqual(click.status, 0, click.output)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        let state = try store(session).load()
        XCTAssertEqual(state.viewed, [key])
        XCTAssertEqual(state.handedOver, [:])
        XCTAssertTrue(eventually(within: 5) { session.openedLinks == [link] }, "\(session.openedLinks)")
        XCTAssertEqual(session.openedLinkTokens, ["herald-test-startup "], "the click's startup id reaches the browser")
        let pid = try XCTUnwrap(try agentProcessID(session))
        XCTAssertTrue(eventually(within: 5) { (try? agentProcessID(session)) == nil && !isRunning(pid) }, "the agent exits when idle")
    }

    func testAnAnswerTheAgentRecordsReachesTheAppsNextLaunchAndTheToolLeavesItForTheApp() throws {
        let session = try agentSession()
        defer { session.stop() }
        try handOver(key, in: session)
        XCTAssertEqual(try click("ignore", in: session).status, 0)
        XCTAssertEqual(try store(session).load().answeredAway.map { [$0.key, $0.value.answer] }, [[key, "ignore"]])
        let feed = session.directory.appendingPathComponent("empty.plist")
        try Fixtures.xmlFeed([:]).write(to: feed, atomically: true, encoding: .utf8)
        let check = try session.heraldToCompletion(["check", "--feed", feed.absoluteString, "--app-id", appID, "--show-on-first-launch"])
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertEqual(try store(session).load().answeredAway.keys.sorted(), [key], "herald check leaves the answer for the app")
        let heard = try MainContext.assumeIsolated { [appID, environment = session.environment] in
            let herald = try Herald(configuration: .init(feedURL: nil, appID: appID, appVersion: "1.0", environment: environment))
            let listener = AnswersGivenAwayListener()
            herald.delegate = listener
            herald.appLaunched()
            XCTAssertTrue(spin(10) { listener.finished == 1 })
            return listener.heardText
        }
        XCTAssertEqual(heard, ["\(key) ignore"])
        XCTAssertEqual(try store(session).load().answeredAway, [:])
    }

    func testTheSameAnswerTwiceIsRecordedOnceAndOpensTheLinkOnceAndTheSecondIsRefusedWithASentence() throws {
        let session = try agentSession()
        defer { session.stop() }
        let token = try handOver(key, in: session)
        XCTAssertEqual(try click("view", in: session).status, 0)
        XCTAssertEqual(try click("view", token: token, in: session).status, 1, "nothing is handed over any more")
        XCTAssertTrue(eventually(within: 5) { session.openedLinks == [link] })
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(session.openedLinks, [link], "the second click opens nothing")
        XCTAssertEqual(try store(session).load().viewed, [key])
        let stateFile = try store(session).paths.stateFile
        XCTAssertEqual(agentSaid(session), ["herald-agent: cannot record the answer 'view' to message '\(key)' of \(appID): "
                                            + "\(stateFile) holds no handover of it: it was answered or withdrawn already, or handed over from another state folder"])
    }

    func testTwoClicksAtOnceAreRecordedOnceAndOpenTheLinkOnce() throws {
        let session = try agentSession()
        defer { session.stop() }
        for round in 0..<20 {
            let key = "2026/01/\(String(format: "%02d", round + 1))"
            let token = try handOver(key, in: session)
            let answer = round % 2 == 0 ? "view" : "remind"
            let barrier = try ProcessBarrier()
            let target = "('\(appID)', '\(key)', '\(answer)', '\(try stateFolder(session))', '\(token)')"
            let clicks = try (0..<2).map { index in
                try barrier.start("/usr/bin/gapplication", ["action", "org.herald.Agent", "answer", target],
                                  environment: session.environment, directory: session.directory, name: "click-\(round)-\(index)")
            }
            XCTAssertTrue(eventually { barrier.everyoneWaits })
            try barrier.release()
            XCTAssertEqual(clicks.map { $0.wait(seconds: 10) }.sorted(), [0, 1], "one records, the other finds it answered")
            let state = try store(session).load()
            XCTAssertNil(state.handedOver[key], "round \(round)")
            if answer == "view" { XCTAssertTrue(state.viewed.contains(key), "round \(round)") } else { XCTAssertNotNil(state.reminded[key], "round \(round)") }
        }
        XCTAssertTrue(eventually(within: 5) { session.openedLinks.count == 10 })
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(session.openedLinks, Array(repeating: link, count: 10), "each view opens its link once")
    }

    func testAClickAfterTheAgentWasKilledStartsANewOneThatRecordsTheAnswer() throws {
        let session = try agentSession()
        defer { session.stop() }
        let launch = try runToCompletion("/usr/bin/gapplication", ["launch", "org.herald.Agent"], environment: session.environment)
        XCTAssertEqual(launch.status, 0)
        let first = try XCTUnwrap(try agentProcessID(session))
        try handOver(key, in: session)
        kill(first, SIGKILL)
        XCTAssertTrue(eventually(within: 5) { (try? agentProcessID(session)) == nil })
        XCTAssertEqual(try click("ignore", in: session).status, 0)
        let state = try store(session).load()
        XCTAssertEqual(state.ignored, [key])
        XCTAssertEqual(state.handedOver, [:])
        XCTAssertNotEqual(try agentProcessID(session), first)
        XCTAssertEqual(session.openedLinks, [], "only view opens the link")
    }

    func testAHeldNotificationIsShownUntilAnsweredAndItsAnswerOrDismissalIsRecorded() throws {
        let session = try agentSession(server: true)
        defer { session.stop() }
        let notification = "{'summary': <'New in 2.0'>, 'body': <'Faster & smaller'>, 'app-name': <'Example'>, 'icon': <'org.example.App'>, "
            + "'urgency': <byte 2>, 'actions': <[('default', 'More'), ('view', 'More'), ('remind', 'Later'), ('ignore', 'Ignore')]>, "
            + "'desktop-entry': <'org.example.App'>}"
        func hold(_ key: String) throws -> Int {
            let token = try handOver(key, in: session, place: .agent)
            let reply = try agentCall("Hold", [appID, key, try stateFolder(session), token, notification], in: session)
            XCTAssertEqual(reply.status, 0, reply.output)
            // "(uint32 7,)"
            return try XCTUnwrap(Int(reply.output.components(separatedBy: "uint32 ").last?.prefix { $0.isNumber } ?? ""), reply.output)
        }
        let ignored = try hold("2026/01/01")
        let call = try XCTUnwrap(try session.notifyCalls().first)
        XCTAssertEqual(call.summary, "New in 2.0")
        XCTAssertEqual(call.body, "Faster &amp; smaller")
        XCTAssertEqual(call.appName, "Example")
        XCTAssertEqual(call.appIcon, "org.example.App")
        XCTAssertEqual(call.actionIDs, ["default", "view", "remind", "ignore"])
        XCTAssertEqual(call.actions.map(\.label), ["More", "More", "Later", "Ignore"])
        XCTAssertEqual(call.hints["desktop-entry"] as? String, "org.herald.Agent", "the agent's entry: the app has none installed")
        XCTAssertEqual(call.hints["urgency"] as? Int, 2)
        XCTAssertEqual(call.timeout, 0, "held until answered")

        try session.invoke("ignore", on: ignored)
        XCTAssertTrue(eventually(within: 5) { (try? store(session).load().ignored) == ["2026/01/01"] })

        let dismissed = try hold("2026/01/02")
        try session.close(dismissed, reason: 2)
        XCTAssertTrue(eventually(within: 5) { (try? store(session).load().reminded["2026/01/02"]) != nil }, "dismissed is remind later")
        XCTAssertNil(try store(session).load().handedOver["2026/01/02"])

        let expired = try hold("2026/01/03")
        try session.close(expired, reason: 1)
        XCTAssertTrue(eventually(within: 5) { (try? store(session).load().handedOver["2026/01/03"]) == nil }, "expired shows again at the next check")
        let afterExpiry = try store(session).load()
        XCTAssertFalse(afterExpiry.viewed.contains("2026/01/03"))
        XCTAssertNil(afterExpiry.reminded["2026/01/03"])

        let withdrawn = try hold("2026/01/04")
        let before = try Data(contentsOf: URL(fileURLWithPath: store(session).paths.stateFile))
        XCTAssertEqual(try agentCall("Withdraw", [appID, "2026/01/04", try token("2026/01/04", in: session)], in: session).status, 0)
        XCTAssertTrue(eventually(within: 5) {
            (try? session.serverCalls())?.contains { $0.method == "CloseNotification" && ($0.args.first as? Int) == withdrawn } ?? false
        })
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store(session).paths.stateFile)), before, "a withdrawal records nothing")
        XCTAssertEqual(session.openedLinks, [])
    }

    func testASecondHoldOfTheSameMessageReplacesTheFirstAndTakesItsAnswer() throws {
        let session = try agentSession(server: true)
        defer { session.stop() }
        let token = try handOver(key, in: session, place: .agent)
        let notification = "{'summary': <'S'>, 'body': <'B'>, 'actions': <[('default', 'More'), ('view', 'More'), ('ignore', 'Ignore')]>}"
        let first = try agentCall("Hold", [appID, key, try stateFolder(session), token, notification], in: session)
        let second = try agentCall("Hold", [appID, key, try stateFolder(session), token, notification], in: session)
        XCTAssertEqual([first.status, second.status], [0, 0])
        XCTAssertEqual([first.output, second.output], ["(uint32 1,)\n", "(uint32 2,)\n"])
        XCTAssertTrue(eventually(within: 5) {
            (try? session.serverCalls())?.contains { $0.method == "CloseNotification" && ($0.args.first as? Int) == 1 } ?? false
        }, "the first is closed")
        Thread.sleep(forTimeInterval: 0.3)
        try session.invoke("default", on: 2)
        XCTAssertTrue(eventually(within: 5) { (try? store(session).load().viewed) == [key] }, "the body click of the second is view")
        XCTAssertTrue(eventually(within: 5) { session.openedLinks == [link] })
    }

    func testAnUnusableAppIDOrAnswerIsRefusedAndNothingIsWritten() throws {
        let session = try agentSession()
        defer { session.stop() }
        try handOver(key, in: session)
        let stateFile = URL(fileURLWithPath: try store(session).paths.stateFile)
        let before = try Data(contentsOf: stateFile)
        let folder = stateFile.deletingLastPathComponent().path
        let filesBefore = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()

        func refusedClick(_ target: String) -> String {
            guard let child = try? ChildProcess("/usr/bin/gapplication", ["action", "org.herald.Agent", "answer", target], environment: session.environment,
                                                directory: session.directory, name: "refused-click") else { return "" }
            XCTAssertEqual(child.wait(seconds: 10), 1, target)
            return child.errorOutput
        }
        let prefix = "error sending ActivateAction message to application: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: "
        let token = try token(in: session)
        XCTAssertEqual(refusedClick("('../org.example.App', '\(key)', 'view', '\(folder)', '\(token)')"),
                       prefix + "app id '../org.example.App' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)\n")
        XCTAssertEqual(refusedClick("('\(appID)', '\(key)', 'maybe', '\(folder)', '\(token)')"),
                       prefix + "'maybe' is not an answer: use view, remind, ignore, ok\n")
        let hold = try agentCall("Hold", ["a/b", key, folder, token, "{'summary': <'S'>}"], in: session)
        XCTAssertNotEqual(hold.status, 0)

        XCTAssertEqual(try Data(contentsOf: stateFile), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), filesBefore)
        XCTAssertEqual(session.openedLinks, [])
    }
}
