import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

final class CheckGateTests: XCTestCase {
    let clock = TestClock()

    func testFirstLaunchFetchesNothingAndMarksItselfPassed() {
        let (skip, state) = CheckPolicy.gate(CheckConfiguration(), state: HeraldState(), now: clock.now)
        XCTAssertEqual(skip, .firstLaunch)
        XCTAssertEqual(state.ignored, [])
        XCTAssertNil(state.lastChecked)
        XCTAssertNil(CheckPolicy.gate(CheckConfiguration(), state: state, now: clock.now).skip, "second launch checks")
    }

    func testShowOnFirstLaunchFallsThroughToThePeriodGates() {
        let config = CheckConfiguration(showOnFirstLaunch: true)
        XCTAssertNil(CheckPolicy.gate(config, state: HeraldState(), now: clock.now).skip)
        var state = HeraldState()
        state.lastChecked = clock.now
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.after(days: 0.1)).skip?.name, "check-period")
    }

    func testCheckPeriodIsAStrictLessThanSoTheBoundaryChecks() {
        var state = HeraldState()
        state.ignored = []
        state.lastChecked = clock.now
        let config = CheckConfiguration(checkPeriod: .days(0.5))
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.after(days: 0.4999)).skip?.name, "check-period")
        XCTAssertNil(CheckPolicy.gate(config, state: state, now: clock.after(days: 0.5)).skip)
    }

    func testACheckPeriodOfTwelveHoursGatesAsHalfADay() {
        var state = HeraldState()
        state.ignored = []
        state.lastChecked = clock.now
        let config = CheckConfiguration(checkPeriod: .seconds(12 * 3600))
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.after(days: 0.4999)).skip, .checkPeriod(nextCheck: clock.after(days: 0.5)))
        XCTAssertNil(CheckPolicy.gate(config, state: state, now: clock.after(days: 0.5)).skip)
        XCTAssertEqual(CheckPolicy.backoff(afterFailures: 20, checkPeriod: config.checkPeriod), 43_200, "the backoff is capped at it too")
    }

    func testDebugSkipsFirstLaunchAndPeriodGates() {
        var state = HeraldState()
        XCTAssertNil(CheckPolicy.gate(CheckConfiguration(debug: true), state: state, now: clock.now).skip)
        state.ignored = []
        state.lastChecked = clock.now
        state.failure = .init(count: 3, lastAttempt: clock.now, reason: "x")
        XCTAssertNil(CheckPolicy.gate(CheckConfiguration(debug: true), state: state, now: clock.now).skip)
    }

    func testForceIsAManualCheckThatNoGateStops() {
        var state = HeraldState()
        state.ignored = []
        state.lastChecked = clock.now
        state.failure = .init(count: 1, lastAttempt: clock.now, reason: "x")
        XCTAssertNil(CheckPolicy.gate(CheckConfiguration(), state: state, now: clock.now, force: true).skip)
    }

    func testFailedCheckKeepsLastCheckedAndBacksOff() {
        var state = HeraldState()
        state.ignored = []
        state.lastChecked = clock.after(days: -2)
        state = CheckPolicy.recordFailure(state, reason: "timeout", now: clock.now)
        XCTAssertEqual(state.lastChecked, clock.after(days: -2), "D4: a failure is not a check")
        let config = CheckConfiguration(checkPeriod: .days(0.5))
        XCTAssertEqual(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(14 * 60)).skip?.name, "failure-backoff")
        XCTAssertNil(CheckPolicy.gate(config, state: state, now: clock.now.addingTimeInterval(15 * 60)).skip)
    }

    func testBackoffDoublesFromFifteenMinutesAndIsCappedAtTheCheckPeriod() {
        XCTAssertEqual(CheckPolicy.backoff(afterFailures: 1, checkPeriod: .days(1)), 900)
        XCTAssertEqual(CheckPolicy.backoff(afterFailures: 2, checkPeriod: .days(1)), 1800)
        XCTAssertEqual(CheckPolicy.backoff(afterFailures: 4, checkPeriod: .days(1)), 7200)
        XCTAssertEqual(CheckPolicy.backoff(afterFailures: 20, checkPeriod: .days(0.5)), 43_200)
        XCTAssertEqual(CheckPolicy.backoff(afterFailures: 99, checkPeriod: .days(1)), 86_400)
    }

    func testSuccessRecordsLastCheckedAndClearsFailures() {
        var state = CheckPolicy.recordFailure(HeraldState(), reason: "x", now: clock.now)
        state = CheckPolicy.recordSuccess(state, now: clock.after(days: 1))
        XCTAssertEqual(state.lastChecked, clock.after(days: 1))
        XCTAssertNil(state.failure)
    }

    func testReminderDoesNotGateChecksOnlyItsOwnMessage() {
        // D6: iNotify's global lastReminded blocked every check; Herald's reminder is per message.
        var state = HeraldState()
        state.ignored = []
        state.reminded["a"] = clock.now
        XCTAssertNil(CheckPolicy.gate(CheckConfiguration(), state: state, now: clock.after(days: 0.1)).skip)
    }
}

