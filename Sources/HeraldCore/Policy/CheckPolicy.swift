import FoundationEssentials

/// Why a check did not run.
public enum CheckSkipReason: Sendable, Equatable, CustomStringConvertible {
    /// The first launch only records that it happened (ORIGINALS.md §1.5).
    case firstLaunch
    /// The last successful check is younger than the check period.
    case checkPeriod(nextCheck: Date)
    /// Recent checks failed; the next attempt waits (DESIGN.md D4).
    case failureBackoff(nextAttempt: Date)
    /// The last check failed because the feed's server (`host`, with its port when the feed URL
    /// names one) answered HTTP 429 or 503 asking not to be asked before `until`, which is later
    /// than the backoff's next attempt (`Retry-After`).
    case serverAskedToWait(host: String, until: Date)
    /// The delegate answered no to "should check".
    case delegateDeclined
    /// The user or the administrator muted the app (or every app): nothing is fetched or shown,
    /// prompts included, and the state is not touched.
    case muted(Mute)

    /// A short machine-readable name.
    public var name: String {
        switch self {
        case .firstLaunch: return "first-launch"
        case .checkPeriod: return "check-period"
        case .failureBackoff: return "failure-backoff"
        case .serverAskedToWait: return "retry-after"
        case .delegateDeclined: return "delegate-declined"
        case .muted: return "muted"
        }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .firstLaunch: return "first launch: nothing is fetched until the next one"
        case .checkPeriod(let next): return "checked recently; next check due \(ISO8601Moment.text(next))"
        case .failureBackoff(let next): return "the last check failed; next attempt at \(ISO8601Moment.text(next))"
        case .serverAskedToWait(let host, let until): return "\(host) asked to be asked again after \(ISO8601Moment.text(until))"
        case .delegateDeclined: return "the app declined the check"
        case .muted(let mute): return mute.description
        }
    }
}

/// Why a message of the feed is not shown at this check.
public enum MessageSkipReason: Sendable, Equatable, CustomStringConvertible {
    /// Already viewed (or acknowledged).
    case viewed
    /// Already ignored.
    case ignored
    /// Put off with "remind me later" and its remind period has not passed.
    case remindLater(until: Date)
    /// The app version is below MinVersion.
    case belowMinVersion(String)
    /// The app version is above MaxVersion.
    case aboveMaxVersion(String)
    /// The ActionURL is refused (bad URL or scheme not allowed, DESIGN.md D14).
    case refusedURL(String)
    /// No application on this system opens the ActionURL's scheme (DESIGN.md D5).
    case noHandler(String)
    /// The delegate answered no to "should display" (DESIGN.md D5).
    case delegateDeclined
    /// Another process is showing it right now (DESIGN.md D16).
    case shownElsewhere
    /// It waits for an answer where an earlier check handed it over (DESIGN.md D23): in the
    /// desktop's list, or on screen, held by the Herald agent.
    case handedOver(since: Date)
    /// The per-check cap was reached (DESIGN.md D3); it comes at a later check.
    case overCap
    /// Its `StartDate` is still to come.
    case notStarted(until: Date)
    /// Its `EndDate` has passed.
    case ended(Date)
    /// Its `StartDate` or `EndDate` (the key named) is not a date Herald can read.
    case unreadableDate(String)
    /// Its `Languages` do not include the user's.
    case otherLanguage
    /// Its `Desktops` do not include this desktop.
    case otherDesktop
    /// This install is outside its `Rollout` (the percentage).
    case outsideRollout(Double)
    /// Its `Rollout` is not a number from 0 to 100.
    case unreadableRollout
    /// The person's attention budget for the day has no room for it (every app's messages
    /// count); it waits, keeping its place, until `nextRoom` (`nil`: not while the budget is
    /// smaller than the message's weight).
    case overDayBudget(nextRoom: Date?)
    /// The same, for the week's budget.
    case overWeekBudget(nextRoom: Date?)
    /// It was shown as many times as its `MaxShows` allows, reminders included.
    case shownEnough(times: Int)
    /// It was shown less than its `MinDaysBetween` ago; it may show again at `nextShow`.
    case shownRecently(nextShow: Date)
    /// Its `Category` is muted, for this app or every app, by the person or the administrator.
    case categoryMuted(category: String, mute: Mute)

