import FoundationEssentials
import Synchronization

/// The state file's format: `HeraldState`'s `Codable` conformance, as `JSONEncoder` writes it
/// with `[.prettyPrinted, .sortedKeys]`, its dates in Herald's one calendar (`ISO8601Moment`).
///
/// Files written before read as they did: from the Gregorian calendar's first day to year 9999
/// `ISO8601Moment` writes what Foundation's `.iso8601` strategy wrote, and reads what it read.
///
/// The values last decoded are kept with their bytes (`RecentValues`): a file read again with
/// the same bytes (a state file read by the gate and again under the lock; the attention
/// ledger read for a plan and again to change it) is not decoded again. A decoded value is a
/// function of the bytes alone, so the value kept is the one decoding would make.
package enum StateFileFormat {
    /// The state in a file's bytes, or `nil` when they do not decode.
    package static func decode(_ bytes: Data) -> HeraldState? {
        decode(bytes, as: HeraldState.self)
    }

    /// The file's bytes for a state.
    ///
    /// - Throws: `EncodingError.invalidValue` for a `rolloutDraw` that is not finite.
    package static func encode(_ state: HeraldState) throws -> Data {
        try encoder.encode(state)
    }

    /// A value of another file Herald keeps in the same format (the attention ledger), or
    /// `nil` when the bytes do not decode.
    package static func decode<Value: Decodable & Sendable>(_ bytes: Data, as type: Value.Type) -> Value? {
        if let known = recent.withLock({ $0.value(of: bytes, as: type) }) { return known }
        guard let value = try? decoder.decode(type, from: bytes) else { return nil }
        recent.withLock { $0.keep(value, of: bytes) }
        return value
    }

    /// The bytes of a value of another file Herald keeps in the same format.
    package static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        try encoder.encode(value)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = ISO8601Moment.jsonEncoding
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = ISO8601Moment.jsonDecoding
        return decoder
    }()

    private static let recent = Mutex(RecentValues())

    /// The values last decoded, each with its type and its bytes, the latest first; at most
    /// `capacity`, a few files' worth (a run of several apps reads each app's state file, the
    /// ledger and the inbox in turn).
    struct RecentValues {
        static let capacity = 8
        private var entries: [(type: ObjectIdentifier, bytes: Data, value: any Sendable)] = []

        /// The value decoded from these very bytes as `type`, if it is kept; it becomes the latest.
        mutating func value<Value>(of bytes: Data, as type: Value.Type) -> Value? {
            let key = ObjectIdentifier(type)
            guard let index = entries.firstIndex(where: { $0.type == key && $0.bytes == bytes }) else { return nil }
            let entry = entries.remove(at: index)
            entries.insert(entry, at: 0)
            return entry.value as? Value
        }

        /// Keeps a value just decoded from `bytes`, forgetting the oldest beyond `capacity`.
        mutating func keep<Value: Sendable>(_ value: Value, of bytes: Data) {
            entries.insert((ObjectIdentifier(Value.self), bytes, value), at: 0)
            if entries.count > Self.capacity { entries.removeLast() }
        }
    }
}
