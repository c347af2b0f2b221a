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

    /// The file and its lock.
    package let shared: SharedValueFile<AttentionLedger>
    /// The ledger file.
    package var file: String { shared.file }
    /// The lock taken around every change.
    package var lockFile: String { shared.lockFile }

    /// The ledger of the user whose environment this is (`XDG_STATE_HOME`, `HOME`). Its folder
    /// is not an app id, so no app's state file can take its place.
    ///
    /// - Parameter lockWait: the longest wait for the lock: a check's timeout, or
    ///   `FileStateStore.defaultLockWait`.
    package init(environment: [String: String], lockWait: Double = FileStateStore.defaultLockWait) {
        shared = SharedValueFile(folder: BaseDirectories(environment: environment).stateHome + "/herald/attention", fileName: "ledger",
                                 name: "the attention ledger", empty: AttentionLedger(), sizeLimit: Self.sizeLimit, lockWait: lockWait)
    }

    /// Reads the ledger without the lock; none yet, or one that does not decode, is empty.
    package func snapshot() throws -> AttentionLedger { try shared.snapshot() }

    /// Reads, changes and writes the ledger under its lock.
    package func update<Result>(_ change: (inout AttentionLedger) throws -> Result) throws -> Result { try shared.update(change) }
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
