import FoundationEssentials

/// Where the attention ledger is kept: one for the person, shared by every app.
///
/// An app's check changes it inside the locked update of its own state (the app's lock first,
/// then the ledger's, always in that order), so that choosing, claiming and taking room are one
/// step for every process of the user at once.
package typealias AttentionLedgerStore = SharedValueStore<AttentionLedger>

/// The user's attention ledger in a file, `$XDG_STATE_HOME/herald/attention/ledger.json`,
/// written as the state files are (`FileStateStore`): under its own lock file, to a temporary
/// file renamed over the old one, but not flushed to disk (no `fsync`), as the feed's cached
/// copy is not. A ledger that does not decode, as one a crash left half written may, is
/// started over: it only holds back, so losing it costs a week of room at most, where flushing
/// it cost a check that shows a message four disk flushes, two of them before the notification.
package typealias FileAttentionLedgerStore = SharedValueFile<AttentionLedger>

/// An attention ledger in memory: the ledger of HeraldTesting's `TestDesktop` and of runs that
/// must not touch the user's (`herald feed preview`).
package typealias MemoryAttentionLedgerStore = MemoryValueStore<AttentionLedger>

extension SharedValueFile where Value == AttentionLedger {
    /// The largest ledger read or written, 1 MiB: a week of showings of every app is far less.
    package static var ledgerSizeLimit: Int { 1 << 20 }

    /// The ledger of the user whose environment this is (`XDG_STATE_HOME`, `HOME`). Its folder
    /// is not an app id, so no app's state file can take its place.
    ///
    /// - Parameter lockWait: the longest wait for the lock: a check's timeout, or
    ///   `FileStateStore.defaultLockWait`.
    package init(environment: [String: String], lockWait: Double = FileStateStore.defaultLockWait) {
        self.init(folder: BaseDirectories(environment: environment).stateHome + "/herald/attention", fileName: "ledger",
                  name: "the attention ledger", empty: AttentionLedger(), sizeLimit: Self.ledgerSizeLimit, lockWait: lockWait)
    }
}

extension MemoryValueStore where Value == AttentionLedger {
    /// An empty ledger.
    package convenience init() { self.init(AttentionLedger()) }
}
