import FoundationEssentials
import Synchronization

/// One value every process of the user shares in a JSON file under `$XDG_STATE_HOME/herald`
/// (the attention ledger, the inbox), in its own format (`SharedFileValue`), written as the
/// state files are (`FileStateStore`): under
/// its own lock file, to a temporary file renamed over the old one, but not flushed to disk (no
/// `fsync`). A file that does not decode, as one a crash left half written may, is read as
/// `empty` and started over: such a value must be one whose loss costs little.
///
/// A store made `remembering` keeps the value the file holds with its bytes (`LastSeen`, shared
/// by its copies), as it last read or wrote them: a read that finds the same bytes takes that
/// value instead of decoding them again, as a check's update after its snapshot, or the next
/// app's in a run of every app's checks, mostly does. What it wrote is kept as a read of the
/// file gives it (`SharedFileValue`'s fields read back, dates to the whole second), never as
/// the value in memory was: every process sees the value the file holds. It lives as long as
/// the store, so only a short-lived process (`herald`) asks for it; a store of an app's
/// `Herald` keeps nothing.
package struct SharedValueFile<Value: SharedFileValue & Equatable & Sendable>: Sendable {
    /// The file.
    package let file: String
    /// The lock taken around every change.
    package let lockFile: String
    /// How long a change waits for the lock another process holds, in seconds.
    package let lockWait: Double
    /// The largest file read or written.
    package let sizeLimit: Int
    /// What the value is, for messages: "the attention ledger".
    package let name: String
    /// The value before anything was written.
    package let empty: Value
    private let lastSeen: LastSeen?

    /// A value in `folder/fileName.json`, locked by `folder/fileName.lock`; one `remembering`
    /// keeps the value it last read while the file holds the same bytes.
    package init(folder: String, fileName: String, name: String, empty: Value, sizeLimit: Int, lockWait: Double, remembering: Bool = false) {
        lastSeen = remembering ? LastSeen() : nil
        file = folder + "/\(fileName).json"
        lockFile = folder + "/\(fileName).lock"
        self.name = name
        self.empty = empty
        self.sizeLimit = sizeLimit
        self.lockWait = lockWait
    }

    /// Reads the value without the lock; none yet, or one that does not decode, is `empty`.
    package func snapshot() throws -> Value {
        guard let bytes = try FileStateStore.readRegularFile(file, limit: sizeLimit) else { return empty }
        if let value = lastSeen?.value(for: bytes) { return value }
        let value = Value.decoded(from: bytes) ?? empty
        lastSeen?.remember(value, as: bytes)
        return value
    }

    /// Reads, changes and writes the value under its lock as one step no other process can
    /// interleave with; writes nothing when `change` leaves it as it was.
    package func update<Result>(_ change: (inout Value) throws -> Result) throws -> Result {
        try FileStateStore.locked(by: lockFile, guarding: name, waitingAtMost: lockWait) {
            var value = try snapshot()
            let before = value
            let result = try change(&value)
            if value != before {
                let written = value.fileValue
                let bytes = Data(written.prettyJSONBytes)
                guard bytes.count <= sizeLimit else {
                    throw StateStoreError.wouldBeTooLarge(path: file, size: bytes.count, limit: sizeLimit)
                }
                try FileStateStore.writeFileAtomically(bytes, to: file, durable: false)
                if let lastSeen, let held = Value(fileValue: written) { lastSeen.remember(held, as: bytes) }
            }
            return result
        }
    }

    /// The value the file held when last read or written, and its bytes then.
    private final class LastSeen: Sendable {
        private let seen = Mutex<(bytes: Data, value: Value)?>(nil)

        /// The value remembered, if the file now holds the same bytes.
        func value(for bytes: Data) -> Value? {
            seen.withLock { seen in seen.flatMap { $0.bytes == bytes ? $0.value : nil } }
        }

        /// Remembers `value` as the file's `bytes`.
        func remember(_ value: Value, as bytes: Data) {
            seen.withLock { $0 = (bytes, value) }
        }
    }
}
