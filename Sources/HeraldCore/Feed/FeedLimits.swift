/// How big a feed or prompts file may be once read, whatever its format (DESIGN.md D1).
///
/// Feeds come from servers Herald does not control. Every reader counts what it builds, so a
/// hostile document ends in a clear refusal instead of a crash (a stack overflow from deep
/// nesting) or a check that never finishes (a binary plist whose objects share children can
/// describe an exponentially large tree in a few hundred bytes). Real feeds stay far below
/// these limits: a message is a dictionary of strings inside the root dictionary, three levels.
package enum FeedLimits {
    /// The deepest nesting read: the root dictionary is level 1, an entry level 2, its values 3.
    package static let maximumDepth = 32

    /// The most values read, counting every string, number, date, data block, array,
    /// dictionary and dictionary key. A binary plist's shared objects count each time they are
    /// reached, since that is how often they end up in the decoded feed. A 10,000-message feed
    /// with every iNotify key is 140,000 values; a million values decode in a fraction of a
    /// second and well under 200 MB.
    package static let maximumValues = 1_000_000

    /// The most bytes of strings and data a binary plist may expand to, counting shared objects
    /// each time they are reached: 64 MiB, the size `herald validate` accepts for a whole file,
    /// so a shared string cannot make a feed bigger than a plain one could be.
    package static let maximumExpandedBytes = 64 << 20
}

/// Why a reader stopped, before it is put in words for a format (`FeedError.malformed`).
enum DocumentFailure: Error, Equatable {
    /// A fault found at a byte offset: the text breaks the format's grammar there, or a damaged
    /// binary object starts there. `reason` is a clause of its own: "unexpected '...' where a
    /// <key> was expected".
    case syntax(offset: Int, reason: String)
    /// The bytes stop where more was needed; the reason says what was being read.
    case endsEarly(String)
    /// Well-formed, but beyond one of `FeedLimits`: a fault of the whole, with no one place.
    case refused(String)

    /// The failure as the error of a document in `format`: a line and column in a text format,
    /// a byte offset in a binary one.
    func error(in format: FeedFormat, bytes: [UInt8]) -> FeedError {
        func place(_ offset: Int) -> DocumentPlace {
            if format == .binaryPropertyList { return .byte(offset) }
            let (line, column) = Self.lineAndColumn(of: offset, in: bytes)
            return .text(line: line, column: column)
        }
        switch self {
        case .syntax(let offset, let reason):
            return .malformed(format, at: place(offset), reason: reason)
        case .endsEarly(let what):
            return .malformed(format, at: place(bytes.count), reason: "the document ends early: \(what)")
        case .refused(let reason):
            return .malformed(format, at: nil, reason: reason)
        }
    }

    /// The 1-based line and column of an offset, as editors count them: a line ends at LF, CR
    /// LF or a lone CR, and a column counts characters (Unicode scalars), not bytes, so text
    /// before the fault in any script moves it by one per character.
    static func lineAndColumn<Bytes: RandomAccessCollection<UInt8>>(of offset: Int, in bytes: Bytes) -> (line: Int, column: Int)
    where Bytes.Index == Int {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var index = bytes.startIndex
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80, byte != 0x0D {
                // A UTF-8 continuation byte belongs to the character before it.
                column += 1
            }
            index += 1
        }
        return (line, column)
    }

    /// The refusal of a document nested deeper than `FeedLimits.maximumDepth`.
    static let tooDeep = DocumentFailure.refused("the document nests deeper than \(FeedLimits.maximumDepth) levels")

    /// The refusal of a document with more than `FeedLimits.maximumValues` values.
    static let tooManyValues = DocumentFailure.refused("the document holds more than \(NumberText.grouped(FeedLimits.maximumValues)) values")
}

