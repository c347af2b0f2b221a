import Foundation
@testable import HeraldCore
import XCTest

/// The person's inbox (`InboxPolicy`): what a check records (only what reached the person, as
/// it was shown), withdrawn messages, the 180-day and per-app bounds, no change when nothing is
/// new, and each state a message is read in, newest first.
final class InboxPolicyTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let app = "org.example.App"

    func entry(_ key: String, title: String? = nil, url: String? = nil, category: String? = nil, extra: [String: FeedValue] = [:]) -> FeedEntry {
        var details: [String: FeedValue] = ["Title": .string(title ?? "Title \(key)"), "Message": .string("Text of \(key)")]
        if let url { details["ActionURL"] = .string(url) }
        if let category { details["Category"] = .string(category) }
        return FeedEntry(key: key, title: title ?? "Title \(key)", message: "Text of \(key)", actionURL: url,
                         details: details.merging(extra) { _, new in new })
    }

    func record(_ key: String, reached: Date, withdrawn: Date? = nil, category: String = "announcement") -> Inbox.Record {
        Inbox.Record(title: "Title \(key)", message: "Text of \(key)", category: category, reached: reached, withdrawn: withdrawn)
    }

    func days(_ count: Double) -> TimeInterval { count * 86_400 }

    func testACheckRecordsWhatReachedThePersonAsItWasShown() {
        let feed = Feed(entries: [entry("2026/01/02", title: "New\u{1B}[2J version", url: "https://example.org/a"),
                                  entry("2026/01/01")])
        let inbox = InboxPolicy.recording(["2026/01/02", "2026/01/01"], from: feed, app: app, languages: [], now: now, in: Inbox())
        XCTAssertEqual(inbox, Inbox(apps: [app: [
            "2026/01/02": Inbox.Record(title: "New[2J version", message: "Text of 2026/01/02", link: "https://example.org/a",
                                       category: "announcement", reached: now),
            "2026/01/01": Inbox.Record(title: "Title 2026/01/01", message: "Text of 2026/01/01", category: "announcement", reached: now),
        ]]))
    }

    func testOnlyMessagesKeptForThePersonReachThem() {
        let reasons: [MessageSkipReason] = [.viewed, .ignored, .remindLater(until: now), .overDayBudget(nextRoom: now),
                                            .categoryMuted(category: "tip", mute: Mute(by: .user, scope: .app, file: "f")), .shownEnough(times: 1),
                                            .belowMinVersion("2"), .aboveMaxVersion("1"), .otherLanguage, .otherDesktop,
                                            .outsideRollout(10), .notStarted(until: now), .ended(now), .refusedURL("scheme")]
        XCTAssertEqual(reasons.map(\.reachesPerson), [true, true, true, true, true, true, false, false, false, false, false, false, false, false])
    }

    func testACheckThatSeesNothingNewChangesNothing() {
        let feed = Feed(entries: [entry("a"), entry("b")])
        let once = InboxPolicy.recording(["a", "b"], from: feed, app: app, languages: [], now: now, in: Inbox())
        let again = InboxPolicy.recording(["a", "b"], from: feed, app: app, languages: [], now: now.addingTimeInterval(3600), in: once)
        XCTAssertEqual(again, once)
    }

    func testAMessageGoneFromTheFeedIsMarkedWithdrawnAndKept() {
        let before = Inbox(apps: [app: ["a": record("a", reached: now.addingTimeInterval(-days(3))), "b": record("b", reached: now)]])
        let inbox = InboxPolicy.recording([], from: Feed(entries: [entry("b")]), app: app, languages: [], now: now, in: before)
        XCTAssertEqual(inbox, Inbox(apps: [app: ["a": record("a", reached: now.addingTimeInterval(-days(3)), withdrawn: now),
                                                 "b": record("b", reached: now)]]))
        let messages = InboxPolicy.messages(of: app, in: inbox, standing: .init(state: HeraldState()), now: now)
        XCTAssertEqual(messages.map(\.state), [.due, .withdrawn(since: now)])
    }

    func testHeraldsOwnMessageIsRecordedWithoutAFeedAndNoFeedWithdrawsIt() {
        let whatsNew = WhatsNewPolicy.message(for: "1.2", notes: "1.2\nFaster.")
        let recorded = InboxPolicy.recording([whatsNew.key], from: nil, local: [whatsNew], app: app, languages: [], now: now, in: Inbox())
        XCTAssertEqual(recorded, Inbox(apps: [app: [whatsNew.key: Inbox.Record(title: "What's new in 1.2", message: "1.2\nFaster.",
                                                                                category: "announcement", reached: now)]]))
        let later = InboxPolicy.recording([], from: Feed(entries: [entry("b")]), app: app, languages: [], now: now.addingTimeInterval(60), in: recorded)
        XCTAssertNil(later.apps[app]?[whatsNew.key]?.withdrawn, "a feed never has Herald's own message")
        XCTAssertEqual(InboxPolicy.recording([], from: nil, app: app, languages: [], now: now, in: recorded), recorded,
                       "a check without a feed withdraws nothing")
    }

    func testOfAFeedOfThousandsTheLatest200AreKeptAndTheNextCheckChangesNothing() {
        let keys = (0..<2_100).map { String(format: "2026/%04d", $0) }
        let feed = Feed(entries: keys.map { entry($0) })
        let older = Inbox(apps: [app: Dictionary(uniqueKeysWithValues: (0..<150).map { ("2019/\($0)", record("2019/\($0)", reached: now.addingTimeInterval(-days(1)))) })])
        let inbox = InboxPolicy.recording(keys, from: feed, app: app, languages: [], now: now, in: older)
        XCTAssertEqual(inbox.apps[app]?.keys.sorted(), Array(keys.suffix(200)), "the latest 200 ids")
        XCTAssertEqual(inbox.apps[app]?[keys.last!], record(keys.last!, reached: now))
        XCTAssertEqual(InboxPolicy.recording(keys, from: feed, app: app, languages: [], now: now.addingTimeInterval(3600), in: inbox), inbox,
                       "the same feed an hour later keeps the same messages")
        let few = InboxPolicy.recording(Array(keys.prefix(10)), from: feed, app: app, languages: [], now: now, in: older)
        XCTAssertEqual(few.apps[app]?.count, 160, "under the bound, every message is kept")
    }

    func testAnAppHolding200MessagesTakesOnlyLaterIDsInPlaceOfItsEarliest() {
        let keys = (0..<2_100).map { String(format: "2026/%04d", $0) }
        let feed = Feed(entries: keys.map { entry($0) })
        let before = Inbox(apps: [app: Dictionary(uniqueKeysWithValues: keys[1_000..<1_200].map { ($0, record($0, reached: now)) })])
        let inbox = InboxPolicy.recording(Array(keys.prefix(1_250)), from: feed, app: app, languages: [], now: now, in: before)
        XCTAssertEqual(inbox.apps[app]?.keys.sorted(), Array(keys[1_050..<1_250]))
        XCTAssertEqual(inbox.apps[app]?[keys[1_249]], record(keys[1_249], reached: now))
    }

    func testAFeedNotModifiedAddsNewMessagesAndLeavesTheRecordedTextsAlone() {
        let before = Inbox(apps: [app: ["a": record("a", reached: now)]])
        let feed = Feed(entries: [entry("a", title: "Changed"), entry("b")])
        let inbox = InboxPolicy.recording(["a", "b"], from: feed, feedChanged: false, app: app, languages: [], now: now, in: before)
        XCTAssertEqual(inbox, Inbox(apps: [app: ["a": record("a", reached: now), "b": record("b", reached: now)]]))
        XCTAssertEqual(InboxPolicy.recording(["a", "b"], from: feed, app: app, languages: [], now: now, in: before).apps[app]?["a"]?.title, "Changed",
                       "a feed fetched anew brings a changed text up to date")
    }

    func testAFirstReachingInTheFutureIsTakenAsNow() {
        let before = Inbox(apps: [app: ["a": record("a", reached: now.addingTimeInterval(days(30)))]])
        let inbox = InboxPolicy.recording(["a"], from: Feed(entries: [entry("a")]), app: app, languages: [], now: now, in: before)
        XCTAssertEqual(inbox.apps[app]?["a"]?.reached, now)
    }

    func testAnotherAppsMessagesAreLeftAsTheyAre() {
        let before = Inbox(apps: ["org.other": ["x": record("x", reached: now)]])
        let inbox = InboxPolicy.recording(["a"], from: Feed(entries: [entry("a")]), app: app, languages: [], now: now, in: before)
        XCTAssertEqual(inbox.apps["org.other"], before.apps["org.other"])
        XCTAssertEqual(inbox.apps[app]?.keys.sorted(), ["a"])
    }

    func testMessagesOlderThan180DaysGoOnceTheirFeedNoLongerHasThem() {
        let inbox = Inbox(apps: [app: [
            "old-gone": record("old-gone", reached: now.addingTimeInterval(-days(181)), withdrawn: now.addingTimeInterval(-days(10))),
            "old-kept": record("old-kept", reached: now.addingTimeInterval(-days(181))),
            "recent-gone": record("recent-gone", reached: now.addingTimeInterval(-days(179)), withdrawn: now),
        ]])
        XCTAssertEqual(InboxPolicy.bounded(inbox, now: now).apps[app]?.keys.sorted(), ["old-kept", "recent-gone"])
    }

    func testAnAppKeepsItsLatest200MessagesByID() {
        let ids = (0..<205).map { String(format: "2026/%04d", $0) }
        // Whenever each reached the person: the ids decide.
        let records = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, record($1, reached: now.addingTimeInterval(-Double($0)))) })
        let kept = InboxPolicy.bounded(Inbox(apps: [app: records]), now: now).apps[app] ?? [:]
        XCTAssertEqual(kept.keys.sorted(), Array(ids.suffix(200)))
    }

    func testMessagesAreListedNewestFirst() {
        let inbox = Inbox(apps: [app: ["b": record("b", reached: now.addingTimeInterval(-10)), "c": record("c", reached: now),
                                       "a": record("a", reached: now)]])
        XCTAssertEqual(InboxPolicy.messages(of: app, in: inbox, standing: .init(state: HeraldState()), now: now).map(\.id), ["c", "a", "b"])
    }

    /// The state `key`'s record is read in.
    func state(_ key: String = "a", category: String = "announcement", standing: InboxPolicy.Standing) -> InboxMessage.State {
        InboxPolicy.state(of: record(key, reached: now, category: category), key: key, app: app, in: standing, now: now, isLive: { _ in false })
    }

    func testAShownMessageIsShownWithItsTime() {
        var state = HeraldState()
        state.shows["a"] = .init(count: 1, last: now.addingTimeInterval(-60))
        let inbox = Inbox(apps: [app: ["a": record("a", reached: now.addingTimeInterval(-60))]])
        XCTAssertEqual(InboxPolicy.messages(of: app, in: inbox, standing: .init(state: state), now: now),
                       [InboxMessage(appID: app, id: "a", title: "Title a", message: "Text of a", category: "announcement",
                                     reached: now.addingTimeInterval(-60), lastShown: now.addingTimeInterval(-60), state: .shown)])
    }

    /// While its check still runs (an app's delegate hearing `didShow`), a message on the screen
    /// is shown, though the showing is recorded when the check ends; once that check is gone
    /// without recording it, or its claim lapsed, it is due again.
    func testAMessageOnTheScreenOfARunningCheckIsShownBeforeItsShowingIsRecorded() {
        var state = HeraldState()
        let claim = HeraldState.Claim(processID: 41, check: "c", until: now.addingTimeInterval(60))
        state.presenting["a"] = claim
        let record = record("a", reached: now)
        func stands(_ state: HeraldState, live: Bool) -> InboxMessage.State {
            InboxPolicy.state(of: record, key: "a", app: app, in: .init(state: state), now: now, isLive: { $0 == claim && live })
        }
        XCTAssertEqual(stands(state, live: true), .shown)
        XCTAssertEqual(stands(state, live: false), .due, "its check is gone")
        state.presenting["a"]?.until = now.addingTimeInterval(-1)
        XCTAssertEqual(stands(state, live: true), .due, "its claim lapsed")
    }

    func testAnsweredMessagesShowTheirAnswer() {
        var answers = HeraldState()
        answers.viewed = ["v"]
        answers.ignored = ["i"]
        answers.reminded["r"] = now.addingTimeInterval(-3600)
        let standing = InboxPolicy.Standing(state: answers, remindPeriod: days(1))
        XCTAssertEqual([state("v", standing: standing), state("i", standing: standing), state("r", standing: standing)],
                       [.viewed, .ignored, .remindLater(until: now.addingTimeInterval(days(1) - 3600))])
    }

    /// A reminder and a showing dated a year ahead (a check run with the clock wrong) are read as
    /// now, as the next check reads them: the message comes back a remind period from now.
    func testDatesInTheFutureAreReadAsNowAsACheckReadsThem() {
        var state = HeraldState()
        state.reminded["r"] = now.addingTimeInterval(days(365))
        state.shows["r"] = .init(count: 1, last: now.addingTimeInterval(days(365)))
        let inbox = Inbox(apps: [app: ["r": record("r", reached: now)]])
        XCTAssertEqual(InboxPolicy.messages(of: app, in: inbox, standing: .init(state: state, remindPeriod: days(1)), now: now),
                       [InboxMessage(appID: app, id: "r", title: "Title r", message: "Text of r", category: "announcement", reached: now,
                                     lastShown: now, state: .remindLater(until: now.addingTimeInterval(days(1))))])
    }

    func testAMessageWaitingForRoomSaysWhenTheBudgetHasRoomAgain() {
        let ledger = AttentionLedger(
            shows: (1...3).map { .init(app: "org.other", key: "o\($0)", at: now.addingTimeInterval(-Double($0) * 3600), weight: 1) },
            waiting: [app: ["a": .init(since: now, seen: now, priority: 0, weight: 1, reason: .budget)]])
        // The oldest of the day's three showings, 3 hours ago, leaves the day's window in 21 hours.
        XCTAssertEqual(state(standing: .init(state: HeraldState(), ledger: ledger)), .waitingForRoom(until: now.addingTimeInterval(21 * 3600)))
    }

    func testAMessageDeferredForQuietSaysSo() {
        let ledger = AttentionLedger(waiting: [app: ["a": .init(since: now, seen: now, priority: 0, weight: 1, reason: .quiet)]])
        XCTAssertEqual(state(standing: .init(state: HeraldState(), ledger: ledger)), .deferredForQuiet)
    }

    func testAMutedCategorySaysWhoseSwitchItIs() {
        let byPerson = InboxPolicy.Standing(state: HeraldState(), switches: .init(mutedCategories: [.tip: Mute(by: .user, scope: .app, file: "herald.conf")]))
        let byAdministrator = InboxPolicy.Standing(state: HeraldState(), switches: .init(mutedCategories: [
            .tip: Mute(by: .administrator, scope: .allApps, file: "/etc/xdg/herald/herald.conf"),
        ]))
        XCTAssertEqual([state(category: "tip", standing: byPerson), state(category: "tip", standing: byAdministrator),
                        state(category: "announcement", standing: byAdministrator)],
                       [.categoryMuted(byAdministrator: false), .categoryMuted(byAdministrator: true), .due])
    }

    /// A muted app's messages say so, whoever muted it (the person, the desktop's switch for the
    /// app, the administrator); an answer given before the mute still stands.
    func testAMutedAppsMessagesSayWhoseSwitchItIsAndAnswersStand() {
        var answers = HeraldState()
        answers.viewed = ["v"]
        answers.reminded["r"] = now
        let byPerson = InboxPolicy.Standing(state: answers, switches: .init(mute: Mute(by: .user, scope: .app, file: "herald.conf")))
        let byAdministrator = InboxPolicy.Standing(state: answers, switches: .init(
            mute: Mute(by: .administrator, scope: .app, file: "/etc/xdg/herald/herald.conf"),
            mutedCategories: [.tip: Mute(by: .user, scope: .app, file: "herald.conf")]))
        XCTAssertEqual([state("v", standing: byPerson), state("r", standing: byPerson), state("a", standing: byPerson),
                        state("a", category: "tip", standing: byAdministrator)],
                       [.viewed, .appMuted(byAdministrator: false), .appMuted(byAdministrator: false), .appMuted(byAdministrator: true)])
    }

    func testAWithdrawnMessageIsWithdrawnWhateverItsAnswer() {
        var state = HeraldState()
        state.viewed = ["a"]
        XCTAssertEqual(InboxPolicy.state(of: record("a", reached: now, withdrawn: now), key: "a", app: app, in: .init(state: state),
                                         now: now, isLive: { _ in false }), .withdrawn(since: now))
    }

    func testAMessageAnsweredElsewhereWhileOnScreenIsAnsweredUnlessChecksShowAnsweredOnes() {
        var state = HeraldState()
        state.viewed = ["v"]
        state.ignored = ["i"]
        var showsAnswered = CheckConfiguration()
        showsAnswered.showAnswered = true
        var debug = CheckConfiguration()
        debug.debug = true
        XCTAssertEqual(["v", "i", "r"].map { CheckPolicy.isAnswered($0, in: state, CheckConfiguration()) }, [true, true, false])
        XCTAssertEqual([showsAnswered, debug].map { CheckPolicy.isAnswered("v", in: state, $0) }, [false, false])
    }
}
