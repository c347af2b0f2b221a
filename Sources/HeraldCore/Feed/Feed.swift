import FoundationEssentials

/// One message of a feed: the dictionary stored under a message id.
///
/// Its parts live in one shared, copy-on-write box: a check copies entries while it orders
/// and plans them, and a copy then costs one reference count instead of one per string.
public struct FeedEntry: Sendable, Equatable {
    /// Where one of the known texts (title, message…) of an entry is.
    ///
    /// A text read as a string is not copied out of the entry's fields, only pointed at: a
    /// second copy of each string cost a retain when the entry was made and a release when
    /// it was freed.
    enum Text: Sendable {
        /// The entry has none.
        case none
        /// The string value of the field at this position of the entry's fields.
        case field(Int)
        /// A text of its own: one set, or one made from a number or from localised text.
        case own(String)

        /// The text for an optional string.
        init(_ text: String?) {
            if let text { self = .own(text) } else { self = .none }
        }
    }

    /// Where an entry's known texts are.
    struct Texts: Sendable {
        var title: Text
        var message: Text
        var actionURL: Text
        var actionButton: Text
        var minVersion: Text
        var maxVersion: Text
    }

    /// The parts of an entry; never changed while shared (see `parts`).
    private final class Parts: @unchecked Sendable {
        var key: String
        var texts: Texts
        /// The keys and values as written; replaced only after every `Text.field` has been
        /// made a text of its own (`setFields`).
        private(set) var fields: FeedFields

        init(key: String, texts: Texts, fields: consuming FeedFields) {
            self.key = key
            self.texts = texts
            self.fields = fields
        }

        func copy() -> Parts { Parts(key: key, texts: texts, fields: fields) }

        /// The string `text` stands for.
        func string(_ text: Text) -> String? {
            switch text {
            case .none: return nil
            case .own(let string): return string
            case .field(let position): return fields.text(at: position)
            }
        }

        /// Replaces the fields, keeping the known texts as they were.
        func setFields(_ newFields: FeedFields) {
            texts = Texts(
                title: Text(string(texts.title)), message: Text(string(texts.message)),
                actionURL: Text(string(texts.actionURL)), actionButton: Text(string(texts.actionButton)),
                minVersion: Text(string(texts.minVersion)), maxVersion: Text(string(texts.maxVersion)))
            fields = newFields
        }
    }

    private var storage: Parts