final class SelectionTests: XCTestCase {
    let clock = TestClock()
    var answeredBefore: HeraldState {
        var state = HeraldState()
        state.ignored = ["ignored"]
        state.viewed = ["viewed"]
        return state
    }

    func keys(_ selection: Selection) -> [String] { selection.candidates.map(\.key) }

    func testViewedAndIgnoredMessagesAreFilteredOut() {
        let feed = Feed(entries: ["ignored", "viewed", "new"].map { Fixtures.entry($0) })
        let selection = CheckPolicy.select(feed, state: answeredBefore, in: PolicyContext(configuration: CheckConfiguration(), now: clock.now))
        XCTAssertEqual(keys(selection), ["new"])
        XCTAssertEqual(Set(selection.skipped.map(\.reason.name)), ["viewed", "ignored"])
    }

    func testNewestKeyComesFirstByDefault() {
        let feed = Feed(entries: ["2011/01/22", "2011/02/01", "10"].map { Fixtures.entry($0) })
        XCTAssertEqual(keys(CheckPolicy.select(feed, state: HeraldState(), in: PolicyContext(configuration: CheckConfiguration(), now: clock.now))),
                       ["2011/02/01", "2011/01/22", "10"])
    }

    func testShowOldestFirstReversesTheOrder() {
        let feed = Feed(entries: ["b", "A", "c"].map { Fixtures.entry($0) })
        let config = CheckConfiguration(showOldestFirst: true)
        XCTAssertEqual(keys(CheckPolicy.select(feed, state: HeraldState(), in: PolicyContext(configuration: config, now: clock.now))), ["A", "b", "c"])
    }

    func testVersionBoundsAreInclusive() {
        let feed = Feed(entries: [
            Fixtures.entry("min-equal", min: "1.2"), Fixtures.entry("max-equal", max: "1.2"),
            Fixtures.entry("min-above", min: "1.10"), Fixtures.entry("max-below", max: "1.1"),
            Fixtures.entry("longer-min", min: "1.2.0"),
        ])
        let selection = CheckPolicy.select(feed, state: HeraldState(), in: PolicyContext(configuration: CheckConfiguration(appVersion: "1.2"), now: clock.now))
        XCTAssertEqual(Set(keys(selection)), ["min-equal", "max-equal"])
        XCTAssertEqual(selection.skipped.first { $0.key == "longer-min" }?.reason, .belowMinVersion("1.2.0"))
        XCTAssertEqual(selection.skipped.first { $0.key == "max-below" }?.reason, .aboveMaxVersion("1.1"))
    }

    func testEmptyMaxVersionExcludesEveryNonEmptyAppVersion() {
        let feed = Feed(entries: [Fixtures.entry("a", max: "")])
        XCTAssertEqual(keys(CheckPolicy.select(feed, state: HeraldState(), in: PolicyContext(configuration: CheckConfiguration(appVersion: "0.1"), now: clock.now))), [])
    }

    func testWithoutAppVersionNothingIsExcludedByVersion() {
        let feed = Feed(entries: [Fixtures.entry("a", min: "99"), Fixtures.entry("b", max: "0")])
        XCTAssertEqual(keys(CheckPolicy.select(feed, state: HeraldState(), in: PolicyContext(configuration: CheckConfiguration(appVersion: nil), now: clock.now))), ["b", "a"])
    }

