import Foundation
@testable import HeraldCore
import XCTest

/// A message's own caps (`MaxShows`, `MinDaysBetween`), muted categories, and the plan that
/// claims only what the budget has room for.
final class MessageCapsTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let claimant = Claimant(processID: 42, check: "a.1")

    func entry(_ key: String, _ extra: [String: FeedValue] = [:]) -> FeedEntry {
        FeedEntry(key: key, details: ["Title": .string(key), "Message": .string("m")].merging(extra) { _, new in new })
    }

    func context(mutedCategories: [MessageCategory: Mute] = [:], budget: AttentionBudget = .standard,
                 configuration: CheckConfiguration = CheckConfiguration()) -> PolicyContext {
        PolicyContext(configuration: configuration, now: now, mutedCategories: mutedCategories, budget: budget)
    }

    func shownState(_ key: String, count: Int, daysAgo: Double) -> HeraldState {
        var state = HeraldState()
        state.ignored = []
        state.shows[key] = .init(count: count, last: now.addingTimeInterval(-daysAgo * 86400))
        return state
    }

    func testMaxShowsCountsEveryShowingRemindersIncluded() {
        let message = entry("m", ["MaxShows": .integer(2)])
        XCTAssertNil(CheckPolicy.attentionExclusion(of: message, state: shownState("m", count: 1, daysAgo: 9), in: context()))
        XCTAssertEqual(CheckPolicy.attentionExclusion(of: message, state: shownState("m", count: 2, daysAgo: 9), in: context()),
                       .shownEnough(times: 2))
    }

    func testMinDaysBetweenHoldsAMessageUntilThatLongAfterItsLastShowing() {
        let message = entry("m", ["MinDaysBetween": .real(3)])
        XCTAssertEqual(CheckPolicy.attentionExclusion(of: message, state: shownState("m", count: 1, daysAgo: 1), in: context()),
                       .shownRecently(nextShow: now.addingTimeInterval(2 * 86400)))
        XCTAssertNil(CheckPolicy.attentionExclusion(of: message, state: shownState("m", count: 1, daysAgo: 3), in: context()))
    }

    func testUnreadableCapsAreNoCaps() {
        for value: FeedValue in [.integer(0), .integer(-1), .real(2.5), .string("many"), .bool(true)] {
            XCTAssertNil(entry("m", ["MaxShows": value]).maxShows, "\(value)")
        }
        for value: FeedValue in [.integer(-1), .string("soon"), .integer(0)] {
            XCTAssertNil(entry("m", ["MinDaysBetween": value]).minTimeBetweenShows, "\(value)")
        }
        XCTAssertEqual(entry("m", ["MaxShows": .string("3")]).maxShows, 3)
    }

    func testACategoryTheUserMutedKeepsItsMessagesBack() {
        let mute = Mute(by: .user, scope: .allApps, file: "/home/u/.config/herald/herald.conf")
        let offer = entry("offer", ["Category": .string(" Promotion ")])
        XCTAssertEqual(CheckPolicy.attentionExclusion(of: offer, state: HeraldState(), in: context(mutedCategories: [.promotion: mute])),
                       .categoryMuted(category: "promotion", mute: mute))
        XCTAssertNil(CheckPolicy.attentionExclusion(of: entry("news"), state: HeraldState(), in: context(mutedCategories: [.promotion: mute])))
    }

    func testACategoryHeraldDoesNotKnowWeighsAndMutesAsAPromotionAndNoneIsAnAnnouncement() {
        let mute = Mute(by: .user, scope: .allApps, file: "/home/u/.config/herald/herald.conf")
        // "promotions", a Cyrillic "о" in "prоmotion", another word, a number: none is a kind Herald knows.
        for value: FeedValue in [.string("promotions"), .string("pr\u{043E}motion"), .string("ad"), .integer(2)] {
            let message = entry("x", ["Category": value])
            XCTAssertNil(message.categoryAsWritten, "\(value)")
            XCTAssertEqual(message.category, .promotion, "\(value)")
            XCTAssertEqual(AttentionCandidate(message, allowsCriticalUrgency: true).weight, 2, "\(value)")
            XCTAssertEqual(CheckPolicy.attentionExclusion(of: message, state: HeraldState(), in: context(mutedCategories: [.promotion: mute])),
                           .categoryMuted(category: "promotion", mute: mute), "\(value)")
        }
        XCTAssertEqual(entry("x").category, .announcement)
        XCTAssertEqual(AttentionCandidate(entry("x"), allowsCriticalUrgency: true).weight, 1)
    }

    func testALastShowingDatedAfterNowIsReadAndWrittenAsNowSoMinDaysBetweenEndsOnTime() {
        let message = entry("m", ["MinDaysBetween": .real(1)])
        let ahead = shownState("m", count: 1, daysAgo: -365)
        XCTAssertEqual(CheckPolicy.attentionExclusion(of: message, state: ahead, in: context()),
                       .shownRecently(nextShow: now.addingTimeInterval(86400)), "read as now")
        let written = CheckPolicy.distrustingFutureDates(in: ahead, now: now)
        XCTAssertEqual(written.shows["m"], .init(count: 1, last: now), "written as now")
        let select = CheckPolicy.select(Feed(entries: [message]), state: ahead, in: context())
        XCTAssertEqual(select.state.shows["m"], .init(count: 1, last: now), "the check's locked update writes it so")
        var dayLater = context()
        dayLater.now = now.addingTimeInterval(86400)
        XCTAssertNil(CheckPolicy.attentionExclusion(of: message, state: written, in: dayLater), "a day later it shows again")
    }

    func testRecordingAShowingCountsItAndDatesIt() {
        let state = CheckPolicy.recordShown(["m"], in: CheckPolicy.recordShown(["m"], in: HeraldState(), now: now), now: now.addingTimeInterval(60))
        XCTAssertEqual(state.shows["m"], .init(count: 2, last: now.addingTimeInterval(60)))
    }

    func testThePlanClaimsOnlyWhatTheBudgetHasRoomForAndSaysWhenTheRestHasRoom() {
        let feed = Feed(entries: (1...4).map { entry("2026/0\($0)") })
        var state = HeraldState()
        state.ignored = []
        let earlier = AttentionLedger(shows: [.init(app: "org.b", key: "b", at: now.addingTimeInterval(-3600), weight: 1)])
        let plan = CheckPolicy.plan(feed: feed, prompts: [], state: state, claimant: claimant, claimUntil: now.addingTimeInterval(600),
                                    in: context(), attention: ("org.a", earlier))
        XCTAssertEqual(plan.claimedMessages, 2)
        XCTAssertEqual(plan.messages.map(\.key), ["2026/04", "2026/03"])
        XCTAssertEqual(Set(plan.state.presenting.keys), ["2026/04", "2026/03"])
        XCTAssertEqual(plan.skipped.map(\.key), ["2026/02", "2026/01"])
        XCTAssertEqual(plan.skipped.first?.reason, .overDayBudget(nextRoom: now.addingTimeInterval(23 * 3600)))
        XCTAssertEqual(plan.ledger?.shows.filter { $0.app == "org.a" }.count, 2)
        XCTAssertEqual(plan.ledger?.waiting["org.a"]?.keys.sorted(), ["2026/01", "2026/02"])
    }

    func testDebugModePlansWithoutTheBudget() {
        let feed = Feed(entries: (1...4).map { entry("2026/0\($0)") })
        let full = AttentionLedger(shows: (1...3).map { .init(app: "org.b", key: "b\($0)", at: now, weight: 1) })
        let plan = CheckPolicy.plan(feed: feed, prompts: [], state: HeraldState(), claimant: claimant, claimUntil: now.addingTimeInterval(600),
                                    in: context(configuration: CheckConfiguration(debug: true)), attention: ("org.a", full))
        XCTAssertEqual(plan.claimedMessages, 3)
    }
}
