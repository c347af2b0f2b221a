/// The release versions of an app's AppStream metainfo (`metainfo/ID.metainfo.xml`, formerly
/// `appdata/ID.appdata.xml`): where a registration that gives no `Version` finds the installed
/// version, as software centres show it.
///
/// A small reader, not an XML parser: it reads only the `version` attribute (quoted with `"` or
/// `'`) of each `<release>` start tag inside the first `<releases>` element, and passes over
/// comments, CDATA sections, processing instructions and declarations, so a release commented out
/// is not counted. Anything else in the file is not looked at; a file it cannot follow gives the
/// versions read up to there.
package enum AppStreamReleases {
    /// The versions of the `<release>` elements, in the order written.
    package static func versions(in text: String) -> [String] {
        var versions: [String] = []
        var rest = Substring(text)
        var inReleases = false
        while let open = rest.firstIndex(of: "<") {
            rest = rest[open...]
            if let skipped = skipOver(&rest) {
                guard skipped else { break }
                continue
            }
            guard let tag = startOrEndTag(&rest) else { break }
            switch (tag.closing, tag.name) {
            case (false, "releases"):
                if tag.empty { return versions }
                inReleases = true
            case (true, "releases") where inReleases:
                return versions
            case (false, "release") where inReleases:
                if let version = attribute("version", in: tag.attributes), !version.isEmpty { versions.append(version) }
            default:
                break
            }
        }
        return versions
    }

    /// The newest of `versions(in:)` by the comparison a feed's `MinVersion` and `MaxVersion`
    /// are held against (`VersionComparison.numeric`), so that the version found selects
    /// messages as the same version given by hand would; `nil` when there is none.
    package static func newestVersion(in text: String) -> String? {
        versions(in: text).reduce(nil) { newest, version in
            guard let newest else { return version }
            return VersionComparison.numeric(version, newest) == .descending ? version : newest
        }
    }

    /// Moves past a comment, CDATA section, processing instruction or declaration at the start
    /// of `rest`: `true` when one was passed over, `false` when one never ends, `nil` when
    /// `rest` starts with a tag instead.
    private static func skipOver(_ rest: inout Substring) -> Bool? {
        let ends: [(start: String, end: String)] = [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">")]
        guard let (_, end) = ends.first(where: { rest.hasPrefix($0.start) }) else { return nil }
        guard let range = rest.firstRange(of: end) else { return false }
        rest = rest[range.upperBound...]
        return true
    }

    /// The tag at the start of `rest` (which starts with `<`), moving past it; `nil` when it
    /// never ends. A `>` within a quoted attribute value does not end it.
    private static func startOrEndTag(_ rest: inout Substring) -> (name: Substring, closing: Bool, empty: Bool, attributes: Substring)? {
        var quote: Character?
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex {
            let character = rest[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ">" {
                break
            }
            index = rest.index(after: index)
        }
        guard index < rest.endIndex else { return nil }
        var inside = rest[rest.index(after: rest.startIndex)..<index]
        rest = rest[rest.index(after: index)...]
        let closing = inside.first == "/"
        if closing { inside = inside.dropFirst() }
        let empty = inside.last == "/"
        if empty { inside = inside.dropLast() }
        let name = inside.prefix { !$0.isWhitespace }
        return (name, closing, empty, inside[name.endIndex...])
    }

    /// The value of the attribute `name` among a tag's attributes, quoted with `"` or `'`.
    private static func attribute(_ name: String, in attributes: Substring) -> String? {
        var rest = attributes
        while true {
            rest = rest.drop { $0.isWhitespace }
            let key = rest.prefix { $0 != "=" && !$0.isWhitespace }
            guard !key.isEmpty else { return nil }
            rest = rest[key.endIndex...].drop { $0.isWhitespace }
            guard rest.first == "=" else { return nil }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { return nil }
            if key == name { return String(rest[..<close]) }
            rest = rest[rest.index(after: close)...]
        }
    }
}
