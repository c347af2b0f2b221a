/// Who this install is, as a feed's targeting keys see it: the user's languages and desktops.
///
/// A value, so the policy can be tested with any language and desktop; `Audience(environment:)`
/// reads them from a process's environment.
public struct Audience: Sendable, Equatable {
    /// The user's languages in order of preference, as gettext resolves them: each locale
    /// followed by its language alone (`pt_BR`, `pt`), without codeset or modifier.
    /// Empty for the C / POSIX locale, which reads as English.
    public var languages: [String]
    /// The desktops of `XDG_CURRENT_DESKTOP`, e.g. `["ubuntu", "GNOME"]`.
    public var desktops: [String]

    /// Creates an audience; `languages` are used as given (see `languages(from:)`).
    public init(languages: [String] = [], desktops: [String] = []) {
        self.languages = languages
        self.desktops = desktops
    }

    /// The audience of a process: languages from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG`
    /// as gettext reads them, desktops from `XDG_CURRENT_DESKTOP`.
    public init(environment: [String: String]) {
        self.init(languages: Self.languages(from: environment),
                  desktops: (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map(String.init))
    }

    /// The most languages kept, 32: far more than anyone lists, and a bound on what a long
    /// `LANGUAGE` costs at every check's start and on the URLs a `{lang}` feed asks.
    public static let languageLimit = 32

    /// The languages gettext would try, in order, the first `languageLimit` of them. The locale
    /// comes from the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set; `LANGUAGE`, a
    /// colon-separated list, takes precedence unless that locale is C or POSIX (gettext ignores
    /// it then).
    public static func languages(from environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let base = normalised(locale)
        guard let base else { return [] }
        var expanded: [String] = []
        var seen: Set<String> = []
        func add(_ name: String) {
            for candidate in [name, String(name.prefix { $0 != "_" })] where expanded.count < languageLimit && seen.insert(candidate).inserted {
                expanded.append(candidate)
            }
        }
        for entry in (environment["LANGUAGE"] ?? "").split(separator: ":") {
            guard expanded.count < languageLimit else { break }
            if let name = normalised(String(entry)) { add(name) }
        }
        if expanded.isEmpty { add(base) }
        return expanded
    }

    /// `pt_BR.UTF-8@euro` → `pt_BR`; `nil` for C, POSIX or nothing.
    package static func normalised(_ locale: String) -> String? {
        // Byte by byte: the first use of the string-processing library's generic `replacing`
        // costs every check's start-up tens of microseconds.
        let name = String(decoding: locale.utf8.prefix { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "@") }
            .map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "_") : $0 }, as: UTF8.self)
        if name.isEmpty || name == "C" || name == "POSIX" { return nil }
        return name
    }
}
