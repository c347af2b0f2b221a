import FoundationEssentials

/// A message that reached the person through Herald in the last 180 days, with where it
/// stands now: one entry of an app's own "What's new" list (`Herald.inbox()`), and of
/// `herald inbox`.
public struct InboxMessage: Sendable, Equatable {
    /// Where a message stands for the person.
    public enum State: Sendable, Equatable {
        /// Kept for the person and not shown yet: a coming check shows it (it was past the
        /// per-check cap, or another check was showing it).
        case due
        /// Shown, and not answered yet.
        case shown
        /// Viewed (its link opened) or acknowledged.
        case viewed
        /// Ignored: it is never shown again.
        case ignored
        /// Put off with "remind me later"; shown again from `until`.
        case remindLater(until: Date)
        /// Held back by the person's attention budget; there is room for it again at `until`
        /// (`nil`: not while the budget is smaller than the message's weight).
        case waitingForRoom(until: Date?)
        /// Held back while the desktop asked for quiet (do-not-disturb).
        case deferredForQuiet
        /// Its category is muted, by the person or, when `byAdministrator`, by the
        /// administrator.
        case categoryMuted(byAdministrator: Bool)
        /// Its app is muted (`herald mute APP-ID`, the app's switch in the desktop's settings),
        /// by the person or, when `byAdministrator`, by the administrator: nothing of the app
        /// is fetched or shown.
        case appMuted(byAdministrator: Bool)
        /// Its publisher took it out of the feed, first found missing at `since`.
        case withdrawn(since: Date)
    }

    /// The app whose message it is.
    public var appID: String
    /// The message id (the feed's key for it).
    public var id: String
    /// The title as the notification showed it.
    public var title: String
    /// The text as the notification showed it, line breaks kept.
    public var message: String
    /// The link its view button opens, when it has one.
    public var link: String?
    /// The view button's label, when the feed gave one.
    public var button: String?
    /// Its category: announcement, tip, promotion, security or survey.
    public var category: String
    /// When it first reached the person.
    public var reached: Date
    /// When it was last shown; `nil` when it never was.
    public var lastShown: Date?
    /// Where it stands now.
    public var state: State

    /// Creates an inbox message.
    public init(appID: String, id: String, title: String, message: String, link: String? = nil, button: String? = nil,
                category: String, reached: Date, lastShown: Date? = nil, state: State) {
        self.appID = appID
        self.id = id
        self.title = title
        self.message = message
        self.link = link
        self.button = button
        self.category = category
        self.reached = reached
        self.lastShown = lastShown
        self.state = state
    }
}

extension InboxMessage.State {
    /// A short machine-readable name, as `herald inbox --json` writes it.
    package var name: String {
        switch self {
        case .due: return "due"
        case .shown: return "shown"
        case .viewed: return "viewed"
        case .ignored: return "ignored"
        case .remindLater: return "remind-later"
        case .waitingForRoom: return "waiting-for-room"
        case .deferredForQuiet: return "deferred-for-quiet"
        case .categoryMuted: return "category-muted"
        case .appMuted: return "app-muted"
        case .withdrawn: return "withdrawn"
        }
    }

    /// One phrase for people, its moments as ISO 8601 UTC, as `herald inbox` writes them.
    package var description: String { description(writing: ISO8601Moment.text) }

    /// One phrase for people, each moment written by `moment` (the inbox window writes them in
    /// the person's time zone and language).
    package func description(writing moment: (Date) -> String) -> String {
        switch self {
        case .due: return "not shown yet: a coming check shows it"
        case .shown: return "shown, not answered"
        case .viewed: return "viewed"
        case .ignored: return "ignored"
        case .remindLater(let until): return "remind me later: shown again from \(moment(until))"
        case .waitingForRoom(let until):
            return "waiting for room in the attention budget; " + MessageSkipReason.roomText(until, writing: moment)
        case .deferredForQuiet: return "held back while the desktop asked for quiet"
        case .categoryMuted(let byAdministrator): return "its category is muted by \(byAdministrator ? "the administrator" : "the person")"
        case .appMuted(let byAdministrator): return "its app is muted by \(byAdministrator ? "the administrator" : "the person")"
        case .withdrawn(let since): return "withdrawn by its publisher \(moment(since))"
        }
    }
}