    func testDebugStartsOverWhenEverythingWasAnswered() {
        let feed = Feed(entries: ["ignored", "viewed"].map { Fixtures.entry($0) })
        let selection = CheckPolicy.select(feed, state: answeredBefore, in: PolicyContext(configuration: CheckConfiguration(debug: true), now: clock.now))
        XCTAssertEqual(keys(selection), ["viewed", "ignored"])
        XCTAssertEqual(selection.state.ignored, [], "the ignore list is emptied, not removed: first launch stays passed")
        XCTAssertEqual(selection.state.viewed, [])
    }

    func testDebugResetHappensBeforeVersionFilteringAndOnlyOnce() {
        let feed = Feed(entries: [Fixtures.entry("viewed", min: "9")])
        let selection = CheckPolicy.select(feed, state: answeredBefore, in: PolicyContext(configuration: CheckConfiguration(appVersion: "1", debug: true), now: clock.now))
        XCTAssertEqual(keys(selection), [])
        XCTAssertEqual(selection.state.viewed, [])
    }

    func testWithoutDebugNothingIsReset() {
        let feed = Feed(entries: ["viewed"].map { Fixtures.entry($0) })
        let selection = CheckPolicy.select(feed, state: answeredBefore, in: PolicyContext(configuration: CheckConfiguration(), now: clock.now))
        XCTAssertEqual(keys(selection), [])
        XCTAssertEqual(selection.state.viewed, ["viewed"])
    }

    func testRemindedMessageWaitsItsRemindPeriodOthersStillShow() {
        var state = HeraldState()
        state.reminded["later"] = clock.now
        let feed = Feed(entries: ["later", "other"].map { Fixtures.entry($0) })
        let config = CheckConfiguration(remindPeriod: .days(1.5))
        XCTAssertEqual(keys(CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: config, now: clock.after(days: 1.4)))), ["other"])
        XCTAssertEqual(keys(CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: config, now: clock.after(days: 1.5)))), ["other", "later"])
    }

    func testRefusedActionURLIsSkippedAndDoesNotBlockOthers() {
        let feed = Feed(entries: [
            Fixtures.entry("z-evil", url: "javascript:alert(1)"), Fixtures.entry("a-fine", url: "https://example.com"),
        ])
        let selection = CheckPolicy.select(feed, state: HeraldState(), in: PolicyContext(configuration: CheckConfiguration(), now: clock.now))
        XCTAssertEqual(keys(selection), ["a-fine"])
        XCTAssertEqual(selection.skipped.map(\.reason.name), ["refused-url"])
        XCTAssertEqual(selection.state.viewed, [], "D5: a skipped message is left unmarked")
    }

    func testMessageShownByAnotherLiveProcessIsNotShownTwice() {
        var state = HeraldState()
        state.presenting["a"] = .init(processID: 4242, check: "x.1", until: clock.after(days: 0.01))
        let feed = Feed(entries: ["a", "b"].map { Fixtures.entry($0) })
        let selection = CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: CheckConfiguration(), now: clock.now, isLive: { claim in claim.processID == 4242 }))
        XCTAssertEqual(keys(selection), ["b"])
        XCTAssertEqual(selection.skipped.map(\.reason), [.shownElsewhere])
        let lapsed = CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: CheckConfiguration(), now: clock.after(days: 1), isLive: { _ in true }))
        XCTAssertEqual(keys(lapsed), ["b", "a"])
    }
}

/// DESIGN.md D16: choosing and claiming are one step of the state, and a claim keeps every
/// other check from showing the message or prompt until it is answered, released or lapses.
final class CheckPlanTests: XCTestCase {
    let clock = TestClock()
    let me = Claimant(processID: 100, check: "me.1")
    let other = Claimant(processID: 200, check: "other.1")
    let feed = Feed(entries: ["a", "b"].map { Fixtures.entry($0) })
    let due = Prompt(name: "pro", settings: PromptSettings(title: "Go pro", usesUntilPrompt: 0, daysUntilPrompt: .zero))

    func plan(_ state: HeraldState, by claimant: Claimant, live: Set<Claimant> = [], at now: Date? = nil, prompts: [Prompt] = []) -> CheckPlan {
        CheckPolicy.plan(feed: feed, prompts: prompts, state: state, claimant: claimant, claimUntil: clock.after(days: 0.5), in: PolicyContext(configuration: CheckConfiguration(), now: now ?? clock.now, urlRules: URLRules(), isLive: { claim in live.contains { claim.isHeld(by: $0) } }))
    }

