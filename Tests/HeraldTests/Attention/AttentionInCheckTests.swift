import Foundation
@testable import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import HeraldTesting
import XCTest

/// A check and the person's attention ledger: what the budget holds back is skipped with the
/// time there is room, and waits; what the desktop's quiet holds back waits too, keeping its
/// place, and is shown first once there is room.
final class AttentionInCheckTests: XCTestCase {
    @MainContext
    static func herald(_ feed: String, store: InMemoryStateStore, ledger: MemoryAttentionLedgerStore, presenter: RecordingPresenter,
                clock: ManualClock, quiet: @escaping @MainContext () -> QuietReason?, budget: AttentionBudget) throws -> Herald {
        try Herald(configuration: .init(feedURL: feed, appID: "org.example.Attention", appVersion: "1"),
                   store: store, presenter: presenter, clock: clock, quietReason: quiet,
                   offSwitches: { OffSwitchDecision(budget: budget) }, ledger: ledger)
    }

    func testAMessageQuietKeptBackWaitsAndComesFirstWhenThereIsRoomTheRestOverTheBudgetSaySo() throws {
        let feed = try CheckPipelineTests.feedURL(["2026/01", "2026/02", "2026/03"])
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            let ledger = MemoryAttentionLedgerStore()
            let quiet = DesktopQuietSetting(.doNotDisturb)
            let store = InMemoryStateStore(CheckPipelineTests.launched)
            let presenter = RecordingPresenter(capabilities: ["actions", "body"])
            let herald = try Self.herald(feed, store: store, ledger: ledger, presenter: presenter, clock: clock, quiet: { quiet.reason },
                                    budget: AttentionBudget(perDay: 1, perWeek: 10))
            let recorder = PipelineRecorder(presenter)
            herald.delegate = recorder
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(presenter.shown.count, 0, "nothing shows while the desktop asks for quiet")
            XCTAssertEqual(ledger.value.waiting["org.example.Attention"]?.mapValues(\.reason), ["2026/03": .quiet])
            XCTAssertEqual(ledger.value.shows, [], "the room taken for it is given back")

            // Another app shows one message in the meantime: it has no room left today.
            quiet.reason = nil
            clock.advance(by: .seconds(3600))
            ledger.value.shows.append(.init(app: "org.example.Other", key: "x", at: clock.now, weight: 1))
            recorder.run { herald.checkNow() }
            XCTAssertEqual(presenter.shown.count, 0)
            XCTAssertEqual(recorder.events.filter { $0.hasPrefix("skipped") }.suffix(3),
                           ["skipped 2026/03 over-day-budget", "skipped 2026/02 over-day-budget", "skipped 2026/01 over-day-budget"])

            // A day later there is room for one: the message that waited since the quiet.
            clock.advance(by: .seconds(86400 + 1))
            recorder.answer = "ok"
            recorder.run { herald.checkNow() }
            XCTAssertEqual(presenter.shown.map(\.content.summary), ["Title 2026/03"])
            XCTAssertEqual(ledger.value.shows.filter { $0.app == "org.example.Attention" }.map(\.key), ["2026/03"])
            XCTAssertNil(ledger.value.shows.last?.claim, "its room is kept for good once it is shown")
            XCTAssertEqual(store.state.shows["2026/03"]?.count, 1)
        }
    }
}
