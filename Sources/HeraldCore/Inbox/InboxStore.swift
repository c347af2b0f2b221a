import FoundationEssentials

/// Where the person's inbox is kept: one for the person, every app's check adding its own
/// messages under one lock.
package protocol InboxStore: AnyObject {
    /// The inbox as last written, without the lock: for reading, and for a check to learn that
    /// it has nothing to add.
    func snapshot() throws -> Inbox
    /// Reads, changes and writes the inbox as one step no other process can interleave with;
    /// writes nothing when `change` leaves it as it was.
    func update<Result>(_ change: (inout Inbox) throws -> Result) throws -> Result
}

/// The person's inbox in a file, `$XDG_STATE_HOME/herald/inbox/inbox.json`, locked by
/// `inbox.lock` beside it, written as the attention ledger is (`SharedValueFile`). An inbox
/// that does not decode is started over: it only remembers texts, and a check adds those its
/// feed still has. Its folder is not a state file's name, so no app's state can take its place.
package final class FileInboxStore: InboxStore, Sendable {
    /// The largest inbox read or written, 8 MiB: 200 messages of each of a few dozen apps, each
    /// message's texts bounded as a notification's are.
    package static let sizeLimit = 8 << 20

    /// The file and its lock.
    package let shared: SharedValueFile<Inbox>
    /// The inbox file.
    package var file: String { shared.file }

    /// The inbox of the user whose environment this is (`XDG_STATE_HOME`, `HOME`).
    ///
    /// - Parameter lockWait: the longest wait for the lock: a check's timeout, or
    ///   `FileStateStore.defaultLockWait`.
    package init(environment: [String: String], lockWait: Double = FileStateStore.defaultLockWait) {
        shared = SharedValueFile(folder: BaseDirectories(environment: environment).stateHome + "/herald/inbox", fileName: "inbox",
                                 name: "the inbox", empty: Inbox(), sizeLimit: Self.sizeLimit, lockWait: lockWait)
    }

    /// Reads the inbox without the lock; none yet, or one that does not decode, is empty.
    package func snapshot() throws -> Inbox { try shared.snapshot() }

    /// Reads, changes and writes the inbox under its lock.
    package func update<Result>(_ change: (inout Inbox) throws -> Result) throws -> Result { try shared.update(change) }
}

/// An inbox in memory: HeraldTesting's `TestDesktop`'s, and that of runs that must not touch
/// the user's (a `Herald` given a state store of its own).
package final class MemoryInboxStore: InboxStore {
    /// The inbox as it stands.
    package var inbox: Inbox

    /// A store holding `inbox`, by default an empty one.
    package init(_ inbox: Inbox = Inbox()) {
        self.inbox = inbox
    }

    /// The inbox.
    package func snapshot() throws -> Inbox { inbox }

    /// Changes the inbox; a change that throws leaves it as it was.
    package func update<Result>(_ change: (inout Inbox) throws -> Result) throws -> Result {
        var changed = inbox
        let result = try change(&changed)
        inbox = changed
        return result
    }
}
