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
    /// - Parameters:
    ///   - lockWait: the longest wait for the lock: a check's timeout, or
    ///     `FileStateStore.defaultLockWait`.
    ///   - remembering: whether the store keeps the value it last read (`SharedValueFile`), for
    ///     a short-lived process.
    package init(environment: [String: String], lockWait: Double = FileStateStore.defaultLockWait, remembering: Bool = false) {
        self.init(folder: BaseDirectories(environment: environment).stateHome + "/herald/attention", fileName: "ledger",
                  name: "the attention ledger", empty: AttentionLedger(), sizeLimit: Self.ledgerSizeLimit, lockWait: lockWait, remembering: remembering)
    }
}

extension MemoryValueStore where Value == AttentionLedger {
    /// An empty ledger.
    package convenience init() { self.init(AttentionLedger()) }
}

/// The ledger's file: `{"shows": [showing…], "waiting": {app: {message: waiting}}}`, each
/// showing `{"app", "key", "at", "weight", "claim"?}`, each waiting message `{"since", "seen",
/// "priority", "weight", "reason"}`, a claim `{"processID", "check"?, "until"}`.
extension AttentionLedger: SharedFileValue {
    /// The ledger as its file holds it.
    package var fileValue: FeedValue {
        .dictionary([
            "shows": .array(shows.map(\.fileValue)),
            "waiting": .dictionary(waiting.mapValues { .dictionary($0.mapValues(\.fileValue)) }),
        ])
    }

    /// The ledger a file holds; `nil` when a field is missing or of another type.
    package init?(fileValue: FeedValue) {
        guard let ledger = FileFields.read(fileValue, { (fields) throws(FileFields.Mismatch) in
            AttentionLedger(shows: try fields.array("shows", of: Showing.init(fileValue:)),
                            waiting: try fields.byAppAndMessage("waiting", of: Waiting.init(fileValue:)))
        }) else { return nil }
        self = ledger
    }
}

extension AttentionLedger.Showing {
    /// The showing as the ledger's file holds it.
    var fileValue: FeedValue {
        var fields: [String: FeedValue] = ["app": .string(app), "key": .string(key), "at": .date(at), "weight": .integer(weight)]
        fields.setIfPresent("claim", claim?.fileValue)
        return .dictionary(fields)
    }

    /// The showing in the ledger's file.
    init?(fileValue: FeedValue) {
        guard let showing = FileFields.read(fileValue, { (fields) throws(FileFields.Mismatch) in
            Self(app: try fields.string("app"), key: try fields.string("key"), at: try fields.date("at"),
                 weight: try fields.integer("weight"), claim: try fields.optionalValue("claim", HeraldState.Claim.init(fileValue:)))
        }) else { return nil }
        self = showing
    }
}

extension AttentionLedger.Waiting {
    /// The waiting message as the ledger's file holds it. A priority is finite (a feed's
    /// `Priority` is read as no other, `FeedEntry.number`); one that is not is written as 0, not
    /// as the `null` that would spoil the whole file.
    var fileValue: FeedValue {
        .dictionary(["since": .date(since), "seen": .date(seen), "priority": .real(priority.isFinite ? priority : 0), "weight": .integer(weight),
                     "reason": .string(reason.rawValue)])
    }

    /// The waiting message in the ledger's file.
    init?(fileValue: FeedValue) {
        guard let waiting = FileFields.read(fileValue, { (fields) throws(FileFields.Mismatch) in
            Self(since: try fields.date("since"), seen: try fields.date("seen"), priority: try fields.real("priority"),
                 weight: try fields.integer("weight"), reason: try fields.choice("reason"))
        }) else { return nil }
        self = waiting
    }
}

extension HeraldState.Claim {
    /// The claim as the ledger's file holds it, with the keys of the state file's.
    var fileValue: FeedValue {
        var fields: [String: FeedValue] = ["processID": .integer(Int(processID)), "until": .date(until)]
        fields.setIfPresent("check", check.map(FeedValue.string))
        return .dictionary(fields)
    }

    /// The claim in the ledger's file.
    init?(fileValue: FeedValue) {
        guard let claim = FileFields.read(fileValue, { (fields) throws(FileFields.Mismatch) in
            guard let processID = Int32(exactly: try fields.integer("processID")) else { throw FileFields.Mismatch() }
            return Self(processID: processID, check: try fields.optionalString("check"), until: try fields.date("until"))
        }) else { return nil }
        self = claim
    }
}

extension AttentionLedger.Waiting: Encodable {
    /// Encodes the waiting message as the ledger's file holds it (`herald state --all --json`).
    package func encode(to encoder: Encoder) throws {
        try fileValue.encode(to: encoder)
    }
}
