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
        case .real(let number): return NumberText.plain(number)
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
        case .date(let value): try container.encode(ISO8601Moment.text(value))
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
        appendJSONText(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value as `jsonText` writes it to UTF-8 bytes, for a writer that gathers
    /// many lines into one write.
    package func appendJSONText(to out: inout [UInt8]) {
        write(into: &out, level: nil)
    }

    /// The value as pretty-printed JSON, its strings written as `jsonText` writes them.
    ///
    /// The layout is what `JSONEncoder` writes with `.prettyPrinted`, `.sortedKeys` and
    /// `.withoutEscapingSlashes`: two spaces a level, `"key" : value`, an empty array or
    /// dictionary as its brackets around an empty line. No line break ends it.
    package var prettyJSONText: String {
        String(decoding: prettyJSONBytes, as: UTF8.self)
    }

    /// The UTF-8 bytes of `prettyJSONText`, for a file.
    package var prettyJSONBytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out, level: 0)
        return out
    }

    /// Writes the value at nesting `level` of pretty-printed JSON, or on one line when `nil`.
    private func write(into out: inout [UInt8], level: Int?) {
        switch self {
        case .string(let text): Self.appendJSONString(text, to: &out)
        case .integer(let number): out.append(contentsOf: String(number).utf8)
        case .real(let number): out.append(contentsOf: NumberText.json(number).utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .date(let date):
            out.append(UInt8(ascii: "\""))
            ISO8601Moment.appendText(date, to: &out)
            out.append(UInt8(ascii: "\""))
        case .data(let data): Self.appendJSONString(data.base64EncodedString(), to: &out)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let values):
            Self.writeCollection(values, opening: "[", closing: "]", into: &out, level: level) { value, out, inner in
                value.write(into: &out, level: inner)
            }
        case .dictionary(let fields):
            Self.writeCollection(fields.sorted { $0.key < $1.key }, opening: "{", closing: "}", into: &out, level: level) { field, out, inner in
                Self.appendJSONString(field.key, to: &out)
                if inner == nil { out.append(UInt8(ascii: ":")) } else { out.append(contentsOf: " : ".utf8) }
                field.value.write(into: &out, level: inner)
            }
        }
    }

    /// Writes an array's or a dictionary's items between its brackets: separated by commas on
    /// one line when `level` is `nil`, otherwise each on its own line one level in, and an empty
    /// one as its brackets around an empty line.
    private static func writeCollection<Item>(_ items: [Item], opening: Unicode.Scalar, closing: Unicode.Scalar, into out: inout [UInt8],
                                              level: Int?, item write: (Item, inout [UInt8], Int?) -> Void) {
        out.append(UInt8(ascii: opening))
        let inner = level.map { $0 + 1 }
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if let inner { newLine(indentedTo: inner, in: &out) }
            write(item, &out, inner)
        }
        if let level {
            if items.isEmpty { out.append(UInt8(ascii: "\n")) }
            newLine(indentedTo: level, in: &out)
        }
        out.append(UInt8(ascii: closing))
    }

    /// A line break, then two spaces for each level.
    private static func newLine(indentedTo level: Int, in out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// Appends `text` as a JSON string to UTF-8 bytes: quote and backslash escaped with a
    /// backslash, and every character a terminal must not receive (`TerminalText.isEscaped`:
    /// every control character, DEL, U+2028 and U+2029, bidi controls) written as the terminal
    /// rule writes it (`TerminalText.escape`: `\n`, `\r`, `\t`, `\uXXXX`), so a line read in a
    /// terminal or by a JavaScript parser is one line of plain characters, and a character reads
    /// the same in the tool's JSON lines as in its text lines. Slashes are not escaped. The one
    /// string writer of the tool's JSON output.
    public static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            // Most text needs no escape: the bytes up to the first that may are found eight at
            // a time, and copied as they are.
            for index in plainPrefix(of: utf8)..<utf8.count {
                guard index >= start else { continue }
                let byte = utf8[index]
                if byte == 0x22 || byte == 0x5C {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    out.append(contentsOf: [UInt8(ascii: "\\"), byte])
                    start = index + 1
                    continue
                }
                guard TerminalText.startsEscapedCharacter[Int(byte)], let (scalar, length) = Self.scalar(in: utf8, at: index),
                      TerminalText.isEscaped(scalar) else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                out.append(contentsOf: TerminalText.escape(scalar).utf8)
                start = index + length
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The character whose UTF-8 encoding starts at `index`, and its length in bytes, for the
    /// one- to three-byte characters `TerminalText.startsEscapedCharacter` points at.
    private static func scalar(in utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = utf8[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length = lead >= 0xE0 ? 3 : 2
        guard index + length <= utf8.count else { return nil }
        var value = UInt32(lead & (length == 3 ? 0x0F : 0x1F))
        for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
        return Unicode.Scalar(value).map { ($0, length) }
    }

    /// How many bytes from the start need no escape in a JSON string: none is a quote, a
    /// backslash, a control character, DEL or a byte that is not ASCII (which `appendJSONString`
    /// then looks at).
    private static func plainPrefix(of utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        var offset = 0
        while offset + 8 <= utf8.count {
            let word = ByteSearch.word(base, at: offset)
            let flags = ByteSearch.equal(word, 0x22) | ByteSearch.equal(word, 0x5C) | ByteSearch.below(word, 0x20)
                | ByteSearch.equal(word, 0x7F) | ByteSearch.nonASCII(word)
            if flags != 0 { return offset + ByteSearch.firstFlagged(flags) }
            offset += 8
        }
        return offset
    }
}

extension FeedValue {
    /// The value an `Encodable` encodes to, for the tool's one JSON writer (`prettyJSONText`).
    ///
    /// Dates stay dates (written as `ISO8601Moment` writes them), data stays data, and a whole
    /// number too large for `Int` becomes a real.
    ///
    /// - Throws: whatever the value's `encode(to:)` throws.
    package init(encoding value: some Encodable) throws {
        let node = EncodedNode()
        try node.store(value)
        self = node.value
    }
}

/// A place in the value being encoded: a value, or a dictionary or array whose items are filled
/// in as the containers encode them.
private final class EncodedNode {
    private var single: FeedValue = .null
    private var fields: [String: EncodedNode]?
    private var items: [EncodedNode]?

    /// The value encoded here.
    var value: FeedValue {
        if let fields { return .dictionary(fields.mapValues(\.value)) }
        if let items { return .array(items.map(\.value)) }
        return single
    }

    /// Stores `value`: a string, a number, a boolean, a date or data as itself, anything else
    /// as what its `encode(to:)` writes.
    func store<T: Encodable>(_ value: T, codingPath: [CodingKey] = []) throws {
        switch value {
        case let value as FeedValue: single = value
        case let value as String: single = .string(value)
        case let value as Bool: single = .bool(value)
        case let value as Double: single = .real(value)
        case let value as Float: single = .real(Double(value))
        case let value as Date: single = .date(value)
        case let value as Data: single = .data(value)
        case let value as any BinaryInteger: single = Int(exactly: value).map(FeedValue.integer) ?? .real(Double(value))
        default: try value.encode(to: FeedValueEncoder(node: self, codingPath: codingPath))
        }
    }

    /// This node as a dictionary, keeping the fields it has (an encoder may ask twice).
    func dictionary() -> EncodedNode {
        if fields == nil { fields = [:] }
        return self
    }

    /// This node as an array, keeping the items it has.
    func array() -> EncodedNode {
        if items == nil { items = [] }
        return self
    }

    /// A new node for the field `key`.
    func field(_ key: CodingKey) -> EncodedNode {
        let node = EncodedNode()
        fields?[key.stringValue] = node
        return node
    }

    /// A new node after the last item.
    func appended() -> EncodedNode {
        let node = EncodedNode()
        items?.append(node)
        return node
    }

    /// How many items the array has.
    var count: Int { items?.count ?? 0 }
}

/// The `Encoder` behind `FeedValue(encoding:)`.
private struct FeedValueEncoder: Encoder, SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Fields(node: node.dictionary(), codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer { Items(node: node.array(), codingPath: codingPath) }

    func singleValueContainer() -> SingleValueEncodingContainer { self }

    mutating func encodeNil() throws { try node.store(FeedValue.null) }

    mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }

    /// A dictionary's container.
    struct Fields<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: EncodedNode
        let codingPath: [CodingKey]

        mutating func encodeNil(forKey key: Key) throws { try node.field(key).store(FeedValue.null) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try node.field(key).store(value, codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Fields<NestedKey>(node: node.field(key).dictionary(), codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            Items(node: node.field(key).array(), codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

        mutating func superEncoder(forKey key: Key) -> Encoder { FeedValueEncoder(node: node.field(key), codingPath: codingPath + [key]) }
    }

    /// An array's container.
    struct Items: UnkeyedEncodingContainer {
        let node: EncodedNode
        let codingPath: [CodingKey]
        var count: Int { node.count }

        mutating func encodeNil() throws { try node.appended().store(FeedValue.null) }

        mutating func encode<T: Encodable>(_ value: T) throws { try node.appended().store(value, codingPath: codingPath) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Fields<NestedKey>(node: node.appended().dictionary(), codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { Items(node: node.appended().array(), codingPath: codingPath) }

        mutating func superEncoder() -> Encoder { FeedValueEncoder(node: node.appended(), codingPath: codingPath) }
    }
}
