import FoundationEssentials

extension CheckPolicy {
    /// Whether a message's targeting keys leave this install out: its schedule (`StartDate`,
    /// `EndDate`), its audience (`Languages`, `Desktops`) and its `Rollout`. `nil` when none
    /// does, as for every entry without these keys.
    package static func targetingExclusion(of entry: FeedEntry, state: HeraldState, in context: PolicyContext) -> MessageSkipReason? {
        let now = context.now
        switch entry.startDate {
        case .unreadable: return .unreadableDate(TargetingKey.startDate)
        case .moment(let start) where now < start: return .notStarted(until: start)
        default: break
        }
        switch entry.endDate {
        case .unreadable: return .unreadableDate(TargetingKey.endDate)
        case .moment(let end) where now > end: return .ended(end)
        default: break
        }
        let audience = context.configuration.audience ?? Audience()
        if let listed = entry.languages, !LocalisedText.matches(listed, languages: audience.languages) {
            return .otherLanguage
        }
        if let listed = entry.desktops {
            let desktops = Set(audience.desktops.map { $0.lowercased() })
            if !listed.contains(where: { desktops.contains($0.lowercased()) }) { return .otherDesktop }
        }
        if entry.hasUnreadableRollout { return .unreadableRollout }
        if let share = entry.rollout {
            // Without a draw (a state that could not keep one) the install is outside every
            // rollout short of 100 %: a message is never shown on a number that changes.
            let place = state.rolloutDraw ?? 1
            if !(place * 100 < share) && share < 100 { return .outsideRollout(share) }
        }
        return nil
    }

    /// Entries in display order, moved so that a higher `Priority` comes first; equal
    /// priorities keep the display order. A feed without priorities is returned as it is.
    package static func byPriority(_ entries: [FeedEntry]) -> [FeedEntry] {
        byPriority(Array(entries.indices), of: entries).map { entries[$0] }
    }

    /// `positions` of `entries`, in display order, moved as `byPriority(_:)` moves the entries.
    static func byPriority(_ positions: [Int], of entries: [FeedEntry]) -> [Int] {
        let priorities = positions.map { entries[$0].priority }
        guard priorities.contains(where: { $0 != 0 }) else { return positions }
        return positions.indices.sorted { priorities[$0] != priorities[$1] ? priorities[$0] > priorities[$1] : $0 < $1 }
            .map { positions[$0] }
    }

    /// The reminders of messages whose `EndDate` has passed: nobody will be reminded of them,
    /// so they are not kept (answers are, while the message stays in the feed).
    static func endedReminders(in state: HeraldState, feed: Feed, now: Date) -> [String] {
        state.reminded.keys.filter { key in
            if case .moment(let end) = feed.entries[key]?.endDate { return now > end }
            return false
        }
    }
}
