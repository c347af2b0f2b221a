import Foundation
@testable import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import HeraldTesting
import XCTest

/// The checks of several apps run together meet before they plan (`CheckRendezvous`, DESIGN.md
/// D27): the day's room goes to the highest priorities across every app, wherever each app
/// stands in the run's order and whichever feed came first.
final class CheckRendezvousTests: XCTestCase {
    /// Ten apps, one message each; their priorities in an order unrelated to the apps' names.
    static let priorities = [3, -2, 9, 0, 7, 1, 8, -5, 4, 2]
    static let apps = priorities.indices.map { "org.example.Rendezvous\($0)" }

    /// One feed file per app, its message keyed by the app's index, with its priority.
    static func feeds() throws -> [String] {
        let directory = try Fixtures.temporaryDirectory("herald-rendezvous")
        return try priorities.enumerated().map { index, priority in
            let file = directory.appendingPathComponent("feed-\(index).plist")
            try Fixtures.xmlFeed(["2026/11/\(String(format: "%02d", index + 1))": ["Title": "App \(index)", "Priority": String(priority)]])
                .write(to: file, atomically: true, encoding: .utf8)
            return file.absoluteString
        }
    }

    /// The `Herald` of each app in `order`, on its own feed and in-memory state, sharing
    /// `presenter`, `ledger`, `clock` and `rendezvous`, with the recorder of its events (held
    /// here: a delegate is held weakly).
    @MainContext
    static func checks(order: [Int], presenter: RecordingPresenter, ledger: MemoryAttentionLedgerStore, clock: ManualClock,
                       budget: AttentionBudget, rendezvous: CheckRendezvous?) throws -> (heralds: [Herald], recorders: [PipelineRecorder]) {
        let feeds = try feeds()
        let heralds = try order.map { index in
            let herald = try Herald(configuration: .init(feedURL: feeds[index], appID: apps[index], appVersion: "1"),
                                    store: InMemoryStateStore(CheckPipelineTests.launched), presenter: presenter, clock: clock,
                                    quietReason: { nil }, offSwitches: { OffSwitchDecision(budget: budget) }, ledger: ledger)
            herald.rendezvous = rendezvous
            return herald
        }
        let recorders = heralds.map { herald in
            let recorder = PipelineRecorder(presenter)
            herald.delegate = recorder
            return recorder
        }
        return (heralds, recorders)
    }

    /// Runs every app's manual check in `order`, sharing `ledger`: all at once meeting at
    /// `rendezvous`, or without one each after the one before has planned; on a budget of three
    /// a day. Returns the titles shown, in the order shown.
    @MainContext
    static func run(order: [Int], ledger: MemoryAttentionLedgerStore, clock: ManualClock, rendezvous: CheckRendezvous?) throws -> [String] {
        let presenter = RecordingPresenter(capabilities: ["actions", "body"])
        let (heralds, recorders) = try checks(order: order, presenter: presenter, ledger: ledger, clock: clock,
                                              budget: AttentionBudget(perDay: 3, perWeek: 10), rendezvous: rendezvous)
        // Until each check has ended or showed its message (which then waits for its answer).
        func settle(_ checks: [Herald]) {
            let deadline = ContinuousClock.now + .seconds(10)
            func settled(_ herald: Herald) -> Bool {
                let events = recorders[heralds.firstIndex { $0 === herald }!].events
                return events.contains("finished") || events.contains { $0.hasPrefix("shown ") }
            }
            while !checks.allSatisfy(settled), ContinuousClock.now < deadline {
                MainContext.iterate(wakingBy: min(deadline, ContinuousClock.now + .milliseconds(20)))
            }
        }
        if rendezvous != nil {
            // All at once: the rendezvous orders their plans.
            for herald in heralds { herald.checkNow() }
            settle(heralds)
        } else {
            // One after another, in the listing order.
            for herald in heralds {
                herald.checkNow()
                settle([herald])
            }
        }
        let shown = presenter.shown.map(\.content.summary)
        // What waits for an answer is closed: every check ends and lets its Herald go.
        for herald in heralds { herald.closeShownMessages() }
        let deadline = ContinuousClock.now + .seconds(5)
        while heralds.contains(where: { $0.check != nil }), ContinuousClock.now < deadline {
            MainContext.iterate(wakingBy: min(deadline, ContinuousClock.now + .milliseconds(20)))
        }
        MainContext.iterate(wakingBy: ContinuousClock.now + .milliseconds(20))
        XCTAssertTrue(heralds.allSatisfy { $0.check == nil }, "every check ended")
        return shown
    }

