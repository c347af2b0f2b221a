import CDesktopLibraries
import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// The rounds of the concurrency test: what each round publishes, and how to read what each
/// check decided from its `--json` events.
private enum Rounds {
    static let appID = "org.example.Concurrent"
    static let rounds = 50
    static let checksPerRound = 10

    /// One message of a round: what the feed says and how the test answers it.
    struct RoundMessage {
        var key: String
        var title: String
        var link: String?
        /// A message without a link offers only "ok"; one with a link offers "view", "remind" and
        /// "ignore", and "view" is never used because it would open the link.
        var answer: String
    }

    /// Two or three messages no earlier round had, with and without links, answered in turn
    /// with "ok", "remind" and "ignore". Titles are unique, so Notify calls tell them apart.
    static func messages(ofRound round: Int) -> [RoundMessage] {
        let name = String(format: "round-%02d", round)
        return ["a", "b", "c"].prefix(2 + round % 2).enumerated().map { index, letter in
            let turn = round + index
            let link = turn % 2 == 0 ? "https://example.com/\(name)/\(letter)" : nil
            let answer = link == nil ? "ok" : ["ignore", "remind"][(turn / 2) % 2]
            return RoundMessage(key: "\(name)/\(letter)", title: "Round \(round) message \(letter)", link: link, answer: answer)
        }
    }

    static func feed(_ messages: [RoundMessage]) -> String {
        Fixtures.xmlFeed(Dictionary(uniqueKeysWithValues: messages.map { message in
            var fields = ["Title": message.title, "Message": "Sent to every check of this round"]
            fields["ActionURL"] = message.link
            return (message.key, fields)
        }))
    }

    static func events(_ check: ChildProcess, _ name: String) -> [[String: Any]] {
        check.events.filter { $0["event"] as? String == name }
    }

    /// What a check decided about each message it decided on: "shown" or the skip reason.
    static func decisions(_ check: ChildProcess) -> [String: String] {
        var decisions: [String: String] = [:]
        for event in events(check, "shown") { decisions[event["key"] as? String ?? ""] = "shown" }
        for event in events(check, "skipped") { decisions[event["key"] as? String ?? ""] = event["reason"] as? String ?? "" }
        return decisions
    }

    /// Whether a check has made up its mind about every message, failed or exited: only then are
    /// all Notify calls it will make in this round made.
    static func hasDecided(_ check: ChildProcess, about keys: [String]) -> Bool {
        !check.process.isRunning || !events(check, "failed").isEmpty || Set(keys).isSubset(of: decisions(check).keys)
    }

    /// The answers `herald state` lists, and the messages still claimed as on screen.
    struct KeptAnswers: Equatable {
        var ignored: [String]?
        var reminded: [String]?
        var viewed: [String]?
        var presenting: [String]?
    }
}

