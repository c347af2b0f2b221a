import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// The agent trusts no caller (desktop/docs/administrators.md, "What the agent believes"): an
/// answer, a hold or a withdrawal needs the token the check wrote in the handover; a link is
/// judged by the URL rules again at the click; what it holds is made safe as a check's own text
/// and bounded in number; and an id is the whole id wherever it goes. Every test runs the built
/// `herald` and `herald-agent` on a private bus, calls the agent as a stranger would (`gdbus`,
/// `gapplication`), and reads the real state files and the notification server's calls.
final class AgentTrustEndToEndTests: XCTestCase {
    let appID = "org.example.Trusted"
    let key = "2026/05/01"
    let link = "https://example.com/trusted"

    /// A session whose bus starts `herald-agent` (idle after one second), with a notification server.
    func session() throws -> DesktopSession {
        let session = try DesktopSession(capabilities: nil, bus: false)
        addTeardownBlock { session.stop() }
        try session.startBus(activating: "org.herald.Agent", command: TestPaths.agent + " --idle-exit 1")
        try session.startMockServer(capabilities: "actions body body-markup")
        return session
    }

    func store(_ session: DesktopSession, appID: String? = nil) throws -> FileStateStore {
        FileStateStore(paths: try HeraldPaths(appID: appID ?? self.appID, environment: session.environment))
    }

    func stateFolder(_ session: DesktopSession) throws -> String {
        URL(fileURLWithPath: try store(session).paths.stateDirectory).resolvingSymlinksInPath().path
    }