    func testThePlanClaimsEveryMessageItChoosesInTheStateItReturns() {
        let planned = plan(HeraldState(), by: me)
        XCTAssertEqual(planned.messages.map(\.key), ["b", "a"])
        XCTAssertEqual(planned.state.presenting, ["a": me.claim(until: clock.after(days: 0.5)), "b": me.claim(until: clock.after(days: 0.5))])
    }

    func testASecondPlanOnTheClaimedStateChoosesNothing() {
        let first = plan(HeraldState(), by: me)
        let second = plan(first.state, by: other, live: [me])
        XCTAssertEqual(second.messages.map(\.key), [])
        XCTAssertEqual(second.skipped.map(\.reason), [.shownElsewhere, .shownElsewhere])
        XCTAssertEqual(second.state.presenting, first.state.presenting, "another check's claims are left as they are")
    }

    func testAClaimLapsesWhenItsCheckIsGoneOrItsTimeHasPassed() {
        let claimed = plan(HeraldState(), by: me).state
        XCTAssertEqual(plan(claimed, by: other, live: []).messages.map(\.key), ["b", "a"], "the claiming check is gone")
        XCTAssertEqual(plan(claimed, by: other, live: [me], at: clock.after(days: 1)).messages.map(\.key), ["b", "a"], "past its time")
    }

    func testACheckIsNotKeptFromWhatItClaimedItself() {
        let claimed = plan(HeraldState(), by: me).state
        XCTAssertEqual(plan(claimed, by: me, live: [me]).messages.map(\.key), ["b", "a"])
    }

    func testReleaseDropsOnlyTheReleasingChecksClaims() {
        var state = plan(HeraldState(), by: me).state
        state.presenting["b"] = other.claim(until: clock.after(days: 1))
        let released = CheckPolicy.release(messages: ["a", "b"], heldBy: me, in: state)
        XCTAssertEqual(released.presenting, ["b": other.claim(until: clock.after(days: 1))])
    }

    func testThePlanClaimsOnlyAsManyMessagesAsTheCapShows() {
        let many = Feed(entries: (1...9).map { Fixtures.entry("2024/01/0\($0)") })
        let planned = CheckPolicy.plan(feed: many, prompts: [], state: HeraldState(), claimant: me, claimUntil: clock.after(days: 0.5), in: PolicyContext(configuration: CheckConfiguration(maxNotificationsPerCheck: 2), now: clock.now, urlRules: URLRules(), isLive: { _ in false }))
        XCTAssertEqual(planned.messages.count, 9, "the others stay candidates for when one is passed over")
        XCTAssertEqual(planned.claimedMessages, 2)
        XCTAssertEqual(planned.state.presenting.keys.sorted(), ["2024/01/08", "2024/01/09"])
    }

    func testALaterClaimRefusesWhatWasAnsweredOrClaimedElsewhereSinceThePlan() {
        let message = Fixtures.entry("a")
        func claimLater(_ state: HeraldState, live: Set<Claimant> = []) -> (MessageSkipReason?, HeraldState) {
            var state = state
            let refusal = CheckPolicy.claimLater(message, state: &state, claimant: me, claimUntil: clock.after(days: 0.5), in: PolicyContext(configuration: CheckConfiguration(), now: clock.now, urlRules: URLRules(), isLive: { claim in live.contains { claim.isHeld(by: $0) } }))
            return (refusal, state)
        }
        var viewed = HeraldState()
        viewed.viewed = ["a"]
        XCTAssertEqual(claimLater(viewed).0, .viewed)
        XCTAssertEqual(claimLater(viewed).1, viewed)
        var elsewhere = HeraldState()
        elsewhere.presenting["a"] = other.claim(until: clock.after(days: 1))
        XCTAssertEqual(claimLater(elsewhere, live: [other]).0, .shownElsewhere)
        let free = claimLater(HeraldState())
        XCTAssertNil(free.0)
        XCTAssertEqual(free.1.presenting, ["a": me.claim(until: clock.after(days: 0.5))])
    }

    func testADuePromptIsClaimedAndAnotherCheckWaitsForIt() {
        let first = plan(HeraldState(), by: me, prompts: [due])
        XCTAssertEqual(first.prompts.map(\.decision), [.show(preview: false)])
        XCTAssertEqual(first.duePrompts.map(\.name), ["pro"])
        XCTAssertEqual(first.state.presentingPrompts, ["pro": me.claim(until: clock.after(days: 0.5))])
        let second = plan(first.state, by: other, live: [me], prompts: [due])
        XCTAssertEqual(second.prompts.map(\.decision), [.shownElsewhere])
        XCTAssertFalse(second.showsAnything)
    }

