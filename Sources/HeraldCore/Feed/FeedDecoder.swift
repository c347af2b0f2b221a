import FoundationEssentials

/// Why a whole feed cannot be used. A failed decode fails the check (DESIGN.md D1, D4).
public enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are empty.
    case empty
    /// The bytes are not a property list or JSON document.
    case unreadable(String)
    /// The bytes are in `format`, chosen by their first bytes, but cannot be read as such:
    /// damaged, cut off, or beyond `FeedLimits`. `place` is where the fault was found, `nil`
    /// for a fault of the whole (a limit); `reason` says what, in a clause of its own.
    case malformed(FeedFormat, at: DocumentPlace?, reason: String)
    /// The document's root is not a dictionary keyed by message id.
    case rootNotDictionary(found: String)

    /// One sentence for people, for when the feed has no name at hand: "line 23, column 5:
    /// unexpected '...' where a <key> was expected (XML property list)".
    public var description: String {
        switch self {
        case .empty: return "the feed is empty"
        case .unreadable(let reason): return "the feed is not a property list or JSON: \(reason)"
        case .malformed(let format, let place, let reason):
            return (place.map { "\($0): " } ?? "") + "\(reason) (\(format.documentName))"
        case .rootNotDictionary(let found):
            return "the feed's root is \(FeedValue.withArticle(found)), not a dictionary keyed by message id"
        }
    }

    /// The error after the name of the feed, as compilers write it so that editors can jump
    /// to the place: "feed.plist:23:5: unexpected '...' where a <key> was expected (XML
    /// property list)", "feed.plist: byte 1234: …" for a binary property list.
    ///
    /// - Parameter source: the feed's path or URL, as the user gave it.
    public func description(source: String) -> String {
        switch self {
        case .malformed(let format, .text(let line, let column)?, let reason):
            return "\(source):\(line):\(column): \(reason) (\(format.documentName))"
        default:
            return "\(source): \(description)"
        }
    }
}

/// Where in a document a fault was found.
public enum DocumentPlace: Sendable, Equatable, CustomStringConvertible {
    /// In a text format: the 1-based line, and the 1-based column counted in characters.
    case text(line: Int, column: Int)
    /// In a binary format: the offset from the file's first byte, counted from 0 as hex
    /// dumps count it.
    case byte(Int)

    /// "line 23, column 5" or "byte 1234".
    public var description: String {
        switch self {
        case .text(let line, let column): return "line \(line), column \(column)"
        case .byte(let offset): return "byte \(offset)"
        }
    }
}

