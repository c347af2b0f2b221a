/// How big a feed or prompts file may be once read, whatever its format (DESIGN.md D1).
///
/// Feeds come from servers Herald does not control. Every reader counts what it builds, so a
/// hostile document ends in a clear refusal instead of a crash (a stack overflow from deep
/// nesting) or a check that never finishes (a binary plist whose objects share children can
/// describe an exponentially large tree in a few hundred bytes). Real feeds stay far below
/// these limits: a message is a dictionary of strings inside the root dictionary, three levels.
public enum FeedLimits {
    /// The deepest nesting read: the root dictionary is level 1, an entry level 2, its values 3.
    public static let maximumDepth = 32

    /// The most values read, counting every string, number, date, data block, array,
    /// dictionary and dictionary key. A binary plist's shared objects count each time they are
    /// reached, since that is how often they end up in the decoded feed. A 10,000-message feed
    /// with every iNotify key is 140,000 values; a million values decode in a fraction of a
    /// second and well under 200 MB.
    public static let maximumValues = 1_000_000

    /// The most bytes of strings and data a binary plist may expand to, counting shared objects
    /// each time they are reached: 64 MiB, the size `herald validate` accepts for a whole file,
    /// so a shared string cannot make a feed bigger than a plain one could be.
    public static let maximumExpandedBytes = 64 << 20

    /// A count for messages: 100000 as "100,000".
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}

/// Why a reader stopped, before it is put in words for a format (`FeedError.malformed`).
enum DocumentFailure: Error, Equatable {
    /// The text breaks the format's grammar at a byte offset.
    case syntax(offset: Int, reason: String)
    /// The bytes stop in the middle of a value; the reason says which one, if known.
    case endsEarly(String?)
    /// Well-formed, but beyond one of `FeedLimits`, or damaged in a way that has no position.
    case refused(String)

    /// The failure as the end of "the <format> …", with a line and column for text formats.
    func reason(in bytes: [UInt8]) -> String {
        switch self {
        case .syntax(let offset, let reason):
            let (line, column) = Self.lineAndColumn(of: offset, in: bytes)
            return "is not well-formed at line \(line), column \(column): \(reason)"
        case .endsEarly(let what):
            return "ends early" + (what.map { ": \($0)" } ?? "")
        case .refused(let reason):
            return reason
        }
    }

    /// 1-based line and column (in bytes) of an offset.
    static func lineAndColumn<Bytes: RandomAccessCollection<UInt8>>(of offset: Int, in bytes: Bytes) -> (line: Int, column: Int)
    where Bytes.Index == Int {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The refusal of a document nested deeper than `FeedLimits.maximumDepth`.
    static let tooDeep = DocumentFailure.refused("nests deeper than \(FeedLimits.maximumDepth) levels")

    /// The refusal of a document with more than `FeedLimits.maximumValues` values.
    static let tooManyValues = DocumentFailure.refused("holds more than \(FeedLimits.grouped(FeedLimits.maximumValues)) values")
}

/// Collects, while a document is read, the first problem that spoils only one entry (a lone
/// surrogate, a number out of range), so that entry is skipped and the others still show.
struct EntryProblems {
    /// Keys from the root down to the value being read; the first is the entry's id.
    private(set) var path: [String] = []
    /// The first problem of the entry being read.
    private(set) var current: String?

    /// Starts reading the entry under `key` of the root dictionary.
    mutating func startEntry(_ key: String) {
        path = [key]
        current = nil
    }

    /// Enters a dictionary key or array index below the entry.
    mutating func enter(_ component: String) { path.append(component) }

    /// Leaves what `enter` entered.
    mutating func leave() { path.removeLast() }

    /// Records a problem of the value being read, in words after its location: "holds a …".
    /// Outside an entry (a root that is not a dictionary) there is nothing to skip; the root
    /// is refused anyway.
    mutating func note(_ problem: String) {
        guard current == nil, !path.isEmpty else { return }
        current = "\(location) \(problem)"
    }

    /// Records a problem of a dictionary key being read.
    mutating func noteKey(_ problem: String) {
        guard current == nil, !path.isEmpty else { return }
        current = (path.count == 1 ? "a key of the entry" : "a key of \(location)") + " \(problem)"
    }

    /// Records a problem of the entry's own id (a key of the root dictionary).
    mutating func noteEntryKey(_ problem: String) {
        guard current == nil else { return }
        current = "the message id \(problem)"
    }

    /// Files the entry just read under its id: kept in `entries`, or, when a problem spoiled it,
    /// left out and reported in `unreadable`.
    func file(_ entry: FeedValue, under key: String, in entries: inout [String: FeedValue], unreadable: inout [FeedProblem]) {
        if let current {
            unreadable.append(FeedProblem(key: key, reason: current))
            entries[key] = nil
        } else {
            entries[key] = entry
        }
    }

    /// Where in the entry the value being read is: "Title", "Extra.Tags[2]", "the entry".
    private var location: String {
        guard path.count > 1 else { return "the entry" }
        var out = ""
        for component in path.dropFirst() {
            if component.hasPrefix("[") || out.isEmpty { out += component } else { out += "." + component }
        }
        return out
    }
}

/// A document read in one of the feed formats, before its entries are interpreted.
struct FeedDocument {
    /// The root value; entries that could not be read are left out of it.
    var root: FeedValue
    /// The format the bytes were read as.
    var format: FeedFormat
    /// The root dictionary's entries that could not be read, with the reason.
    var unreadableEntries: [FeedProblem]
}
