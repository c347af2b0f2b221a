import Foundation
import HeraldTestSupport
import XCTest

// The desktop matrix: one scenario against each real notification server (the Debian
// packages; ../shared/DESKTOPS.md), each started by its class on a private session bus under one
// shared Xvfb and stopped by it. What a server received is read on the bus (a monitor records
// every message), what it drew is read in a screenshot with tesseract, and clicks are real
// (xdotool). With HERALD_SCREENSHOTS=DIR set, the screenshots are kept there.

/// Stops the shared display once every test has run.
final class SharedDisplayStopper: NSObject, XCTestObservation {
    static let registered: Void = { XCTestObservationCenter.shared.addTestObserver(SharedDisplayStopper()) }()
    func testBundleDidFinish(_ testBundle: Bundle) { SharedDisplay.stop() }
}

/// The feed of the scenario and what each server is expected to make of it.
enum Matrix {
    static let linkKey = "2026/11/01"
    static let okKey = "2026/11/02"
    static let probeKey = "2026/11/03"
    static let rtlKey = "2026/11/04"
    static let longKey = "2026/11/05"
    static let link = ["Title": "Version 2 is out", "Message": "Faster sync and a dark theme.",
                       "ActionURL": "https://example.org/new", "ActionButton": "What's new"]
    static let ok = ["Title": "Maintenance tonight", "Message": "The service pauses at ten for a few minutes."]
    static let probe = ["Title": "Don't miss it", "Message": #"Tom's <b>bold</b> & "quoted" <a href="https://evil.example">x</a>"#]
    static let rtl = ["Title": "גרסה חדשה", "Message": "הגרסה החדשה זמינה עכשיו להורדה."]
    static let longText = String(repeating: "Every sync now resumes where it stopped, so a dropped line costs seconds. ", count: 12)
        .trimmingCharacters(in: .whitespaces)
    static let long = ["Title": "Release notes", "Message": longText]
    static let all = [linkKey: link, okKey: ok, probeKey: probe, rtlKey: rtl, longKey: long]

    /// The probe's body as a server that reads body markup must receive it: the five named
    /// entities, `&apos;` for the apostrophe (GNOME Shell shows `&#39;` as typed).
    static let probeEscaped = "Tom&apos;s &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; &lt;a href=&quot;https://evil.example&quot;&gt;x&lt;/a&gt;"

    /// Each message's body, by title, as a server receives it.
    static func bodies(markup: Bool) -> [String: String] {
        [link["Title"]!: link["Message"]!, ok["Title"]!: ok["Message"]!, probe["Title"]!: markup ? probeEscaped : probe["Message"]!,
         rtl["Title"]!: rtl["Message"]!, long["Title"]!: longText]
    }

    /// The link's actions without a default action, and with the default first (under the view label).
    static let viewRemindIgnore = [Action(id: "view", label: "What's new"), Action(id: "remind", label: "Remind Me Later"), Action(id: "ignore", label: "Ignore")]
    static let defaultFirst = [Action(id: "default", label: "What's new")] + viewRemindIgnore
    /// A message's actions without a link: the default and OK.
    static let okActions = [Action(id: "default", label: "OK"), Action(id: "ok", label: "OK")]
    /// A message's actions without a link and without a default action.
    static let okButtonOnly = [Action(id: "ok", label: "OK")]
    /// The probe and the link as typed, as a server that shows body markup as text draws them.
    static let probeAsTyped = #"Don't miss it Tom's <b>bold</b> & "quoted" <a href="https://evil.example">x</a>"#
    static let linkAsTyped = "Version 2 is out Faster sync and a dark theme."
}

/// A pair of an action id and its label, comparable.
struct Action: Equatable, CustomStringConvertible {
    var id: String
    var label: String
    var description: String { "\(id)=\(label)" }
}

/// The scenario, run by one subclass per server. Each subclass names its tests after the rule
/// each proves and calls the shared steps below.
class DesktopMatrixCase: XCTestCase {
    /// The server of the subclass.
    class var server: RealServer { fatalError("a subclass names its server") }

    nonisolated(unsafe) private static var desktops: [RealServer: Result<RealDesktop, Error>] = [:]

    override class func setUp() {
        super.setUp()
        _ = SharedDisplayStopper.registered
        guard server.missingPrograms.isEmpty else { return }
        desktops[server] = Result { try RealDesktop(server: server, display: try SharedDisplay.start()) }
    }