    func stateBytes(_ session: DesktopSession, appID: String? = nil) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: store(session, appID: appID).paths.stateFile))
    }

    /// Writes a handover as `herald check` does before it posts the message; returns its token.
    @discardableResult
    func handOver(_ key: String, appID: String? = nil, link: String? = nil, rules: URLRules = URLRules(), in session: DesktopSession) throws -> String {
        let handover = Handover(place: .agent, link: link ?? self.link, since: Date()).issued(under: rules)
        try store(session, appID: appID).update { state in state = CheckPolicy.handOver(key, handover, in: state) }
        return try XCTUnwrap(handover.token)
    }

    /// Runs `herald check` on a feed file; it hands the messages over to the agent and exits.
    func check(_ session: DesktopSession, feed: String, appID: String? = nil) throws -> ToolRun {
        let file = session.directory.appendingPathComponent("feed-\(UUID().uuidString).json")
        try feed.write(to: file, atomically: true, encoding: .utf8)
        return try session.run(["check", "--json", "--feed", file.absoluteString, "--app-id", appID ?? self.appID, "--app-name", "Trusted",
                                "--show-on-first-launch", "--force", "--max", "5", "--wait", "600"])
    }

    /// A call of a method of the agent's `org.herald.Agent1`, as any process on the bus can make it.
    func agentCall(_ method: String, _ arguments: [String], in session: DesktopSession) throws -> (status: Int32, errorOutput: String) {
        let child = try ChildProcess("/usr/bin/gdbus", ["call", "--session", "--dest", "org.herald.Agent", "--object-path", "/org/herald/Agent",
                                                        "--method", "org.herald.Agent1." + method] + arguments,
                                     environment: session.environment, directory: session.directory, name: "call-\(UUID().uuidString)")
        return (child.wait(seconds: 10), child.errorOutput)
    }

    /// `ActivateAction("answer", [<target>])`, as GNOME Shell calls it for a click in its list.
    func click(_ target: [String], in session: DesktopSession) throws -> (status: Int32, errorOutput: String) {
        let child = try ChildProcess("/usr/bin/gapplication", ["action", "org.herald.Agent", "answer", "('" + target.joined(separator: "', '") + "')"],
                                     environment: session.environment, directory: session.directory, name: "click-\(UUID().uuidString)")
        return (child.wait(seconds: 10), child.errorOutput)
    }

    func agentSaid(_ session: DesktopSession) -> [String] {
        session.busErrorOutput.split(separator: "\n").map(String.init).filter { $0.hasPrefix("herald-agent: ") }
    }

    let notTheHolder = "the call does not hold its handover: only a click in the desktop's list or on the agent's notification, "
        + "or the check that handed it over (with the token it wrote in the state), may answer, hold or withdraw it"

    func testAStrangersAnswerHoldAndWithdrawWithoutTheTokenAreRefusedAndRecordNothingAndTheRealClickStillCounts() throws {
        let session = try session()
        let feed = #"{"\#(key)": {"Title": "Real news", "Message": "From the app", "ActionURL": "\#(link)", "ActionButton": "Read"}}"#
        let run = try check(session, feed: feed)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let shown = try XCTUnwrap(run.output.split(separator: "\n").last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        XCTAssertEqual(shown["handedOver"] as? String, "agent", run.output)
        let id = try XCTUnwrap(shown["id"] as? Int)
        let folder = try stateFolder(session)
        let before = try stateBytes(session)

        let stranger = "0123456789abcdef0123456789abcdef"
        let prefix = "error sending ActivateAction message to application: GDBus.Error:org.herald.Agent1.Error.NotTheHolder: "
        XCTAssertEqual(try click([appID, key, "view", folder, stranger], in: session).errorOutput, prefix + notTheHolder + "\n")
        XCTAssertEqual(try click([appID, key, "view", folder], in: session).errorOutput, prefix + notTheHolder + "\n",
                       "a target without a token is taken only from GNOME Shell, for a handover without one")
        XCTAssertEqual(try click([appID, key, "ignore"], in: session).status, 1)
        let hold = try agentCall("Hold", [appID, key, folder, stranger, "{'summary': <'Pay now'>, 'actions': <[('view', 'Pay')]>}"], in: session)
        XCTAssertEqual(hold.errorOutput, "Error: GDBus.Error:org.herald.Agent1.Error.NotTheHolder: \(notTheHolder)\n")
        let withdraw = try agentCall("Withdraw", [appID, key, stranger], in: session)
        XCTAssertEqual(withdraw.errorOutput, "Error: GDBus.Error:org.herald.Agent1.Error.NotTheHolder: \(notTheHolder)\n")

        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(try stateBytes(session), before, "nothing recorded")
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Real news"], "nothing shown in its place")
        XCTAssertEqual(try session.serverCalls().filter { $0.method == "CloseNotification" }.count, 0, "nothing taken down")
        XCTAssertEqual(session.openedLinks, [])
        XCTAssertEqual(agentSaid(session), [
            "herald-agent: cannot record the answer 'view' to message '\(key)' of \(appID): \(notTheHolder); it stays unanswered",
            "herald-agent: cannot record the answer 'view' to message '\(key)' of \(appID): \(notTheHolder); it stays unanswered",
            "herald-agent: cannot record the answer 'ignore' to message '\(key)' of \(appID): \(notTheHolder); it stays unanswered",
            "herald-agent: refused to hold message '\(key)' of \(appID): \(notTheHolder); the check that handed it over shows it itself",
            "herald-agent: refused to withdraw message '\(key)' of \(appID): \(notTheHolder)",
        ])

        try session.invoke("view", on: id)
        XCTAssertTrue(eventually(within: 5) { (try? store(session).load().viewed) == [key] }, session.busErrorOutput)
        XCTAssertTrue(eventually(within: 5) { session.openedLinks == [link] }, "\(session.openedLinks)")
    }

    func testAHoldNamingAnotherAppsMessageDoesNotReplaceItsNotification() throws {
        let session = try session()
        let token = try handOver(key, in: session)
        let folder = try stateFolder(session)
        let real = try agentCall("Hold", [appID, key, folder, token, "{'summary': <'Real news'>, 'actions': <[('view', 'Read')]>}"], in: session)
        XCTAssertEqual(real.status, 0, real.errorOutput)
        // Another app holds a handover of its own, and names the first app's message with its token.
        let other = "org.example.Other"
        let otherToken = try handOver(key, appID: other, in: session)
        let hostile = try agentCall("Hold", [appID, key, folder, otherToken, "{'summary': <'Pay now'>, 'actions': <[('view', 'Pay')]>}"], in: session)
        XCTAssertEqual(hostile.errorOutput, "Error: GDBus.Error:org.herald.Agent1.Error.NotTheHolder: \(notTheHolder)\n")
        XCTAssertEqual(try agentCall("Withdraw", [appID, key, otherToken], in: session).status, 1)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Real news"])
        XCTAssertEqual(try session.serverCalls().filter { $0.method == "CloseNotification" }.count, 0, "the real one stays")
        try session.invoke("view", on: 1)
        XCTAssertTrue(eventually(within: 5) { (try? store(session).load().viewed) == [key] })
        XCTAssertEqual(try store(session, appID: other).load().viewed, [], "the other app's message is not answered")
    }

    func testALinkTheURLRulesNeverOpenIsNotOpenedAtTheClickButTheAnswerIsRecorded() throws {
        let session = try session()
        // Every scheme has a handler here, which would open it, so only the agent's rules keep it shut.
        let applications = URL(fileURLWithPath: session.environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let types = ["x-scheme-handler/javascript", "x-scheme-handler/data", "x-scheme-handler/myapp", "x-scheme-handler/otherapp", "text/plain"]
        try """
            [Desktop Entry]
            Type=Application
            Name=Any link recorder
            Exec=\(session.directory.path)/record-link %u
            MimeType=\(types.joined(separator: ";"));
            NoDisplay=true
            """.write(to: applications.appendingPathComponent("any-link-recorder.desktop"), atomically: true, encoding: .utf8)
        let mimeapps = URL(fileURLWithPath: session.environment["XDG_CONFIG_HOME"]!).appendingPathComponent("mimeapps.list")
        try (try String(contentsOf: mimeapps, encoding: .utf8) + "\n" + types.map { "\($0)=any-link-recorder.desktop" }.joined(separator: "\n") + "\n")
            .write(to: mimeapps, atomically: true, encoding: .utf8)
        let links = ["javascript:alert(document.cookie)", "file:///etc/passwd", "data:text/html,<script>alert(1)</script>", "otherapp://pay",
                     "myapp://open/1"]
        let folder = try stateFolder(session)
        for (index, link) in links.enumerated() {
            let key = "2026/05/0\(index + 1)"
            let token = try handOver(key, link: link, rules: URLRules(allowedCustomSchemes: ["myapp"]), in: session)
            let clicked = try click([appID, key, "view", folder, token], in: session)
            XCTAssertEqual(clicked.status, 0, clicked.errorOutput)
        }
        XCTAssertTrue(eventually(within: 5) { session.openedLinks == ["myapp://open/1"] }, "only the scheme the app allowed: \(session.openedLinks)")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(session.openedLinks, ["myapp://open/1"])
        XCTAssertEqual(try store(session).load().viewed.sorted(), (1...5).map { "2026/05/0\($0)" }, "each answer is recorded")
        XCTAssertEqual(agentSaid(session), [
            "herald-agent: could not open javascript:alert(document.cookie): the javascript: scheme is never opened",
            "herald-agent: could not open file:///etc/passwd: the file: scheme is never opened",
            "herald-agent: could not open data:text/html,<script>alert(1)</script>: the data: scheme is never opened",
            "herald-agent: could not open otherapp://pay: the otherapp: scheme is not allowed by the app",
        ])
    }

    func testAHoldsMarkupBidiControlsAndOversizedTextAreEscapedAndCappedAsTheChecksOwnText() throws {
        let session = try session()
        let token = try handOver(key, in: session)
        let long = String(repeating: "ab", count: 5_000)
        let notification = "{'summary': <'<b>Pay</b>\u{202E}\u{1B}[2J now \(long)'>, 'body': <'<a href=\"https://evil.example\">here</a>\u{2067} \(long)'>, "
            + "'app-name': <'Bank\u{200B}'>, 'desktop-entry': <'org.example.Bank'>, "
            + "'actions': <[('view', '<i>Pay\u{202E}</i>'), ('exec', 'Run'), ('ignore', 'Ignore')]>}"
        let hold = try agentCall("Hold", [appID, key, try stateFolder(session), token, notification], in: session)
        XCTAssertEqual(hold.status, 0, hold.errorOutput)
        let call = try XCTUnwrap(try session.notifyCalls().first)
        // Control and bidi characters gone, cut to the limits with an ellipsis; the summary is plain
        // text, the body escaped for a server that reads markup.
        let summaryHead = "<b>Pay</b>[2J now ", bodyHead = #"<a href="https://evil.example">here</a> "#
        XCTAssertEqual(call.summary, summaryHead + String(long.prefix(NotificationText.summaryLimit - 1 - summaryHead.count)) + "…")
        XCTAssertEqual(call.summary.unicodeScalars.count, NotificationText.summaryLimit)
        XCTAssertEqual(call.body, "&lt;a href=&quot;https://evil.example&quot;&gt;here&lt;/a&gt; "
                       + String(long.prefix(NotificationText.bodyLimit - 1 - bodyHead.count)) + "…")
        XCTAssertEqual(call.appName, "Bank")
        XCTAssertEqual(call.hints["desktop-entry"] as? String, "org.herald.Agent", "the agent's entry (the app has none installed), not the caller's")
        XCTAssertEqual(call.actions.map(\.id), ["view", "ignore"])
        XCTAssertEqual(call.actions.map(\.label), ["<i>Pay</i>", "Ignore"])
    }

    func testTheEleventhHoldOfAnAppIsRefusedAndTheCheckWouldShowItItself() throws {
        let session = try session()
        let folder = try stateFolder(session)
        for day in 1...11 {
            let key = String(format: "2026/06/%02d", day)
            let token = try handOver(key, in: session)
            let hold = try agentCall("Hold", [appID, key, folder, token, "{'summary': <'Day \(day)'>, 'actions': <[('ok', 'OK')]>}"], in: session)
            if day <= 10 {
                XCTAssertEqual(hold.status, 0, hold.errorOutput)
            } else {
                XCTAssertEqual(hold.errorOutput, "Error: GDBus.Error:org.herald.Agent1.Error.HoldsEnough: "
                               + "the agent holds 10 notifications of \(appID) already, as many as it holds of one app\n")
            }
        }
        XCTAssertEqual(try session.notifyCalls().count, 10)
        // Holding the same message again replaces it, and another app still has its own room.
        let again = try agentCall("Hold", [appID, "2026/06/01", folder, try XCTUnwrap(try store(session).load().handedOver["2026/06/01"]?.token),
                                           "{'summary': <'Day 1 again'>, 'actions': <[('ok', 'OK')]>}"], in: session)
        XCTAssertEqual(again.status, 0, again.errorOutput)
        let other = "org.example.Other"
        let otherHold = try agentCall("Hold", [other, key, folder, try handOver(key, appID: other, in: session),
                                               "{'summary': <'Other'>, 'actions': <[('ok', 'OK')]>}"], in: session)
        XCTAssertEqual(otherHold.status, 0, otherHold.errorOutput)
        XCTAssertEqual(try session.notifyCalls().count, 12)
    }

    func testAFeedIDHoldingANULOrAControlCharacterIsRefusedAtDecodeAndTheOtherMessagesStillShow() throws {
        let session = try session()
        let feed = #"{"\#(key)": {"Title": "Real news", "ActionURL": "\#(link)"}, "\#(key)\u0000b": {"Title": "Cut", "ActionURL": "https://example.com/cut"}, "#
            + #""2026/05/02\u0007": {"Title": "Bell", "ActionURL": "https://example.com/bell"}}"#
        let run = try check(session, feed: feed)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let reason = ": an id is text without control characters, so that every place it goes carries it whole"
        XCTAssertEqual(run.output, """
            {"entries":1,"event":"fetched","format":"json","problems":[\
            "'2026/05/01\\u0000b': the message id holds the control character U+0000\(reason)",\
            "'2026/05/02\\u0007': the message id holds the control character U+0007\(reason)"]}
            {"event":"detected","keys":["\(key)"]}
            {"event":"shown","handedOver":"agent","id":1,"key":"\(key)","title":"Real news"}

            """)
        XCTAssertEqual(try store(session).load().handedOver.keys.sorted(), [key])
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Real news"])

        let file = session.directory.appendingPathComponent("ids.json")
        try feed.write(to: file, atomically: true, encoding: .utf8)
        let validated = try session.run(["validate", file.path])
        XCTAssertEqual(validated, ToolRun(status: 65, output: """
            \(file.path): json, 3 messages (2 not shown), newest first:
            ! 2026/05/02\\u0007  (no title)  (not shown: the message id holds the control character U+0007\(reason))
            ! 2026/05/01\\u0000b  (no title)  (not shown: the message id holds the control character U+0000\(reason))
              2026/05/01  Real news  -> \(link)
            2 errors, no warnings:
              error: '2026/05/02\\u0007': the message id holds the control character U+0007\(reason)
              error: '2026/05/01\\u0000b': the message id holds the control character U+0000\(reason)

            """))
    }

    func testIDsReachGNOMEsListAndTheAgentWholeAndAClickOnEachRecordsItsOwn() throws {
        let session = try session()
        try session.installAgentDesktopEntry()
        let shell = try HandoverStandIns(["--gtk"], in: session)
        addTeardownBlock { shell.stop() }
        let keys = ["2026/05/01", "2026/05/01 b", "2026/05/01\u{301} ‮é 😀"]
        let feed = "{" + keys.enumerated().map { index, key in
            #""\#(key)": {"Title": "Message \#(index)", "ActionURL": "https://example.com/\#(index)"}"#
        }.joined(separator: ", ") + "}"
        let run = try check(session, feed: feed)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let posted = shell.calls(of: "AddNotification")
        XCTAssertEqual(Set(posted.compactMap { $0[1] as? String }), Set(keys.map { appID + " " + $0 }), "each id whole in the list")
        let state = try store(session).load()
        let folder = try stateFolder(session)
        for (index, key) in keys.enumerated().reversed() {
            let token = try XCTUnwrap(state.handedOver[key]?.token, key)
            let target = try XCTUnwrap(posted.first { $0[1] as? String == appID + " " + key }?.last as? [String: Any])["default-action-target"] as? [String]
            XCTAssertEqual(target, [appID, key, "view", folder, token])
            XCTAssertEqual(try click([appID, key, "view", folder, token], in: session).status, 0)
            XCTAssertTrue(eventually(within: 5) { session.openedLinks.last == "https://example.com/\(index)" }, "\(session.openedLinks)")
        }
        XCTAssertEqual(try store(session).load().viewed.sorted(), keys.sorted())
        XCTAssertEqual(session.openedLinks, ["https://example.com/2", "https://example.com/1", "https://example.com/0"])
    }
}
