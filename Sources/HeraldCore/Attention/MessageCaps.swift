import FoundationEssentials

extension CheckPolicy {
    /// Whether the person's muted categories or the message's own caps keep it back: its
    /// `Category` muted for this app (or every app), its `MaxShows` reached, or its last showing
    /// nearer than its `MinDaysBetween`. `nil` when none does, as for every entry without them.
    package static func attentionExclusion(of entry: FeedEntry, state: HeraldState, in context: PolicyContext) -> MessageSkipReason? {
        if !context.mutedCategories.isEmpty, let mute = context.mutedCategories[entry.category] {
            return .categoryMuted(category: entry.category.rawValue, mute: mute)
        }
        guard !context.configuration.debug, let record = state.shows[entry.key] else { return nil }
        if let most = entry.maxShows, record.count >= most { return .shownEnough(times: record.count) }
        if let least = entry.minTimeBetweenShows {
            let next = min(record.last, context.now).addingTimeInterval(least)
            if context.now < next { return .shownRecently(nextShow: next) }
        }
        return nil
    }

    /// The state with one more showing of each message of `keys` at `now` (first showings and
    /// reminders alike).
    package static func recordShown(_ keys: some Sequence<String>, in state: HeraldState, now: Date) -> HeraldState {
        var state = state
        for key in keys {
            let count = state.shows[key]?.count ?? 0
            state.shows[key] = HeraldState.ShowRecord(count: count + 1, last: now)
        }
        return state
    }
}
