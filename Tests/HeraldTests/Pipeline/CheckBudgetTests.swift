import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import HeraldTesting
import XCTest

/// An attention ledger in memory that counts its reads without the lock, its locked updates and
/// the ones that changed it.
private final class CountingLedgerStore: SharedValueStore {
    var ledger = AttentionLedger()
    var snapshots = 0
    var updates = 0
    var changes = 0

    func snapshot() throws -> AttentionLedger {
        snapshots += 1
        return ledger
    }

    func update<Result>(_ change: (inout AttentionLedger) throws -> Result) throws -> Result {
        updates += 1
        var changed = ledger
        let result = try change(&changed)
        if changed != ledger { changes += 1 }
        ledger = changed
        return result
    }
}

/// The person's attention ledger as a check keeps it: taken only when the check has something
/// new for it, and left as it is when nothing in it changes.
final class CheckBudgetTests: XCTestCase {
    func testTheLedgerIsReadOnceForAFeedWithSomethingNewAndNotAtAllWithoutAFeed() throws {
        let feed = try CheckPipelineTests.feedURL(["a"])
        try MainContext.assumeIsolated {
            let ledger = CountingLedgerStore()
            let store = InMemoryStateStore(CheckPipelineTests.launched)
            let presenter = RecordingPresenter(capabilities: ["actions", "body"])
            let herald = try Herald(configuration: .init(feedURL: feed, appID: "org.example.Attention", appVersion: "1"),
                                    store: store, presenter: presenter, clock: ManualClock(), quietReason: { nil },
                                    offSwitches: { OffSwitchDecision(budget: AttentionBudget(perDay: 1, perWeek: 10)) }, ledger: ledger)
            let recorder = PipelineRecorder(presenter)
            herald.delegate = recorder
            recorder.answer = "ok"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
            XCTAssertEqual(ledger.snapshots, 1, "the plan on a snapshot; under the lock, the new message alone decides")
            XCTAssertEqual(ledger.updates, 2, "the plan takes room; the end settles it")

            // Checked just now: no feed, and a prompt the launch shows, which no budget weighs.
            herald.register(Prompt(name: "pro", settings: PromptSettings(title: "Go pro", usesUntilPrompt: 0, daysUntilPrompt: .zero)))
            recorder.events = []
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["check-skipped check-period", "shown prompt pro", "finished"])
            XCTAssertEqual(ledger.snapshots, 1, "not read again")
            XCTAssertEqual(ledger.updates, 2)
        }
    }

    func testACheckThatShowsNothingTakesTheLedgerOnceAndChangesNothingInIt() throws {
        let feed = try CheckPipelineTests.feedURL(["2026/01", "2026/02", "2026/03"])
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            let ledger = CountingLedgerStore()
            let store = InMemoryStateStore(CheckPipelineTests.launched)
            let presenter = RecordingPresenter(capabilities: ["actions", "body"])
            let herald = try Herald(configuration: .init(feedURL: feed, appID: "org.example.Attention", appVersion: "1"),
                                    store: store, presenter: presenter, clock: clock, quietReason: { nil },
                                    offSwitches: { OffSwitchDecision(budget: AttentionBudget(perDay: 1, perWeek: 10)) }, ledger: ledger)
            let recorder = PipelineRecorder(presenter)
            herald.delegate = recorder
            recorder.answer = "remind"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(presenter.shown.map(\.content.summary), ["Title 2026/03"])
            XCTAssertEqual(ledger.ledger.waiting["org.example.Attention"].map { Set($0.keys) }, ["2026/02", "2026/01"])

            // Checked again at once: the day's budget is spent, and the same two wait, as they did.
            let (updates, changes) = (ledger.updates, ledger.changes)
            recorder.run { herald.checkNow() }
            XCTAssertEqual(presenter.shown.count, 1)
            XCTAssertEqual(recorder.events.filter { $0.hasPrefix("skipped") }.suffix(2),
                           ["skipped 2026/02 over-day-budget", "skipped 2026/01 over-day-budget"])
            XCTAssertEqual(ledger.changes - changes, 0, "nothing in the ledger changed, so nothing is written")
            XCTAssertEqual(ledger.updates - updates, 1, "the plan's one locked update; the end has no room to settle")
        }
    }
}