/// Turns feed bytes into a `Feed`, choosing the format by content, never by file name.
package enum FeedDecoder {
    /// Decodes bytes in any supported format.
    ///
    /// - Parameter bytes: the exact bytes fetched (and, where signed, verified).
    /// - Returns: the usable entries and a problem per skipped entry.
    /// - Throws: `FeedError` when the document as a whole cannot be used.
    package static func decode(_ bytes: Data) throws -> Feed {
        var document = try read(bytes)
        guard var documentEntries = document.entries else {
            throw FeedError.rootNotDictionary(found: document.root.kindName)
        }
        document.entries = nil
        var entries: [String: FeedEntry] = [:]
        entries.reserveCapacity(documentEntries.count)
        // Entries read but skipped, and why; a later entry under the same id replaces an
        // earlier one, as in a dictionary.
        var skipped: [String: FeedValue] = [:]
        var skipProblems: [String: FeedProblem] = [:]
        // Each entry is moved out of the list, in document order, so its fields move into the
        // entry made of them: iterating the list copied every entry, and freeing the list then
        // released every copy's strings again. What is left in its place holds nothing to free.
        documentEntries.withUnsafeMutableBufferPointer { list in
            for position in list.indices {
                let documentEntry = list.moveElement(from: position)
                list.initializeElement(at: position, to: DocumentEntry(key: "", body: .unreadable))
                let key = documentEntry.key
                if let refusal = FeedProblem.feedIDRefusal(key) {
                    // Not among the skipped entries either: `herald validate` lists it as an
                    // entry that cannot be read at all.
                    entries[key] = nil
                    skipped[key] = nil
                    skipProblems[key] = FeedProblem(key: key, reason: refusal)
                    continue
                }
                switch documentEntry.body {
                case .fields(let fields):
                    do throws(FeedProblem) {
                        let texts = try readTexts(key: key, fields: fields)
                        entries[key] = FeedEntry(key: key, texts: texts, fields: fields)
                        if !skipProblems.isEmpty {
                            skipped[key] = nil
                            skipProblems[key] = nil
                        }
                    } catch {
                        entries[key] = nil
                        skipped[key] = .dictionary(fields.dictionary)
                        skipProblems[key] = error
                    }
                case .other(let other):
                    entries[key] = nil
                    skipped[key] = other
                    skipProblems[key] = FeedProblem(key: key, reason: "the entry is \(other.kindPhrase), not a dictionary")
                case .unreadable:
                    entries[key] = nil
                    if !skipProblems.isEmpty {
                        skipped[key] = nil
                        skipProblems[key] = nil
                    }
                }
            }
        }
        var problems = document.unreadableEntries
        problems += skipProblems.values
        problems.sort { $0.key < $1.key }
        return Feed(keyed: entries, problems: problems, format: document.format, skippedEntries: skipped)
    }

    /// The format of a document, from its first bytes: `bplist` is a binary plist, `<` XML,
    /// `[` JSON, and `{` JSON unless its first key is followed by `=` (or is not quoted and
    /// not followed by `:`), which makes it an OpenStep dictionary; anything else is read as
    /// OpenStep. Comments are skipped on the way, so JSON with a comment is read as JSON and
    /// refused for it, not read as OpenStep. `nil` when there is nothing but white space.
    package static func format(of bytes: Data) -> FeedFormat? {
        bytes.withUnsafeBytes { format(of: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    static func format(of bytes: [UInt8]) -> FeedFormat? {
        bytes.withUnsafeBufferPointer { format(of: $0) }
    }

    static func format(of bytes: UnsafeBufferPointer<UInt8>) -> FeedFormat? {
        if bytes.starts(with: Array("bplist".utf8)) { return .binaryPropertyList }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var sawComment = false
        func skipSpaceAndComments() {
            while index < bytes.count {
                if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                    sawComment = true
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                } else if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                    sawComment = true
                    index += 2
                    while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                    index += 2
                } else {
                    return
                }
            }
        }
        skipSpaceAndComments()
        guard index < bytes.count else { return sawComment ? .openStepPropertyList : nil }
        switch bytes[index] {
        case UInt8(ascii: "<") where !sawComment: return .xmlPropertyList
        case UInt8(ascii: "["): return .json
        case UInt8(ascii: "{"):
            index += 1
            skipSpaceAndComments()
            guard index < bytes.count else { return .json }
            switch bytes[index] {
            case UInt8(ascii: "}"): return sawComment ? .openStepPropertyList : .json
            case UInt8(ascii: "\""):
                // Skip the quoted key; what follows it tells the formats apart.
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            default:
                // A bare key: OpenStep when '=' follows it, as it always does in a valid one;
                // JSON written by hand when a ':' ends it or follows it.
                let start = index
                while index < bytes.count, OpenStepPropertyList.isBare(bytes[index]) { index += 1 }
                let endsInColon = index > start && bytes[index - 1] == UInt8(ascii: ":")
                skipSpaceAndComments()
                guard index < bytes.count, bytes[index] != UInt8(ascii: "=") else { return .openStepPropertyList }
                return endsInColon || bytes[index] == UInt8(ascii: ":") ? .json : .openStepPropertyList
            }
            skipSpaceAndComments()
            guard index < bytes.count else { return sawComment ? .openStepPropertyList : .json }
            switch bytes[index] {
            case UInt8(ascii: "="): return .openStepPropertyList
            case UInt8(ascii: ":"): return .json
            default: return sawComment ? .openStepPropertyList : .json
            }
        default:
            return .openStepPropertyList
        }
    }

    /// Reads a document in the format its first bytes name, within `FeedLimits`.
    ///
    /// The bytes are read where they lie: copying a large feed into an array first cost a
    /// copy and the page faults of a fresh allocation.
    package static func read(_ data: Data) throws(FeedError) -> FeedDocument {
        let result = data.withUnsafeBytes { (raw) -> Result<FeedDocument, FeedError> in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            guard let format = format(of: bytes) else { return .failure(FeedError.empty) }
            do throws(DocumentFailure) {
                switch format {
                case .binaryPropertyList:
                    return .success(try BinaryPropertyList.read(bytes))
                case .json:
                    return .success(try JSONFeedReader.read(bytes))
                case .openStepPropertyList:
                    return .success(try OpenStepPropertyList.read(Array(bytes)))
                case .xmlPropertyList:
                    return .success(try XMLPropertyList.read(bytes))
                }
            } catch {
                return .failure(error.error(in: format, bytes: Array(bytes)))
            }
        }
        return try result.get()
    }

    /// Reads one entry; a value of the wrong kind makes the entry a problem, not a crash.
    ///
    /// It stops at the first such value: a check only needs to know that the entry is skipped.
    /// `FeedValidation` reports every one.
    package static func entry(key: String, value: FeedValue) -> Result<FeedEntry, FeedProblem> {
        guard case .dictionary(let fields) = value else {
            return .failure(FeedProblem(key: key, reason: "the entry is \(value.kindPhrase), not a dictionary"))
        }
        return entry(key: key, fields: FeedFields(fields))
    }

    /// Reads one entry from its keys and values as written.
    static func entry(key: String, fields: FeedFields) -> Result<FeedEntry, FeedProblem> {
        do throws(FeedProblem) {
            return .success(try readEntry(key: key, fields: fields))
        } catch {
            return .failure(error)
        }
    }

    /// Reads one entry from its keys and values as written, or says why it cannot be used.
    static func readEntry(key: String, fields: FeedFields) throws(FeedProblem) -> FeedEntry {
        FeedEntry(key: key, texts: try readTexts(key: key, fields: fields), fields: fields)
    }

    /// Where an entry's known texts are in its keys and values as written, or why the entry
    /// cannot be used: title, message, action URL, action button, minimum and maximum version.
    static func readTexts(key: String, fields: borrowing FeedFields) throws(FeedProblem) -> FeedEntry.Texts {
        // One pass over the keys finds the known ones; they are then checked in a fixed order,
        // so the problem reported does not depend on the order the keys were written in. A
        // string value is pointed at by its position, not copied.
        var title = -1, message = -1, actionURL = -1, actionButton = -1, minVersion = -1, maxVersion = -1
        let pairs = fields.pairs
        for position in pairs.indices {
            switch pairs[position].name {
            case FeedKey.title: title = position
            case FeedKey.message: message = position
            case FeedKey.actionURL: actionURL = position
            case FeedKey.actionButton: actionButton = position
            case FeedKey.minVersion: minVersion = position
            case FeedKey.maxVersion: maxVersion = position
            default: continue
            }
        }
        func text(_ position: Int, _ name: String, numbersAllowed: Bool, localisable: Bool = false) throws(FeedProblem) -> FeedEntry.Text {
            guard position >= 0 else { return .none }
            if fields.holdsString(at: position) { return .field(position) }
            return .init(try otherText(fields.pairs[position].value, name, numbersAllowed: numbersAllowed, localisable: localisable))
        }
        func otherText(_ field: FeedValue, _ name: String, numbersAllowed: Bool, localisable: Bool) throws(FeedProblem) -> String? {
            if numbersAllowed, let text = field.textValue { return text }
            // Localised text (a dictionary keyed by language) reads as its fallback here; a check
            // resolves it for the user's languages (`FeedEntry.localised(to:)`).
            if localisable, case .dictionary(let texts) = field {
                guard !texts.isEmpty, texts.values.allSatisfy({ if case .string = $0 { true } else { false } }) else {
                    throw FeedProblem(key: key, reason: "\(name) is a dictionary whose values are not all strings, expected text per language", field: name)
                }
                return LocalisedText.resolve(field, languages: [])
            }
            throw FeedProblem(key: key, reason: "\(name) is \(field.kindPhrase), not a string", field: name)
        }
        return FeedEntry.Texts(
            title: try text(title, FeedKey.title, numbersAllowed: false, localisable: true),
            message: try text(message, FeedKey.message, numbersAllowed: false, localisable: true),
            actionURL: try text(actionURL, FeedKey.actionURL, numbersAllowed: false),
            actionButton: try text(actionButton, FeedKey.actionButton, numbersAllowed: false, localisable: true),
            minVersion: try text(minVersion, FeedKey.minVersion, numbersAllowed: true),
            maxVersion: try text(maxVersion, FeedKey.maxVersion, numbersAllowed: true)
        )
    }
}