/// Collects, while a document is read, the first problem that spoils only one entry (a lone
/// surrogate, a number out of range), so that entry is skipped and the others still show.
struct EntryProblems {
    /// Whether an entry of the root dictionary has been started; it stays set after the last
    /// one, as nothing is read after the root's entries.
    private var inEntry = false
    /// Keys and array indices from the entry down to the value being read.
    private var path: [String] = []
    /// The first problem of the entry being read.
    private(set) var current: String?
    /// The entry's key below which the first problem was found, if it was below one.
    private(set) var currentField: String?

    /// Starts reading an entry of the root dictionary; the reader files it under its id (`file`).
    mutating func startEntry() {
        inEntry = true
        if !path.isEmpty { path.removeAll(keepingCapacity: true) }
        current = nil
        currentField = nil
    }

    /// Enters a dictionary key or array index below the entry.
    mutating func enter(_ component: String) { path.append(component) }

    /// Leaves what `enter` entered.
    mutating func leave() { path.removeLast() }

    /// Records a problem of the value being read, in words after its location: "holds a …".
    /// Outside an entry (a root that is not a dictionary) there is nothing to skip; the root
    /// is refused anyway.
    mutating func note(_ problem: String) {
        guard current == nil, inEntry else { return }
        current = "\(location) \(problem)"
        currentField = path.first
    }

    /// Records a problem of a dictionary key being read.
    mutating func noteKey(_ problem: String) {
        guard current == nil, inEntry else { return }
        current = (path.isEmpty ? "a key of the entry" : "a key of \(location)") + " \(problem)"
        currentField = path.first
    }

    /// Records a problem of the entry's own id (a key of the root dictionary).
    mutating func noteEntryKey(_ problem: String) {
        guard current == nil else { return }
        current = "the message id \(problem)"
    }

    /// Files the entry just read under its id: kept in `entries`, or, when a problem spoiled it,
    /// marked unreadable there and reported in `unreadable`.
    func file(_ body: DocumentEntry.Body, under key: String, in entries: inout [DocumentEntry], unreadable: inout [FeedProblem]) {
        if let current {
            unreadable.append(FeedProblem(key: key, reason: current, field: currentField))
            entries.append(DocumentEntry(key: key, body: .unreadable))
        } else {
            entries.append(DocumentEntry(key: key, body: body))
        }
    }

    /// Where in the entry the value being read is: "Title", "Extra.Tags[2]", "the entry".
    private var location: String {
        guard !path.isEmpty else { return "the entry" }
        var out = ""
        for component in path {
            if component.hasPrefix("[") || out.isEmpty { out += component } else { out += "." + component }
        }
        return out
    }
}

/// A document read in one of the feed formats, before its entries are interpreted.
package struct FeedDocument {
    /// The root dictionary's entries in document order, a later one under an id replacing an
    /// earlier one; `nil` when the root is not a dictionary.
    var entries: [DocumentEntry]?
    /// The root when it is not a dictionary.
    private var otherRoot: FeedValue
    /// The format the bytes were read as.
    var format: FeedFormat
    /// The root dictionary's entries that could not be read, with the reason.
    package var unreadableEntries: [FeedProblem]

    /// A document whose root is not a dictionary.
    init(root: FeedValue, format: FeedFormat, unreadableEntries: [FeedProblem]) {
        otherRoot = root
        self.format = format
        self.unreadableEntries = unreadableEntries
    }

    /// A document whose root is a dictionary, read entry by entry.
    init(entries: [DocumentEntry], format: FeedFormat, unreadableEntries: [FeedProblem]) {
        self.entries = entries
        otherRoot = .null
        self.format = format
        self.unreadableEntries = unreadableEntries
    }

    /// The root value; entries that could not be read are left out of it.
    package var root: FeedValue {
        guard let entries else { return otherRoot }
        var dictionary: [String: FeedValue] = [:]
        dictionary.reserveCapacity(entries.count)
        for entry in entries { dictionary[entry.key] = entry.value }
        return .dictionary(dictionary)
    }
}