/// Many checks of one app starting at the same instant, as at a login where the autostart job
/// and the app itself check together: ten `herald check` processes and a `Herald` in this
/// process, released by one barrier, fifty rounds. Each message must reach the screen once, and
/// every answer given in any of them must be kept (DESIGN.md D16).
final class ConcurrentChecksTests: XCTestCase {
    func testMessagesAreShownOnceWhenTenChecksAndTheAppStartAtTheSameInstant() throws {
        try MainContext.assumeIsolated {
            let session = InProcessDesktop.session
            let directory = session.directory.appendingPathComponent("concurrent")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let server = try FeedServer(directory: directory)
            // The session's budget is out of the way: these rounds show far more than a day's
            // budget (AttentionBudgetEndToEndTests holds checks to it).
            try session.setBudgetOutOfTheWay()
            let arguments = ["check", "--json", "--feed", server.url("feed.plist"), "--app-id", Rounds.appID,
                             "--show-on-first-launch", "--force", "--wait", "30"]
            var duplicates: [String] = []
            var missing: [String] = []
            var expectedAnswers: [String: [String]] = ["ignore": [], "remind": [], "ok": []]
            // The shared mock server has the calls of earlier tests too.
            var notified = try session.notifyCalls().count

            // Printed with every failure, so a round that breaks still tells how the earlier ones went.
            func tally(after round: Int) -> String {
                "duplicates in \(duplicates.count) of \(round) Rounds.rounds: \(duplicates.joined(separator: "; "))"
                    + (missing.isEmpty ? "" : "; never shown: \(missing.joined(separator: ", "))")
            }

            for round in 1...Rounds.rounds {
                let messages = Rounds.messages(ofRound: round)
                let keys = messages.map(\.key)
                try server.publish("feed.plist", Rounds.feed(messages))

                let barrier = try ProcessBarrier()
                let checks = try (0..<Rounds.checksPerRound).map { index in
                    try barrier.start(TestPaths.herald, arguments, environment: session.environment, directory: directory,
                                      name: String(format: "round-%02d-check-%02d", round, index))
                }
                // The app: its own Herald, as at start-up, whose check starts when the gate opens.
                let app = InAppParticipant()
                let herald = try Herald(configuration: .init(
                    feedURL: server.url("feed.plist"), appID: Rounds.appID, appVersion: nil,
                    check: CheckConfiguration(showOnFirstLaunch: true), waitLimit: .seconds(30), environment: session.environment))
                herald.delegate = app
                startCheck(of: herald, when: try barrier.releaseSignal())
                try barrier.release()

                guard spin(30, until: { checks.allSatisfy { Rounds.hasDecided($0, about: keys) } && app.hasDecided(about: keys) }) else {
                    let undecided = checks.filter { !Rounds.hasDecided($0, about: keys) }.map { $0.output + $0.errorOutput }
                    return XCTFail("round \(round): still undecided about \(keys): \(undecided), app: \(app.decisions); \(tally(after: round - 1))")
                }
                for (index, check) in checks.enumerated() {
                    let decided = Rounds.decisions(check)
                    guard Set(decided.keys) == Set(keys), Set(decided.values).isSubset(of: ["shown", "shown-elsewhere"]) else {
                        return XCTFail("round \(round), check \(index) should show or leave to another check each of \(keys): "
                                       + "\(check.output) \(check.errorOutput); \(tally(after: round - 1))")
                    }
                }
                guard Set(app.decisions.keys) == Set(keys), Set(app.decisions.values).isSubset(of: ["shown", "shown-elsewhere"]) else {
                    return XCTFail("round \(round), the app should show or leave to another check each of \(keys): \(app.decisions) \(app.failures)")
                }

                // A check prints "shown" after its Notify call returned, so this round's calls are all in.
                let calls = try session.notifyCalls()
                let roundCalls = calls.dropFirst(notified)
                notified = calls.count
                let shown = checks.flatMap { Rounds.events($0, "shown") }.map { (key: $0["key"] as? String ?? "", id: $0["id"] as? Int ?? 0) } + app.shown
                guard roundCalls.count == shown.count, Set(roundCalls.map(\.summary)).isSubset(of: messages.map(\.title)) else {
                    return XCTFail("round \(round): \(shown.count) shown events but Notify calls \(roundCalls.map(\.summary)); \(tally(after: round - 1))")
                }
                let copies = messages.map { message in (key: message.key, count: roundCalls.filter { $0.summary == message.title }.count) }
                let repeated = copies.filter { $0.count > 1 }.map { "\($0.key) ×\($0.count)" }
                if !repeated.isEmpty { duplicates.append("round \(round): " + repeated.joined(separator: ", ")) }
                missing += copies.filter { $0.count == 0 }.map(\.key)

                // Every copy of a message gets the same answer, so the state has one truth to keep.
                let answers = Dictionary(uniqueKeysWithValues: messages.map { ($0.key, $0.answer) })
                try session.invoke(shown.map { (action: answers[$0.key]!, id: $0.id) })
                _ = spin(35) { checks.allSatisfy { !$0.process.isRunning } && app.finished }
                for (index, check) in checks.enumerated() {
                    let status = check.wait(seconds: 1)
                    let given = Rounds.events(check, "answered").map { "\($0["key"] as? String ?? "") \($0["action"] as? String ?? "")" }.sorted()
                    let asked = Rounds.events(check, "shown").map { "\($0["key"] as? String ?? "") \(answers[$0["key"] as? String ?? ""] ?? "")" }.sorted()
                    guard status == 0, given == asked else {
                        return XCTFail("round \(round), check \(index): exit \(status), answered \(given) instead of \(asked): "
                                       + "\(check.output) \(check.errorOutput); \(tally(after: round))")
                    }
                }
                let appAsked = app.shown.map { "\($0.key) \(answers[$0.key] ?? "")" }.sorted()
                guard app.finished, app.answered.sorted() == appAsked else {
                    return XCTFail("round \(round), the app answered \(app.answered) instead of \(appAsked), finished: \(app.finished)")
                }

                for message in messages where copies.contains(where: { $0.key == message.key && $0.count > 0 }) {
                    expectedAnswers[message.answer, default: []].append(message.key)
                }
                let state = try session.state(appID: Rounds.appID)
                let kept = Rounds.KeptAnswers(ignored: state["ignored"] as? [String], reminded: (state["reminded"] as? [String: Any])?.keys.sorted(),
                                       viewed: state["viewed"] as? [String], presenting: (state["presenting"] as? [String: Any])?.keys.sorted())
                let expected = Rounds.KeptAnswers(ignored: expectedAnswers["ignore"]!.sorted(), reminded: expectedAnswers["remind"]!.sorted(),
                                           viewed: expectedAnswers["ok"]!.sorted(), presenting: [])
                XCTAssertEqual(kept, expected, "round \(round): every answer of every round kept, no claim outlives its check; \(tally(after: round))")
                guard kept == expected else { return }
            }

            XCTAssertEqual(duplicates.count, 0, tally(after: Rounds.rounds))
            XCTAssertEqual(missing.count, 0, tally(after: Rounds.rounds))
        }
    }
}

