import FoundationEssentials

/// Why a whole feed cannot be used. A failed decode fails the check (DESIGN.md D1, D4).
public enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are empty.
    case empty
    /// The bytes are not a property list or JSON document.
    case unreadable(String)
    /// The bytes are in `format`, chosen by their first bytes, but cannot be read as such:
    /// damaged, cut off, or beyond `FeedLimits`. `reason` follows the format's name.
    case malformed(FeedFormat, reason: String)
    /// The document's root is not a dictionary keyed by message id.
    case rootNotDictionary(found: String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .empty: return "the feed is empty"
        case .unreadable(let reason): return "the feed is not a property list or JSON: \(reason)"
        case .malformed(let format, let reason): return "the \(format.documentName) \(reason)"
        case .rootNotDictionary(let found): return "the feed's root is a \(found), not a dictionary keyed by message id"
        }
    }
}

/// Turns feed bytes into a `Feed`, choosing the format by content, never by file name.
public enum FeedDecoder {
    /// Decodes bytes in any supported format.
    ///
    /// - Parameter bytes: the exact bytes fetched (and, where signed, verified).
    /// - Returns: the usable entries and a problem per skipped entry.
    /// - Throws: `FeedError` when the document as a whole cannot be used.
    public static func decode(_ bytes: Data) throws -> Feed {
        let document = try read(bytes)
        guard case .dictionary(let dictionary) = document.root else {
            throw FeedError.rootNotDictionary(found: document.root.kindName)
        }
        var entries: [String: FeedEntry] = [:]
        entries.reserveCapacity(dictionary.count)
        var problems = document.unreadableEntries
        for (key, value) in dictionary {
            switch entry(key: key, value: value) {
            case .success(let entry): entries[key] = entry
            case .failure(let problem): problems.append(problem)
            }
        }
        problems.sort { $0.key < $1.key }
        return Feed(keyed: entries, problems: problems, format: document.format)
    }

    /// The format of a document, from its first bytes: `bplist` is a binary plist, `<` XML,
    /// `[` JSON, and `{` JSON unless its first key is followed by `=` (or is not quoted), which
    /// makes it an OpenStep dictionary; anything else is read as OpenStep. `nil` when there is
    /// nothing but white space.
    public static func format(of bytes: Data) -> FeedFormat? {
        format(of: Array(bytes))
    }

    static func format(of bytes: [UInt8]) -> FeedFormat? {
        if bytes.starts(with: Array("bplist".utf8)) { return .binaryPropertyList }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "<"): return .xmlPropertyList
        case UInt8(ascii: "["): return .json
        case UInt8(ascii: "{"):
            index += 1
            skipSpace()
            guard index < bytes.count else { return .json }
            switch bytes[index] {
            case UInt8(ascii: "}"): return .json
            case UInt8(ascii: "\""):
                // Skip the quoted key; what follows it tells the formats apart.
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                skipSpace()
                guard index < bytes.count else { return .json }
                return bytes[index] == UInt8(ascii: "=") || bytes[index] == UInt8(ascii: "/") ? .openStepPropertyList : .json
            default:
                return .openStepPropertyList
            }
        default:
            return .openStepPropertyList
        }
    }

    /// Reads a document in the format its first bytes name, within `FeedLimits`.
    static func read(_ bytes: Data) throws(FeedError) -> FeedDocument {
        let bytes = Array(bytes)
        guard let format = format(of: bytes) else { throw FeedError.empty }
        do throws(DocumentFailure) {
            switch format {
            case .binaryPropertyList:
                return try BinaryPropertyList.read(bytes)
            case .json:
                return try JSONFeedReader.read(bytes)
            case .openStepPropertyList:
                return try OpenStepPropertyList.read(bytes)
            case .xmlPropertyList:
                return try XMLPropertyList.read(bytes)
            }
        } catch {
            throw FeedError.malformed(format, reason: error.reason(in: bytes))
        }
    }

    /// Reads one entry; a value of the wrong kind makes the entry a problem, not a crash.
    static func entry(key: String, value: FeedValue) -> Result<FeedEntry, FeedProblem> {
        guard case .dictionary(let fields) = value else {
            return .failure(FeedProblem(key: key, reason: "the entry is a \(value.kindName), not a dictionary"))
        }
        func text(_ name: String, numbersAllowed: Bool, localisable: Bool = false) -> Result<String?, FeedProblem> {
            guard let field = fields[name] else { return .success(nil) }
            if case .string(let text) = field { return .success(text) }
            if numbersAllowed, let text = field.textValue { return .success(text) }
            // Localised text (a dictionary keyed by language) reads as its fallback here; a check
            // resolves it for the user's languages (`FeedEntry.localised(to:)`).
            if localisable, case .dictionary(let texts) = field {
                guard !texts.isEmpty, texts.values.allSatisfy({ if case .string = $0 { true } else { false } }) else {
                    return .failure(FeedProblem(key: key, reason: "\(name) is a dictionary whose values are not all strings, expected text per language"))
                }
                return .success(LocalisedText.resolve(field, languages: []))
            }
            return .failure(FeedProblem(key: key, reason: "\(name) is a \(field.kindName), expected a string"))
        }
        do throws(FeedProblem) {
            return .success(FeedEntry(
                key: key,
                title: try text(FeedKey.title, numbersAllowed: false, localisable: true).get(),
                message: try text(FeedKey.message, numbersAllowed: false, localisable: true).get(),
                actionURL: try text(FeedKey.actionURL, numbersAllowed: false).get(),
                actionButton: try text(FeedKey.actionButton, numbersAllowed: false, localisable: true).get(),
                minVersion: try text(FeedKey.minVersion, numbersAllowed: true).get(),
                maxVersion: try text(FeedKey.maxVersion, numbersAllowed: true).get(),
                details: fields
            ))
        } catch {
            return .failure(error)
        }
    }
}
