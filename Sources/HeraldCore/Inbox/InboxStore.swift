import FoundationEssentials

/// Where the person's inbox is kept: one for the person, every app's check adding its own
/// messages under one lock.
package typealias InboxStore = SharedValueStore<Inbox>

/// The person's inbox in a file, `$XDG_STATE_HOME/herald/inbox/inbox.json`, locked by
/// `inbox.lock` beside it, written as the attention ledger is. An inbox that does not decode is
/// started over: it only remembers texts, and a check adds those its feed still has. Its folder
/// is not a state file's name, so no app's state can take its place.
package typealias FileInboxStore = SharedValueFile<Inbox>

/// An inbox in memory: HeraldTesting's `TestDesktop`'s, and that of runs that must not touch
/// the person's (a `Herald` given a state store of its own).
package typealias MemoryInboxStore = MemoryValueStore<Inbox>

extension SharedValueFile where Value == Inbox {
    /// The largest inbox read or written, 8 MiB: 200 messages of each of a few dozen apps, each
    /// message's texts bounded as a notification's are.
    package static var inboxSizeLimit: Int { 8 << 20 }

    /// The inbox of the person whose environment this is (`XDG_STATE_HOME`, `HOME`).
    ///
    /// - Parameters:
    ///   - lockWait: the longest wait for the lock: a check's timeout, or
    ///     `FileStateStore.defaultLockWait`.
    ///   - remembering: whether the store keeps the value it last read (`SharedValueFile`), for
    ///     a short-lived process.
    package init(environment: [String: String], lockWait: Double = FileStateStore.defaultLockWait, remembering: Bool = false) {
        self.init(folder: BaseDirectories(environment: environment).stateHome + "/herald/inbox", fileName: "inbox",
                  name: "the inbox", empty: Inbox(), sizeLimit: Self.inboxSizeLimit, lockWait: lockWait, remembering: remembering)
    }
}

extension MemoryValueStore where Value == Inbox {
    /// An empty inbox.
    package convenience init() { self.init(Inbox()) }
}

/// The inbox's file: `{"apps": {app: {message: record}}}`, each record `{"title", "message",
/// "link"?, "button"?, "category", "reached", "withdrawn"?}`.
extension Inbox: SharedFileValue {
    /// The inbox as its file holds it.
    package var fileValue: FeedValue {
        .dictionary(["apps": .dictionary(apps.mapValues { .dictionary($0.mapValues(\.fileValue)) })])
    }

    /// The inbox a file holds; `nil` when a field is missing or of another type.
    package init?(fileValue: FeedValue) {
        guard let inbox = FileFields.read(fileValue, { (fields) throws(FileFields.Mismatch) in
            Inbox(apps: try fields.byAppAndMessage("apps", of: Record.init(fileValue:)))
        }) else { return nil }
        self = inbox
    }
}

extension Inbox.Record {
    /// The record as the inbox's file holds it.
    var fileValue: FeedValue {
        var fields: [String: FeedValue] = ["title": .string(title), "message": .string(message), "category": .string(category),
                                           "reached": .date(reached)]
        fields.setIfPresent("link", link.map(FeedValue.string))
        fields.setIfPresent("button", button.map(FeedValue.string))
        fields.setIfPresent("withdrawn", withdrawn.map(FeedValue.date))
        return .dictionary(fields)
    }

    /// The record in the inbox's file.
    init?(fileValue: FeedValue) {
        guard let record = FileFields.read(fileValue, { (fields) throws(FileFields.Mismatch) in
            Self(title: try fields.string("title"), message: try fields.string("message"), link: try fields.optionalString("link"),
                 button: try fields.optionalString("button"), category: try fields.string("category"), reached: try fields.date("reached"),
                 withdrawn: try fields.optionalDate("withdrawn"))
        }) else { return nil }
        self = record
    }
}
