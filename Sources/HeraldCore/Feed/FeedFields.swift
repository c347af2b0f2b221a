import FoundationEssentials
import Glibc

/// The bytes of a document, kept by the entries whose plain texts were left in them.
///
/// A reader that is given them does not make a string of each plain text it reads: it records
/// where the text lies, and the string is made when it is asked for. Plain is, in JSON, a
/// string without escapes whose bytes are all ASCII; in XML, text without references, CDATA
/// or comments, whose bytes are decoded as the XML reader decodes them (invalid UTF-8 becomes
/// U+FFFD); in a binary plist, an ASCII or UTF-8 string object whose bytes are all ASCII. A
/// check reads the texts of the few messages it shows; the others are never made.
/// Every entry whose texts lie in the bytes keeps them, so a message kept after its check (to
/// show, or handed to a delegate) keeps the whole feed, at most the size cap of a fetch.
final class DocumentBytes: Sendable {
    /// The document as it was read.
    let data: Data

    /// Keeps `data`; offsets into it count from its first byte, whatever its `startIndex`.
    init(_ data: Data) {
        self.data = data
    }

    /// The text of `count` bytes at `start`, decoded as UTF-8 with invalid bytes replaced.
    func text(at start: Int, count: Int) -> String {
        guard count > 0 else { return "" }
        return data.withUnsafeBytes { raw in
            precondition(start >= 0 && start + count <= raw.count, "a text beyond the document")
            return String(decoding: UnsafeBufferPointer(start: raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + start, count: count), as: UTF8.self)
        }
    }
}

/// An entry's keys and values in the order they were written, each key once.
///
/// A check reads a handful of known keys from each of thousands of entries: a short list
/// scanned in place costs less than a hashed dictionary built, probed and freed per entry. Keys
/// beyond `indexedFrom` get an index, so an entry with very many keys is not read in quadratic
/// time. `FeedEntry.details` turns the list into a dictionary when it is asked for.
struct FeedFields: Sendable {
    /// One key and its value.
    ///
    /// A struct, not a tuple: an array of tuples was destroyed by the runtime's generic tuple
    /// code, element by element, where a struct has its own compiled destroy.
    struct Field: Sendable {
        /// The key.
        var name: String
        /// Its value, or where its text lies in `document`.
        var stored: Stored
    }

    /// A value as a field holds it.
    enum Stored: Sendable {
        /// A value of its own.
        case value(FeedValue)
        /// A string still in the document: the plain text of `count` bytes at `start` (see
        /// `DocumentBytes`).
        case text(start: Int, count: Int)
    }

    /// The keys and values, in document order; a later duplicate key replaced the earlier value.
    private(set) var pairs: [Field] = []
    /// The document that `Stored.text` values lie in.
    private(set) var document: DocumentBytes?
    /// Positions by key, kept only once there are more than `indexedFrom` keys.
    private var index: [String: Int]?
    /// A bit for each key length present (modulo 64), so that a key whose length no key has,
    /// as most keys of an entry being read, is known to be new without a scan. A removal leaves
    /// its bit set, which only costs a scan.
    private var lengths: UInt64 = 0

    /// The number of keys from which lookups go through a dictionary instead of a scan.
    static let indexedFrom = 16

    /// An empty list with room for `capacity` keys, whose texts may be left in `document`.
    init(capacity: Int = 0, document: DocumentBytes? = nil) {
        pairs.reserveCapacity(capacity)
        self.document = document
    }

    /// The list of a dictionary's keys and values.
    init(_ dictionary: [String: FeedValue]) {
        self.init(capacity: dictionary.count)
        for (name, value) in dictionary { self[name] = value }
    }

    /// The number of keys.
    var count: Int { pairs.count }

    /// The fields as a dictionary, as `FeedValue.dictionary` holds them.
    var dictionary: [String: FeedValue] {
        var out: [String: FeedValue] = [:]
        out.reserveCapacity(pairs.count)
        for position in pairs.indices { out[pairs[position].name] = value(at: position) }
        return out
    }

    /// The value at `position`, a text in the document made a string.
    func value(at position: Int) -> FeedValue {
        switch pairs[position].stored {
        case .value(let value): return value
        case .text(let start, let count): return .string(document.unsafelyUnwrapped.text(at: start, count: count))
        }
    }

    /// Whether the value at `position` is a string.
    func holdsString(at position: Int) -> Bool {
        switch pairs[position].stored {
        case .value(.string), .text: return true
        case .value: return false
        }
    }

    /// Whether the value under `name` is a dictionary.
    func holdsDictionary(_ name: String) -> Bool {
        guard let position = position(of: name), case .value(.dictionary) = pairs[position].stored else { return false }
        return true
    }

    /// The value at `position` as text: a string as it is, a number in its plain form
    /// (`FeedValue.textValue`), `nil` for other kinds.
    func text(at position: Int) -> String? {
        switch pairs[position].stored {
        case .value(.string(let string)): return string
        case .value(let value): return value.textValue
        case .text(let start, let count): return document.unsafelyUnwrapped.text(at: start, count: count)
        }
    }

