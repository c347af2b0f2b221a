import FoundationEssentials

/// A message a check could show, as the attention budget weighs it.
package struct AttentionCandidate: Sendable, Equatable {
    /// The message id.
    package var key: String
    /// Its `Priority`, held in `FeedEntry.priorityRange`.
    package var priority: Double
    /// What one showing takes from the budget.
    package var weight: Int
    /// Whether it may pass the budget: `Category` security with `Urgency` critical, in an app
    /// that allows critical urgency.
    package var passesBudget: Bool

    /// The candidate for a feed entry, under the app's settings.
    package init(_ entry: FeedEntry, allowsCriticalUrgency: Bool) {
        key = entry.key
        priority = entry.priority
        weight = entry.category.weight
        passesBudget = allowsCriticalUrgency && entry.category == .security && entry.urgency == .critical
    }
}

/// What the budget lets one check show: the messages it takes room for, in the order they
/// rank, the ones it holds back and why, and the ledger with the room taken.
package struct AttentionGrant: Sendable {
    /// The messages given room, highest rank first.
    package var granted: [String]
    /// The messages past the check's cap, in rank order: not held back by the budget.
    package var beyondCap: [String]
    /// The messages the budget holds back, with the reason, in rank order.
    package var heldBack: [(key: String, reason: MessageSkipReason)]
    /// The ledger with the room taken and the waiting messages recorded.
    package var ledger: AttentionLedger
}

