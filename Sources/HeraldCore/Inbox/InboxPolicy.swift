import FoundationEssentials

extension MessageSkipReason {
    /// Whether a message left out for this reason still reached the person, and so belongs in
    /// their inbox: it was for them (their app version, language, desktop and rollout, within its
    /// dates, with a link Herald may offer), whatever happened next (answered before, held back
    /// by the budget or quiet, its category muted, shown enough). Messages that were never for
    /// them (MinVersion, MaxVersion, targeting, dates, a refused link, the app's own refusal) did
    /// not.
    package var reachesPerson: Bool {
        switch self {
        case .viewed, .ignored, .remindLater, .shownElsewhere, .handedOver, .overCap, .overDayBudget, .overWeekBudget,
             .shownEnough, .shownRecently, .categoryMuted:
            return true
        case .belowMinVersion, .aboveMaxVersion, .refusedURL, .noHandler, .delegateDeclined, .notStarted, .ended,
             .unreadableDate, .otherLanguage, .otherDesktop, .outsideRollout, .unreadableRollout:
            return false
        }
    }
}

/// The rules of the person's inbox (DESIGN.md D28), as pure functions: what a check records
/// in it, how long it is kept, and where each message stands when it is read.
package enum InboxPolicy {
    /// How long a message stays in the inbox after it first reached the person, unless its
    /// feed still has it: 180 days, as long as an answer is kept (`CheckPolicy.answerRetention`).
    package static let retention = CheckPolicy.answerRetention
    /// The most messages kept for one app; the oldest go first.
    package static let perApp = 200

    /// The ids of the messages a plan kept for the person: those it may show, and those it left
    /// out for a reason that `reachesPerson`.
    package static func reached(by plan: CheckPlan) -> [String] {
        plan.messages.map(\.key) + plan.skipped.filter { $0.reason.reachesPerson }.map(\.key)
    }

    /// The inbox after a check of `app` kept the messages `reached`, from `feed` (`nil` when the
    /// check fetched none) and the messages Herald made itself (`local`, What's new): each new
    /// one recorded as the person sees it, a changed text brought up to date, the app's feed
    /// messages missing from a fetched feed marked withdrawn (and unmarked when they come back),
    /// then `bounded`. Herald's own messages are never withdrawn by a feed. Equal to `inbox`
    /// when nothing changed, so that the caller writes nothing.
    ///
    /// - Parameters:
    ///   - languages: the person's languages, which the texts are localised to.
    ///   - feedChanged: whether `feed`'s texts may differ from those recorded; a feed the server
    ///     said was not modified (304) only adds messages that reach the person anew.
    package static func recording(_ reached: [String], from feed: Feed?, local: [FeedEntry] = [], feedChanged: Bool = true, app: String,
                                  languages: [String], now: Date, in inbox: Inbox) -> Inbox {
        var inbox = inbox
        var records = inbox.apps[app] ?? [:]
        for key in kept(reached, records: records, now: now) where feedChanged || records[key] == nil || WhatsNewPolicy.isMessageID(key) {
            guard let entry = feed?.entries[key] ?? local.first(where: { $0.key == key }) else { continue }
            // A first reaching in the future (a clock set ahead, a file edited by hand) is now.
            let seen = record(entry.localised(to: languages), reached: min(records[key]?.reached ?? now, now))
            if records[key] != seen { records[key] = seen }
        }
        if let feed {
            let problems = Set(feed.problems.map(\.key))
            for (key, record) in records where !WhatsNewPolicy.isMessageID(key) {
                let present = feed.entries[key] != nil || problems.contains(key)
                if present, record.withdrawn != nil { records[key]?.withdrawn = nil }
                if !present, record.withdrawn == nil { records[key]?.withdrawn = now }
            }
        }
        inbox.apps[app] = records.isEmpty ? nil : records
        return bounded(inbox, now: now)
    }

    /// The messages of `reached` that `bounded` will keep beside the app's `records`, in no
    /// order: all of them when the app keeps fewer than `perApp`, else those among the `perApp`
    /// latest ids of both (`latestIDs`). So a feed of thousands costs the texts of `perApp`
    /// messages, not of every one.
    static func kept(_ reached: [String], records: [String: Inbox.Record], now: Date) -> [String] {
        let new = reached.filter { records[$0] == nil }
        guard records.count + new.count > perApp else { return reached }
        let latest = Set(latestIDs(records.filter { outlasts($0.value, now: now) }.map(\.key) + new))
        return reached.filter(latest.contains)
    }

    /// The `perApp` latest of `ids`, by id (`YYYY/MM/DD` ids in date order): the messages an app
    /// keeps when it has more. Chosen by id, not by when each reached the person, so that a
    /// feed of more than `perApp` messages keeps the same ones from check to check.
    static func latestIDs(_ ids: [String]) -> ArraySlice<String> {
        ids.sorted { ByteSearch.precedes($1, $0) }.prefix(perApp)
    }

    /// A message as the inbox keeps it: its texts as the notification shows them, so each is
    /// bounded as the notification's are (`NotificationText`), and the link as written.
    static func record(_ entry: FeedEntry, reached: Date) -> Inbox.Record {
        let button = entry.actionURL == nil ? nil : entry.actionButton.map(NotificationText.summary)
        return Inbox.Record(title: NotificationText.summary(entry.title), message: NotificationText.body(entry.message, markup: false),
                            link: entry.actionURL.flatMap { $0.utf8.count <= linkLimit ? $0 : nil },
                            button: button, category: entry.category.rawValue, reached: reached)
    }

    /// The longest link kept, in bytes: a longer one is left out (the message is kept without
    /// it), so a feed's text cannot make the file large.
    package static let linkLimit = 8_192

    /// The inbox without what it no longer keeps: messages that reached the person more than
    /// `retention` ago and are gone from their feed, then, per app, all but the `perApp` latest
    /// (`latestIDs`).
    package static func bounded(_ inbox: Inbox, now: Date) -> Inbox {
        var inbox = inbox
        for (app, records) in inbox.apps {
            var kept = records.filter { outlasts($0.value, now: now) }
            if kept.count > perApp {
                let latest = Set(latestIDs(Array(kept.keys)))
                kept = kept.filter { latest.contains($0.key) }
            }
            inbox.apps[app] = kept.isEmpty ? nil : kept
        }
        return inbox
    }

    /// Whether `record` is kept at `now` whatever else the app has: its feed still has it, or it
    /// reached the person less than `retention` ago.
    static func outlasts(_ record: Inbox.Record, now: Date) -> Bool {
        record.withdrawn == nil || now.timeIntervalSince(record.reached) < retention
    }

    /// The inbox's order: the message that reached the person last first, then by id, newest first.
    static func newerFirst(_ a: (key: String, reached: Date), _ b: (key: String, reached: Date)) -> Bool {
        if a.reached != b.reached { return a.reached > b.reached }
        return ByteSearch.precedes(b.key, a.key)
    }

    /// What one app's part of the person's world says of its messages, when the inbox is read.
    package struct Standing {
        /// The app's answers, reminders and showings.
        package var state: HeraldState
        /// The attention ledger (every app's), for the messages that wait.
        package var ledger: AttentionLedger
        /// The off switches for the app: whether it is muted, its muted categories (each by
        /// whom) and the person's attention budget.
        package var switches: OffSwitchDecision
        /// The app's remind period, in seconds.
        package var remindPeriod: TimeInterval

        /// Creates a standing; by default nothing is muted, the budget is the standard one and
        /// the remind period the default.
        package init(state: HeraldState, ledger: AttentionLedger = AttentionLedger(), switches: OffSwitchDecision = .none,
                     remindPeriod: TimeInterval = CheckConfiguration().remindPeriod.seconds) {
            self.state = state
            self.ledger = ledger
            self.switches = switches
            self.remindPeriod = remindPeriod
        }
    }

    /// The messages of `app` in the inbox, newest first, each with where it stands at `now`
    /// (`state(of:key:app:in:now:isLive:)`); what `bounded` would drop is left out. Dates in
    /// the future are read as a check reads them (`CheckPolicy.distrustingFutureDates`): a
    /// reminder set with the clock a year ahead is due a remind period from now, not in a year.
    ///
    /// - Parameter isLive: whether the check holding a claim on a showing still runs
    ///   (`AttentionPolicy.counts`).
    package static func messages(of app: String, in inbox: Inbox, standing: Standing, now: Date,
                                 isLive: (HeraldState.Claim) -> Bool = { _ in false }) -> [InboxMessage] {
        let records = bounded(inbox, now: now).apps[app] ?? [:]
        var standing = standing
        standing.state = CheckPolicy.distrustingFutureDates(in: standing.state, now: now)
        standing.ledger = AttentionPolicy.pruned(standing.ledger, now: now, isLive: isLive)
        return records.sorted { newerFirst(($0.key, $0.value.reached), ($1.key, $1.value.reached)) }.map { key, record in
            InboxMessage(appID: app, id: key, title: record.title, message: record.message, link: record.link, button: record.button,
                         category: record.category, reached: record.reached, lastShown: standing.state.shows[key]?.last,
                         state: state(of: record, key: key, app: app, in: standing, now: now, isLive: isLive))
        }
    }

    /// Where one message stands at `now`, the first that holds of: withdrawn by its publisher;
    /// ignored; viewed; its app muted; its category muted; put off with remind me later; waiting in the
    /// attention ledger for room (with the budget's next free moment,
    /// `AttentionPolicy.shortfall`) or for quiet to end; shown (or on the screen now, held by a
    /// running check); due.
    package static func state(of record: Inbox.Record, key: String, app: String, in standing: Standing, now: Date,
                              isLive: (HeraldState.Claim) -> Bool) -> InboxMessage.State {
        if let since = record.withdrawn { return .withdrawn(since: since) }
        if standing.state.ignored?.contains(key) == true { return .ignored }
        if standing.state.viewed.contains(key) { return .viewed }
        if let mute = standing.switches.mute { return .appMuted(byAdministrator: mute.by == .administrator) }
        if let category = MessageCategory(rawValue: record.category), let mute = standing.switches.mutedCategories[category] {
            return .categoryMuted(byAdministrator: mute.by == .administrator)
        }
        if let reminded = standing.state.reminded[key] { return .remindLater(until: reminded.addingTimeInterval(standing.remindPeriod)) }
        if let waiting = standing.ledger.waiting[app]?[key] {
            guard waiting.reason == .budget else { return .deferredForQuiet }
            let room = AttentionPolicy.room(standing.switches.budget, standing.ledger, now: now, isLive: isLive)
            switch AttentionPolicy.shortfall(weight: waiting.weight, room: room, budget: standing.switches.budget, ledger: standing.ledger,
                                             now: now, isLive: isLive) {
            case .overDayBudget(let next), .overWeekBudget(let next): return .waitingForRoom(until: next)
            default: return .waitingForRoom(until: now)
            }
        }
        if standing.state.shows[key] != nil { return .shown }
        // On the screen now: its check records the showing when it ends.
        if standing.state.presenting[key]?.holds(at: now, isLive: isLive) == true { return .shown }
        return .due
    }
}