    /// A short machine-readable name.
    public var name: String {
        switch self {
        case .viewed: return "viewed"
        case .ignored: return "ignored"
        case .remindLater: return "remind-later"
        case .belowMinVersion: return "below-min-version"
        case .aboveMaxVersion: return "above-max-version"
        case .refusedURL: return "refused-url"
        case .noHandler: return "no-url-handler"
        case .delegateDeclined: return "delegate-declined"
        case .shownElsewhere: return "shown-elsewhere"
        case .handedOver: return "handed-over"
        case .overCap: return "over-cap"
        case .notStarted: return "not-started"
        case .ended: return "ended"
        case .unreadableDate: return "unreadable-date"
        case .otherLanguage: return "other-language"
        case .otherDesktop: return "other-desktop"
        case .outsideRollout: return "outside-rollout"
        case .unreadableRollout: return "unreadable-rollout"
        case .overDayBudget: return "over-day-budget"
        case .overWeekBudget: return "over-week-budget"
        case .shownEnough: return "max-shows"
        case .shownRecently: return "min-days-between"
        case .categoryMuted: return "category-muted"
        }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .viewed: return "already viewed"
        case .ignored: return "ignored by the user"
        case .remindLater(let until): return "reminder due \(ISO8601Moment.text(until))"
        case .belowMinVersion(let version): return "app version is below MinVersion \(version)"
        case .aboveMaxVersion(let version): return "app version is above MaxVersion \(version)"
        case .refusedURL(let reason): return "ActionURL refused: \(reason)"
        case .noHandler(let scheme): return "no application opens \(scheme): links"
        case .delegateDeclined: return "the app declined to display it"
        case .shownElsewhere: return "another process is showing it"
        case .handedOver(let since): return "handed over \(ISO8601Moment.text(since)), waiting for an answer"
        case .overCap: return "more messages than one check shows"
        case .notStarted(let start): return "starts \(ISO8601Moment.text(start))"
        case .ended(let end): return "ended \(ISO8601Moment.text(end))"
        case .unreadableDate(let key): return "\(key) is not a date Herald can read"
        case .otherLanguage: return "not for this user's language"
        case .otherDesktop: return "not for this desktop"
        case .outsideRollout(let share): return "this install is outside the \(NumberText.plain(share)) % rollout"
        case .unreadableRollout: return "Rollout is not a number from 0 to 100 Herald can read"
        case .overDayBudget(let next): return "over the day's budget; " + Self.roomText(next)
        case .overWeekBudget(let next): return "over the week's budget; " + Self.roomText(next)
        case .shownEnough(let times): return "shown \(times) \(times == 1 ? "time" : "times"), as many as its MaxShows allows"
        case .shownRecently(let next): return "shown recently; its MinDaysBetween allows it again \(ISO8601Moment.text(next))"
        case .categoryMuted(let category, let mute): return "category \(category) muted " + mute.summary
        }
    }

    /// When the budget has room again, for people.
    package static func roomText(_ next: Date?, writing moment: (Date) -> String = ISO8601Moment.text) -> String {
        next.map { "room again \(moment($0))" } ?? "the budget is smaller than this message's weight"
    }

    /// Whether the attention budget holds it back (it waits for room, keeping its place).
    public var isOverBudget: Bool {
        switch self {
        case .overDayBudget, .overWeekBudget: return true
        default: return false
        }
    }
}

