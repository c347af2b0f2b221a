import FoundationEssentials

/// The text of every message that reached one person through Herald, by app, as the check saw
/// it: what nothing else keeps. Where each message stands (shown, answered, waiting, muted) is
/// not kept here: it is read from the app's state, the attention ledger and the off switches
/// when the inbox is read (`InboxPolicy.messages`).
package struct Inbox: Sendable, Equatable {
    /// One message that reached the person.
    package struct Record: Sendable, Equatable {
        /// The title as shown (`NotificationText.summary`), localised for the person.
        package var title: String
        /// The text as shown (`NotificationText.body`, without markup), localised.
        package var message: String
        /// The `ActionURL` as written in the feed, when it had one.
        package var link: String?
        /// The view button's label as shown, when the message had a link and a label.
        package var button: String?
        /// Its `Category`, as the budget and the mutes read it.
        package var category: String
        /// When a check first kept it for the person.
        package var reached: Date
        /// When a fetched feed of its app first no longer had it; `nil` while the feed has it.
        package var withdrawn: Date?

        /// Creates a record.
        package init(title: String, message: String, link: String? = nil, button: String? = nil, category: String,
                     reached: Date, withdrawn: Date? = nil) {
            self.title = title
            self.message = message
            self.link = link
            self.button = button
            self.category = category
            self.reached = reached
            self.withdrawn = withdrawn
        }
    }

    /// The records, by app id, then message id.
    package var apps: [String: [String: Record]]

    /// An inbox holding `apps`, by default an empty one.
    package init(apps: [String: [String: Record]] = [:]) {
        self.apps = apps
    }
}
