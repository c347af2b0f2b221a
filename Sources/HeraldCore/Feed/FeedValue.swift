import FoundationEssentials

/// A value read from a feed: the union of what property lists and JSON can hold.
///
/// Entries keep every key they were given as `FeedValue`s, so keys Herald does not know pass
/// through to the delegate untouched (DESIGN.md D1).
public enum FeedValue: Sendable, Equatable {
    /// A string.
    case string(String)
    /// A whole number (`<integer>` or a JSON number without a fraction).
    case integer(Int)
    /// A number with a fraction (`<real>` or a JSON number).
    case real(Double)
    /// `<true/>`, `<false/>` or a JSON boolean.
    case bool(Bool)
    /// A plist `<date>`.
    case date(Date)
    /// A plist `<data>` block.
    case data(Data)
    /// An array.
    case array([FeedValue])
    /// A dictionary.
    case dictionary([String: FeedValue])
    /// A JSON `null`.
    case null

    /// The value as text when it is a string or a number; numbers read as their plain form,
    /// so `<real>1.2</real>` gives "1.2" (ORIGINALS.md §1.7 asks the port to accept them).
    public var textValue: String? {
        switch self {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number):
            if number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
            return String(number)
        default: return nil
        }
    }

    /// The kind's name with its article, for sentences: "an integer", "a string".
    public var kindPhrase: String { Self.withArticle(kindName) }

    /// A noun with "a" or "an" before it.
    static func withArticle(_ noun: String) -> String {
        ("aeiou".contains(noun.first ?? "x") ? "an " : "a ") + noun
    }

    /// A short name of the value's kind, used in problem reports.
    public var kindName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        case .null: return "null"
        }
    }
}

extension FeedValue: Decodable {
    /// Decodes whatever a property list or JSON document holds at this position.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode([String: FeedValue].self) { self = .dictionary(value); return }
        if let value = try? container.decode([FeedValue].self) { self = .array(value); return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode(Int.self) { self = .integer(value); return }
        if let value = try? container.decode(Double.self) { self = .real(value); return }
        if let value = try? container.decode(Date.self) { self = .date(value); return }
        if let value = try? container.decode(Data.self) { self = .data(value); return }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "unsupported value")
    }
}

extension FeedValue: Encodable {
    /// Set to `true` in an encoder's `userInfo` to encode dates and data as themselves, as a
    /// property list holds them, rather than as text.
    public static let encodesNativeValues = CodingUserInfoKey(rawValue: "herald.encodesNativeValues")!

    /// Encodes the value as JSON would show it (dates as ISO 8601 text, data as base64), or with
    /// `encodesNativeValues` as a property list would.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if encoder.userInfo[Self.encodesNativeValues] as? Bool == true {
            if case .date(let value) = self { return try container.encode(value) }
            if case .data(let value) = self { return try container.encode(value) }
        }
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .date(let value): try container.encode(value.formatted(.iso8601))
        case .data(let value): try container.encode(value.base64EncodedString())
        case .array(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

extension FeedValue {
    /// The value as one line of JSON, keys sorted and slashes left as they are: what
    /// `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes, without its
    /// `Encodable` round trip (the tool writes an event per skipped message of a large feed).
    public var jsonText: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .string(let text): Self.quote(text, into: &out)
        case .integer(let number): out += String(number)
        case .real(let number):
            if !number.isFinite {
                out += "null"
            } else if number.rounded() == number, abs(number) < 1e15 {
                out += String(Int(number))
            } else {
                out += String(number)
            }
        case .bool(let value): out += value ? "true" : "false"
        case .date(let date): Self.quote(date.formatted(.iso8601), into: &out)
        case .data(let data): Self.quote(data.base64EncodedString(), into: &out)
        case .null: out += "null"
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(into: &out)
            }
            out += "]"
        case .dictionary(let fields):
            out += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                fields[key]!.write(into: &out)
            }
            out += "}"
        }
    }

    /// Appends `text` as a JSON string, quoted and escaped exactly as `jsonText` writes it, to
    /// UTF-8 bytes: for a writer that builds its lines as bytes (a skipped message's event)
    /// without making a string of each.
    public static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case ..<0x20: out.append(contentsOf: ("\\u" + JSONFeedReader.hex(UInt32(byte), width: 4).lowercased()).utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }

    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        // Most text needs no escape at all and goes in whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + JSONFeedReader.hex(scalar.value, width: 4).lowercased()
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