    /// The position of `name`, if the entry has it.
    func position(of name: String) -> Int? {
        position(of: name, length: name.utf8.count)
    }

    /// The position of `name`, whose length in UTF-8 is `length`, if the entry has it.
    @inline(__always)
    private func position(of name: String, length: Int) -> Int? {
        if let index { return index[name] }
        guard lengths & Self.lengthBit(length) != 0 else { return nil }
        return pairs.firstIndex { $0.name.utf8.count == length && $0.name == name }
    }

    /// The bit of `lengths` for keys of `length` bytes.
    @inline(__always)
    private static func lengthBit(_ length: Int) -> UInt64 { 1 << UInt64(length & 63) }

    /// The value under `name`; setting `nil` removes the key.
    subscript(name: String) -> FeedValue? {
        get { position(of: name).map(value(at:)) }
        set {
            let length = name.utf8.count
            if let position = position(of: name, length: length) {
                if let newValue {
                    pairs[position].stored = .value(newValue)
                } else {
                    pairs.remove(at: position)
                    if index != nil { reindex() }
                }
            } else if let newValue {
                lengths |= Self.lengthBit(length)
                pairs.append(Field(name: name, stored: .value(newValue)))
                if index != nil {
                    index![name] = pairs.count - 1
                } else if pairs.count > Self.indexedFrom {
                    reindex()
                }
            }
        }
    }

    /// Adds a key as a reader finds it, or replaces the value of the same key found before.
    ///
    /// The subscript's setter with the key and value handed over rather than copied: a reader
    /// has no further use for them, and copying each value cost a retain and a release.
    mutating func add(_ name: consuming String, _ value: consuming FeedValue) {
        add(name, stored: .value(value))
    }

    /// Adds a key whose value is the plain text of `count` bytes at `start` of `document`, or
    /// gives it that value if it was found before.
    mutating func add(_ name: consuming String, textAt start: Int, count: Int) {
        precondition(document != nil, "a text left in a document needs the document")
        add(name, stored: .text(start: start, count: count))
    }

    /// Adds a key with its value as stored, or replaces the value of the same key.
    private mutating func add(_ name: consuming String, stored: consuming Stored) {
        let length = name.utf8.count
        if let position = position(of: name, length: length) {
            pairs[position].stored = stored
            return
        }
        // The index, when there is one, learns the position the new pair is about to take.
        if index != nil { index![copy name] = pairs.count }
        lengths |= Self.lengthBit(length)
        pairs.append(Field(name: name, stored: stored))
        if index == nil, pairs.count > Self.indexedFrom { reindex() }
    }

    private mutating func reindex() {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(pairs.count)
        for (position, pair) in pairs.enumerated() { positions[pair.name] = position }
        index = positions
    }

    /// The key of `FeedKey.all` that `text` spells, as that string constant, or `nil`.
    ///
    /// Readers look keys up here before they make a string of their bytes: the six keys of
    /// every entry then cost a length check and a comparison, not a new string each.
    static func knownKey(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        guard text.count < knownKeysByLength.count, let base = text.baseAddress else { return nil }
        for candidate in knownKeysByLength[text.count]
        where candidate.bytes.withUnsafeBufferPointer({ memcmp(base, $0.baseAddress!, text.count) == 0 }) {
            return candidate.key
        }
        return nil
    }

    /// `FeedKey.all` by length in bytes, each key with its bytes: `knownKey`'s table.
    private static let knownKeysByLength: [[(bytes: [UInt8], key: String)]] = {
        var table = [[(bytes: [UInt8], key: String)]](repeating: [], count: (FeedKey.all.map(\.utf8.count).max() ?? 0) + 1)
        for key in FeedKey.all { table[key.utf8.count].append((Array(key.utf8), key)) }
        return table
    }()

    /// Whether both hold the same keys with the same values, in any order.
    func sameFields(as other: FeedFields) -> Bool {
        guard count == other.count else { return false }
        for position in pairs.indices where other[pairs[position].name] != value(at: position) { return false }
        return true
    }
}

/// One entry of a document's root dictionary, as a reader found it.
struct DocumentEntry {
    /// What the entry's id names.
    enum Body {
        /// A dictionary, as its keys and values.
        case fields(FeedFields)
        /// A value of another kind, which the decoder reports.
        case other(FeedValue)
        /// A value that could not be read; its problem is in `FeedDocument.unreadableEntries`.
        case unreadable
    }

    /// The entry's id.
    var key: String
    /// What the id names.
    var body: Body

    /// The entry as a `FeedValue`, `nil` when it could not be read.
    var value: FeedValue? {
        switch body {
        case .fields(let fields): return .dictionary(fields.dictionary)
        case .other(let value): return value
        case .unreadable: return nil
        }
    }
}
