/// The button labels, in the user's language (ORIGINALS.md §1.12, DESIGN.md D9).
public struct Labels: Sendable, Equatable {
    /// The only button of a message without ActionURL.
    public var ok: String
    /// The button that never shows the message again.
    public var ignore: String
    /// The button that puts the message off; an empty label hides the button.
    public var remind: String
    /// The view button's label when the feed gives no ActionButton.
    public var moreInfo: String

    /// Creates labels from explicit strings.
    public init(ok: String, ignore: String, remind: String, moreInfo: String) {
        self.ok = ok
        self.ignore = ignore
        self.remind = remind
        self.moreInfo = moreInfo
    }

    /// The shipped translations, by language code, as iNotify meant them (its en and fr
    /// files held NUL characters; these are the clean strings).
    public static let translations: [String: Labels] = [
        "en": Labels(ok: "OK", ignore: "Ignore", remind: "Remind Me Later", moreInfo: "More Info"),
        "fr": Labels(ok: "OK", ignore: "Ignorer", remind: "Me rappeler ultérieurement", moreInfo: "Plus d'info"),
        "de": Labels(ok: "OK", ignore: "Ignorieren", remind: "Mich später erinnern", moreInfo: "Mehr info"),
        "it": Labels(ok: "OK", ignore: "Ignora", remind: "Ricordamelo dopo", moreInfo: "Maggiori informazioni"),
        "es": Labels(ok: "OK", ignore: "Pasar", remind: "Recordarme más tarde", moreInfo: "Más información"),
        "ja": Labels(ok: "OK", ignore: "無視する", remind: "後で再度通知する。", moreInfo: "詳細を調べる"),
    ]

    /// English.
    public static let english = translations["en"]!

    /// The labels for the language the environment asks for, English when none is shipped.
    ///
    /// Follows gettext's order: `LANGUAGE` (a colon-separated list, first match wins) unless the
    /// locale is "C", then `LC_ALL`, `LC_MESSAGES`, `LANG`.
    public static func forEnvironment(_ environment: [String: String]) -> Labels {
        translations[languageCode(environment)] ?? english
    }

    /// The shipped language code chosen from the environment, "en" when none matches.
    public static func languageCode(_ environment: [String: String]) -> String {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        if let locale, locale == "C" || locale == "POSIX" { return "en" }
        if let list = environment["LANGUAGE"], !list.isEmpty {
            for item in list.split(separator: ":") where translations[code(of: item)] != nil {
                return code(of: item)
            }
        }
        if let locale, translations[code(of: locale[...])] != nil { return code(of: locale[...]) }
        return "en"
    }

    private static func code(of locale: Substring) -> String {
        String(locale.prefix { $0.isLetter }).lowercased()
    }
}
