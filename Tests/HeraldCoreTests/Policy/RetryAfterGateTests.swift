import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// A feed server that answered 429 or 503 with a `Retry-After` is not asked again before the
/// time it gave: the failure counts for the backoff as any other, the gate waits for the later
/// of the two, a manual check passes, and a success forgets it.
final class RetryAfterGateTests: XCTestCase {
    let clock = TestClock()
    let config = CheckConfiguration(checkPeriod: .days(1))

    /// A state past its first launch whose check at `clock.now` failed with a server's request
    /// to wait `seconds`.
    func askedToWait(_ seconds: TimeInterval, failuresBefore: Int = 0) -> HeraldState {
        var state = HeraldState()
        state.ignored = []
        state.lastChecked = clock.after(days: -2)
        if failuresBefore > 0 { state.failure = .init(count: failuresBefore, lastAttempt: clock.after(days: -1), reason: "HTTP 500") }
        let ending = CheckEnding(feed: .failed(reason: "feeds.example.org asked to be asked again", countsAsFailure: true,
                                               retryAfter: RetryAfter(host: "feeds.example.org", until: clock.now.addingTimeInterval(seconds))),
                                 screen: .nothingShown, plannedAt: clock.now, now: clock.now)
        return CheckPolicy.finished(ending, in: state, claimant: Claimant(processID: 1, check: "1"))
    }

    func testAFailureWithRetryAfterIsRecordedAndCountsForTheBackoff() {
        let state = askedToWait(3600, failuresBefore: 2)
        XCTAssertEqual(state.failure, .init(count: 3, lastAttempt: clock.now, reason: "feeds.example.org asked to be asked again",
                                            retryAfter: RetryAfter(host: "feeds.example.org", until: clock.now.addingTimeInterval(3600))))
        XCTAssertEqual(state.lastChecked, clock.after(days: -2), "D4: a failure is not a check")
    }

    func testTheGateWaitsForTheServersTimeWhenItIsLaterThanTheBackoff() {
        let state = askedToWait(7200)
        let until = clock.now.addingTimeInterval(7200)
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(60)).skip,
                       .serverAskedToWait(host: "feeds.example.org", until: until))
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(7199)).skip,
                       .serverAskedToWait(host: "feeds.example.org", until: until), "past the backoff's 15 minutes, still the server's time")
        XCTAssertNil(CheckPolicy.gate(config, state: state, now: until).skip)
        XCTAssertEqual(CheckSkipReason.serverAskedToWait(host: "feeds.example.org", until: until).name, "retry-after")
        XCTAssertEqual(CheckSkipReason.serverAskedToWait(host: "feeds.example.org", until: until).description,
                       "feeds.example.org asked to be asked again after \(ISO8601Moment.text(until))")
    }

    func testTheBackoffHoldsWhenItIsLaterThanTheServersTime() {
        let state = askedToWait(120)
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(60)).skip,
                       .failureBackoff(nextAttempt: clock.now.addingTimeInterval(15 * 60)))
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(600)).skip,
                       .failureBackoff(nextAttempt: clock.now.addingTimeInterval(15 * 60)))
        XCTAssertNil(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(15 * 60)).skip)
    }

    func testAManualCheckIsNotHeldBack() {
        XCTAssertNil(CheckPolicy.gate(config, state: askedToWait(7200), now: clock.now, force: true).skip)
    }

    func testASuccessForgetsTheServersTime() {
        let state = CheckPolicy.recordSuccess(askedToWait(7200), now: clock.now.addingTimeInterval(60))
        XCTAssertNil(state.failure)
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(60)).skip,
                       .checkPeriod(nextCheck: clock.now.addingTimeInterval(60 + 86_400)))
    }

    func testAFailureWithoutRetryAfterForgetsTheServersTime() {
        let state = CheckPolicy.recordFailure(askedToWait(7200), reason: "HTTP 500", now: clock.now.addingTimeInterval(60))
        XCTAssertEqual(state.failure, .init(count: 2, lastAttempt: clock.now.addingTimeInterval(60), reason: "HTTP 500"))
    }

    /// A time further ahead than `RetryAfter.longestWait` was not written by a reader that caps
    /// it: made with a clock that was wrong, or an edited file. It is read as now, as other
    /// dates from the future are.
    func testAServersTimeFurtherAheadThanTheLongestWaitIsReadAsNow() {
        var state = askedToWait(3600)
        state.failure?.retryAfter?.until = clock.after(days: 400)
        let trusted = CheckPolicy.distrustingFutureDates(in: state, now: clock.now)
        XCTAssertEqual(trusted.failure?.retryAfter?.until, clock.now)
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(60)).skip,
                       .failureBackoff(nextAttempt: clock.now.addingTimeInterval(15 * 60)))
        let week = askedToWait(RetryAfter.longestWait)
        XCTAssertEqual(CheckPolicy.distrustingFutureDates(in: week, now: clock.now), week, "a week ahead is kept")
    }

    func testAStateFileWithoutTheServersTimeReadsAndOneWithItReadsBack() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = ISO8601Moment.jsonDecoding
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = ISO8601Moment.jsonEncoding
        let old = #"{"ignored":[],"viewed":[],"failure":{"count":1,"lastAttempt":"2026-11-29T12:00:00Z","reason":"HTTP 500"}}"#
        XCTAssertEqual(try decoder.decode(HeraldState.self, from: Data(old.utf8)).failure,
                       .init(count: 1, lastAttempt: Date(timeIntervalSince1970: 1_795_953_600), reason: "HTTP 500"))
        let state = askedToWait(3600)
        XCTAssertEqual(try decoder.decode(HeraldState.self, from: encoder.encode(state)), state)
        let written = String(decoding: try encoder.encode(state.failure), as: UTF8.self)
        XCTAssertTrue(written.contains(#""retryAfter":{"#), written)
        XCTAssertFalse(String(decoding: try encoder.encode(CheckPolicy.recordSuccess(state, now: clock.now)), as: UTF8.self).contains("retryAfter"),
                       "a success leaves no trace of it")
    }
}
