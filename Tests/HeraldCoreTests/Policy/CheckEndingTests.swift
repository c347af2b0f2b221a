import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// Each way a check can end, and the state its one finishing step writes (DESIGN.md D4, D11,
/// D12): `CheckPolicy.finished` with plain values, nothing recorded and then undone.
final class CheckEndingTests: XCTestCase {
    let clock = TestClock()
    let me = Claimant(processID: 100, check: "me.1")
    let other = Claimant(processID: 200, check: "other.1")
    let record = HeraldState.CachedFeed(url: "https://example.com/feed.plist", etag: "\"v2\"", lastModified: nil)
    let metadata = FeedSignature.Metadata(version: 7)
    let signatureBytes = Data([1, 2, 3])
    let pro = Prompt(name: "pro", settings: PromptSettings(title: "Go pro", usesUntilPrompt: 0, daysUntilPrompt: .zero))

    var fetched: CheckEnding.Feed {
        .fetched(.init(cacheRecord: record, signature: (metadata, signatureBytes, "https://example.com/feed.plist")))
    }
    var plannedAt: Date { clock.now }
    var now: Date { clock.after(days: 0.01) }

    /// A state past its first launch, with a failure before this check, and this check's claims
    /// on "a", "b" and the prompt "pro" beside another check's claim on "c".
    var claimed: HeraldState {
        var state = HeraldState()
        state.ignored = []
        state.failure = .init(count: 1, lastAttempt: clock.after(days: -1), reason: "HTTP 503")
        state.presenting = ["a": me.claim(until: clock.after(days: 1)), "b": me.claim(until: clock.after(days: 1)),
                            "c": other.claim(until: clock.after(days: 1))]
        state.presentingPrompts = ["pro": me.claim(until: clock.after(days: 1))]
        return state
    }

    func finished(_ feed: CheckEnding.Feed, _ screen: CheckEnding.Screen, in state: HeraldState? = nil) -> HeraldState {
        CheckPolicy.finished(CheckEnding(feed: feed, screen: screen, plannedAt: plannedAt, now: now), in: state ?? claimed, claimant: me)
    }

    /// `state` as a counted, successful check at `plannedAt` leaves it with the fetch's record.
    func succeeded(_ state: HeraldState) -> HeraldState {
        var state = state
        state.lastChecked = plannedAt
        state.failure = nil
        state.cachedFeed = record
        state.acceptSignature(metadata, bytes: signatureBytes, from: "https://example.com/feed.plist")
        return state
    }

    func withoutMyClaims(_ state: HeraldState) -> HeraldState {
        var state = state
        state.presenting = ["c": other.claim(until: clock.after(days: 1))]
        state.presentingPrompts = [:]
        return state
    }

    func testAFetchedFeedWithNothingToShowIsASuccessThatKeepsTheCopysRecordAndAcceptsItsSignature() {
        XCTAssertEqual(finished(fetched, .nothingShown), succeeded(claimed))
    }

    func testAFetchFeedOrSignatureFailureCountsForTheBackoff() {
        var expected = claimed
        expected.failure = .init(count: 2, lastAttempt: plannedAt, reason: "HTTP 500")
        XCTAssertEqual(finished(.failed(reason: "HTTP 500", countsAsFailure: true), .nothingShown), expected)
    }

    func testAFailureThatIsNotTheFeedsCountsAsNeitherAndWritesNothing() {
        let ending = CheckEnding(feed: .failed(reason: "libsoup is missing", countsAsFailure: false), screen: .nothingShown, plannedAt: plannedAt, now: now)
        XCTAssertEqual(CheckPolicy.finished(ending, in: claimed, claimant: me), claimed)
        XCTAssertTrue(ending.recordsNothing, "no lock is taken for it")
    }

    func testACheckStoppedWhileTheFeedWasOnItsWayKeepsOnlyTheCopysRecord() {
        var expected = claimed
        expected.cachedFeed = record
        XCTAssertEqual(finished(fetched, .stopped), expected, "neither a success nor a signature accepted")
        XCTAssertEqual(finished(.failed(reason: "HTTP 500", countsAsFailure: true), .stopped), claimed, "nor a failure")
    }

    func testWithoutANotificationServerTheClaimsGoAndAFetchedFeedDoesNotCount() {
        var expected = withoutMyClaims(claimed)
        expected.cachedFeed = record
        XCTAssertEqual(finished(fetched, .noServer(released: .init(messages: ["a", "b", "c"], prompts: ["pro"]))), expected,
                       "another check's claim on c stays")
    }

    func testWithoutANotificationServerAFailedFetchIsStillAFailure() {
        var expected = withoutMyClaims(claimed)
        expected.failure = .init(count: 2, lastAttempt: plannedAt, reason: "HTTP 500")
        XCTAssertEqual(finished(.failed(reason: "HTTP 500", countsAsFailure: true),
                                .noServer(released: .init(messages: ["a", "b"], prompts: ["pro"]))), expected)
    }

    func testADeferralForQuietGivesTheClaimsBackAndPutsTheMessagesToWaitInTheLedger() {
        let waiting = [AttentionCandidate(Fixtures.entry("a"), allowsCriticalUrgency: false)]
        let ending = CheckEnding(feed: fetched, screen: .deferredForQuiet(released: .init(messages: ["a", "b"], prompts: ["pro"]), waiting: waiting),
                                 plannedAt: plannedAt, now: now)
        var expected = withoutMyClaims(claimed)
        expected.cachedFeed = record
        XCTAssertEqual(CheckPolicy.finished(ending, in: claimed, claimant: me), expected, "the check does not count: the next one tries again")
        XCTAssertEqual(ending.ledgerChange, .deferForQuiet(waiting))
    }

