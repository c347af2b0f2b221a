import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// One run with a wrong clock must not stall checks and reminders until the clock catches up.
final class FutureDateTests: XCTestCase {
    let clock = TestClock()
    let yearsAhead = TestClock().after(days: 3 * 365)

    func testLastCheckedInTheFutureCountsAsNowAndIsStoredSo() {
        var state = HeraldState()
        state.ignored = []
        state = CheckPolicy.recordSuccess(state, now: yearsAhead)
        let config = CheckConfiguration(checkPeriod: .days(0.5))
        let (skip, corrected) = CheckPolicy.gate(config, state: state, now: clock.now)
        XCTAssertEqual(skip, .checkPeriod(nextCheck: clock.after(days: 0.5)))
        XCTAssertEqual(corrected.lastChecked, clock.now)
        XCTAssertNil(CheckPolicy.gate(config, state: corrected, now: clock.after(days: 0.5)).skip, "one period later the check is due")
    }

    func testFailureInTheFutureBacksOffFromNowNotFromThen() {
        var state = HeraldState()
        state.ignored = []
        state = CheckPolicy.recordFailure(state, reason: "timeout", now: yearsAhead)
        let (skip, corrected) = CheckPolicy.gate(CheckConfiguration(), state: state, now: clock.now)
        XCTAssertEqual(skip, .failureBackoff(nextAttempt: clock.now.addingTimeInterval(15 * 60)))
        XCTAssertEqual(corrected.failure, .init(count: 1, lastAttempt: clock.now, reason: "timeout"))
        XCTAssertNil(CheckPolicy.gate(CheckConfiguration(), state: corrected, now: clock.now.addingTimeInterval(15 * 60)).skip)
    }

    func testForcedCheckStoresTheCorrectedDatesToo() {
        var state = HeraldState()
        state.ignored = []
        state.lastChecked = yearsAhead
        XCTAssertEqual(CheckPolicy.gate(CheckConfiguration(), state: state, now: clock.now, force: true).state.lastChecked, clock.now)
    }

    func testReminderInTheFutureWaitsOneRemindPeriodFromNow() {
        var state = HeraldState()
        state = CheckPolicy.apply(.remind, to: "later", state: state, now: yearsAhead)
        let feed = Feed(entries: [Fixtures.entry("later")])
        let config = CheckConfiguration(remindPeriod: .days(1))
        let selection = CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: config, now: clock.now))
        XCTAssertEqual(selection.skipped.map(\.reason), [.remindLater(until: clock.after(days: 1))])
        XCTAssertEqual(selection.state.reminded, ["later": clock.now])
        XCTAssertEqual(CheckPolicy.select(feed, state: selection.state, in: PolicyContext(configuration: config, now: clock.after(days: 1))).candidates.map(\.key), ["later"])
    }

    func testDatesInThePastAreLeftAsTheyAre() {
        var state = HeraldState()
        state.lastChecked = clock.after(days: -1)
        state.failure = .init(count: 2, lastAttempt: clock.after(days: -0.5), reason: "x")
        state.reminded = ["a": clock.after(days: -2)]
        state.absentSince = ["b": clock.after(days: -3)]
        XCTAssertEqual(CheckPolicy.distrustingFutureDates(in: state, now: clock.now), state)
    }
}

/// The state stays bounded: answers to messages that left the feed are forgotten after
/// `CheckPolicy.answerRetention` (180 days), lapsed claims go.
final class StatePruningTests: XCTestCase {
    let clock = TestClock()

    func answered() -> HeraldState {
        var state = HeraldState()
        state.viewed = ["gone-viewed", "still-there"]
        state.ignored = ["gone-ignored"]
        state.reminded = ["gone-reminded": clock.after(days: -1)]
        return state
    }