    /// The box, copied first when another entry shares it.
    private var parts: Parts {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// The message id (the feed's key for it), e.g. "2024/05/01".
    public var key: String {
        get { storage.key }
        set { parts.key = newValue }
    }
    /// The alert title (`Title`), if any.
    public var title: String? {
        get { storage.string(storage.texts.title) }
        set { parts.texts.title = Text(newValue) }
    }
    /// The body text (`Message`), if any.
    public var message: String? {
        get { storage.string(storage.texts.message) }
        set { parts.texts.message = Text(newValue) }
    }
    /// The link opened by the view action (`ActionURL`), as written in the feed.
    public var actionURL: String? {
        get { storage.string(storage.texts.actionURL) }
        set { parts.texts.actionURL = Text(newValue) }
    }
    /// The label of the view button (`ActionButton`), used only with an `ActionURL`.
    public var actionButton: String? {
        get { storage.string(storage.texts.actionButton) }
        set { parts.texts.actionButton = Text(newValue) }
    }
    /// The lowest app version that shows this message, inclusive (`MinVersion`).
    public var minVersion: String? {
        get { storage.string(storage.texts.minVersion) }
        set { parts.texts.minVersion = Text(newValue) }
    }
    /// The highest app version that shows this message, inclusive (`MaxVersion`).
    public var maxVersion: String? {
        get { storage.string(storage.texts.maxVersion) }
        set { parts.texts.maxVersion = Text(newValue) }
    }
    /// Every key of the entry as written, including keys Herald does not use.
    ///
    /// Made from the entry's fields each time it is read; Herald itself reads single keys
    /// (`field(_:)`).
    public var details: [String: FeedValue] {
        get { storage.fields.dictionary }
        set { parts.setFields(FeedFields(newValue)) }
    }

    /// The keys and values as written.
    var fields: FeedFields { storage.fields }

    /// The value of one key of the entry as written, without making `details`.
    public func field(_ name: String) -> FeedValue? { storage.fields[name] }

    /// Creates an entry from its parts; `details` defaults to the known keys.
    public init(
        key: String, title: String? = nil, message: String? = nil, actionURL: String? = nil,
        actionButton: String? = nil, minVersion: String? = nil, maxVersion: String? = nil,
        details: [String: FeedValue]? = nil
    ) {
        var fields: FeedFields
        if let details {
            fields = FeedFields(details)
        } else {
            fields = FeedFields(capacity: 6)
            fields[FeedKey.title] = title.map(FeedValue.string)
            fields[FeedKey.message] = message.map(FeedValue.string)
            fields[FeedKey.actionURL] = actionURL.map(FeedValue.string)
            fields[FeedKey.actionButton] = actionButton.map(FeedValue.string)
            fields[FeedKey.minVersion] = minVersion.map(FeedValue.string)
            fields[FeedKey.maxVersion] = maxVersion.map(FeedValue.string)
        }
        self.init(key: key, texts: Texts(
            title: Text(title), message: Text(message), actionURL: Text(actionURL), actionButton: Text(actionButton),
            minVersion: Text(minVersion), maxVersion: Text(maxVersion)), fields: fields)
    }

    /// Creates an entry from where its known texts are and the keys and values it was read
    /// from; a `Text.field` must name a position of `fields` that holds a string.
    init(key: String, texts: Texts, fields: consuming FeedFields) {
        storage = Parts(key: key, texts: texts, fields: fields)
    }

    /// Entries are equal when their parts are, whatever the order their keys were written in.
    public static func == (lhs: FeedEntry, rhs: FeedEntry) -> Bool {
        let left = lhs.storage, right = rhs.storage
        if left === right { return true }
        return left.key == right.key && left.string(left.texts.title) == right.string(right.texts.title)
            && left.string(left.texts.message) == right.string(right.texts.message)
            && left.string(left.texts.actionURL) == right.string(right.texts.actionURL)
            && left.string(left.texts.actionButton) == right.string(right.texts.actionButton)
            && left.string(left.texts.minVersion) == right.string(right.texts.minVersion)
            && left.string(left.texts.maxVersion) == right.string(right.texts.maxVersion)
            && left.fields.sameFields(as: right.fields)
    }
}

/// The keys an iNotify entry uses (case-sensitive, ORIGINALS.md §1.1).
package enum FeedKey {
    /// Alert title.
    package static let title = "Title"
    /// Body text.
    package static let message = "Message"
    /// Link for the view action.
    package static let actionURL = "ActionURL"
    /// Label for the view action.
    package static let actionButton = "ActionButton"
    /// Lowest app version, inclusive.
    package static let minVersion = "MinVersion"
    /// Highest app version, inclusive.
    package static let maxVersion = "MaxVersion"

    /// The keys whose value is text (a localised dictionary for all but `ActionURL`).
    package static let texts = [title, message, actionURL, actionButton]
    /// The app version bounds.
    package static let versions = [minVersion, maxVersion]
    /// Every key of iNotify's, in its order: the one list the decoder's readers, `herald feed
    /// add` and `herald validate` (through `TargetingKey.all`) take their keys from.
    package static let all = texts + versions
}

/// Something wrong with one entry of a feed; the entry is skipped, the others still count.
package struct FeedProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message id of the entry.
    package var key: String
    /// What is wrong, in one sentence.
    package var reason: String
    /// The entry's key whose value is wrong ("Title"), or `nil` when the entry as a whole is.
    package var field: String?

    /// Creates a problem report.
    package init(key: String, reason: String, field: String? = nil) {
        self.key = key
        self.reason = reason
        self.field = field
    }