/// The outcome of filtering a feed: what to show, in order, and what was left out.
package struct Selection: Sendable, Equatable {
    /// Messages that may be shown, in display order (not yet cut to the cap).
    package var candidates: [FeedEntry]
    /// Messages left out, with the reason, in display order.
    package var skipped: [(key: String, reason: MessageSkipReason)]
    /// The state after the selection (debug mode may reset the answered lists).
    package var state: HeraldState

    /// Compares the parts one by one.
    package static func == (lhs: Selection, rhs: Selection) -> Bool {
        lhs.candidates == rhs.candidates && lhs.state == rhs.state
            && lhs.skipped.map(\.key) == rhs.skipped.map(\.key) && lhs.skipped.map(\.reason) == rhs.skipped.map(\.reason)
    }
}

/// The user's answer to a shown message. Raw values are the notification's action ids.
public enum Answer: String, Sendable, Equatable, CaseIterable {
    /// Open the ActionURL; the message is viewed.
    case view
    /// Show it again after the remind period.
    case remind
    /// Never show it again.
    case ignore
    /// Acknowledge a message without ActionURL; the message is viewed.
    case ok
}

/// How a notification went away without an answer (libnotify's closed reasons).
public enum CloseReason: String, Sendable, Equatable {
    /// It timed out.
    case expired
    /// The user dismissed it.
    case dismissed
    /// Herald closed it (wait limit, exit).
    case closedByHerald = "closed-by-herald"
    /// The server did not say.
    case undefined
}

/// What the rules about messages are decided against, the same for every message of one
/// decision: the check's settings, the time, which links may be offered, and which checks
/// still run.
package struct PolicyContext {
    /// The check's settings; its `audience` is who the user is.
    package var configuration: CheckConfiguration
    /// The time the decision is made at.
    package var now: Date
    /// Which ActionURLs may be offered.
    package var urlRules: URLRules
    /// Whether the check holding a claim still runs (see `HeraldState.Claim`).
    package var isLive: (HeraldState.Claim) -> Bool
    /// The process running with a PID, for the agent a handover names (`Handover.isWaiting`).
    package var runningProcess: (Int32) -> RunningProcess?
    /// The message categories muted for this app, and by whom.
    package var mutedCategories: [MessageCategory: Mute]
    /// The person's attention budget across apps, under the administrator's ceiling.
    package var budget: AttentionBudget

    /// Creates a context; by default every URL rule is the default, no other check or process
    /// runs, no category is muted and the budget is the standard one.
    package init(configuration: CheckConfiguration, now: Date, urlRules: URLRules = URLRules(),
                 isLive: @escaping (HeraldState.Claim) -> Bool = { _ in false },
                 runningProcess: @escaping (Int32) -> RunningProcess? = { _ in nil },
                 mutedCategories: [MessageCategory: Mute] = [:], budget: AttentionBudget = .standard) {
        self.configuration = configuration
        self.now = now
        self.urlRules = urlRules
        self.isLive = isLive
        self.runningProcess = runningProcess
        self.mutedCategories = mutedCategories
        self.budget = budget
    }
}