    override class func tearDown() {
        if case .success(let desktop) = desktops[server] { desktop.stop() }
        desktops[server] = nil
        super.tearDown()
    }

    var desktop: RealDesktop!
    var feed: FeedServer!
    /// How many deaths of the portal's gtk backend were recorded before this test.
    var portalBackendEndsBefore = 0
    /// The deaths of the portal's gtk backend known when the test's last step was done.
    var testBackendEnds = 0
    var server: RealServer { Self.server }

    override func setUpWithError() throws {
        let missing = Self.server.missingPrograms
        if !missing.isEmpty { throw XCTSkip("\(Self.server.rawValue) is not installed: no \(missing.joined(separator: ", "))") }
        guard let started = Self.desktops[Self.server] else { throw TestSetupError("\(Self.server.rawValue) was not started") }
        desktop = try started.get()
        try desktop.clearScreen()
        portalBackendEndsBefore = desktop.portalBackendEnds.count
        testBackendEnds = portalBackendEndsBefore
        desktop.resetState()
        feed = try FeedServer(directory: desktop.directory.appendingPathComponent("feed-\(UUID().uuidString.prefix(6))"))
    }

    override func tearDown() {
        try? desktop?.clearScreen()
        if let ends = desktop?.portalBackendEnds.dropFirst(portalBackendEndsBefore), !ends.isEmpty {
            print("\(server.rawValue): xdg-desktop-portal-gtk died in this test and was started again: \(Array(ends))")
        }
        feed?.stop()
        try? desktop?.setDoNotDisturb(false)
        super.tearDown()
    }

    // MARK: steps

    /// Publishes `entries` and starts `herald check --force --max 5 --json --wait WAIT`; returns
    /// once it showed them all (or ended).
    func check(_ entries: [String: [String: String]], wait: Double, name: String = #function) throws -> ChildProcess {
        try FileManager.default.createDirectory(at: feed.root, withIntermediateDirectories: true)
        try feed.publish("feed.plist", Fixtures.xmlFeed(entries))
        let run = try desktop.herald(["check", "--feed", feed.url("feed.plist"), "--app-id", desktop.appID, "--force", "--max", "5", "--json",
                                      "--wait", String(wait)], name: "herald-\(name.prefix(40))-\(UUID().uuidString.prefix(4))")
        XCTAssertTrue(eventually(within: 30) { shown(run).count == entries.count || !run.process.isRunning },
                      "\(server.rawValue): shows all \(entries.count)\n\(run.output)\(run.errorOutput)")
        return run
    }

    func shown(_ run: ChildProcess) -> [[String: Any]] { run.events.filter { $0["event"] as? String == "shown" } }

    /// The events of a run but `fetched`, `detected` and `shown` (whose ids vary), as
    /// `event key action/reason` lines.
    func answers(_ run: ChildProcess) -> [String] {
        run.events.compactMap { event in
            let name = event["event"] as? String ?? ""
            guard !["fetched", "detected", "shown", "mirror", "not-modified"].contains(name) else { return nil }
            return [name, event["key"] as? String, event["action"] as? String ?? event["reason"] as? String].compactMap { $0 }.joined(separator: " ")
        }
    }

    /// The answers in the state file: viewed and ignored keys, keys put off with remind later.
    func recorded() throws -> [String: [String]] {
        let state = try desktop.state()
        return ["viewed": (state["viewed"] as? [String] ?? []).sorted(), "ignored": (state["ignored"] as? [String] ?? []).sorted(),
                "reminded": ((state["reminded"] as? [String: Any])?.keys.map { $0 } ?? []).sorted()]
    }

    /// Every message's body and actions as the server received them, from one check showing
    /// all five. (Through the portal too these are Notify calls: xdg-desktop-portal-gtk 1.14
    /// hands them to org.freedesktop.Notifications even where GNOME Shell owns org.gtk.Notifications.)
    func receivedAllFive() throws -> [String: (body: String, actions: [Action])] {
        let mark = desktop.mark()
        let run = try check(Matrix.all, wait: 3)
        XCTAssertEqual(run.wait(seconds: 30), 0, run.errorOutput)
        var received: [String: (body: String, actions: [Action])] = [:]
        XCTAssertTrue(eventually(within: 5) {
            received = [:]
            for call in desktop.notifyCalls(since: mark) { received[call.summary] = (call.body, call.actions.map { Action(id: $0.id, label: $0.label) }) }
            return received.count == Matrix.all.count
        }, "\(server.rawValue): every message reached the server: \(received.keys.sorted()); calls: \(desktop.busMessages(since: mark).filter { $0["type"] as? String == "call" }.compactMap { "\($0["interface"] ?? "").\($0["member"] ?? "")" })")
        return received
    }

