/// Text a feed gives in several languages: `Title`, `Message` and `ActionButton` may be a
/// dictionary keyed by language (`{"en": "…", "de": "…", "pt_BR": "…"}`) instead of a string.
package enum LocalisedText {
    /// The language tried after the user's: the one most feeds are written in.
    package static let fallbackLanguage = "en"

    /// The text for `languages` (in order of preference, as `Audience.languages` lists them):
    /// a string is itself; a dictionary gives its entry for the first of `languages` it has,
    /// else `en`, else one in the same language for another region (`en_US` for `en_GB`; the
    /// first of those by name), else the entry whose language sorts first. Language names match whatever
    /// their case and whether `-` or `_` separates the region (`pt-br` is `pt_BR`). `nil` when
    /// there is no text.
    package static func resolve(_ value: FeedValue?, languages: [String]) -> String? {
        switch value {
        case .string(let text): return text
        case .dictionary(let texts):
            let strings = texts.compactMapValues { if case .string(let text) = $0 { text } else { nil } }
            return language(of: Array(strings.keys), for: languages).flatMap { strings[$0] }
        default: return nil
        }
    }

    /// Which of a dictionary's languages `resolve` picks for `languages`.
    package static func language(of available: [String], for languages: [String]) -> String? {
        let byName = Dictionary(available.map { (normalised($0), $0) }, uniquingKeysWith: { first, second in min(first, second) })
        let wanted = languages + [fallbackLanguage]
        for language in wanted {
            if let match = byName[normalised(language)] { return match }
        }
        func base(_ language: String) -> Substring { normalised(language).prefix { $0 != "_" } }
        for language in wanted {
            if let match = available.filter({ base($0) == base(language) }).min() { return match }
        }
        return available.min()
    }

    /// Whether a message for `listed` languages (`Languages`) is for a user of `languages`.
    /// A user whose locale names no language (C, POSIX) reads English.
    package static func matches(_ listed: [String], languages: [String]) -> Bool {
        let user = Set((languages.isEmpty ? [fallbackLanguage] : languages).map(normalised))
        return listed.contains { user.contains(normalised($0)) }
    }

    /// `pt-BR`, `pt_br`, `PT_BR` → `pt_br`: the form names are compared in.
    package static func normalised(_ language: String) -> String {
        language.replacing("-", with: "_").lowercased()
    }

    /// Whether a name is a language code as locales and gettext write them: a language of two
    /// or three letters, then optionally a script of four letters and a region of two letters
    /// or three digits, joined by `_` or `-` (`de`, `fil`, `pt_BR`, `zh-Hans`, `es_419`).
    package static func isLanguageCode(_ name: String) -> Bool {
        let parts = name.split(omittingEmptySubsequences: false) { $0 == "_" || $0 == "-" }
        func letters(_ part: Substring, _ counts: ClosedRange<Int>) -> Bool {
            counts.contains(part.count) && part.allSatisfy { $0.isASCII && $0.isLetter }
        }
        guard parts.count <= 3, letters(parts[0], 2...3) else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, letters(script, 4...4) { rest = rest.dropFirst() }
        guard let region = rest.first else { return true }
        return rest.count == 1 && (letters(region, 2...2) || (region.count == 3 && region.allSatisfy { $0.isASCII && $0.isNumber }))
    }
}

extension FeedEntry {
    /// The entry with its localised `Title`, `Message` and `ActionButton` resolved for
    /// `languages` (see `LocalisedText.resolve`); plain strings stay as they are.
    public func localised(to languages: [String]) -> FeedEntry {
        // The kinds are looked at where the values lie: a text left in the document is not
        // made a string only to learn that it is not a dictionary.
        var entry = self
        if fields.holdsDictionary(FeedKey.title) { entry.title = LocalisedText.resolve(field(FeedKey.title), languages: languages) }
        if fields.holdsDictionary(FeedKey.message) { entry.message = LocalisedText.resolve(field(FeedKey.message), languages: languages) }
        if fields.holdsDictionary(FeedKey.actionButton) {
            entry.actionButton = LocalisedText.resolve(field(FeedKey.actionButton), languages: languages)
        }
        return entry
    }
}
