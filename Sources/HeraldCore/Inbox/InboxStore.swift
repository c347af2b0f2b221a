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

/// The person's inbox in a file, `$XDG_STATE_HOME/herald/inbox/inbox.json`, written as the
/// attention ledger is (`FileAttentionLedgerStore`): under its own lock file
/// (`inbox/inbox.lock`), to a temporary file renamed over the old one, not flushed to disk. An
/// inbox that does not decode is started over: it only remembers texts, which the feeds still
/// hold. Its folder is not a state file's name, so no app's state can take its place.
package final class FileInboxStore: InboxStore, Sendable {
    /// The largest inbox read or written, 8 MiB: 200 messages of each of a few dozen apps, each
    /// message's texts bounded as a notification's are.
    package static let sizeLimit = 8 << 20

    /// The inbox file.
    package let file: String
    /// The lock taken around every change.
    package let lockFile: String
    /// How long a change waits for the lock another process holds, in seconds.
    package let lockWait: Double

    /// The inbox of the user whose environment this is (`XDG_STATE_HOME`, `HOME`).
    ///
    /// - Parameter lockWait: the longest wait for the lock: a check's timeout, or
    ///   `FileStateStore.defaultLockWait`.
    package init(environment: [String: String], lockWait: Double = FileStateStore.defaultLockWait) {
        let directory = BaseDirectories(environment: environment).stateHome + "/herald/inbox"
        file = directory + "/inbox.json"
        lockFile = directory + "/inbox.lock"
        self.lockWait = lockWait
    }

    /// Reads the inbox without the lock; none yet, or one that does not decode, is empty.
    package func snapshot() throws -> Inbox {
        guard let bytes = try FileStateStore.readRegularFile(file, limit: Self.sizeLimit) else { return Inbox() }
        return StateFileFormat.decode(bytes, as: Inbox.self) ?? Inbox()
    }

    /// Reads, changes and writes the inbox under its lock.
    package func update<Result>(_ change: (inout Inbox) throws -> Result) throws -> Result {
        try FileStateStore.locked(by: lockFile, guarding: "the inbox", waitingAtMost: lockWait) {
            var inbox = try snapshot()
            let before = inbox
            let result = try change(&inbox)
            if inbox != before {
                let bytes = try StateFileFormat.encode(inbox)
                guard bytes.count <= Self.sizeLimit else {
                    throw StateStoreError.wouldBeTooLarge(path: file, size: bytes.count, limit: Self.sizeLimit)
                }
                try FileStateStore.writeFileAtomically(bytes, to: file, durable: false)
            }
            return result
        }
    }
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
