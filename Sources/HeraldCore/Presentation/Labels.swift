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
    /// The languages are the ones the targeting sees, read once by `Audience.languages(from:)`
    /// as gettext reads them: `LANGUAGE` (a colon-separated list) unless the locale is C or
    /// POSIX or unset, else `LC_ALL`, `LC_MESSAGES`, `LANG`.
    public static func forEnvironment(_ environment: [String: String]) -> Labels {
        forLanguages(Audience.languages(from: environment))
    }

    /// The labels for the first of the user's languages (in `Audience.languages`' form) that
    /// has shipped labels, English when none has: what a check shows beside its targeting's
    /// reading of the same languages.
    package static func forLanguages(_ languages: [String]) -> Labels {
        translations[languageCode(languages)] ?? english
    }

    /// The shipped language code chosen from the environment, "en" when none matches.
    public static func languageCode(_ environment: [String: String]) -> String {
        languageCode(Audience.languages(from: environment))
    }

    /// The first of the user's languages (in `Audience.languages`' form) that has shipped
    /// labels, "en" when none has.
    package static func languageCode(_ languages: [String]) -> String {
        languages.lazy.map(code(of:)).first { translations[$0] != nil } ?? "en"
    }

    private static func code(of language: String) -> String {
        String(language.prefix { $0.isLetter }).lowercased()
    }
}