/// The app in the test process: one more participant of each round, on the GLib main loop.
@MainContext
final class InAppParticipant: HeraldDelegate {
    /// What it decided about each message: "shown" or the skip reason.
    var decisions: [String: String] = [:]
    var shown: [(key: String, id: Int)] = []
    var answered: [String] = []
    var failures: [String] = []
    var finished = false

    func hasDecided(about keys: [String]) -> Bool {
        finished || !failures.isEmpty || Set(keys).isSubset(of: decisions.keys)
    }

    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .messageSkipped(let key, let reason): decisions[key] = reason.name
        case .checkFailed(let error): failures.append(error.description)
        case .checkFinished: finished = true
        default: break
        }
    }
    func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32) {
        guard case .message(let message) = notice else { return }
        decisions[message.key] = "shown"
        shown.append((message.key, Int(notificationID)))
    }
    func herald(_ herald: Herald, didReceive answer: NoticeAnswer) {
        guard case .message(let message, let answer) = answer, answer != .view else { return }
        answered.append("\(message.key) \(answer.rawValue)")
    }
}

/// Starts a check of `herald` from the GLib loop the moment the barrier opens: a watch on the
/// barrier's pipe, which reaches end-of-file at the release.
@MainContext
func startCheck(of herald: Herald, when released: ReleaseSignal) {
    final class Start {
        let herald: Herald
        let released: ReleaseSignal
        init(_ herald: Herald, _ released: ReleaseSignal) {
            self.herald = herald
            self.released = released
        }
    }
    let start = Unmanaged.passRetained(Start(herald, released)).toOpaque()
    g_unix_fd_add_full(Int32(G_PRIORITY_HIGH), released.descriptor, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue), { _, _, pointer in
        let herald = Unmanaged<Start>.fromOpaque(pointer!).takeUnretainedValue().herald
        MainContext.assumeIsolated { herald.checkNow() }
        return 0
    }, start, { pointer in Unmanaged<Start>.fromOpaque(pointer!).release() })
}