    func assertBodiesWithTheFiveNamedEntities(markup: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let received = try receivedAllFive()
        XCTAssertEqual(received.mapValues(\.body), Matrix.bodies(markup: markup), "\(server.rawValue): the bodies, exactly", file: file, line: line)
    }

    /// The actions the server received for the link and for a message without one.
    func assertActions(link: [Action], ok: [Action], file: StaticString = #filePath, line: UInt = #line) throws {
        let received = try receivedAllFive()
        XCTAssertEqual(received[Matrix.link["Title"]!]?.actions, link, "\(server.rawValue): the link's actions", file: file, line: line)
        XCTAssertEqual(received[Matrix.ok["Title"]!]?.actions, ok, "\(server.rawValue): a message's actions without a link", file: file, line: line)
    }

    /// Shows one message and returns the text drawn for it once its title is on the screen.
    func drawn(_ key: String, hover: Bool = false, until ready: ((ScreenText) -> Bool)? = nil) throws -> (run: ChildProcess, text: ScreenText, region: ScreenRegion)? {
        try againIfThePortalBackendDied { try drawnOnce(key, hover: hover, until: ready) }
    }

    private func drawnOnce(_ key: String, hover: Bool, until ready: ((ScreenText) -> Bool)?) throws -> Step<(run: ChildProcess, text: ScreenText, region: ScreenRegion)> {
        let entry = Matrix.all[key]!
        let run = try check([key: entry], wait: 30)
        let titleStart = String(entry["Title"]!.prefix(6))
        guard let seen = try desktop.drawnText(within: 12, hover: hover, until: ready ?? { $0.normalized.contains(titleStart) }) else {
            run.stop()
            return .failed("\(server.rawValue): nothing drawn for \(key)")
        }
        return .done((run, seen.text, seen.region))
    }

    /// A step on the screen: done, or failed with what went wrong.
    enum Step<Value> {
        case done(Value)
        case failed(String)
    }

    /// Runs `step`; where it fails because the portal's gtk backend failed under it, it starts
    /// the backend again, forgets the state and runs the step again, up to three attempts in all.
    /// xdg-desktop-portal-gtk 1.14 can corrupt its heap as it draws or on a click: it aborts
    /// ("free(): invalid pointer") at once or a while later, and may lose a click before it does;
    /// D-Bus activation starts it again on a desktop. The backend failed under the step where it
    /// died during it (or within a few seconds after the step failed), died just before it, or
    /// lost a click the server reported. Any other failure fails the test at once; the last
    /// failure names the earlier ones.
    func againIfThePortalBackendDied<Value>(_ step: () throws -> Step<Value>) throws -> Value? {
        var failures: [String] = []
        // A death just before the first attempt counts too: what the dead backend left on screen
        // can stand in front of the step's own notification.
        var endsBefore = testBackendEnds
        for attempt in 1...3 {
            let deathsBefore = desktop.portalBackendDeaths
            let mark = desktop.mark()
            switch try step() {
            case .done(let value):
                testBackendEnds = desktop.portalBackendEnds.count
                return value
            case .failed(let failure):
                failures.append(failure)
            }
            guard attempt < 3, server.throughPortal else { break }
            let diedUnderTheStep = eventually(within: 5) { desktop.portalBackendDeaths > deathsBefore } || desktop.portalBackendEnds.count > endsBefore
            if !diedUnderTheStep {
                guard desktop.portalBackendLostAClick(since: mark) else { break }
                try desktop.restartPortalBackend(because: "it lost a click: \(desktop.invokedActions(since: mark))")
            }
            endsBefore = desktop.portalBackendEnds.count
            try desktop.clearScreen()
            desktop.resetState()
        }
        let earlier = failures.dropLast().enumerated().map { "\n(attempt \($0.offset + 1), the portal's gtk backend failing under it: \($0.element))" }
        XCTFail(failures.last! + earlier.joined())
        return nil
    }