    func testAPresentationRecordsTheShowingsGivesBackWhatItDidNotShowAndCountsTheCheck() {
        var presentation = CheckEnding.Presentation()
        presentation.shownMessages = ["a"]
        presentation.shownPrompts = 1
        presentation.notShown = .init(messages: ["b"])
        presentation.budgeted = true
        let ending = CheckEnding(feed: fetched, screen: .presented(presentation), plannedAt: plannedAt, now: now)
        var expected = succeeded(claimed)
        expected.presenting = ["a": me.claim(until: clock.after(days: 1)), "c": other.claim(until: clock.after(days: 1))]
        expected.shows = ["a": .init(count: 1, last: plannedAt)]
        XCTAssertEqual(CheckPolicy.finished(ending, in: claimed, claimant: me), expected, "what is on screen stays claimed until answered")
        XCTAssertEqual(ending.ledgerChange, .settle(shown: ["a"]))
    }

    func testWhatIsShownWithoutButtonsIsViewedAndAPromptWithoutButtonsIsActedOn() {
        var presentation = CheckEnding.Presentation()
        presentation.shownMessages = ["a"]
        presentation.viewedWithoutButtons = ["a"]
        presentation.shownPrompts = 1
        presentation.actedWithoutButtons = [pro]
        let state = finished(.notRun, .presented(presentation))
        var expected = claimed
        expected.presenting = ["b": me.claim(until: clock.after(days: 1)), "c": other.claim(until: clock.after(days: 1))]
        expected.shows = ["a": .init(count: 1, last: plannedAt)]
        expected.viewed = ["a"]
        expected.presentingPrompts = [:]
        expected.prompts["pro"] = PromptPolicy.apply(.action, to: pro, state: PromptState(), now: now)
        XCTAssertEqual(state, expected)
    }

    func testAServerThatRefusedEverythingFailsTheCheckOnTopOfTheFailuresBeforeItWithoutASuccessFirst() {
        var presentation = CheckEnding.Presentation()
        presentation.refused = 2
        presentation.notShown = .init(messages: ["a", "b"])
        var expected = withoutMyClaims(claimed)
        expected.presentingPrompts = ["pro": me.claim(until: clock.after(days: 1))]
        expected.cachedFeed = record
        expected.acceptSignature(metadata, bytes: signatureBytes, from: "https://example.com/feed.plist")
        expected.failure = .init(count: 2, lastAttempt: now, reason: CheckPolicy.refusedEverything)
        XCTAssertEqual(finished(fetched, .presented(presentation)), expected, "lastChecked is never set")
    }

    func testACheckThatShowedNothingBecauseNoApplicationOpensItsLinksDoesNotCount() {
        var presentation = CheckEnding.Presentation()
        presentation.unopenable = 2
        presentation.notShown = .init(messages: ["a", "b"])
        var firstLaunch = claimed
        firstLaunch.ignored = nil
        var expected = withoutMyClaims(claimed)
        expected.presentingPrompts = ["pro": me.claim(until: clock.after(days: 1))]
        expected.cachedFeed = record
        expected.acceptSignature(metadata, bytes: signatureBytes, from: "https://example.com/feed.plist")
        XCTAssertEqual(finished(fetched, .presented(presentation), in: firstLaunch), expected,
                       "the failure before it stays, no lastChecked, and the first launch is behind")
    }

    func testAnEndingWithNothingFetchedClaimedOrShownRecordsNothing() {
        for screen: CheckEnding.Screen in [.nothingShown, .stopped, .noServer(released: .init()), .deferredForQuiet(released: .init(), waiting: [])] {
            let ending = CheckEnding(feed: .notRun, screen: screen, plannedAt: plannedAt, now: now)
            XCTAssertTrue(ending.recordsNothing, "\(screen)")
            XCTAssertEqual(CheckPolicy.finished(ending, in: claimed, claimant: me), claimed, "\(screen)")
        }
        XCTAssertFalse(CheckEnding(feed: fetched, screen: .nothingShown, plannedAt: plannedAt, now: now).recordsNothing)
        XCTAssertFalse(CheckEnding(feed: .notRun, screen: .presented(.init()), plannedAt: plannedAt, now: now).recordsNothing)
    }

    func testTheLedgerIsLeftAloneUnlessThePlanTookRoomOrMessagesWaitForQuiet() {
        var unbudgeted = CheckEnding.Presentation()
        unbudgeted.shownMessages = ["a"]
        let endings: [CheckEnding.Screen] = [.nothingShown, .stopped, .noServer(released: .init(prompts: ["pro"])), .presented(unbudgeted),
                                             .deferredForQuiet(released: .init(messages: ["a"]), waiting: [])]
        XCTAssertEqual(endings.map { CheckEnding(feed: fetched, screen: $0, plannedAt: plannedAt, now: now).ledgerChange },
                       Array(repeating: .none, count: endings.count))
    }

    func testWithoutANotificationServerTheRoomThePlanTookForItsMessagesGoesBack() {
        let ending = CheckEnding(feed: fetched, screen: .noServer(released: .init(messages: ["a", "b"], prompts: ["pro"])), plannedAt: plannedAt, now: now)
        XCTAssertEqual(ending.ledgerChange, .settle(shown: []))
    }
}