    func testAnsweringAPromptRecordsTheButtonAndDropsItsClaim() {
        let claimed = plan(HeraldState(), by: me, prompts: [due]).state
        let answered = PromptPolicy.apply(.cancel, to: due, in: claimed, now: clock.now)
        XCTAssertEqual(answered.presentingPrompts, [:])
        XCTAssertEqual(answered.prompts["pro"]?.cancelled, true)
    }

    func testAStateFileWrittenBeforeChecksWereNamedStillReadsItsClaims() throws {
        let old = #"{"viewed":[],"reminded":{},"presenting":{"a":{"processID":7,"until":"2030-01-01T00:00:00Z"}},"prompts":{}}"#
        let state = try JSONDecoder.heraldState.decode(HeraldState.self, from: Data(old.utf8))
        XCTAssertEqual(state.presenting["a"]?.processID, 7)
        XCTAssertNil(state.presenting["a"]?.check)
        XCTAssertEqual(state.presentingPrompts, [:])
    }
}

final class AnswerTests: XCTestCase {
    let clock = TestClock()

    func testViewMarksViewedAndClearsTheReminder() {
        var state = HeraldState()
        state.reminded["a"] = clock.now
        state = CheckPolicy.apply(.view, to: "a", state: state, now: clock.now)
        XCTAssertEqual(state.viewed, ["a"])
        XCTAssertNil(state.reminded["a"])
    }

    func testOKMarksViewed() {
        XCTAssertEqual(CheckPolicy.apply(.ok, to: "a", state: HeraldState(), now: clock.now).viewed, ["a"])
    }

    func testIgnoreMarksIgnoredAndClearsTheReminder() {
        var state = HeraldState()
        state.reminded["a"] = clock.now
        state = CheckPolicy.apply(.ignore, to: "a", state: state, now: clock.now)
        XCTAssertEqual(state.ignored, ["a"])
        XCTAssertNil(state.reminded["a"])
    }

    func testRemindRecordsTimeForThatMessageOnly() {
        let state = CheckPolicy.apply(.remind, to: "a", state: HeraldState(), now: clock.now)
        XCTAssertEqual(state.reminded, ["a": clock.now])
        XCTAssertEqual(state.viewed, [])
        XCTAssertNil(state.lastChecked)
    }

    func testAnsweringTheSameMessageTwiceStoresItOnce() {
        var state = CheckPolicy.apply(.view, to: "a", state: HeraldState(), now: clock.now)
        state = CheckPolicy.apply(.view, to: "a", state: state, now: clock.now)
        XCTAssertEqual(state.viewed.count, 1)
    }

    func testDismissedCountsAsRemindLaterOtherClosesChangeNothing() {
        XCTAssertEqual(CheckPolicy.answer(forClose: .dismissed), .remind)
        XCTAssertNil(CheckPolicy.answer(forClose: .expired))
        XCTAssertNil(CheckPolicy.answer(forClose: .closedByHerald))
        XCTAssertNil(CheckPolicy.answer(forClose: .undefined))
    }

    func testAnswerReleasesTheOnScreenClaim() {
        var state = HeraldState()
        state.presenting["a"] = .init(processID: 1, check: "x.1", until: clock.after(days: 1))
        XCTAssertEqual(CheckPolicy.apply(.remind, to: "a", state: state, now: clock.now).presenting, [:])
    }
}

final class ShowAnsweredTests: XCTestCase {
    func testShowAnsweredShowsEveryMessageWithoutForgettingAnswers() {
        var state = HeraldState()
        state.ignored = ["i"]
        state.viewed = ["v"]
        state.reminded = ["r": TestClock().now]
        let feed = Feed(entries: ["i", "v", "r", "n"].map { Fixtures.entry($0) })
        let selection = CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: CheckConfiguration(showAnswered: true), now: TestClock().now))
        XCTAssertEqual(selection.candidates.map(\.key), ["v", "r", "n", "i"])
        XCTAssertEqual(selection.state, state)
    }
}

extension JSONDecoder {
    /// Reads state files as `FileStateStore` writes them (ISO 8601 dates).
    static var heraldState: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