    /// Shows one message, presses the button labelled `label` and returns the run, ended.
    func press(_ label: String, on key: String, id: String) throws -> ChildProcess? {
        let mark = desktop.mark()
        if server == .dunst {
            let run = try check([key: Matrix.all[key]!], wait: 30)
            let menu = try desktop.chooseInDunstMenu(",\(id)]")
            XCTAssertTrue(menu.contains { $0.hasPrefix("#\(label) (") && $0.hasSuffix(",\(id)]") }, "dunst's menu offers \(label): \(menu)")
            XCTAssertEqual(run.wait(seconds: 15), 0)
            return run
        }
        let hover = server.isGnomeShell
        return try againIfThePortalBackendDied {
            guard case .done(let seen) = try drawnOnce(key, hover: hover, until: { $0.centre(of: label) != nil }) else {
                return .failed("\(server.rawValue): nothing drawn with \(label) for \(key)")
            }
            guard let point = seen.text.centre(of: label) else {
                seen.run.stop()
                return .failed("\(server.rawValue): drawn without \(label): \(seen.text.normalized)")
            }
            try desktop.click(x: point.x, y: point.y)
            let status = seen.run.wait(seconds: 15)
            guard status == 0 else {
                let screen = (try? desktop.screenshot("unanswered-\(id)")) ?? "no screenshot"
                seen.run.stop()
                return .failed("\(server.rawValue): \(label) does not end the check (\(String(describing: status)))\n\(seen.run.output)\(seen.run.errorOutput)"
                               + "\nclicked at \(point.x),\(point.y) of: \(seen.text.normalized)\nthe screen after: \(screen)"
                               + "\nsignals: \(desktop.invokedActions(since: mark))\n\(desktop.endedProcesses)")
            }
            return .done(seen.run)
        }
    }

    func assertEachButtonRecordsItsAnswer(file: StaticString = #filePath, line: UInt = #line) throws {
        for (label, key, answer) in [("What's new", Matrix.linkKey, "view"), ("Remind Me Later", Matrix.linkKey, "remind"),
                                     ("Ignore", Matrix.linkKey, "ignore"), ("OK", Matrix.okKey, "ok")] {
            try desktop.clearScreen()
            desktop.resetState()
            let linksBefore = desktop.session.openedLinks.count
            guard let run = try press(label, on: key, id: answer) else {
                XCTFail("\(server.rawValue): \(label) was not pressed", file: file, line: line)
                continue
            }
            XCTAssertEqual(answers(run), ["answered \(key) \(answer)"], "\(server.rawValue): \(label)", file: file, line: line)
            let expected: [String: [String]] = ["viewed": ["view", "ok"].contains(answer) ? [key] : [], "ignored": answer == "ignore" ? [key] : [],
                                                "reminded": answer == "remind" ? [key] : []]
            XCTAssertEqual(try recorded(), expected, "\(server.rawValue): \(label) recorded", file: file, line: line)
            if answer == "view" {
                XCTAssertTrue(eventually(within: 5) { desktop.session.openedLinks.count > linksBefore }, "\(server.rawValue): the link is opened", file: file, line: line)
                XCTAssertEqual(Array(desktop.session.openedLinks.dropFirst(linksBefore)), ["https://example.org/new"], file: file, line: line)
            }
        }
    }

    /// A click on the body of the link's notification: what the run reports and records.
    /// A click on the link message's body answers view, and the state records it viewed.
    func assertAClickOnTheBodyIsView(file: StaticString = #filePath, line: UInt = #line) throws {
        let click = try clickOnTheBody()
        XCTAssertEqual(click?.answers, ["answered \(Matrix.linkKey) view"], file: file, line: line)
        XCTAssertEqual(click?.recorded, ["viewed": [Matrix.linkKey], "ignored": [], "reminded": []], file: file, line: line)
    }

    /// A click on the link message's body closes it as dismissed (close reason 2, as the server
    /// reports it), which records remind later.
    func assertAClickOnTheBodyIsADismissal(file: StaticString = #filePath, line: UInt = #line) throws {
        let click = try clickOnTheBody()
        XCTAssertEqual(click?.answers, ["closed \(Matrix.linkKey) dismissed"], file: file, line: line)
        XCTAssertEqual(click?.recorded, ["viewed": [], "ignored": [], "reminded": [Matrix.linkKey]], file: file, line: line)
        XCTAssertEqual(click?.closeReasons, [2], "the close reason the server reports for a click on the body", file: file, line: line)
    }

