import FoundationEssentials

/// The state file's format: `HeraldState`'s `Codable` conformance, as `JSONEncoder` writes it
/// with `[.prettyPrinted, .sortedKeys]`, its dates in Herald's one calendar (`ISO8601Moment`).
///
/// Files written before read as they did: from the Gregorian calendar's first day to year 9999
/// `ISO8601Moment` writes what Foundation's `.iso8601` strategy wrote, and reads what it read.
package enum StateFileFormat {
    /// The state in a file's bytes, or `nil` when they do not decode.
    package static func decode(_ bytes: Data) -> HeraldState? {
        try? decoder.decode(HeraldState.self, from: bytes)
    }

    /// The file's bytes for a state.
    ///
    /// - Throws: `EncodingError.invalidValue` for a `rolloutDraw` that is not finite.
    package static func encode(_ state: HeraldState) throws -> Data {
        try encoder.encode(state)
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
}