    func testTenAppsOnABudgetOfThreeShowTheThreeHighestPrioritiesWhereverTheyAreListed() throws {
        try MainContext.assumeIsolated {
            for order in [Array(0..<10), Array((0..<10).reversed()), [4, 9, 0, 6, 2, 8, 1, 5, 3, 7]] {
                let clock = ManualClock()
                let ledger = MemoryAttentionLedgerStore()
                let rendezvous = CheckRendezvous(apps: order.map { Self.apps[$0] }, ledger: ledger, clock: clock, deadline: nil)
                let shown = try Self.run(order: order, ledger: ledger, clock: clock, rendezvous: rendezvous)
                XCTAssertEqual(Set(shown), ["App 2", "App 6", "App 4"], "priorities 9, 8 and 7, started in the order \(order)")
                XCTAssertEqual(Set(ledger.value.shows.map(\.app)), [Self.apps[2], Self.apps[6], Self.apps[4]])
                XCTAssertEqual(Set(ledger.value.waiting.keys), Set(Self.apps).subtracting([Self.apps[2], Self.apps[6], Self.apps[4]]),
                               "the seven others wait for room")
                XCTAssertTrue(rendezvous.isReleased)
            }
        }
    }

    func testWithoutARendezvousTheChecksThatPlanFirstTakeTheDaysRoom() throws {
        try MainContext.assumeIsolated {
            let shown = try Self.run(order: Array(0..<10), ledger: MemoryAttentionLedgerStore(), clock: ManualClock(), rendezvous: nil)
            XCTAssertEqual(shown, ["App 0", "App 1", "App 2"], "each app ranks its own message against what waits already: the first three take the room")
        }
    }

    func testACheckClosedWhileItWaitsAtTheRendezvousShowsNothingAndEndsWhenTheOthersCome() throws {
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            let ledger = MemoryAttentionLedgerStore()
            let presenter = RecordingPresenter(capabilities: ["actions", "body"])
            let rendezvous = CheckRendezvous(apps: [Self.apps[0], Self.apps[1]], ledger: ledger, clock: clock, deadline: nil)
            let (heralds, recorders) = try Self.checks(order: [0, 1], presenter: presenter, ledger: ledger, clock: clock,
                                                       budget: AttentionBudget(perDay: 3, perWeek: 10), rendezvous: rendezvous)
            func iterate(until done: () -> Bool) {
                let deadline = ContinuousClock.now + .seconds(10)
                while !done(), ContinuousClock.now < deadline {
                    MainContext.iterate(wakingBy: min(deadline, ContinuousClock.now + .milliseconds(20)))
                }
            }
            heralds[0].checkNow()
            iterate { recorders[0].events.contains { $0.hasPrefix("fetched") } }
            XCTAssertFalse(rendezvous.isReleased, "the first app waits for the second")
            heralds[0].closeShownMessages()
            heralds[1].checkNow()
            iterate { recorders.allSatisfy { $0.events.contains("finished") || $0.events.contains { $0.hasPrefix("shown ") } } }
            XCTAssertTrue(rendezvous.isReleased)
            XCTAssertEqual(presenter.shown.map(\.content.summary), ["App 1"], "the closed check shows nothing; the other shows its message")
            XCTAssertTrue(recorders[0].events.contains("finished"), recorders[0].events.joined(separator: "\n"))
            heralds[1].closeShownMessages()
            iterate { heralds.allSatisfy { $0.check == nil } }
            XCTAssertTrue(heralds.allSatisfy { $0.check == nil }, "every check ended")
        }
    }
}