    func clickOnTheBody() throws -> (answers: [String], recorded: [String: [String]], closeReasons: [Int])? {
        let mark = desktop.mark()
        guard let seen = try drawn(Matrix.linkKey, until: { $0.centre(of: "Faster") != nil }) else { return nil }
        guard let point = seen.text.centre(of: "Faster") else {
            seen.run.stop()
            XCTFail("\(server.rawValue): the body is not drawn")
            return nil
        }
        try desktop.click(x: point.x, y: point.y)
        XCTAssertTrue(eventually(within: 8) { !seen.run.process.isRunning }, "\(server.rawValue): a click on the body ends the check")
        seen.run.stop()
        let id = shown(seen.run).first?["id"] as? Int ?? -1
        return (answers(seen.run), try recorded(), desktop.closedSignals(since: mark).filter { $0.first == id }.map { $0.last ?? -1 })
    }

    /// Closes the notification as a person does on this server.
    func dismiss(_ seen: (run: ChildProcess, text: ScreenText, region: ScreenRegion)) throws {
        let region = seen.region
        switch server {
        case .notificationDaemon: try desktop.click(x: region.x + region.width - 24, y: region.y + 22)
        case .dunst: try desktop.click(x: region.x + region.width / 2, y: region.y + region.height / 2)
        // Its only close gesture is a click on the bubble.
        case .xfce4Notifyd, .portalToXfce4Notifyd:
            let point = seen.text.centre(of: "Faster") ?? (region.x + 20, region.y + 20)
            try desktop.click(x: point.x, y: point.y)
        case .gnomeShell, .portalToGnomeShell:
            try desktop.pointer(to: 640, 75)
            try desktop.click(x: 866, y: 59)
        case .plasma:
            // The close button at the right end of the header line (the popup's right edge is at 1243).
            let header = seen.text.words.first.map { $0.y + $0.height / 2 } ?? (region.y + 14)
            try desktop.click(x: 1228, y: header)
        }
    }

    /// - Parameters:
    ///   - expected: the run's events after the close gesture (by default, closed as dismissed).
    ///   - reminded: whether it is recorded as remind later.
    func assertDismissalRemindsLaterAndTheWaitsEndRecordsNothing(dismissal expected: [String] = ["closed \(Matrix.linkKey) dismissed"], reminded: Bool = true, waitForDismissal: Double = 10,
                                                                  file: StaticString = #filePath, line: UInt = #line) throws {
        if let seen = try drawn(Matrix.linkKey) {
            try dismiss(seen)
            XCTAssertTrue(eventually(within: waitForDismissal) { !seen.run.process.isRunning }, "\(server.rawValue): the close gesture ends the check", file: file, line: line)
            seen.run.stop()
            XCTAssertEqual(answers(seen.run), expected, "\(server.rawValue): the dismissal", file: file, line: line)
            XCTAssertEqual(try recorded(), ["viewed": [], "ignored": [], "reminded": reminded ? [Matrix.linkKey] : []],
                           file: file, line: line)
        }
        desktop.resetState()
        let waited = try check([Matrix.okKey: Matrix.ok], wait: 2)
        XCTAssertEqual(waited.wait(seconds: 20), 0)
        XCTAssertEqual(answers(waited), ["closed \(Matrix.okKey) closed-by-herald"], "\(server.rawValue): the wait's end", file: file, line: line)
        XCTAssertEqual(try recorded(), ["viewed": [], "ignored": [], "reminded": []], "nothing recorded", file: file, line: line)
        let again = try check([Matrix.okKey: Matrix.ok], wait: 1)
        XCTAssertEqual(again.wait(seconds: 20), 0)
        XCTAssertEqual(shown(again).count, 1, "\(server.rawValue): shown again at the next check", file: file, line: line)
    }

    func assertDefersWhileDoNotDisturbIsOn(reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try desktop.setDoNotDisturb(true)
        let mark = desktop.mark()
        let run = try check([Matrix.okKey: Matrix.ok], wait: 1)
        XCTAssertEqual(run.wait(seconds: 20), 0)
        XCTAssertEqual(desktop.notifyCalls(since: mark).count + desktop.calls("org.freedesktop.portal.Notification", "AddNotification", since: mark).count, 0,
                       "\(server.rawValue): nothing is shown", file: file, line: line)
        XCTAssertEqual(answers(run), ["deferred \(reason)"], "\(server.rawValue): the deferral is reported", file: file, line: line)
        XCTAssertEqual(run.events.first { $0["event"] as? String == "deferred" }?["reason"] as? String, reason, file: file, line: line)
    }
}

extension DesktopMatrixCase {
    /// The text drawn for one message, compared whole but for white space and letter case:
    /// a line may wrap after "https://", and tesseract reads GNOME's bold "I" as "i".
    func assertDrawn(_ key: String, _ expected: String, hover: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        func comparable(_ text: String) -> String { ScreenText.normalize(text).replacingOccurrences(of: " ", with: "").lowercased() }
        guard let seen = try drawn(key, hover: hover, until: { comparable($0.text) == comparable(expected) }) else { return }
        XCTAssertEqual(comparable(seen.text.text), comparable(expected), "\(server.rawValue): what is drawn for \(key): \(seen.text.normalized)", file: file, line: line)
        seen.run.stop()
    }
}

final class NotificationDaemonDesktopMatrixTests: DesktopMatrixCase {
    override class var server: RealServer { .notificationDaemon }