/// The decision rules of a check, as pure functions of configuration, state, feed and time.
package enum CheckPolicy {
    /// Decides whether a check is due, iNotify's `shouldCheckForNotifications` with Herald's
    /// per-message reminders (D6) and failure backoff (D4).
    ///
    /// - Parameters:
    ///   - force: a manual check, like iNotify's `checkForNotifications`: no gate applies.
    /// - Returns: `nil` when due, else the reason; and the state to store (the first launch
    ///   creates the ignore list, which marks it as passed).
    ///
    /// Dates in the future are not trusted (see `distrustingFutureDates`); the returned state
    /// has them brought back to `now`, so one run with a wrong clock costs at most one period.
    package static func gate(
        _ configuration: CheckConfiguration, state: HeraldState, now: Date, force: Bool = false
    ) -> (skip: CheckSkipReason?, state: HeraldState) {
        var state = distrustingFutureDates(in: state, now: now)
        if force || configuration.debug { return (nil, state) }
        if state.ignored == nil {
            if !configuration.showOnFirstLaunch {
                state.ignored = []
                return (.firstLaunch, state)
            }
        }
        if let last = state.lastChecked, now.timeIntervalSince(last) < configuration.checkPeriod.seconds {
            return (.checkPeriod(nextCheck: last.addingTimeInterval(configuration.checkPeriod.seconds)), state)
        }
        if let failure = state.failure {
            // A server's Retry-After and the backoff both hold: the next attempt is the later.
            let nextAttempt = failure.lastAttempt.addingTimeInterval(backoff(afterFailures: failure.count, checkPeriod: configuration.checkPeriod))
            if let asked = failure.retryAfter, asked.until > now, asked.until >= nextAttempt {
                return (.serverAskedToWait(host: asked.host, until: asked.until), state)
            }
            if now < nextAttempt { return (.failureBackoff(nextAttempt: nextAttempt), state) }
        }
        return (nil, state)
    }

    /// The wait after `count` failures in a row: 15 minutes, doubling, capped at the check period.
    package static func backoff(afterFailures count: Int, checkPeriod: Duration) -> TimeInterval {
        guard count > 0 else { return 0 }
        let doubled = 15 * 60 * Double(1 << min(count - 1, 30))
        return min(doubled, checkPeriod.seconds)
    }

    /// The state with every date that lies after `now` set to `now`: `lastChecked`, the last
    /// failed attempt, reminders, `absentSince` and each message's last showing (`shows`, for
    /// `MinDaysBetween`). The attention ledger's dates follow the same rule
    /// (`AttentionPolicy.distrustingFutureDates`). A server's `Retry-After` lies ahead by
    /// nature, but never further than `RetryAfter.longestWait`: one further ahead is read as now.
    ///
    /// One run with the clock years ahead would otherwise stall checks, reminders and a
    /// message's next showing until the clock caught up. Read as "now", such a date costs one
    /// check period, backoff, remind period or `MinDaysBetween` from the first run with a right
    /// clock, and that run stores the corrected date.
    package static func distrustingFutureDates(in state: HeraldState, now: Date) -> HeraldState {
        var state = state
        if let last = state.lastChecked, last > now { state.lastChecked = now }
        if let failure = state.failure, failure.lastAttempt > now { state.failure?.lastAttempt = now }
        if let asked = state.failure?.retryAfter, asked.until.timeIntervalSince(now) > RetryAfter.longestWait { state.failure?.retryAfter?.until = now }
        for (key, date) in state.reminded where date > now { state.reminded[key] = now }
        for (key, date) in state.absentSince where date > now { state.absentSince[key] = now }
        for (key, record) in state.shows where record.last > now { state.shows[key]?.last = now }
        return state
    }

    /// How long the answer to a message that left the feed is kept: 180 days after the first
    /// successful check that did not find it. A publisher who brings a message back within that
    /// time finds it still answered; an id reused after it is a new message (README: never
    /// reuse an id).
    package static let answerRetention: TimeInterval = 180 * secondsPerDay

    /// Forgets what no longer matters, so the state stays small (see `answerRetention`): the
    /// answers (viewed, ignored, reminded) to messages missing from `feed` for longer than the
    /// retention, and claims that have lapsed.
    ///
    /// An answered id missing from the feed gets an `absentSince` date once, at the first
    /// check without it; the date does not move at later checks, so a steady feed costs no
    /// writes. An entry the feed has but could not use (a problem) counts as present.
    package static func prune(_ state: HeraldState, feed: Feed, now: Date) -> HeraldState {
        var state = state
        // The answered ids are few and the feed's may be thousands: each answered id is looked up.
        let problems = Set(feed.problems.map(\.key))
        let answered = state.viewed.union(state.ignored ?? []).union(state.reminded.keys).union(state.shows.keys)
            .filter { feed.entries[$0] == nil && !problems.contains($0) }
        var absentSince: [String: Date] = [:]
        var forgotten: Set<String> = []
        for key in answered {
            let since = min(state.absentSince[key] ?? now, now)
            if now.timeIntervalSince(since) >= answerRetention { forgotten.insert(key) } else { absentSince[key] = since }
        }
        state.absentSince = absentSince
        if !forgotten.isEmpty {
            state.viewed.subtract(forgotten)
            state.ignored?.subtract(forgotten)
            for key in forgotten {
                state.reminded[key] = nil
                state.shows[key] = nil
            }
        }
        for key in endedReminders(in: state, feed: feed, now: now) { state.reminded[key] = nil }
        state.presenting = state.presenting.filter { $0.value.until > now }
        return state
    }

    /// Records a failed check: `lastChecked` stays, the failure run grows (DESIGN.md D4), and
    /// the server's `retryAfter`, if it asked to wait, is kept until the next success.
    package static func recordFailure(_ state: HeraldState, reason: String, now: Date, retryAfter: RetryAfter? = nil) -> HeraldState {
        var state = state
        state.failure = .init(count: (state.failure?.count ?? 0) + 1, lastAttempt: now, reason: reason, retryAfter: retryAfter)
        return state
    }

    /// Records a successful check (a 200 or a 304 whose cached copy decoded).
    package static func recordSuccess(_ state: HeraldState, now: Date) -> HeraldState {
        var state = state
        state.lastChecked = now
        state.failure = nil
        if state.ignored == nil { state.ignored = [] }
        return state
    }

    /// Filters and orders a feed's entries (ORIGINALS.md §1.7, §1.8, DESIGN.md D2, D6, D14).
    ///
    /// The plan's locked update goes through here with the feed at hand, so this is where the
    /// state is kept small (`prune`) and freed of future dates (`distrustingFutureDates`); the
    /// returned state carries both.
    ///
    /// - Parameters:
    ///   - claimant: the check selecting; its own claims never exclude a message.
    ///   - context: the settings, the time, the link rules and which checks still run.
    ///   - rolloutDraw: this install's place in every rollout, drawn when the state has none
    ///     and the feed has a `Rollout`; kept in the returned state.
    ///   - local: messages Herald made itself (What's new, `WhatsNewPolicy`), selected with the
    ///     feed's, or alone when the feed was not fetched (`nil`): then the answers are not
    ///     pruned, as only a fetched feed tells which messages left it.
    package static func select(
        _ feed: Feed?, adding local: [FeedEntry] = [], state: HeraldState, claimant: Claimant? = nil, in context: PolicyContext,
        rolloutDraw: () -> Double = { Double.random(in: 0..<1) }
    ) -> Selection {
        let (configuration, now) = (context.configuration, context.now)
        var state = distrustingFutureDates(in: state, now: now)
        var entries = feed.map { Array($0.entries.values) } ?? []
        if let feed {
            let added = local.filter { feed.entries[$0.key] == nil }
            var present = feed
            for entry in added { present.entries[entry.key] = entry }
            state = prune(state, feed: added.isEmpty ? feed : present, now: now)
            entries += added
        } else {
            entries = local
        }
        if state.rolloutDraw == nil, entries.contains(where: { $0.field(TargetingKey.rollout) != nil }) {
            state.rolloutDraw = rolloutDraw()
        }
        let ignored = state.ignored ?? []
        // The keys are ordered once, for the messages to show and for the skipped ones: each
        // entry has its place in that order, and a skipped one's reason is kept at its place.
        let order = orderPositions(of: entries.map(\.key), oldestFirst: configuration.showOldestFirst)
        var places = Array(repeating: 0, count: order.count)
        for (place, position) in order.enumerated() { places[position] = place }
        var reasons: [MessageSkipReason?] = Array(repeating: nil, count: order.count)
        var pending: [Int] = []
        pending.reserveCapacity(order.count)
        for position in order {
            let key = entries[position].key
            if !configuration.showAnswered {
                if ignored.contains(key) { reasons[places[position]] = .ignored; continue }
                if state.viewed.contains(key) { reasons[places[position]] = .viewed; continue }
            }
            pending.append(position)
        }
        if configuration.debug, !entries.isEmpty, pending.isEmpty {
            state.ignored = []
            state.viewed = []
            pending = order
            reasons = Array(repeating: nil, count: order.count)
        }
        let languages = configuration.audience?.languages ?? []
        var candidates: [FeedEntry] = []
        for position in byPriority(pending, of: entries) {
            if let reason = exclusion(of: entries[position], state: state, claimant: claimant, in: context) {
                reasons[places[position]] = reason
            } else {
                candidates.append(entries[position].localised(to: languages))
            }
        }
        let skippedInOrder = order.indices.compactMap { place in reasons[place].map { (key: entries[order[place]].key, reason: $0) } }
        return Selection(candidates: candidates, skipped: skippedInOrder, state: state)
    }

    package static func exclusion(of entry: FeedEntry, state: HeraldState, claimant: Claimant?, in context: PolicyContext) -> MessageSkipReason? {
        let (configuration, now) = (context.configuration, context.now)
        if !configuration.debug, !configuration.showAnswered, let reminded = state.reminded[entry.key] {
            let due = reminded.addingTimeInterval(configuration.remindPeriod.seconds)
            if now < due { return .remindLater(until: due) }
        }
        if let version = configuration.appVersion {
            if let minimum = entry.minVersion, VersionComparison.numeric(version, minimum) == .ascending {
                return .belowMinVersion(minimum)
            }
            if let maximum = entry.maxVersion, VersionComparison.numeric(version, maximum) == .descending {
                return .aboveMaxVersion(maximum)
            }
        }
        if let reason = targetingExclusion(of: entry, state: state, in: context) {
            return reason
        }
        if let reason = attentionExclusion(of: entry, state: state, in: context) {
            return reason
        }
        if let url = entry.actionURL, let refusal = context.urlRules.actionURLRefusal(url) {
            return .refusedURL(refusal)
        }
        if let claim = state.presenting[entry.key], isHeldElsewhere(claim, claimant: claimant, in: context) {
            return .shownElsewhere
        }
        if let handover = state.handedOver[entry.key],
           Handover.isWaiting(handover, now: context.now, remindPeriod: context.configuration.remindPeriod.seconds,
                              process: context.runningProcess) {
            return .handedOver(since: handover.since)
        }
        return nil
    }

    /// Whether a claim keeps a message or prompt from `claimant`: it is another check's, it has
    /// not lapsed, and that check still runs.
    static func isHeldElsewhere(_ claim: HeraldState.Claim, claimant: Claimant?, in context: PolicyContext) -> Bool {
        if let claimant, claim.isHeld(by: claimant) { return false }
        return claim.holds(at: context.now, isLive: context.isLive)
    }

    /// Sorts by key with `caseInsensitiveCompare:`, newest (last) first unless `oldestFirst`.
    package static func order(_ entries: [FeedEntry], oldestFirst: Bool) -> [FeedEntry] {
        // Each key is turned into its comparable units once, and the positions are sorted:
        // comparing through String views and moving whole entries cost more than the rest.
        orderPositions(of: entries.map(\.key), oldestFirst: oldestFirst).map { entries[$0] }
    }

    /// The positions of `keys` in the order of `order(_:oldestFirst:)`.
    static func orderPositions(of keys: [String], oldestFirst: Bool) -> [Int] {
        let ascending = VersionComparison.caseInsensitiveOrder(of: keys)
        return oldestFirst ? ascending : ascending.reversed()
    }

    /// Applies an answer to the state (ORIGINALS.md §1.9, with D6's per-message reminder).
    package static func apply(_ answer: Answer, to key: String, state: HeraldState, now: Date) -> HeraldState {
        var state = state
        state.presenting[key] = nil
        state.handedOver[key] = nil
        switch answer {
        case .view, .ok:
            state.viewed.insert(key)
            state.reminded[key] = nil
        case .ignore:
            state.ignored = (state.ignored ?? []).union([key])
            state.reminded[key] = nil
        case .remind:
            state.reminded[key] = now
        }
        return state
    }

    /// What a close without an answer means (DESIGN.md D7): dismissed by the user is remind
    /// later; expired or closed by Herald changes nothing, so it shows again at the next check.
    package static func answer(forClose reason: CloseReason) -> Answer? {
        reason == .dismissed ? .remind : nil
    }
}
