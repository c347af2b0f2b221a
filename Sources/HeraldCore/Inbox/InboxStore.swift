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
    /// - Parameter lockWait: the longest wait for the lock: a check's timeout, or
    ///   `FileStateStore.defaultLockWait`.
    package init(environment: [String: String], lockWait: Double = FileStateStore.defaultLockWait) {
        self.init(folder: BaseDirectories(environment: environment).stateHome + "/herald/inbox", fileName: "inbox",
                  name: "the inbox", empty: Inbox(), sizeLimit: Self.inboxSizeLimit, lockWait: lockWait)
    }
}

extension MemoryValueStore where Value == Inbox {
    /// An empty inbox.
    package convenience init() { self.init(Inbox()) }
}