    func testNotificationDaemonReceivesEachBodyWithTheFiveNamedEntitiesOnly() throws { try assertBodiesWithTheFiveNamedEntities(markup: true) }

    func testNotificationDaemonReceivesViewRemindIgnoreForALinkAndOKOtherwise() throws {
        try assertActions(link: Matrix.defaultFirst, ok: Matrix.okActions)
    }

    func testNotificationDaemonShowsTheProbeAsTypedWithOneOKButton() throws {
        try assertDrawn(Matrix.probeKey, #"Don't miss it Tom's <b>bold</b> & "quoted" <a href="https://evil.example">x</a> OK"#)
    }

    func testNotificationDaemonDrawsWhatsNewRemindMeLaterAndIgnoreForALink() throws {
        try assertDrawn(Matrix.linkKey, "Version 2 is out Faster sync and a dark theme. What's new Remind Me Later Ignore")
    }

    func testNotificationDaemonRecordsTheAnswerOfEachButton() throws { try assertEachButtonRecordsItsAnswer() }

    func testNotificationDaemonTakesAClickOnTheBodyAsView() throws {
        try assertAClickOnTheBodyIsView()
    }

    func testNotificationDaemonDismissalRemindsLaterAndTheWaitsEndRecordsNothing() throws {
        try assertDismissalRemindsLaterAndTheWaitsEndRecordsNothing()
    }
}

final class DunstDesktopMatrixTests: DesktopMatrixCase {
    override class var server: RealServer { .dunst }

    func testDunstReceivesEachBodyWithTheFiveNamedEntitiesOnly() throws { try assertBodiesWithTheFiveNamedEntities(markup: true) }

    func testDunstReceivesViewRemindIgnoreForALinkAndOKOtherwise() throws {
        try assertActions(link: Matrix.defaultFirst, ok: Matrix.okActions)
    }

    /// dunst draws no buttons ("(A)" says there are actions, "U" that the text holds a URL); they
    /// are offered in its menu.
    func testDunstShowsTheProbeAsTyped() throws {
        try assertDrawn(Matrix.probeKey, #"(AU) Don't miss it Tom's <b>bold</b> & "quoted" <a href="https://evil.example">x</a>"#)
    }

    func testDunstOffersWhatsNewRemindMeLaterAndIgnoreInItsMenuForALink() throws {
        let run = try check([Matrix.linkKey: Matrix.link], wait: 30)
        let menu = try desktop.chooseInDunstMenu("no such entry")
        let id = shown(run).first?["id"] as? Int ?? -1
        run.stop()
        XCTAssertEqual(menu.sorted(), ["#Ignore (Version 2 is out) [\(id),ignore]", "#Remind Me Later (Version 2 is out) [\(id),remind]",
                                       "#What's new (Version 2 is out) [\(id),default]", "#What's new (Version 2 is out) [\(id),view]"],
                       "dunst's menu: the default action is offered too, under the view label")
    }

    func testDunstRecordsTheAnswerOfEachButton() throws { try assertEachButtonRecordsItsAnswer() }

    /// dunst's left click closes (its mouse_left_click default, close_current): a dismissal.
    func testDunstTakesAClickOnTheBodyAsADismissal() throws {
        try assertAClickOnTheBodyIsADismissal()
    }

    func testDunstDismissalRemindsLaterAndTheWaitsEndRecordsNothing() throws {
        try assertDismissalRemindsLaterAndTheWaitsEndRecordsNothing()
    }

    func testDunstDefersWhilePaused() throws { try assertDefersWhileDoNotDisturbIsOn(reason: "server-paused") }
}

final class Xfce4NotifydDesktopMatrixTests: DesktopMatrixCase {
    override class var server: RealServer { .xfce4Notifyd }

    func testXfce4NotifydReceivesEachBodyWithTheFiveNamedEntitiesOnly() throws { try assertBodiesWithTheFiveNamedEntities(markup: true) }

