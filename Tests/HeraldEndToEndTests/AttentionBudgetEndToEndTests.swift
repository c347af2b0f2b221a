import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// One attention budget across apps, kept by processes that start at the same instant: five
/// apps' `herald check`s released together by one barrier, two messages each, fifty rounds.
/// Each round is one person (a state folder of its own) on two days: on the first the five
/// checks show exactly the day's budget between them and none twice; the seven held back wait
/// in the ledger; a day later the five show exactly the three of highest priority among them.
/// Every answer is kept.
final class AttentionBudgetEndToEndTests: XCTestCase {
    static let apps = (1...5).map { "org.example.Budget\($0)" }
    static let rounds = 50

    struct Message {
        var app: String
        var key: String
        var title: String
        var priority: Int
    }

    /// Ten messages, two per app, their priorities 1 to 10 in an order that changes each round.
    static func messages(ofRound round: Int) -> [Message] {
        apps.enumerated().flatMap { index, app in
            ["x", "y"].enumerated().map { offset, letter in
                let place = index * 2 + offset
                let priority = (place * 7 + round) % 10 + 1
                let key = String(format: "round-%02d/%@/%@", round, app, letter)
                return Message(app: app, key: key, title: "Round \(round) \(app) \(letter)", priority: priority)
            }
        }
    }

    func feed(_ messages: [Message]) -> String {
        Fixtures.xmlFeed(Dictionary(uniqueKeysWithValues: messages.map { message in
            (message.key, ["Title": message.title, "Message": "One of ten", "Priority": String(message.priority)])
        }))
    }

    /// What each check decided, by key: "shown" or the skip reason; and the shown ones' ids.
    func decisions(_ checks: [ChildProcess]) -> (decided: [String: [String]], shown: [(key: String, id: Int)]) {
        var decided: [String: [String]] = [:]
        var shown: [(key: String, id: Int)] = []
        for check in checks {
            for event in check.events {
                guard let key = event["key"] as? String else { continue }
                switch event["event"] as? String {
                case "shown":
                    decided[key, default: []].append("shown")
                    shown.append((key, event["id"] as? Int ?? 0))
                case "skipped": decided[key, default: []].append(event["reason"] as? String ?? "")
                default: break
                }
            }
        }
        return (decided, shown)
    }

    /// Runs the five checks released together, waits until each decided about its two
    /// messages, answers every shown one with OK, and waits for every check to exit 0.
    func day(_ name: String, session: DesktopSession, environment: [String: String], server: FeedServer,
             messages: [Message], notified: inout Int) throws -> [(key: String, id: Int)] {
        let barrier = try ProcessBarrier()
        let checks = try Self.apps.map { app in
            try barrier.start(TestPaths.herald, ["check", "--json", "--feed", server.url("\(app).plist"), "--app-id", app,
                                                 "--show-on-first-launch", "--force", "--wait", "30"],
                              environment: environment, directory: session.directory, name: "\(name)-\(app)")
        }
        XCTAssertTrue(eventually(within: 10) { barrier.everyoneWaits }, "\(name): every check waits at the gate")
        try barrier.release()
        let keys = Set(messages.map(\.key))
        guard eventually(within: 30, { Set(decisions(checks).decided.keys) == keys || checks.contains { !$0.process.isRunning && $0.process.terminationStatus != 0 } }) else {
            XCTFail("\(name): not every message was decided on: \(checks.map { $0.output + $0.errorOutput })")
            return []
        }
        let shown = decisions(checks).shown
        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.count - notified, shown.count, "\(name): one Notify call per shown event")
        notified = calls.count
        try session.invoke(shown.map { (action: "ok", id: $0.id) })
        for check in checks {
            XCTAssertEqual(check.wait(seconds: 30), 0, "\(name): \(check.output) \(check.errorOutput)")
        }
        return shown
    }

    /// Moves every date of the person's ledger `seconds` into the past: the day passing.
    func age(ledgerOf environment: [String: String], by seconds: TimeInterval) throws {
        let store = FileAttentionLedgerStore(environment: environment)
        try store.update { ledger in
            for index in ledger.shows.indices { ledger.shows[index].at.addTimeInterval(-seconds) }
            for (app, messages) in ledger.waiting {
                for key in messages.keys {
                    ledger.waiting[app]![key]!.since.addTimeInterval(-seconds)
                    ledger.waiting[app]![key]!.seen.addTimeInterval(-seconds)
                }
            }
        }
    }

    func testFiveAppsAtOnceShowExactlyTheBudgetHighestPriorityFirstNoneTwiceAndKeepEveryAnswer() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try FeedServer(directory: session.directory, tls: nil)
        var notified = try session.notifyCalls().count
        for round in 1...Self.rounds {
            let messages = Self.messages(ofRound: round)
            for app in Self.apps { try server.publish("\(app).plist", feed(messages.filter { $0.app == app })) }
            var environment = session.environment
            let person = session.directory.appendingPathComponent(String(format: "person-%02d", round))
            try FileManager.default.createDirectory(at: person, withIntermediateDirectories: true)
            environment["XDG_STATE_HOME"] = person.path

            let first = try day(String(format: "round %02d day 1", round), session: session, environment: environment, server: server,
                                messages: messages, notified: &notified)
            let firstKeys = first.map(\.key)
            XCTAssertEqual(firstKeys.count, 3, "round \(round) day 1: exactly the day's budget of 3")
            XCTAssertEqual(Set(firstKeys).count, firstKeys.count, "round \(round) day 1: none twice")
            // Within an app, the higher priority goes first.
            for app in Self.apps {
                let own = messages.filter { $0.app == app }.sorted { $0.priority > $1.priority }
                if firstKeys.contains(own[1].key) { XCTAssertTrue(firstKeys.contains(own[0].key), "round \(round): \(app)") }
            }
            let waiting = try FileAttentionLedgerStore(environment: environment).snapshot().waiting
            XCTAssertEqual(Set(waiting.values.flatMap(\.keys)), Set(messages.map(\.key)).subtracting(firstKeys),
                           "round \(round): the seven held back wait in the ledger")

            try age(ledgerOf: environment, by: 25 * 3600)
            let second = try day(String(format: "round %02d day 2", round), session: session, environment: environment, server: server,
                                 messages: messages, notified: &notified)
            let highest = messages.filter { !firstKeys.contains($0.key) }.sorted { $0.priority > $1.priority }.prefix(3).map(\.key)
            XCTAssertEqual(Set(second.map(\.key)), Set(highest), "round \(round) day 2: the three of highest priority that waited")
            XCTAssertEqual(second.count, 3, "round \(round) day 2: none twice")

            for app in Self.apps {
                let result = try runToCompletion(TestPaths.herald, ["state", "--app-id", app, "--json"], environment: environment)
                let state = (try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]) ?? [:]
                let answered = Set((first + second).map(\.key)).filter { $0.contains("/\(app)/") }
                XCTAssertEqual(Set(state["viewed"] as? [String] ?? []), answered, "round \(round): every answer of \(app) kept")
            }
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }
}
