import FoundationEssentials

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
        /// Its value.
        var value: FeedValue
    }

    /// The keys and values, in document order; a later duplicate key replaced the earlier value.
    private(set) var pairs: [Field] = []
    /// Positions by key, kept only once there are more than `indexedFrom` keys.
    private var index: [String: Int]?

    /// The number of keys from which lookups go through a dictionary instead of a scan.
    static let indexedFrom = 16

    /// An empty list with room for `capacity` keys.
    init(capacity: Int = 0) {
        pairs.reserveCapacity(capacity)
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
        for pair in pairs { out[pair.name] = pair.value }
        return out
    }

    /// Whether the value at `position` is a string.
    func holdsString(at position: Int) -> Bool {
        if case .string = pairs[position].value { true } else { false }
    }

    /// Whether the value under `name` is a dictionary.
    func holdsDictionary(_ name: String) -> Bool {
        guard let position = position(of: name), case .dictionary = pairs[position].value else { return false }
        return true
    }

    /// The value at `position` as text: a string as it is, a number in its plain form
    /// (`FeedValue.textValue`), `nil` for other kinds.
    func text(at position: Int) -> String? {
        pairs[position].value.textValue
    }

    /// The position of `name`, if the entry has it.
    func position(of name: String) -> Int? {
        if let index { return index[name] }
        return pairs.firstIndex { $0.name == name }
    }

    /// The value under `name`; setting `nil` removes the key.
    subscript(name: String) -> FeedValue? {
        get { position(of: name).map { pairs[$0].value } }
        set {
            if let position = position(of: name) {
                if let newValue {
                    pairs[position].value = newValue
                } else {
                    pairs.remove(at: position)
                    if index != nil { reindex() }
                }
            } else if let newValue {
                pairs.append(Field(name: name, value: newValue))
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
        if let position = position(of: name) {
            pairs[position].value = value
            return
        }
        // The index, when there is one, learns the position the new pair is about to take.
        if index != nil { index![copy name] = pairs.count }
        pairs.append(Field(name: name, value: value))
        if index == nil, pairs.count > Self.indexedFrom { reindex() }
    }

    private mutating func reindex() {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(pairs.count)
        for (position, pair) in pairs.enumerated() { positions[pair.name] = position }
        index = positions
    }

    /// Whether both hold the same keys with the same values, in any order.
    func sameFields(as other: FeedFields) -> Bool {
        guard count == other.count else { return false }
        for pair in pairs where other[pair.name] != pair.value { return false }
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