/// The rules of the attention budget (issue: one budget across apps), as pure functions of the
/// ledger, the budget and the time.
///
/// - Room: the weights of the showings of the last 24 hours and 7 days, against the budget's
///   `perDay` and `perWeek`. A showing a running check has taken room for counts; one whose
///   check ended without showing it does not.
/// - Rank: highest `Priority` first (held in `FeedEntry.priorityRange`), then each app in turn
///   (every app's first message before any app's second), then the oldest wait, across every
///   app: a message another app's check held back keeps its place (and its room) for
///   `placeKept` after that check.
/// - A message that does not fit is held back with the next time there is room for it, and
///   waits; it is not marked, so it comes again at the next check. An app keeps at most
///   `waitingPlaces(under:)` messages waiting: no app's feed fills the ledger.
/// - Time only counts forward: a date after now is read as now and written as now
///   (`distrustingFutureDates`).
package enum AttentionPolicy {
    /// The length of the day budget's window.
    package static let day: TimeInterval = secondsPerDay
    /// The length of the week budget's window.
    package static let week: TimeInterval = 7 * secondsPerDay
    /// How long a message another app's check held back keeps its place after that check: an
    /// app that no longer checks cannot keep room from the others for longer.
    package static let placeKept: TimeInterval = 2 * secondsPerDay

    /// How many messages of one app may wait in the ledger: as many as the budget lets show in
    /// a week (`perWeek`, 10 by default, at most `AttentionBudget.largest`). A message behind
    /// that many of its own app's cannot show within the week, so it holds no place: it is
    /// held back all the same, and takes a place at a later check once one is free.
    package static func waitingPlaces(under budget: AttentionBudget) -> Int { budget.perWeek }

    /// The ledger with every date that lies after `now` set to `now`: showings, and when a
    /// message began to wait and was last seen. The ledger's side of
    /// `CheckPolicy.distrustingFutureDates`: a check run with the clock a year ahead would
    /// otherwise fill the day for a year; read as now and written back so, such a date costs
    /// one day (or week) from the first check with a right clock.
    package static func distrustingFutureDates(in ledger: AttentionLedger, now: Date) -> AttentionLedger {
        var ledger = ledger
        for index in ledger.shows.indices where ledger.shows[index].at > now { ledger.shows[index].at = now }
        for (app, messages) in ledger.waiting {
            for (key, message) in messages where message.since > now || message.seen > now {
                ledger.waiting[app]?[key] = .init(since: min(message.since, now), seen: min(message.seen, now), priority: message.priority,
                                                  weight: message.weight, reason: message.reason)
            }
        }
        return ledger
    }

    /// Whether a showing counts at `now`: a shown one does; one a check took room for counts
    /// while that claim holds.
    package static func counts(_ showing: AttentionLedger.Showing, now: Date, isLive: (HeraldState.Claim) -> Bool) -> Bool {
        showing.claim?.holds(at: now, isLive: isLive) ?? true
    }

    /// The ledger without what no longer matters: showings older than a week or whose check
    /// ended without showing them, and waiting messages their app has not seen for `placeKept`;
    /// its dates after `now` set to `now` (`distrustingFutureDates`).
    package static func pruned(_ ledger: AttentionLedger, now: Date, isLive: (HeraldState.Claim) -> Bool) -> AttentionLedger {
        var ledger = distrustingFutureDates(in: ledger, now: now)
        ledger.shows = ledger.shows.filter { $0.at > now.addingTimeInterval(-week) && counts($0, now: now, isLive: isLive) }
        for (app, messages) in ledger.waiting {
            let kept = messages.filter { $0.value.seen > now.addingTimeInterval(-placeKept) }
            ledger.waiting[app] = kept.isEmpty ? nil : kept
        }
        return ledger
    }

    /// The weights counted in the window of `length` that ends at `now`.
    package static func used(_ ledger: AttentionLedger, within length: TimeInterval, now: Date,
                              isLive: (HeraldState.Claim) -> Bool) -> Int {
        ledger.shows.reduce(0) { sum, showing in
            min(showing.at, now) > now.addingTimeInterval(-length) && counts(showing, now: now, isLive: isLive) ? sum + showing.weight : sum
        }
    }

    /// The room left for the day and for the week.
    package static func room(_ budget: AttentionBudget, _ ledger: AttentionLedger, now: Date,
                              isLive: (HeraldState.Claim) -> Bool) -> (day: Int, week: Int) {
        (budget.perDay - used(ledger, within: day, now: now, isLive: isLive),
         budget.perWeek - used(ledger, within: week, now: now, isLive: isLive))
    }

    /// Why a message of `weight` does not fit the room, with the next time there is room for it
    /// (`nil` when the budget is smaller than the message: never, while it stays so); `nil` when
    /// it fits. The week's reason wins when both are short, with the later of the two times.
    package static func shortfall(weight: Int, room: (day: Int, week: Int), budget: AttentionBudget, ledger: AttentionLedger,
                                  now: Date, isLive: (HeraldState.Claim) -> Bool) -> MessageSkipReason? {
        let dayShort = weight > room.day, weekShort = weight > room.week
        guard dayShort || weekShort else { return nil }
        let dayRoom = dayShort ? nextRoom(weight: weight, limit: budget.perDay, window: day, ledger, now: now, isLive: isLive) : now
        guard weekShort else { return .overDayBudget(nextRoom: dayRoom) }
        let weekRoom = nextRoom(weight: weight, limit: budget.perWeek, window: week, ledger, now: now, isLive: isLive)
        guard let dayRoom, let weekRoom else { return .overWeekBudget(nextRoom: nil) }
        return .overWeekBudget(nextRoom: max(dayRoom, weekRoom))
    }

    /// The first time the showings within `window` leave room for `weight` under `limit`, as
    /// they age out of it; `nil` when `weight` is more than `limit`.
    static func nextRoom(weight: Int, limit: Int, window: TimeInterval, _ ledger: AttentionLedger, now: Date,
                         isLive: (HeraldState.Claim) -> Bool) -> Date? {
        guard weight <= limit else { return nil }
        let counted = ledger.shows.filter { min($0.at, now) > now.addingTimeInterval(-window) && counts($0, now: now, isLive: isLive) }
            .sorted { $0.at < $1.at }
        var used = counted.reduce(0) { $0 + $1.weight }
        for showing in counted {
            used -= showing.weight
            if used + weight <= limit { return min(showing.at, now).addingTimeInterval(window) }
        }
        return now
    }

    /// Gives this check's candidates the room the budget leaves, in rank order across every app.
    ///
    /// - Parameters:
    ///   - candidates: the messages the check may show, in its display order.
    ///   - cap: how many this check shows at most (the per-check cap).
    ///   - app: the app whose check it is.
    ///   - claim: the claim the room is taken under (the check's own).
    package static func grant(
        _ candidates: [AttentionCandidate], cap: Int, app: String, claim: HeraldState.Claim, budget: AttentionBudget,
        ledger: AttentionLedger, now: Date, isLive: (HeraldState.Claim) -> Bool
    ) -> AttentionGrant {
        var ledger = pruned(ledger, now: now, isLive: isLive)
        let ownWaiting = ledger.waiting[app] ?? [:]
        struct Ranked {
            var priority: Double
            /// Its place among its own app's messages, by priority then the oldest wait: the
            /// turn it has when every app takes one in turn.
            var turn = 0
            var since: Date
            var weight: Int
            /// The position among this check's candidates, or `nil` for another app's message.
            var own: Int?
            /// Another app's message: its app and id, which order equal ranks.
            var other: (app: String, key: String)?
        }
        var ranked: [Ranked] = candidates.enumerated().map { position, candidate in
            Ranked(priority: candidate.priority, since: ownWaiting[candidate.key]?.since ?? now,
                   weight: candidate.weight, own: position)
        }
        for (other, messages) in ledger.waiting where other != app {
            for (key, message) in messages {
                ranked.append(Ranked(priority: FeedEntry.bounded(priority: message.priority), since: message.since,
                                     weight: message.weight, own: nil, other: (other, key)))
            }
        }
        // Within an app: the higher priority, then the oldest wait, then the check's display
        // order (or the message id for another app's). Each app's messages then take turns.
        func withinApp(_ a: Ranked, _ b: Ranked) -> Bool {
            if a.priority != b.priority { return a.priority > b.priority }
            if a.since != b.since { return a.since < b.since }
            if let x = a.own, let y = b.own { return x < y }
            return (a.other?.key ?? "") < (b.other?.key ?? "")
        }
        for members in Dictionary(grouping: ranked.indices, by: { ranked[$0].other?.app ?? app }).values {
            for (turn, index) in members.sorted(by: { withinApp(ranked[$0], ranked[$1]) }).enumerated() { ranked[index].turn = turn }
        }
        // A total order: the higher priority, then the earlier turn, then the oldest wait; equal
        // ranks keep the check's display order, its messages come before another app's of the
        // same rank, and other apps' go by app id, then message id, so the outcome never depends
        // on the order a dictionary lists them in.
        let order = ranked.indices.sorted { left, right in
            let (a, b) = (ranked[left], ranked[right])
            if a.priority != b.priority { return a.priority > b.priority }
            if a.turn != b.turn { return a.turn < b.turn }
            if a.since != b.since { return a.since < b.since }
            switch (a.own, b.own) {
            case let (x?, y?): return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil):
                guard let x = a.other, let y = b.other else { return left < right }
                return x.app != y.app ? x.app < y.app : x.key < y.key
            }
        }
        var room = room(budget, ledger, now: now, isLive: isLive)
        var grant = AttentionGrant(granted: [], beyondCap: [], heldBack: [], ledger: ledger)
        // This app's waiting messages, in rank order, at most `waitingPlaces`.
        var waiting: [String: AttentionLedger.Waiting] = [:]
        let places = waitingPlaces(under: budget)
        func wait(_ key: String, _ message: AttentionLedger.Waiting) {
            if waiting[key] != nil || waiting.count < places { waiting[key] = message }
        }
        // Why a message is held back depends on its weight, the room left and the showings,
        // which change only as room is taken: asked once for each weight while they stand, not
        // once for each of the thousands a long feed holds back.
        struct Room: Hashable {
            var weight, day, week, shows: Int
        }
        var reasons: [Room: MessageSkipReason] = [:]
        for index in order {
            let item = ranked[index]
            guard let position = item.own else {
                // Another app's waiting message keeps its place: its room is not given away.
                if item.weight <= room.day, item.weight <= room.week { room = (room.day - item.weight, room.week - item.weight) }
                continue
            }
            let candidate = candidates[position]
            let fits = candidate.weight <= room.day && candidate.weight <= room.week
            if grant.granted.count >= cap, fits || candidate.passesBudget {
                grant.beyondCap.append(candidate.key)
                if let kept = ownWaiting[candidate.key] { wait(candidate.key, kept) }
                continue
            }
            if fits || candidate.passesBudget {
                grant.granted.append(candidate.key)
                room = (room.day - candidate.weight, room.week - candidate.weight)
                ledger.shows.append(.init(app: app, key: candidate.key, at: now, weight: candidate.weight, claim: claim))
            } else {
                let asked = Room(weight: candidate.weight, day: room.day, week: room.week, shows: ledger.shows.count)
                let reason = reasons[asked]
                    ?? shortfall(weight: candidate.weight, room: room, budget: budget, ledger: ledger, now: now, isLive: isLive)
                    ?? .overDayBudget(nextRoom: now)
                reasons[asked] = reason
                grant.heldBack.append((candidate.key, reason))
                wait(candidate.key, AttentionLedger.Waiting(since: item.since, seen: now, priority: item.priority, weight: candidate.weight,
                                                            reason: .budget))
            }
        }
        // A message no longer among the candidates (answered, withdrawn, out of its dates) no
        // longer waits; one the desktop's quiet held back keeps its entry until it is shown.
        for (key, kept) in ownWaiting.sorted(by: { $0.key < $1.key }) where waiting[key] == nil && kept.reason == .quiet && !grant.granted.contains(key)
            && candidates.contains(where: { $0.key == key }) {
            wait(key, kept)
        }
        grant.ledger.shows = ledger.shows
        grant.ledger.waiting[app] = waiting.isEmpty ? nil : waiting
        return grant
    }

    /// `grant` for a check's selected messages under its context (settings, budget, time,
    /// which checks run), and the messages reordered as granted: those given room in rank
    /// order, then those past the cap. The one step the plan and `--explain` both take.
    package static func budgeted(_ messages: [FeedEntry], app: String, claim: HeraldState.Claim, ledger: AttentionLedger,
                                 in context: PolicyContext) -> (messages: [FeedEntry], grant: AttentionGrant) {
        let configuration = context.configuration
        let grant = grant(messages.map { AttentionCandidate($0, allowsCriticalUrgency: configuration.allowsCriticalUrgency) },
                          cap: configuration.maxNotificationsPerCheck, app: app, claim: claim, budget: context.budget,
                          ledger: ledger, now: context.now, isLive: context.isLive)
        let given = grant.granted + grant.beyondCap
        // A budget spent for the day gives room to none of a long feed's messages: nothing to find.
        guard !given.isEmpty else { return ([], grant) }
        let byKey = Dictionary(messages.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return (given.compactMap { byKey[$0] }, grant)
    }

    /// Takes room for one more message of this check (one claimed late, in place of one passed
    /// over): first gives back the room of `passedOver`, which this check took and will not
    /// show. Returns why it does not fit, leaving the room of `passedOver` given back, or `nil`
    /// with the room taken.
    package static func takeRoom(
        for candidate: AttentionCandidate, givingBack passedOver: [String], app: String, claim: HeraldState.Claim,
        budget: AttentionBudget, ledger: inout AttentionLedger, now: Date, isLive: (HeraldState.Claim) -> Bool
    ) -> MessageSkipReason? {
        ledger.shows.removeAll { $0.isTaken(by: claim, app: app) && passedOver.contains($0.key) }
        let room = room(budget, ledger, now: now, isLive: isLive)
        if !candidate.passesBudget,
           let reason = shortfall(weight: candidate.weight, room: room, budget: budget, ledger: ledger, now: now, isLive: isLive) {
            return reason
        }
        ledger.shows.append(.init(app: app, key: candidate.key, at: now, weight: candidate.weight, claim: claim))
        return nil
    }

    /// Settles the room a check took, once it has shown what it could: a shown message's room
    /// is kept for good and it no longer waits; the room of one not shown is given back.
    package static func settle(shown: Set<String>, app: String, claim: HeraldState.Claim, ledger: AttentionLedger) -> AttentionLedger {
        var ledger = ledger
        ledger.shows = ledger.shows.compactMap { showing in
            guard showing.isTaken(by: claim, app: app) else { return showing }
            guard shown.contains(showing.key) else { return nil }
            var kept = showing
            kept.claim = nil
            return kept
        }
        if var waiting = ledger.waiting[app] {
            for key in shown { waiting[key] = nil }
            ledger.waiting[app] = waiting.isEmpty ? nil : waiting
        }
        return ledger
    }

    /// Records the messages a check of several apps run together is about to weigh (DESIGN.md
    /// D27): before any of their plans, each app's first candidates wait in the ledger, so that
    /// every app's grant ranks them against its own and leaves their room to those that rank
    /// higher, whichever app plans first. A message keeps the place and the reason of an earlier
    /// wait; a new one waits as the budget's until its own app's grant decides it (shown, it no
    /// longer waits; held back, it waits as any other). At most the check's cap of them, and no
    /// more than `waitingPlaces(under:)`.
    package static func announce(_ candidates: [AttentionCandidate], cap: Int, app: String, budget: AttentionBudget,
                                 ledger: AttentionLedger, now: Date) -> AttentionLedger {
        var ledger = distrustingFutureDates(in: ledger, now: now)
        var waiting = ledger.waiting[app] ?? [:]
        for candidate in candidates.prefix(min(cap, waitingPlaces(under: budget))) {
            let earlier = waiting[candidate.key]
            waiting[candidate.key] = .init(since: earlier?.since ?? now, seen: now, priority: candidate.priority, weight: candidate.weight,
                                           reason: earlier?.reason ?? .budget)
        }
        ledger.waiting[app] = waiting.isEmpty ? nil : waiting
        return ledger
    }

    /// The messages one app's check of a run of several apps announces (`announce(_:ledger:now:)`).
    package struct Announcement: Sendable {
        /// The app whose check it is.
        package var app: String
        /// The messages its plan would claim, before the budget, in its order.
        package var candidates: [AttentionCandidate]
        /// How many the check shows at most.
        package var cap: Int
        /// The person's budget, as the app's check has it.
        package var budget: AttentionBudget

        /// An app's announcement.
        package init(app: String, candidates: [AttentionCandidate], cap: Int, budget: AttentionBudget) {
            self.app = app
            self.candidates = candidates
            self.cap = cap
            self.budget = budget
        }
    }

    /// Every app's candidates of a run of several apps, announced at once, in app-id order
    /// (`announce(_:cap:app:budget:ledger:now:)` for each app with any).
    package static func announce(_ announcements: [Announcement], ledger: AttentionLedger, now: Date) -> AttentionLedger {
        announcements.sorted { $0.app < $1.app }.filter { !$0.candidates.isEmpty }.reduce(ledger) { ledger, each in
            announce(each.candidates, cap: each.cap, app: each.app, budget: each.budget, ledger: ledger, now: now)
        }
    }

    /// Records messages the desktop's quiet kept from showing: they wait, keeping the place of
    /// an earlier wait, and the room this check took for them is given back.
    package static func deferForQuiet(_ candidates: [AttentionCandidate], app: String, claim: HeraldState.Claim,
                                      ledger: AttentionLedger, now: Date) -> AttentionLedger {
        var ledger = distrustingFutureDates(in: ledger, now: now)
        ledger.shows.removeAll { $0.isTaken(by: claim, app: app) }
        var waiting = ledger.waiting[app] ?? [:]
        for candidate in candidates {
            let since = waiting[candidate.key]?.since ?? now
            waiting[candidate.key] = .init(since: since, seen: now, priority: candidate.priority, weight: candidate.weight,
                                           reason: waiting[candidate.key]?.reason ?? .quiet)
        }
        ledger.waiting[app] = waiting.isEmpty ? nil : waiting
        return ledger
    }
}
