import Foundation
@testable import HeraldCore
import XCTest

/// The rules of the attention budget (`AttentionPolicy`): room by day and week across apps,
/// weights, the security pass, rank by priority (within -10…10), then each app in turn, then the
/// oldest wait; an app's share of the waiting places, dates after now, and settling.
final class AttentionBudgetTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let claim = HeraldState.Claim(processID: 42, check: "a.1", until: Date(timeIntervalSince1970: 1_800_003_600))

    func entry(_ key: String, priority: Double? = nil, category: String? = nil, urgency: String? = nil) -> FeedEntry {
        var details: [String: FeedValue] = ["Title": .string(key), "Message": .string("m")]
        if let priority { details["Priority"] = .real(priority) }
        if let category { details["Category"] = .string(category) }
        if let urgency { details["Urgency"] = .string(urgency) }
        return FeedEntry(key: key, details: details)
    }

    func candidates(_ entries: [FeedEntry], critical: Bool = false) -> [AttentionCandidate] {
        entries.map { AttentionCandidate($0, allowsCriticalUrgency: critical) }
    }

    func shown(_ app: String, _ key: String, hoursAgo: Double, weight: Int = 1) -> AttentionLedger.Showing {
        .init(app: app, key: key, at: now.addingTimeInterval(-hoursAgo * 3600), weight: weight)
    }

    func grant(_ entries: [FeedEntry], app: String = "org.a", cap: Int = 3, budget: AttentionBudget = .standard,
               ledger: AttentionLedger = AttentionLedger(), critical: Bool = false,
               isLive: (HeraldState.Claim) -> Bool = { _ in false }) -> AttentionGrant {
        AttentionPolicy.grant(candidates(entries, critical: critical), cap: cap, app: app, claim: claim, budget: budget,
                              ledger: ledger, now: now, isLive: isLive)
    }

    func testTheStandardBudgetIsThreeADayAndTenAWeek() {
        XCTAssertEqual(AttentionBudget.standard, AttentionBudget(perDay: 3, perWeek: 10))
    }

    func testAtMostTheDaysBudgetIsGrantedAcrossAppsAndTheRestWaitsUntilTheOldestShowingAgesOut() {
        let ledger = AttentionLedger(shows: [shown("org.b", "b1", hoursAgo: 20), shown("org.c", "c1", hoursAgo: 2)])
        let result = grant([entry("a1"), entry("a2")], ledger: ledger)
        XCTAssertEqual(result.granted, ["a1"])
        XCTAssertEqual(result.heldBack.map(\.key), ["a2"])
        XCTAssertEqual(result.heldBack.first?.reason, .overDayBudget(nextRoom: now.addingTimeInterval(4 * 3600)))
        XCTAssertEqual(result.ledger.waiting["org.a"]?["a2"]?.reason, .budget)
        XCTAssertEqual(result.ledger.shows.filter { $0.app == "org.a" }.map(\.key), ["a1"])
    }

    func testTheWeeksBudgetHoldsBackWhenTheDayHasRoom() {
        let ledger = AttentionLedger(shows: (1...10).map { shown("org.b", "b\($0)", hoursAgo: Double($0) * 12 + 24) })
        let result = grant([entry("a1")], ledger: ledger)
        XCTAssertEqual(result.granted, [])
        guard case .overWeekBudget(let next)? = result.heldBack.first?.reason else { return XCTFail("\(result.heldBack)") }
        // The oldest showing, 144 hours ago, leaves the week's window in 24 hours.
        XCTAssertEqual(next, now.addingTimeInterval(24 * 3600))
    }

    func testShowingsOlderThanAWeekAreForgotten() {
        let ledger = AttentionLedger(shows: [shown("org.b", "old", hoursAgo: 24 * 8)])
        XCTAssertEqual(AttentionPolicy.pruned(ledger, now: now, isLive: { _ in false }).shows, [])
    }

    func testPromotionsAndSurveysCountDouble() {
        let ledger = AttentionLedger(shows: [shown("org.b", "b1", hoursAgo: 1), shown("org.b", "b2", hoursAgo: 1)])
        let result = grant([entry("offer", category: "promotion"), entry("news")], ledger: ledger)
        XCTAssertEqual(result.granted, ["news"])
        XCTAssertEqual(result.heldBack.map(\.key), ["offer"])
        XCTAssertEqual(MessageCategory.survey.weight, 2)
        XCTAssertEqual(MessageCategory.tip.weight, 1)
    }

    func testEachMessageHeldBackHasTheNextRoomOfItsWeightUnderTheRoomLeftAtItsTurn() {
        // The room this check takes counts while its claim holds: after a1 and a2, a promotion
        // waits for a1's showing to age out, a message of weight one only for b1's.
        let ledger = AttentionLedger(shows: [shown("org.b", "b1", hoursAgo: 20)])
        let result = grant([entry("a1"), entry("p1", category: "promotion"), entry("a2"), entry("p2", category: "promotion"),
                            entry("a3"), entry("a4")],
                           ledger: ledger, isLive: { _ in true })
        XCTAssertEqual(result.granted, ["a1", "a2"])
        let (inFourHours, inADay) = (now.addingTimeInterval(4 * 3600), now.addingTimeInterval(24 * 3600))
        XCTAssertEqual(result.heldBack.map(\.key), ["p1", "p2", "a3", "a4"])
        XCTAssertEqual(result.heldBack.map(\.reason), [.overDayBudget(nextRoom: inFourHours), .overDayBudget(nextRoom: inADay),
                                                       .overDayBudget(nextRoom: inFourHours), .overDayBudget(nextRoom: inFourHours)])
    }

    func testACriticalSecurityMessagePassesAFullBudgetOnlyWhereTheAppAllowsCriticalUrgency() {
        let full = AttentionLedger(shows: (1...3).map { shown("org.b", "b\($0)", hoursAgo: 1) })
        let security = entry("fix", category: "security", urgency: "critical")
        XCTAssertEqual(grant([security], ledger: full, critical: true).granted, ["fix"])
        XCTAssertEqual(grant([security], ledger: full, critical: false).granted, [])
        XCTAssertEqual(grant([entry("fix", category: "security")], ledger: full, critical: true).granted, [])
    }

    func testHigherPriorityGoesFirstWithinTheCheck() {
        let result = grant([entry("low"), entry("high", priority: 5), entry("mid", priority: 1)], budget: AttentionBudget(perDay: 2, perWeek: 10))
        XCTAssertEqual(result.granted, ["high", "mid"])
        XCTAssertEqual(result.heldBack.map(\.key), ["low"])
    }

    func testAnotherAppsWaitingMessageOfHigherPriorityKeepsItsRoom() {
        let waiting = AttentionLedger.Waiting(since: now.addingTimeInterval(-3600), seen: now.addingTimeInterval(-3600),
                                              priority: 9, weight: 1, reason: .budget)
        let ledger = AttentionLedger(shows: [shown("org.b", "b1", hoursAgo: 1)], waiting: ["org.c": ["urgent": waiting]])
        let result = grant([entry("a1"), entry("a2")], budget: AttentionBudget(perDay: 3, perWeek: 10), ledger: ledger)
        XCTAssertEqual(result.granted, ["a1"])
        XCTAssertEqual(result.heldBack.map(\.key), ["a2"])
        XCTAssertEqual(result.ledger.waiting["org.c"]?["urgent"], waiting, "another app's wait is left as it was")
    }

    func testAmongEqualPrioritiesTheOldestWaitGoesFirstAcrossApps() {
        let older = AttentionLedger.Waiting(since: now.addingTimeInterval(-30 * 3600), seen: now.addingTimeInterval(-3600),
                                            priority: 0, weight: 1, reason: .quiet)
        let ownOlder = AttentionLedger.Waiting(since: now.addingTimeInterval(-40 * 3600), seen: now.addingTimeInterval(-3600),
                                               priority: 0, weight: 1, reason: .budget)
        let ledger = AttentionLedger(waiting: ["org.b": ["b-old": older], "org.a": ["a-old": ownOlder]])
        let result = grant([entry("a-new"), entry("a-old")], budget: AttentionBudget(perDay: 2, perWeek: 10), ledger: ledger)
        XCTAssertEqual(result.granted, ["a-old"], "the own message waiting longest first, then the other app's room")
        XCTAssertEqual(result.heldBack.map(\.key), ["a-new"])
        XCTAssertEqual(result.ledger.waiting["org.a"]?["a-new"]?.since, now)
        XCTAssertNil(result.ledger.waiting["org.a"]?["a-old"])
    }

    func testOtherAppsMessagesOfEqualRankKeepTheirPlacesByAppThenIdWhateverOrderTheLedgerListsThem() {
        let since = now.addingTimeInterval(-3600)
        func waiting(_ weight: Int) -> AttentionLedger.Waiting {
            .init(since: since, seen: since, priority: 1, weight: weight, reason: .budget)
        }
        // org.b's promotion (weight 2) ranks before org.c's tip: it takes the two places of room
        // left, and this check's message of a lower priority gets none.
        let ledger = AttentionLedger(shows: [shown("org.x", "x", hoursAgo: 1)],
                                     waiting: ["org.c": ["tip": waiting(1)], "org.b": ["offer": waiting(2)]])
        let result = grant([entry("a1")], budget: AttentionBudget(perDay: 3, perWeek: 10), ledger: ledger)
        XCTAssertEqual(result.granted, [])
        XCTAssertEqual(result.heldBack.map(\.key), ["a1"])
    }

    func testAWaitingMessageWhoseAppStoppedCheckingNoLongerKeepsAPlace() {
        let stale = AttentionLedger.Waiting(since: now.addingTimeInterval(-5 * 86400), seen: now.addingTimeInterval(-3 * 86400),
                                            priority: 9, weight: 1, reason: .budget)
        let result = grant([entry("a1")], budget: AttentionBudget(perDay: 1, perWeek: 10), ledger: AttentionLedger(waiting: ["org.c": ["x": stale]]))
        XCTAssertEqual(result.granted, ["a1"])
        XCTAssertNil(result.ledger.waiting["org.c"])
    }

    func testRoomTakenByARunningCheckCountsAndRoomOfAnEndedOneDoesNot() {
        let other = HeraldState.Claim(processID: 7, check: "b.1", until: now.addingTimeInterval(600))
        var taken = shown("org.b", "b1", hoursAgo: 0)
        taken.claim = other
        let ledger = AttentionLedger(shows: [taken])
        let budget = AttentionBudget(perDay: 1, perWeek: 10)
        XCTAssertEqual(grant([entry("a1")], budget: budget, ledger: ledger, isLive: { $0 == other }).granted, [])
        XCTAssertEqual(grant([entry("a1")], budget: budget, ledger: ledger, isLive: { _ in false }).granted, ["a1"])
    }

    func testMessagesPastTheCapAreNotHeldBackByTheBudget() {
        let result = grant([entry("a1"), entry("a2"), entry("a3")], cap: 1, budget: AttentionBudget(perDay: 10, perWeek: 10))
        XCTAssertEqual(result.granted, ["a1"])
        XCTAssertEqual(result.beyondCap, ["a2", "a3"])
        XCTAssertEqual(result.heldBack.map(\.key), [])
    }

    func testSettlingKeepsTheRoomOfWhatWasShownAndGivesBackTheRest() {
        let result = grant([entry("a1"), entry("a2")])
        let settled = AttentionPolicy.settle(shown: ["a1"], app: "org.a", claim: claim, ledger: result.ledger)
        XCTAssertEqual(settled.shows.map(\.key), ["a1"])
        XCTAssertNil(settled.shows.first?.claim)
    }

    func testAMessageTheDesktopsQuietKeptBackWaitsKeepingItsPlaceAndGivesItsRoomBack() {
        let first = AttentionPolicy.deferForQuiet(candidates([entry("a1")]), app: "org.a", claim: claim,
                                                  ledger: grant([entry("a1")]).ledger, now: now)
        XCTAssertEqual(first.shows, [])
        XCTAssertEqual(first.waiting["org.a"]?["a1"]?.reason, .quiet)
        let later = AttentionPolicy.deferForQuiet(candidates([entry("a1")]), app: "org.a", claim: claim, ledger: first,
                                                  now: now.addingTimeInterval(3600))
        XCTAssertEqual(later.waiting["org.a"]?["a1"]?.since, now)
    }

    func testAnnouncedCandidatesWaitUpToTheCapKeepingAnEarlierWaitsPlaceAndReason() {
        var earlier = AttentionLedger()
        earlier.waiting["org.a"] = ["a1": .init(since: now.addingTimeInterval(-7200), seen: now.addingTimeInterval(-7200), priority: 0,
                                                weight: 1, reason: .quiet)]
        let announced = AttentionPolicy.announce(candidates([entry("a1"), entry("a2", priority: 5), entry("a3")]), cap: 2, app: "org.a",
                                                 budget: .standard, ledger: earlier, now: now)
        XCTAssertEqual(announced.waiting["org.a"], [
            "a1": .init(since: now.addingTimeInterval(-7200), seen: now, priority: 0, weight: 1, reason: .quiet),
            "a2": .init(since: now, seen: now, priority: 5, weight: 1, reason: .budget),
        ], "the first two of the check's order; a1 keeps its place and reason")
        XCTAssertEqual(announced.shows, [], "announcing takes no room")
        let few = AttentionPolicy.announce(candidates([entry("b1"), entry("b2"), entry("b3")]), cap: 5, app: "org.b",
                                           budget: AttentionBudget(perDay: 1, perWeek: 2), ledger: AttentionLedger(), now: now)
        XCTAssertEqual(few.waiting["org.b"].map { Set($0.keys) }, ["b1", "b2"], "no more than the week's budget of places")
    }

    func testAnAnnouncedMessageOfHigherPriorityKeepsItsRoomFromTheAppThatPlansFirst() {
        let announced = AttentionPolicy.announce(candidates([entry("b1", priority: 9)]), cap: 3, app: "org.b",
                                                 budget: AttentionBudget(perDay: 1, perWeek: 10), ledger: AttentionLedger(), now: now)
        let first = grant([entry("a1", priority: 1)], budget: AttentionBudget(perDay: 1, perWeek: 10), ledger: announced)
        XCTAssertEqual(first.granted, [])
        XCTAssertEqual(first.heldBack.map(\.key), ["a1"])
        let second = AttentionPolicy.grant(candidates([entry("b1", priority: 9)]), cap: 3, app: "org.b", claim: claim,
                                           budget: AttentionBudget(perDay: 1, perWeek: 10), ledger: first.ledger, now: now, isLive: { _ in false })
        XCTAssertEqual(second.granted, ["b1"])
        XCTAssertNil(second.ledger.waiting["org.b"], "shown, it no longer waits")
    }

    func testTakingRoomForALaterClaimGivesBackTheRoomOfTheOnePassedOver() {
        var ledger = grant([entry("a1")], budget: AttentionBudget(perDay: 1, perWeek: 10)).ledger
        let reason = AttentionPolicy.takeRoom(for: candidates([entry("a2")])[0], givingBack: ["a1"], app: "org.a", claim: claim,
                                              budget: AttentionBudget(perDay: 1, perWeek: 10), ledger: &ledger, now: now,
                                              isLive: { _ in true })
        XCTAssertNil(reason)
        XCTAssertEqual(ledger.shows.map(\.key), ["a2"])
    }

    func testABudgetOfNoneHoldsEverythingBackWithNoTimeOfRoom() {
        let result = grant([entry("a1")], budget: AttentionBudget(perDay: 0, perWeek: 10))
        XCTAssertEqual(result.heldBack.first?.reason, .overDayBudget(nextRoom: nil))
    }

    /// Ten messages of `app` waiting since an hour ago and earlier, the first the oldest.
    func flood(_ app: String, count: Int = 10, priority: Double = 0) -> [String: AttentionLedger.Waiting] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { index in
            let since = now.addingTimeInterval(-Double(count - index) * 3600 - 3600)
            return (String(format: "%@-%04d", app, index), AttentionLedger.Waiting(since: since, seen: now.addingTimeInterval(-3600),
                                                                                 priority: priority, weight: 1, reason: .budget))
        })
    }

    func testAnAppKeepsAtMostTheWeeksBudgetOfMessagesWaitingTheHighestRankedFirst() {
        let full = AttentionLedger(shows: (1...3).map { shown("org.b", "b\($0)", hoursAgo: 1) })
        let entries = (0..<5000).map { entry(String(format: "m%04d", $0), priority: $0 == 4321 ? 1 : nil) }
        let result = grant(entries, ledger: full)
        XCTAssertEqual(result.granted, [])
        XCTAssertEqual(result.heldBack.count, 5000, "every message is held back and said so")
        XCTAssertEqual(AttentionPolicy.waitingPlaces(under: .standard), 10)
        XCTAssertEqual(result.ledger.waiting["org.a"]?.keys.sorted(), ["m0000", "m0001", "m0002", "m0003", "m0004", "m0005", "m0006",
                                                                      "m0007", "m0008", "m4321"])
        XCTAssertEqual(grant(entries, budget: AttentionBudget(perDay: 3, perWeek: 0), ledger: full).ledger.waiting["org.a"], nil,
                       "a budget that lets nothing show keeps no place")
    }

    func testAMessageWaitingBehindAFullShareTakesAPlaceOnceOneIsFree() {
        let full = AttentionLedger(shows: (1...3).map { shown("org.b", "b\($0)", hoursAgo: 1) },
                                   waiting: ["org.a": flood("org.a")])
        let result = grant(flood("org.a").keys.sorted().dropFirst().map { entry($0) } + [entry("late")], ledger: full)
        XCTAssertEqual(result.ledger.waiting["org.a"]?.count, 10)
        XCTAssertEqual(result.ledger.waiting["org.a"]?["late"]?.since, now, "the first message gone frees a place for the next")
    }

    func testTheAppsTakeTurnsSoAFloodOfOneAppsOlderWaitsCannotKeepAnotherAppsMessageBack() {
        let ledger = AttentionLedger(waiting: ["org.flood": flood("org.flood")])
        let result = grant([entry("a1"), entry("a2")], budget: AttentionBudget(perDay: 3, perWeek: 10), ledger: ledger)
        // The flood's oldest first, then this app's first, then the flood's second: no room is
        // left for this app's second.
        XCTAssertEqual(result.granted, ["a1"])
        XCTAssertEqual(result.heldBack.map(\.key), ["a2"])
        let later = grant([entry("a1")], budget: AttentionBudget(perDay: 1, perWeek: 10), ledger: ledger)
        XCTAssertEqual(later.granted, [], "one place of room: the flood's oldest wait has the first turn")
        XCTAssertEqual(later.ledger.waiting["org.a"]?["a1"]?.since, now)
    }

    func testAHigherPriorityStillGoesFirstAcrossAppsButOnlyWithinMinusTenToTen() {
        XCTAssertEqual(entry("x", priority: 1e308).priority, 10)
        XCTAssertEqual(entry("x", priority: -1e308).priority, -10)
        XCTAssertEqual(entry("x", priority: 2.5).priority, 2.5)
        XCTAssertEqual(FeedEntry.priorityRange, -10...10)
        // Another app's message claims a priority of 1e308 in the ledger; this app's has 10 and
        // has waited longer: equal ranks once bounded, and the older wait goes first.
        let bought = AttentionLedger.Waiting(since: now.addingTimeInterval(-3600), seen: now, priority: 1e308, weight: 1, reason: .budget)
        let own = AttentionLedger.Waiting(since: now.addingTimeInterval(-7200), seen: now, priority: 10, weight: 1, reason: .budget)
        let ledger = AttentionLedger(waiting: ["org.b": ["bought": bought], "org.a": ["a1": own]])
        XCTAssertEqual(grant([entry("a1", priority: 10)], budget: AttentionBudget(perDay: 1, perWeek: 10), ledger: ledger).granted, ["a1"])
        XCTAssertEqual(grant([entry("a2", priority: 9)], budget: AttentionBudget(perDay: 1, perWeek: 10), ledger: ledger).granted, [],
                       "a lower priority still waits behind a higher one")
    }

    func testDatesAfterNowAreReadAndWrittenAsNowSoAClockAYearAheadCostsADay() {
        let yearAhead = now.addingTimeInterval(365 * 86400)
        let ahead = AttentionLedger(
            shows: (1...3).map { AttentionLedger.Showing(app: "org.b", key: "b\($0)", at: yearAhead, weight: 1) },
            waiting: ["org.b": ["w": .init(since: yearAhead, seen: yearAhead, priority: 0, weight: 1, reason: .budget)]])
        let today = grant([entry("a1")], ledger: ahead)
        XCTAssertEqual(today.granted, [], "the day is used up today")
        XCTAssertEqual(today.ledger.shows.map(\.at), [now, now, now])
        XCTAssertEqual(today.ledger.waiting["org.b"]?["w"], .init(since: now, seen: now, priority: 0, weight: 1, reason: .budget))
        let tomorrow = AttentionPolicy.grant(candidates([entry("a1")]), cap: 3, app: "org.a", claim: claim, budget: .standard,
                                             ledger: today.ledger, now: now.addingTimeInterval(86400 + 1), isLive: { _ in false })
        XCTAssertEqual(tomorrow.granted, ["a1"], "a day later the room is back, not a year later")
        XCTAssertEqual(AttentionPolicy.distrustingFutureDates(in: ahead, now: now), AttentionLedger(
            shows: (1...3).map { AttentionLedger.Showing(app: "org.b", key: "b\($0)", at: now, weight: 1) },
            waiting: ["org.b": ["w": .init(since: now, seen: now, priority: 0, weight: 1, reason: .budget)]]))
    }

    func testTheAdministratorsCeilingCapsEachFigure() {
        XCTAssertEqual(AttentionBudget(perDay: 5, perWeek: 8).held(under: AttentionBudget(perDay: 2, perWeek: 20)),
                       AttentionBudget(perDay: 2, perWeek: 8))
    }
}
