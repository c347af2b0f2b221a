import FoundationEssentials

/// A value every process of the person shares in a JSON file (the attention ledger, the inbox),
/// as the file holds it: written by `FeedValue`'s one JSON writer (pretty-printed, keys sorted,
/// dates as `ISO8601Moment` writes them) and read back by the JSON reader, field by field.
///
/// The files read as they did when `JSONEncoder` wrote them: the same keys, a field that is
/// `nil` left out, dates in the same form, and keys the value does not know passed over. They
/// are written in its layout, but for the characters the writer escapes where the encoder did
/// not (slashes are left as they are; control, bidi and line-separator characters become
/// `\uXXXX`), which every JSON reader reads the same. A string with a lone surrogate reads as
/// U+FFFD, where the decoder refused the whole file; Herald writes none.
package protocol SharedFileValue {
    /// The value as the file holds it.
    var fileValue: FeedValue { get }
    /// The value a file holds; `nil` when what it holds is not such a value.
    init?(fileValue: FeedValue)
}

extension SharedFileValue {
    /// The value in a file's bytes; `nil` when they are not JSON, or not such a value.
    package static func decoded(from bytes: Data) -> Self? {
        let root = bytes.withUnsafeBytes { raw in try? JSONFeedReader.value(of: raw.assumingMemoryBound(to: UInt8.self)) }
        return root.flatMap(Self.init(fileValue:))
    }

    /// The file's bytes for the value.
    package var encoded: Data { Data(fileValue.prettyJSONBytes) }
}

/// The fields of one JSON object of a shared file, read by their type. A field that must be
/// there and is missing, or that is of another type, fails the whole value (`FileFields.Mismatch`),
/// as it failed `JSONDecoder`; `null` is a missing field.
package struct FileFields {
    /// A field missing or of the wrong type: the value is not what the file should hold.
    package struct Mismatch: Error {}

    private let fields: [String: FeedValue]

    private init(_ fields: [String: FeedValue]) {
        self.fields = fields
    }

    /// What `body` reads from the fields of `value`; `nil` when `value` is not an object or a
    /// field is missing or of another type.
    package static func read<Value>(_ value: FeedValue, _ body: (FileFields) throws(Mismatch) -> Value) -> Value? {
        guard case .dictionary(let fields) = value else { return nil }
        return try? body(FileFields(fields))
    }

    /// The field; `nil` when it is missing or `null`.
    private func optional(_ key: String) -> FeedValue? {
        switch fields[key] {
        case nil, .null?: return nil
        case let value?: return value
        }
    }

    private func required(_ key: String) throws(Mismatch) -> FeedValue {
        guard let value = optional(key) else { throw Mismatch() }
        return value
    }

    /// A text field.
    package func string(_ key: String) throws(Mismatch) -> String {
        guard case .string(let text) = try required(key) else { throw Mismatch() }
        return text
    }

    /// A text field that may be missing.
    package func optionalString(_ key: String) throws(Mismatch) -> String? {
        optional(key) == nil ? nil : try string(key)
    }

    /// A field holding one of a type's raw values.
    package func choice<Choice: RawRepresentable<String>>(_ key: String) throws(Mismatch) -> Choice {
        guard let choice = Choice(rawValue: try string(key)) else { throw Mismatch() }
        return choice
    }

    /// A moment, as `ISO8601Moment` writes it (a bare day is not a moment); in a value not yet
    /// written (`SharedValueFile`'s update), the moment its text will name.
    package func date(_ key: String) throws(Mismatch) -> Date {
        if case .date(let date)? = optional(key) { return ISO8601Moment.written(date) }
        guard let parsed = ISO8601Moment.parse(try string(key)), !parsed.dateOnly else { throw Mismatch() }
        return parsed.date
    }

    /// A moment that may be missing.
    package func optionalDate(_ key: String) throws(Mismatch) -> Date? {
        optional(key) == nil ? nil : try date(key)
    }

    /// A whole number.
    package func integer(_ key: String) throws(Mismatch) -> Int {
        switch try required(key) {
        case .integer(let number): return number
        case .real(let number):
            guard let whole = Int(exactly: number) else { throw Mismatch() }
            return whole
        default: throw Mismatch()
        }
    }

    /// A number.
    package func real(_ key: String) throws(Mismatch) -> Double {
        switch try required(key) {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        default: throw Mismatch()
        }
    }

    /// A value that reads itself (`read`), and may be missing.
    package func optionalValue<Item>(_ key: String, _ read: (FeedValue) -> Item?) throws(Mismatch) -> Item? {
        guard let value = optional(key) else { return nil }
        guard let item = read(value) else { throw Mismatch() }
        return item
    }

    /// An array of values that read themselves (`read`).
    package func array<Item>(_ key: String, of read: (FeedValue) -> Item?) throws(Mismatch) -> [Item] {
        guard case .array(let values) = try required(key) else { throw Mismatch() }
        var items: [Item] = []
        items.reserveCapacity(values.count)
        for value in values {
            guard let item = read(value) else { throw Mismatch() }
            items.append(item)
        }
        return items
    }

    /// An object of objects, `{app: {message: item}}`, each item read by `read`.
    package func byAppAndMessage<Item>(_ key: String, of read: (FeedValue) -> Item?) throws(Mismatch) -> [String: [String: Item]] {
        guard case .dictionary(let apps) = try required(key) else { throw Mismatch() }
        var result: [String: [String: Item]] = [:]
        result.reserveCapacity(apps.count)
        for (app, messages) in apps {
            guard case .dictionary(let messages) = messages else { throw Mismatch() }
            var items: [String: Item] = [:]
            items.reserveCapacity(messages.count)
            for (message, value) in messages {
                guard let item = read(value) else { throw Mismatch() }
                items[message] = item
            }
            result[app] = items
        }
        return result
    }
}

extension Dictionary where Key == String, Value == FeedValue {
    /// Sets `key` to `value`, leaving it out when `value` is `nil`, as `JSONEncoder` left out
    /// a `nil` field.
    mutating func setIfPresent(_ key: String, _ value: FeedValue?) {
        if let value { self[key] = value }
    }
}