    func testAnswersToMessagesGoneFromTheFeedAreForgotten180DaysAfterTheyLeft() {
        let feed = Feed(entries: [Fixtures.entry("still-there"), Fixtures.entry("new")])
        let first = CheckPolicy.prune(answered(), feed: feed, now: clock.now)
        XCTAssertEqual(first.absentSince, ["gone-viewed": clock.now, "gone-ignored": clock.now, "gone-reminded": clock.now])
        let almost = CheckPolicy.prune(first, feed: feed, now: clock.after(days: 179.99))
        XCTAssertEqual(almost, first, "the answers stay, and a steady feed changes nothing, so it costs no write")
        let after = CheckPolicy.prune(first, feed: feed, now: clock.after(days: 180))
        XCTAssertEqual(after.viewed, ["still-there"])
        XCTAssertEqual(after.ignored, [])
        XCTAssertEqual(after.reminded, [:])
        XCTAssertEqual(after.absentSince, [:])
        XCTAssertEqual(CheckPolicy.answerRetention, 180 * 86_400)
    }

    func testAMessageBackInTheFeedKeepsItsAnswerAndLosesItsAbsentDate() {
        let without = Feed(entries: [Fixtures.entry("still-there")])
        let gone = CheckPolicy.prune(answered(), feed: without, now: clock.now)
        let back = Feed(entries: ["still-there", "gone-viewed", "gone-ignored", "gone-reminded"].map { Fixtures.entry($0) })
        let returned = CheckPolicy.prune(gone, feed: back, now: clock.after(days: 179))
        XCTAssertEqual(returned.absentSince, [:])
        XCTAssertEqual(CheckPolicy.prune(returned, feed: back, now: clock.after(days: 400)), returned)
    }

    func testAnEntryTheFeedCouldNotUseStillCountsAsPresent() {
        let feed = Feed(entries: [], problems: [FeedProblem(key: "still-there", reason: "Title is not a string")])
        XCTAssertNil(CheckPolicy.prune(answered(), feed: feed, now: clock.now).absentSince["still-there"])
    }

    func testLapsedClaimsAreDroppedLiveOnesKept() {
        var state = HeraldState()
        state.presenting = ["lapsed": .init(processID: 1, check: "x.1", until: clock.now),
                            "held": .init(processID: 2, check: "y.1", until: clock.after(days: 1))]
        XCTAssertEqual(Array(CheckPolicy.prune(state, feed: Feed(entries: []), now: clock.now).presenting.keys), ["held"])
    }

    func testThePlansUpdatePrunes() {
        var state = answered()
        state.absentSince = ["gone-viewed": clock.after(days: -180)]
        let plan = CheckPolicy.plan(feed: Feed(entries: [Fixtures.entry("still-there")]), prompts: [], state: state, claimant: Claimant(processID: 1, check: "me.1"), claimUntil: clock.after(days: 1), in: PolicyContext(configuration: CheckConfiguration(), now: clock.now, urlRules: URLRules(), isLive: { _ in false }))
        XCTAssertEqual(plan.state.viewed, ["still-there"])
        XCTAssertEqual(plan.state.absentSince, ["gone-ignored": clock.now, "gone-reminded": clock.now])
    }

    func testTwoYearsOfDailyMessagesStayFarBelowTheSizeLimit() throws {
        // One new message a day, each in the feed for 30 days, each answered on its first day.
        var state = HeraldState()
        state.ignored = []
        let days = 730
        for day in 0..<days {
            let now = clock.after(days: Double(day))
            let feed = Feed(entries: (max(0, day - 29)...day).map { Fixtures.entry(String(format: "2026/%04d", $0)) })
            state = CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: CheckConfiguration(), now: now)).state
            state = CheckPolicy.apply(day % 2 == 0 ? .view : .ignore, to: String(format: "2026/%04d", day), state: state, now: now)
        }
        // Kept: the 30 in the feed and the 180 that left it less than 180 days ago.
        XCTAssertEqual(state.viewed.count + (state.ignored?.count ?? 0), 210)
        XCTAssertEqual(state.absentSince.count, 180)
        // Encoded as the store writes it (pretty-printed, ISO 8601 dates).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let size = try encoder.encode(state).count
        XCTAssertLessThan(size, 32 * 1024, "\(size) bytes")
        print("two years of daily messages: \(size) bytes of state")
    }
}
