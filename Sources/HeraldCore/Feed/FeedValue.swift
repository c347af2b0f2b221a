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
        var out: [UInt8] = []
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .string(let text): Self.appendJSONString(text, to: &out)
        case .integer(let number): out.append(contentsOf: String(number).utf8)
        case .real(let number):
            if !number.isFinite {
                out.append(contentsOf: "null".utf8)
            } else if number.rounded() == number, abs(number) < 1e15 {
                out.append(contentsOf: String(Int(number)).utf8)
            } else {
                out.append(contentsOf: String(number).utf8)
            }
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .date(let date): Self.appendJSONString(ISO8601Moment.text(date), to: &out)
        case .data(let data): Self.appendJSONString(data.base64EncodedString(), to: &out)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendJSONString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                fields[key]!.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as a JSON string to UTF-8 bytes, with `JSONEncoder`'s escapes: quote,
    /// backslash, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as `\u00XX`, and `/`
    /// unless `escapingSlashes` is false (`.withoutEscapingSlashes`, as `jsonText` writes).
    /// The one string writer of the tool's event lines and of the state file.
    public static func appendJSONString(_ text: String, to out: inout [UInt8], escapingSlashes: Bool = false) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            // Most text needs no escape: the bytes up to the first that does are found eight at
            // a time, and copied as they are.
            for index in plainPrefix(of: utf8, escapingSlashes: escapingSlashes)..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapingSlashes) else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22, 0x5C, 0x2F: out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// How many bytes from the start need no escape in a JSON string: none is a quote, a
    /// backslash, a control character, or (when `escapingSlashes`) a slash.
    private static func plainPrefix(of utf8: UnsafeBufferPointer<UInt8>, escapingSlashes: Bool) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        var offset = 0
        while offset + 8 <= utf8.count {
            let word = ByteSearch.word(base, at: offset)
            var flags = ByteSearch.equal(word, 0x22) | ByteSearch.equal(word, 0x5C) | ByteSearch.below(word, 0x20)
            if escapingSlashes { flags |= ByteSearch.equal(word, 0x2F) }
            if flags != 0 { return offset + ByteSearch.firstFlagged(flags) }
            offset += 8
        }
        return offset
    }
}
