import FoundationEssentials

/// Where the attention ledger is kept: one for the person, shared by every app.
///
/// An app's check changes it inside the locked update of its own state (the app's lock first,
/// then the ledger's, always in that order), so that choosing, claiming and taking room are one
/// step for every process of the user at once.
package protocol AttentionLedgerStore: AnyObject {
    /// The ledger as last written, without the lock: for questions that change nothing.
    func snapshot() throws -> AttentionLedger
    /// Reads, changes and writes the ledger as one step no other process can interleave with;
    /// writes nothing when `change` leaves it as it was.
    func update<Result>(_ change: (inout AttentionLedger) throws -> Result) throws -> Result
}

/// The user's attention ledger in a file, `$XDG_STATE_HOME/herald/attention/ledger.json`,
/// written as the state files are (`FileStateStore`): under its own lock file, to a temporary
/// file renamed over the old one, but not flushed to disk (no `fsync`), as the feed's cached
/// copy is not. A ledger that does not decode, as one a crash left half written may, is
/// started over: it only holds back, so losing it costs a week of room at most, where flushing
/// it cost a check that shows a message four disk flushes, two of them before the notification.
package final class FileAttentionLedgerStore: AttentionLedgerStore, Sendable {
    /// The largest ledger read or written, 1 MiB: a week of showings of every app is far less.
    package static let sizeLimit = 1 << 20

    /// The ledger file.
    package let file: String
    /// The lock taken around every change.
    package let lockFile: String
    /// How long a change waits for the lock another process holds, in seconds.
    package let lockWait: Double

    /// The ledger of the user whose environment this is (`XDG_STATE_HOME`, `HOME`). Its folder
    /// is not an app id, so no app's state file can take its place.
    ///
    /// - Parameter lockWait: the longest wait for the lock: a check's timeout, or
    ///   `FileStateStore.defaultLockWait`.
    package init(environment: [String: String], lockWait: Double = FileStateStore.defaultLockWait) {
        let directory = BaseDirectories(environment: environment).stateHome + "/herald/attention"
        file = directory + "/ledger.json"
        lockFile = directory + "/ledger.lock"
        self.lockWait = lockWait
    }

    /// Reads the ledger without the lock; none yet, or one that does not decode, is empty.
    package func snapshot() throws -> AttentionLedger {
        guard let bytes = try FileStateStore.readRegularFile(file, limit: Self.sizeLimit) else { return AttentionLedger() }
        return StateFileFormat.decode(bytes, as: AttentionLedger.self) ?? AttentionLedger()
    }

    /// Reads, changes and writes the ledger under its lock.
    package func update<Result>(_ change: (inout AttentionLedger) throws -> Result) throws -> Result {
        try FileStateStore.locked(by: lockFile, guarding: "the attention ledger", waitingAtMost: lockWait) {
            var ledger = try snapshot()
            let before = ledger
            let result = try change(&ledger)
            if ledger != before {
                let bytes = try StateFileFormat.encode(ledger)
                guard bytes.count <= Self.sizeLimit else {
                    throw StateStoreError.wouldBeTooLarge(path: file, size: bytes.count, limit: Self.sizeLimit)
                }
                try FileStateStore.writeFileAtomically(bytes, to: file, durable: false)
            }
            return result
        }
    }
}

/// An attention ledger in memory: the ledger of HeraldTesting's `TestDesktop` and of runs that
/// must not touch the user's (`herald feed preview`).
package final class MemoryAttentionLedgerStore: AttentionLedgerStore {
    /// The ledger as it stands.
    package var ledger: AttentionLedger

    /// A store holding `ledger`, by default an empty one.
    package init(_ ledger: AttentionLedger = AttentionLedger()) {
        self.ledger = ledger
    }

    /// The ledger.
    package func snapshot() throws -> AttentionLedger { ledger }

    /// Changes the ledger; a change that throws leaves it as it was.
    package func update<Result>(_ change: (inout AttentionLedger) throws -> Result) throws -> Result {
        var changed = ledger
        let result = try change(&changed)
        ledger = changed
        return result
    }
}
