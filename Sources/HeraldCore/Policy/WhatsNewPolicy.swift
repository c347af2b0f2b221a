import FoundationEssentials

/// "What's new in <version>" (DESIGN.md D28): when an app that turned it on runs a version newer
/// than the one Herald last saw for it, one message made from its AppStream release notes
/// (`AppStreamReleases.notes`), an `announcement` planned like a feed's message: counted against
/// the attention budget, muted with the category, shown once.
///
/// The version last seen is kept in the state (`HeraldState.SeenVersion`) and moves with every
/// check that reaches the plan, whether or not the message could be shown; the message waits,
/// as any held-back message does, until it is answered or a newer version takes its place.
package enum WhatsNewPolicy {
    /// The start of a What's new message's id, which goes on with the version it is for.
    package static let idPrefix = "whats-new/"

    /// What a check at `running` records and offers.
    package struct Decision: Sendable, Equatable {
        /// The record to keep.
        package var seen: HeraldState.SeenVersion
        /// The versions whose notes are due, when a message is due: after `lastSeen`, up to `running`.
        package var unread: (lastSeen: String, running: String)?

        /// Creates a decision.
        package init(seen: HeraldState.SeenVersion, unread: (lastSeen: String, running: String)?) {
            self.seen = seen
            self.unread = unread
        }

        /// Compares the parts one by one.
        package static func == (lhs: Decision, rhs: Decision) -> Bool {
            lhs.seen == rhs.seen && lhs.unread?.lastSeen == rhs.unread?.lastSeen && lhs.unread?.running == rhs.unread?.running
        }
    }

    /// The record and the message due for an app running `running`, after `state`.
    ///
    /// A first run (no record) records the version and offers nothing, so a first install
    /// shows nothing; a version going down records the lower one and offers nothing; a newer
    /// one offers the notes since the version last seen, or, while the message of an earlier
    /// update is still unanswered, since the version that one started from, so the notes of a
    /// version never shown are not lost. The same version offers its message until it is
    /// answered (viewed, acknowledged or ignored).
    package static func decide(running: String, state: HeraldState) -> Decision {
        guard let seen = state.seenVersion else { return Decision(seen: .init(version: running), unread: nil) }
        let unreadSince = seen.unreadSince.flatMap { isAnswered(messageID(for: seen.version), in: state) ? nil : $0 }
        switch VersionComparison.numeric(running, seen.version) {
        case .ascending:
            return Decision(seen: .init(version: running), unread: nil)
        case .same:
            let kept = HeraldState.SeenVersion(version: seen.version, unreadSince: unreadSince)
            return Decision(seen: kept, unread: unreadSince.map { ($0, seen.version) })
        case .descending:
            let since = unreadSince ?? seen.version
            return Decision(seen: .init(version: running, unreadSince: since), unread: (since, running))
        }
    }

    /// What a check at `running` records, and the message it offers, if any: `decide`'s, with
    /// the notes `notes` gives for the unread versions (`AppStreamReleases.notes`). Versions with
    /// no notes offer nothing, and nothing waits for them.
    package static func offer(running: String, state: HeraldState,
                              notes: (_ lastSeen: String, _ running: String) -> String?) -> (seen: HeraldState.SeenVersion, message: FeedEntry?) {
        var decision = decide(running: running, state: state)
        guard let unread = decision.unread else { return (decision.seen, nil) }
        guard let text = notes(unread.lastSeen, unread.running) else {
            decision.seen.unreadSince = nil
            return (decision.seen, nil)
        }
        return (decision.seen, message(for: unread.running, notes: text))
    }

    /// The message's id for `version`: `whats-new/<version>`.
    package static func messageID(for version: String) -> String { idPrefix + version }

    /// Whether `id` is a What's new message's, which Herald made and no feed withdraws.
    package static func isMessageID(_ id: String) -> Bool { id.hasPrefix(idPrefix) }

    /// The message for `version` with `notes` as its text: an announcement with no link (the
    /// notes are the whole message; a homepage is not where they are), answered with OK.
    package static func message(for version: String, notes: String) -> FeedEntry {
        let title = "What's new in \(version)"
        return FeedEntry(key: messageID(for: version), title: title, message: notes, details: [
            FeedKey.title: .string(title), FeedKey.message: .string(notes),
            TargetingKey.category: .string(MessageCategory.announcement.rawValue),
        ])
    }

    /// Whether the person answered the message `id` for good (viewed, acknowledged, ignored).
    private static func isAnswered(_ id: String, in state: HeraldState) -> Bool {
        state.viewed.contains(id) || state.ignored?.contains(id) == true
    }
}