    /// "'key': reason".
    package var description: String { "'\(key)': \(reason)" }
}

extension FeedProblem {
    /// Why a feed may not give a message the id `key`: `idRefusal`'s reason, or the id is one
    /// Herald keeps for the messages it makes itself (What's new, `WhatsNewPolicy.idPrefix`),
    /// which no publisher may answer for or withdraw.
    package static func feedIDRefusal(_ key: String) -> String? {
        if WhatsNewPolicy.isMessageID(key) {
            return "the message id begins with “\(WhatsNewPolicy.idPrefix)”, which Herald keeps for the What's new messages it makes itself"
        }
        return idRefusal(key)
    }

    /// Why a message id cannot be used, or `nil` when it can: an id holding a control character
    /// (NUL, a line break, an escape, C1) is refused as its entry's problem, at decode. Every
    /// path the id takes afterwards carries it whole: C, and so D-Bus, GNOME Shell's list and
    /// the agent, would cut it at a NUL, and two messages would share an id.
    package static func idRefusal(_ key: String) -> String? {
        // Printable ASCII, as nearly every id is, holds no control character.
        if key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        guard let control = key.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) else { return nil }
        return "the message id holds the control character U+\(JSONFeedReader.hex(control.value, width: 4)): "
            + "an id is text without control characters, so that every place it goes carries it whole"
    }
}

/// A decoded feed: its usable entries and the problems of the entries that were skipped.
public struct Feed: Sendable, Equatable {
    /// The usable entries, keyed by message id.
    public var entries: [String: FeedEntry]
    /// The entries that were skipped, with the reason.
    package var problems: [FeedProblem]
    /// The format the bytes were read as.
    package var format: FeedFormat
    /// The entries of the document that were read but are not usable (not a dictionary, or a
    /// known key of the wrong kind), keyed by message id.
    var skippedEntries: [String: FeedValue]
    /// `documentEntries` as set, when it was set rather than made from the entries.
    private var writtenDocumentEntries: [String: FeedValue]?

    /// Every entry of the document as it was written, usable or not, keyed by message id:
    /// what `FeedValidation` lints. An entry whose value could not be read at all (a lone
    /// surrogate, a number beyond a double) is only in `problems`.
    ///
    /// Made from `entries` and the skipped entries when it is read, so a check, which never
    /// reads it, does not build a second dictionary of the feed.
    package var documentEntries: [String: FeedValue] {
        get {
            if let writtenDocumentEntries { return writtenDocumentEntries }
            var all = skippedEntries
            all.reserveCapacity(entries.count + skippedEntries.count)
            for (key, entry) in entries { all[key] = .dictionary(entry.details) }
            return all
        }
        set { writtenDocumentEntries = newValue }
    }

    /// Creates a feed from entries (used by tests and by apps that build feeds in code).
    package init(entries: [FeedEntry], problems: [FeedProblem] = [], format: FeedFormat = .json) {
        self.entries = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.problems = problems
        self.format = format
        skippedEntries = [:]
    }

    /// Creates a feed from entries already keyed by their ids, and the document's entries that
    /// were read but skipped.
    init(keyed entries: [String: FeedEntry], problems: [FeedProblem], format: FeedFormat, skippedEntries: [String: FeedValue]) {
        self.entries = entries
        self.problems = problems
        self.format = format
        self.skippedEntries = skippedEntries
    }

    /// Feeds are equal when their entries, problems, format and document entries are.
    public static func == (lhs: Feed, rhs: Feed) -> Bool {
        lhs.entries == rhs.entries && lhs.problems == rhs.problems && lhs.format == rhs.format
            && lhs.documentEntries == rhs.documentEntries
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
    package var documentName: String {
        switch self {
        case .xmlPropertyList: return "XML property list"
        case .binaryPropertyList: return "binary property list"
        case .openStepPropertyList: return "OpenStep property list"
        case .json: return "JSON"
        }
    }
}
