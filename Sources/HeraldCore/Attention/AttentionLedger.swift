import FoundationEssentials

/// What Herald showed one person, from every app, over the last week, and the messages waiting
/// for room: the record the attention budget is kept against (`AttentionPolicy`). Every app and
/// every process of the user shares it, through `AttentionLedgerStore`, under one lock.
package struct AttentionLedger: Sendable, Equatable {
    /// One showing of a message: a first showing or a reminder.
    package struct Showing: Sendable, Equatable {
        /// The app that showed it.
        package var app: String
        /// The message id.
        package var key: String
        /// When the check decided to show it.
        package var at: Date
        /// What it takes from the budget (`MessageCategory.weight`).
        package var weight: Int
        /// Set while the check that took the room has not shown it yet: the showing counts while
        /// that check runs and is dropped when it ends without showing it.
        package var claim: HeraldState.Claim?

        /// Creates a showing.
        package init(app: String, key: String, at: Date, weight: Int, claim: HeraldState.Claim? = nil) {
            self.app = app
            self.key = key
            self.at = at
            self.weight = weight
            self.claim = claim
        }

        /// Whether the room is taken, not yet shown, by `app`'s check that makes `claim`
        /// (the same process and check; the time a claim lasts is not compared).
        package func isTaken(by claim: HeraldState.Claim, app: String) -> Bool {
            guard self.app == app, let own = self.claim else { return false }
            return own.isMade(bySameCheckAs: claim)
        }
    }

    /// Why a message waits.
    package enum WaitReason: String, Sendable, Equatable {
        /// The budget had no room for it.
        case budget
        /// The desktop asked for quiet (do-not-disturb) when it was due.
        case quiet
    }

    /// A message held back until there is room: it keeps its place, the oldest wait first
    /// among messages of one priority, in every app's checks.
    package struct Waiting: Sendable, Equatable {
        /// When it was first held back.
        package var since: Date
        /// The last check of its app that held it back; an entry its app has not seen for
        /// `AttentionPolicy.placeKept` no longer keeps a place.
        package var seen: Date
        /// Its `Priority`.
        package var priority: Double
        /// What it will take from the budget.
        package var weight: Int
        /// Why it waits.
        package var reason: WaitReason

        /// Creates a waiting message.
        package init(since: Date, seen: Date, priority: Double, weight: Int, reason: WaitReason) {
            self.since = since
            self.seen = seen
            self.priority = priority
            self.weight = weight
            self.reason = reason
        }
    }

    /// The showings of the last week, oldest first.
    package var shows: [Showing]
    /// The messages waiting for room, by app id, then message id.
    package var waiting: [String: [String: Waiting]]

    /// An empty ledger: nothing shown, nothing waiting.
    package init(shows: [Showing] = [], waiting: [String: [String: Waiting]] = [:]) {
        self.shows = shows
        self.waiting = waiting
    }
}
