import FoundationEssentials
import HeraldCore

/// A new message as `herald feed add` writes it: each key a publisher sets by hand, from the
/// words given on the command line, as the value a feed holds.
///
/// Nothing here decides whether a value is one Herald takes: `findings` runs the draft through
/// `FeedValidation`, the rules `herald validate` applies to a feed, so what one refuses the
/// other refuses too, in the same sentence.
package struct MessageDraft: Sendable, Equatable {
    /// The keys and values, as `FeedEntry.details` holds them.
    package private(set) var fields: [String: FeedValue] = [:]

    /// Why a language's text cannot join a key's texts.
    package struct Conflict: Error, Sendable, Equatable, CustomStringConvertible {
        /// One sentence for people.
        package var description: String
    }

    /// A draft with no keys.
    package init() {}

    /// Sets a text key (`Title`, `Message`, `ActionURL`, `ActionButton`, `MinVersion`,
    /// `MaxVersion`, `StartDate`, `EndDate`, `Urgency`, `Icon`, `Category`) to `text` as
    /// written, or leaves it out when `text` is `nil`.
    package mutating func set(_ key: String, text: String?) {
        guard let text else { return }
        if case .dictionary(var texts)? = fields[key] {
            // The text for every language is the one users of no listed language read.
            texts[LocalisedText.fallbackLanguage] = .string(text)
            fields[key] = .dictionary(texts)
        } else {
            fields[key] = .string(text)
        }
    }

    /// Sets a number key (`Rollout`, `Priority`, `MaxShows`, `MinDaysBetween`) from its text:
    /// a number `FeedEntry.number` reads is written as an integer when it is whole, else as a
    /// real; any other text is written as it is, for `findings` to say why it is refused.
    package mutating func set(_ key: String, number text: String?) {
        guard let text else { return }
        guard let number = FeedEntry.number(.string(text)) else {
            fields[key] = .string(text)
            return
        }
        fields[key] = Int(exactly: number).map(FeedValue.integer) ?? .real(number)
    }

    /// Sets a list key (`Languages`, `Desktops`) to `items`, or leaves it out when `items` is `nil`.
    package mutating func set(_ key: String, list items: [String]?) {
        guard let items else { return }
        fields[key] = .array(items.map(FeedValue.string))
    }

    /// Adds the text of one language to a localised key (`Title`, `Message`, `ActionButton`),
    /// which becomes a dictionary keyed by language; a plain text already set becomes its
    /// `en` entry (`LocalisedText.fallbackLanguage`), the text users of no listed language read.
    ///
    /// - Throws: `Conflict` when the key already has a text for that language.
    package mutating func set(_ key: String, text: String, for language: String) throws(Conflict) {
        var texts: [String: FeedValue]
        switch fields[key] {
        case .string(let plain)?: texts = [LocalisedText.fallbackLanguage: .string(plain)]
        case .dictionary(let dictionary)?: texts = dictionary
        default: texts = [:]
        }
        if let taken = texts.keys.first(where: { LocalisedText.normalised($0) == LocalisedText.normalised(language) }) {
            let why = taken == LocalisedText.fallbackLanguage && texts.count == 1
                ? "the plain \(key) is its \(taken) text, for users of no listed language"
                : "it already has a \(taken) text"
            throw Conflict(description: "\(key) for \(language) is given twice: \(why)")
        }
        texts[language] = .string(text)
        fields[key] = .dictionary(texts)
    }

    /// Every finding `herald validate` would report of this message in a feed, in its words.
    ///
    /// - Parameters:
    ///   - rules: which ActionURLs the app may offer.
    ///   - now: the moment an `EndDate` is compared with.
    package func findings(rules: URLRules, now: Date = Date()) -> [FeedFinding] {
        FeedValidation.entryFindings(id: "", value: .dictionary(fields), appVersion: nil, rules: rules, now: now)
    }

    /// The entry to add under `key`.
    package func entry(key: String) -> FeedEntry { FeedEntry(key: key, details: fields) }
}
