/// A feed URL that holds `{lang}` (`https://example.com/messages.{lang}.plist`): one file per
/// language on the server, and the user's asked for first.
///
/// Herald fills in each of the user's languages in gettext's order (`de_AT`, then `de`), moving
/// on when the server answers 404, and after the last asks the URL with `{lang}` taken out
/// (`fallback(of:)`). These are the pure parts: which URLs, in which order.
package enum LanguageFeedURL {
    /// The placeholder, as written in a feed URL.
    package static let placeholder = "{lang}"
    /// The placeholder percent-encoded, as a path turned into a `file:` URL carries it.
    static let encodedPlaceholder = "%7blang%7d"

    /// Whether a feed URL holds the placeholder, written out or percent-encoded.
    package static func isTemplate(_ url: String) -> Bool {
        !placeholders(in: url).isEmpty
    }

    /// The URLs to ask, in order: `template` with each of `languages` that is a language code
    /// (`Audience.languages` order), then `fallback(of:)`; none twice. A URL without the
    /// placeholder is its own only candidate.
    ///
    /// Names that are not language codes (`LANGUAGE=../x`) are passed over: whatever the
    /// environment holds, the URLs asked differ from the publisher's only by a language.
    package static func candidates(for template: String, languages: [String]) -> [String] {
        guard isTemplate(template) else { return [template] }
        var urls: [String] = []
        var seen: Set<String> = []
        for url in usable(languages).map({ filled(template, with: $0) }) + [fallback(of: template)] where seen.insert(url).inserted {
            urls.append(url)
        }
        return urls
    }

    /// The languages of `languages` that may fill the placeholder: language codes only, in
    /// order, at most `Audience.languageLimit` of them.
    package static func usable(_ languages: [String]) -> [String] {
        Array(languages.lazy.filter(LocalisedText.isLanguageCode).prefix(Audience.languageLimit))
    }

    /// `template` with every placeholder replaced by `language`, as the locale names it (`pt_BR`).
    package static func filled(_ template: String, with language: String) -> String {
        var url = template
        for range in placeholders(in: template).reversed() { url.replaceSubrange(range, with: language) }
        return url
    }

    /// The URL asked after every language: `template` without the placeholder and the
    /// separator that joins it to the rest.
    ///
    /// - After `.`, `-` or `_`, that character goes: `messages.{lang}.plist` → `messages.plist`.
    /// - A whole path segment goes with its `/`: `/{lang}/feed.plist` → `/feed.plist`.
    /// - At the start of a segment or host name, the `.`, `-` or `_` after it goes:
    ///   `/{lang}-feed.plist` → `/feed.plist`, `https://{lang}.example.com/` → `https://example.com/`.
    /// - A query parameter whose value is the placeholder goes whole, with its `&` (or the `?`
    ///   when it was the only one): `feed.plist?lang={lang}&v=2` → `feed.plist?v=2`. An empty
    ///   `lang=` would ask the server for a language named nothing; without the parameter it
    ///   gives its default, as a file without the language does.
    package static func fallback(of template: String) -> String {
        var url = template
        for range in placeholders(in: template).reversed() { url.replaceSubrange(removal(of: range, in: template), with: "") }
        return url
    }

    /// Where each placeholder is in `url`, in order; the encoded form matches in any case.
    static func placeholders(in url: String) -> [Range<String.Index>] {
        // Nearly every URL has neither `{` nor `%`: those are answered without the walk below,
        // which lowercases a slice at every character (it runs at every check, before the fetch).
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "%") }) else { return [] }
        var found: [Range<String.Index>] = []
        var index = url.startIndex
        while index < url.endIndex {
            let rest = url[index...]
            if rest.hasPrefix(placeholder) {
                let end = url.index(index, offsetBy: placeholder.count)
                found.append(index..<end)
                index = end
            } else if rest.prefix(encodedPlaceholder.count).lowercased() == encodedPlaceholder {
                let end = url.index(index, offsetBy: encodedPlaceholder.count)
                found.append(index..<end)
                index = end
            } else {
                index = url.index(after: index)
            }
        }
        return found
    }

    /// What goes with the placeholder at `range` in the fallback URL (see `fallback(of:)`).
    static func removal(of range: Range<String.Index>, in url: String) -> Range<String.Index> {
        let before = range.lowerBound > url.startIndex ? url[url.index(before: range.lowerBound)] : nil
        let after = range.upperBound < url.endIndex ? url[range.upperBound] : nil
        let joiners: Set<Character> = [".", "-", "_"]
        if let query = url.firstIndex(of: "?"), query < range.lowerBound, before == "=", after == nil || after == "&" || after == "#" {
            let start = url[query..<range.lowerBound].lastIndex { $0 == "&" || $0 == "?" }!
            // `?lang={lang}&v=2` keeps its `?` for the parameter that follows; `?lang={lang}` loses it.
            if url[start] == "?", after == "&" { return url.index(after: start)..<url.index(after: range.upperBound) }
            return start..<range.upperBound
        }
        if let before, joiners.contains(before) { return url.index(before: range.lowerBound)..<range.upperBound }
        guard before == "/" || before == nil else { return range }
        if let after, joiners.contains(after) { return range.lowerBound..<url.index(after: range.upperBound) }
        guard before == "/" else { return range }
        let slash = url.index(before: range.lowerBound)
        let wholeSegment = after == nil || after == "/" || after == "?" || after == "#"
        let afterAuthority = slash > url.startIndex && url[url.index(before: slash)] == "/"
        return wholeSegment && !afterAuthority ? slash..<range.upperBound : range
    }
}
