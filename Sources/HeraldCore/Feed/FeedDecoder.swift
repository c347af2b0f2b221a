import FoundationEssentials

/// Why a whole feed cannot be used. A failed decode fails the check (DESIGN.md D1, D4).
public enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are empty.
    case empty
    /// The bytes are not a property list or JSON document.
    case unreadable(String)
    /// The document's root is not a dictionary keyed by message id.
    case rootNotDictionary(found: String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .empty: return "the feed is empty"
        case .unreadable(let reason): return "the feed is not a property list or JSON: \(reason)"
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
        let (root, format) = try readRoot(bytes)
        guard case .dictionary(let dictionary) = root else {
            throw FeedError.rootNotDictionary(found: root.kindName)
        }
        var entries: [FeedEntry] = []
        var problems: [FeedProblem] = []
        for (key, value) in dictionary {
            switch entry(key: key, value: value) {
            case .success(let entry): entries.append(entry)
            case .failure(let problem): problems.append(problem)
            }
        }
        problems.sort { $0.key < $1.key }
        return Feed(entries: entries, problems: problems, format: format)
    }

    /// Detects the format and reads the document's root value.
    static func readRoot(_ bytes: Data) throws -> (FeedValue, FeedFormat) {
        let firstByte = bytes.first { !(($0 == 0x20) || ($0 == 0x09) || ($0 == 0x0A) || ($0 == 0x0D) || ($0 == 0xEF) || ($0 == 0xBB) || ($0 == 0xBF)) }
        guard let firstByte else { throw FeedError.empty }
        do {
            if bytes.starts(with: Array("bplist".utf8)) {
                return (try PropertyListDecoder().decode(FeedValue.self, from: bytes), .binaryPropertyList)
            }
            if firstByte == UInt8(ascii: "<") {
                return (try PropertyListDecoder().decode(FeedValue.self, from: bytes), .xmlPropertyList)
            }
        } catch {
            throw FeedError.unreadable(describe(error))
        }
        if let json = try? JSONDecoder().decode(FeedValue.self, from: bytes) {
            return (json, .json)
        }
        do {
            return (try OpenStepPropertyList.parse(Array(bytes)), .openStepPropertyList)
        } catch {
            throw FeedError.unreadable(describe(error))
        }
    }

    private static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return context.underlyingError.map { "\($0)" } ?? context.debugDescription
        }
        return "\(error)"
    }

    /// Reads one entry; a value of the wrong kind makes the entry a problem, not a crash.
    static func entry(key: String, value: FeedValue) -> Result<FeedEntry, FeedProblem> {
        guard case .dictionary(let fields) = value else {
            return .failure(FeedProblem(key: key, reason: "the entry is a \(value.kindName), not a dictionary"))
        }
        func text(_ name: String, numbersAllowed: Bool) -> Result<String?, FeedProblem> {
            guard let field = fields[name] else { return .success(nil) }
            if case .string(let text) = field { return .success(text) }
            if numbersAllowed, let text = field.textValue { return .success(text) }
            return .failure(FeedProblem(key: key, reason: "\(name) is a \(field.kindName), expected a string"))
        }
        do throws(FeedProblem) {
            return .success(FeedEntry(
                key: key,
                title: try text(FeedKey.title, numbersAllowed: false).get(),
                message: try text(FeedKey.message, numbersAllowed: false).get(),
                actionURL: try text(FeedKey.actionURL, numbersAllowed: false).get(),
                actionButton: try text(FeedKey.actionButton, numbersAllowed: false).get(),
                minVersion: try text(FeedKey.minVersion, numbersAllowed: true).get(),
                maxVersion: try text(FeedKey.maxVersion, numbersAllowed: true).get(),
                details: fields
            ))
        } catch {
            return .failure(error)
        }
    }
}