    /// xfce4-notifyd draws the default action as a button: it must not be sent.
    func testXfce4NotifydReceivesViewRemindIgnoreForALinkAndOKOtherwiseWithoutDefault() throws {
        try assertActions(link: Matrix.viewRemindIgnore, ok: Matrix.okButtonOnly)
    }

    func testXfce4NotifydShowsTheProbeAsTypedWithOneOKButton() throws { try assertDrawn(Matrix.probeKey, Matrix.probeAsTyped + " OK") }

    func testXfce4NotifydDrawsWhatsNewRemindMeLaterAndIgnoreForALink() throws {
        try assertDrawn(Matrix.linkKey, Matrix.linkAsTyped + " What's new Remind Me Later Ignore")
    }

    func testXfce4NotifydRecordsTheAnswerOfEachButton() throws { try assertEachButtonRecordsItsAnswer() }

    func testXfce4NotifydTakesAClickOnTheBodyAsADismissal() throws {
        try assertAClickOnTheBodyIsADismissal()
    }

    func testXfce4NotifydDismissalRemindsLaterAndTheWaitsEndRecordsNothing() throws {
        try assertDismissalRemindsLaterAndTheWaitsEndRecordsNothing()
    }

    func testXfce4NotifydDefersWhileDoNotDisturbIsOn() throws { try assertDefersWhileDoNotDisturbIsOn(reason: "xfce-do-not-disturb") }
}

final class GnomeShellDesktopMatrixTests: DesktopMatrixCase {
    override class var server: RealServer { .gnomeShell }

    func testGnomeShellReceivesEachBodyWithTheFiveNamedEntitiesOnly() throws { try assertBodiesWithTheFiveNamedEntities(markup: true) }

    func testGnomeShellReceivesViewRemindIgnoreForALinkAndOKOtherwise() throws {
        try assertActions(link: Matrix.defaultFirst, ok: Matrix.okActions)
    }

    /// The buttons show while the pointer is on the banner.
    func testGnomeShellShowsAnApostropheAsTypedWithOneOKButton() throws { try assertDrawn(Matrix.probeKey, Matrix.probeAsTyped + " OK", hover: true) }

    func testGnomeShellDrawsWhatsNewRemindMeLaterAndIgnoreForALink() throws {
        try assertDrawn(Matrix.linkKey, Matrix.linkAsTyped + " What's new Remind Me Later Ignore", hover: true)
    }

    func testGnomeShellRecordsTheAnswerOfEachButton() throws { try assertEachButtonRecordsItsAnswer() }

    func testGnomeShellTakesAClickOnTheBodyAsView() throws {
        try assertAClickOnTheBodyIsView()
    }

    func testGnomeShellDismissalRemindsLaterAndTheWaitsEndRecordsNothing() throws {
        try assertDismissalRemindsLaterAndTheWaitsEndRecordsNothing()
    }

    func testGnomeShellDefersWhileBannersAreOff() throws { try assertDefersWhileDoNotDisturbIsOn(reason: "do-not-disturb") }
}

final class PlasmaDesktopMatrixTests: DesktopMatrixCase {
    override class var server: RealServer { .plasma }

    func testPlasmaReceivesEachBodyWithTheFiveNamedEntitiesOnly() throws { try assertBodiesWithTheFiveNamedEntities(markup: true) }

    func testPlasmaReceivesViewRemindIgnoreForALinkAndOKOtherwise() throws {
        try assertActions(link: Matrix.defaultFirst, ok: Matrix.okActions)
    }

    /// Without a desktop entry for the app, its id heads the popup.
    func testPlasmaShowsTheProbeAsTypedWithOneOKButton() throws { try assertDrawn(Matrix.probeKey, "org.example.App " + Matrix.probeAsTyped + " OK") }

    func testPlasmaDrawsWhatsNewRemindMeLaterAndIgnoreForALink() throws {
        try assertDrawn(Matrix.linkKey, "org.example.App " + Matrix.linkAsTyped + " What's new Remind Me Later Ignore")
    }

    func testPlasmaRecordsTheAnswerOfEachButton() throws { try assertEachButtonRecordsItsAnswer() }

    func testPlasmaTakesAClickOnTheBodyAsView() throws {
        try assertAClickOnTheBodyIsView()
    }

    func testPlasmaDismissalRemindsLaterAndTheWaitsEndRecordsNothing() throws {
        try assertDismissalRemindsLaterAndTheWaitsEndRecordsNothing()
    }

