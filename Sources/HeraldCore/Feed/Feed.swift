import FoundationEssentials

/// One message of a feed: the dictionary stored under a message id.
public struct FeedEntry: Sendable, Equatable {
    /// The message id (the feed's key for it), e.g. "2024/05/01".
    public var key: String
    /// The alert title (`Title`), if any.
    public var title: String?
    /// The body text (`Message`), if any.
    public var message: String?
    /// The link opened by the view action (`ActionURL`), as written in the feed.
    public var actionURL: String?
    /// The label of the view button (`ActionButton`), used only with an `ActionURL`.
    public var actionButton: String?
    /// The lowest app version that shows this message, inclusive (`MinVersion`).
    public var minVersion: String?
    /// The highest app version that shows this message, inclusive (`MaxVersion`).
    public var maxVersion: String?
    /// Every key of the entry as written, including keys Herald does not use.
    public var details: [String: FeedValue]

    /// Creates an entry from its parts; `details` defaults to the known keys.
    public init(
        key: String, title: String? = nil, message: String? = nil, actionURL: String? = nil,
        actionButton: String? = nil, minVersion: String? = nil, maxVersion: String? = nil,
        details: [String: FeedValue]? = nil
    ) {
        self.key = key
        self.title = title
        self.message = message
        self.actionURL = actionURL
        self.actionButton = actionButton
        self.minVersion = minVersion
        self.maxVersion = maxVersion
        if let details {
            self.details = details
        } else {
            var known: [String: FeedValue] = [:]
            known[FeedKey.title] = title.map(FeedValue.string)
            known[FeedKey.message] = message.map(FeedValue.string)
            known[FeedKey.actionURL] = actionURL.map(FeedValue.string)
            known[FeedKey.actionButton] = actionButton.map(FeedValue.string)
            known[FeedKey.minVersion] = minVersion.map(FeedValue.string)
            known[FeedKey.maxVersion] = maxVersion.map(FeedValue.string)
            self.details = known
        }
    }
}

/// The keys an iNotify entry uses (case-sensitive, ORIGINALS.md §1.1).
public enum FeedKey {
    /// Alert title.
    public static let title = "Title"
    /// Body text.
    public static let message = "Message"
    /// Link for the view action.
    public static let actionURL = "ActionURL"
    /// Label for the view action.
    public static let actionButton = "ActionButton"
    /// Lowest app version, inclusive.
    public static let minVersion = "MinVersion"
    /// Highest app version, inclusive.
    public static let maxVersion = "MaxVersion"
}

/// Something wrong with one entry of a feed; the entry is skipped, the others still count.
public struct FeedProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message id of the entry.
    public var key: String
    /// What is wrong, in one sentence.
    public var reason: String
    /// The entry's key whose value is wrong ("Title"), or `nil` when the entry as a whole is.
    public var field: String?

    /// Creates a problem report.
    public init(key: String, reason: String, field: String? = nil) {
        self.key = key
        self.reason = reason
        self.field = field
    }

    /// "'key': reason".
    public var description: String { "'\(key)': \(reason)" }
}

/// A decoded feed: its usable entries and the problems of the entries that were skipped.
public struct Feed: Sendable, Equatable {
    /// The usable entries, keyed by message id.
    public var entries: [String: FeedEntry]
    /// The entries that were skipped, with the reason.
    public var problems: [FeedProblem]
    /// The format the bytes were read as.
    public var format: FeedFormat
    /// Every entry of the document as it was written, usable or not, keyed by message id:
    /// what `FeedValidation` lints. An entry whose value could not be read at all (a lone
    /// surrogate, a number beyond a double) is only in `problems`.
    ///
    /// The values are the ones `entries` hold in their `details`, so keeping them costs the
    /// root dictionary only, not a second copy of the feed.
    public var documentEntries: [String: FeedValue]

    /// Creates a feed from entries (used by tests and by apps that build feeds in code).
    public init(entries: [FeedEntry], problems: [FeedProblem] = [], format: FeedFormat = .json) {
        self.entries = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.problems = problems
        self.format = format
        documentEntries = self.entries.mapValues { .dictionary($0.details) }
    }

    /// Creates a feed from entries already keyed by their ids, and the document they came from.
    init(keyed entries: [String: FeedEntry], problems: [FeedProblem], format: FeedFormat, documentEntries: [String: FeedValue]) {
        self.entries = entries
        self.problems = problems
        self.format = format
        self.documentEntries = documentEntries
    }
}

/// The encodings a feed may come in, detected from its content (DESIGN.md D1).
public enum FeedFormat: String, Sendable, Equatable {
    /// An XML property list.
    case xmlPropertyList = "xml-plist"
    /// A binary property list (`bplist00`).
    case binaryPropertyList = "binary-plist"
    /// An old-style OpenStep property list.
    case openStepPropertyList = "openstep-plist"
    /// JSON with the same keys.
    case json
}

extension FeedFormat {
    /// The format's name for people: "XML property list", "JSON".
    public var documentName: String {
        switch self {
        case .xmlPropertyList: return "XML property list"
        case .binaryPropertyList: return "binary property list"
        case .openStepPropertyList: return "OpenStep property list"
        case .json: return "JSON"
        }
    }
}