    func testPlasmaDefersWhileInhibited() throws { try assertDefersWhileDoNotDisturbIsOn(reason: "server-inhibited") }
}

final class PortalToXfce4NotifydDesktopMatrixTests: DesktopMatrixCase {
    override class var server: RealServer { .portalToXfce4Notifyd }

    func testPortalToXfce4NotifydReceivesEachBodyWithTheFiveNamedEntitiesOnly() throws { try assertBodiesWithTheFiveNamedEntities(markup: true) }

    /// The gtk backend passes on the buttons alone: no default action, so no button for it.
    func testPortalToXfce4NotifydDrawsNoButtonForTheDefaultAction() throws {
        try assertActions(link: Matrix.viewRemindIgnore, ok: Matrix.okButtonOnly)
    }

    func testPortalToXfce4NotifydShowsTheProbeAsTypedWithOneOKButton() throws { try assertDrawn(Matrix.probeKey, Matrix.probeAsTyped + " OK") }

    func testPortalToXfce4NotifydDrawsWhatsNewRemindMeLaterAndIgnoreForALink() throws {
        try assertDrawn(Matrix.linkKey, Matrix.linkAsTyped + " What's new Remind Me Later Ignore")
    }

    func testPortalToXfce4NotifydRecordsTheAnswerOfEachButtonAndOpensTheLink() throws { try assertEachButtonRecordsItsAnswer() }

    /// The portal tells the app nothing of a notification closed on the server (no signal for
    /// it in xdg-desktop-portal 1.16): the wait ends, nothing is recorded.
    func testPortalToXfce4NotifydDismissalIsUnknownToTheAppAndTheWaitsEndRecordsNothing() throws {
        try assertDismissalRemindsLaterAndTheWaitsEndRecordsNothing(dismissal: ["closed \(Matrix.linkKey) closed-by-herald"], reminded: false, waitForDismissal: 35)
    }

    func testPortalToXfce4NotifydDefersWhileDoNotDisturbIsOn() throws { try assertDefersWhileDoNotDisturbIsOn(reason: "xfce-do-not-disturb") }
}

final class PortalToGnomeShellDesktopMatrixTests: DesktopMatrixCase {
    override class var server: RealServer { .portalToGnomeShell }

    func testPortalToGnomeShellReceivesEachBodyWithTheFiveNamedEntitiesOnly() throws { try assertBodiesWithTheFiveNamedEntities(markup: true) }

    /// The gtk backend passes on the buttons alone: no default action, so no button for it.
    func testPortalToGnomeShellDrawsNoButtonForTheDefaultAction() throws {
        try assertActions(link: Matrix.viewRemindIgnore, ok: Matrix.okButtonOnly)
    }

    func testPortalToGnomeShellShowsTheProbeAsTypedWithOneOKButton() throws { try assertDrawn(Matrix.probeKey, Matrix.probeAsTyped + " OK", hover: true) }

    func testPortalToGnomeShellDrawsWhatsNewRemindMeLaterAndIgnoreForALink() throws {
        try assertDrawn(Matrix.linkKey, Matrix.linkAsTyped + " What's new Remind Me Later Ignore", hover: true)
    }

    func testPortalToGnomeShellRecordsTheAnswerOfEachButtonAndOpensTheLink() throws { try assertEachButtonRecordsItsAnswer() }

    /// Inside the sandbox the host's `show-banners` is asked of the Settings portal; the gtk
    /// backend of Debian 12 does not offer that schema, so the message shows (desktop/docs/administrators.md, "In a
    /// Flatpak app").
    func testPortalToGnomeShellAsksTheSettingsPortalForTheHostsBanners() throws {
        try desktop.setDoNotDisturb(true)
        let mark = desktop.mark()
        let run = try check([Matrix.okKey: Matrix.ok], wait: 1)
        XCTAssertEqual(run.wait(seconds: 20), 0)
        let reads = desktop.calls("org.freedesktop.portal.Settings", "Read", since: mark).map { $0["args"] as? [String] ?? [] }
        XCTAssertEqual(reads, [["org.gnome.desktop.notifications", "show-banners"]], "the host's setting is asked of the Settings portal")
        XCTAssertEqual(desktop.calls("org.freedesktop.portal.Notification", "AddNotification", since: mark).count, 1,
                       "the gtk backend does not offer the schema, so the message shows")
        try desktop.setDoNotDisturb(false)
    }
}
