import FoundationEssentials

/// The releases of an app's AppStream metainfo (`metainfo/ID.metainfo.xml`, also spelt
/// `metainfo/ID.appdata.xml` or, formerly, `appdata/ID.appdata.xml`): where a registration that
/// gives no `Version` finds the installed version, as software centres show it, and where
/// "What's new" finds the notes of the releases a person has not seen (`notes`).
///
/// A small reader, not an XML parser: it reads the `version` and `type` attributes (quoted with
/// `"` or `'`) of each `<release>` start tag inside the first `<releases>` element, and the
/// paragraphs and list items of each release's `<description>`; it passes over comments,
/// processing instructions and declarations, so a release commented out is not counted.
/// Anything else in the file is not looked at; a file it cannot follow gives the releases read
/// up to there. Development releases (`type="development"`) are not counted: a software centre
/// does not offer them as the installed version, and their notes are not a stable release's.
package enum AppStreamReleases {
    /// The largest metainfo file read, 1 MiB: far more than any app's.
    package static let sizeLimit = 1 << 20

    /// One `<release>` of the metainfo.
    package struct Release: Sendable, Equatable {
        /// Its `version` attribute.
        package var version: String
        /// Whether its `type` is `development`.
        package var isDevelopment: Bool
        /// Its `<description>` elements, the untranslated one and each translated one (`xml:lang`).
        package var descriptions: [Description]
    }

    /// One `<description>` of a release: its language and what it says.
    package struct Description: Sendable, Equatable {
        /// Its `xml:lang`, `nil` for the untranslated one.
        package var language: String?
        /// Its paragraphs and list items, in the order written.
        package var blocks: [Block]
    }

    /// A paragraph (`<p>`) or list item (`<li>` of a `<ul>` or `<ol>`) of a description, with its
    /// text: inline markup (`<em>`, `<code>`) read as its text, white space collapsed.
    package struct Block: Sendable, Equatable {
        /// Whether it is a list item rather than a paragraph.
        package var isItem: Bool
        /// Its own `xml:lang`, or its description's; `nil` when untranslated.
        package var language: String?
        /// Its text.
        package var text: String
    }

    /// The versions of the releases that are not development releases, in the order written.
    package static func versions(in text: String) -> [String] {
        releases(in: text).filter { !$0.isDevelopment }.map(\.version)
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

    /// The notes of the releases after `lastSeen` up to `running` (both by
    /// `VersionComparison.numeric`, as `MinVersion` compares), newest first, for a person of
    /// `languages`: each release's version as a heading line, then its paragraphs each on a line
    /// and its list items as "• " lines; releases apart by an empty line. A release without a
    /// description is left out; `nil` when no release has notes.
    ///
    /// Each paragraph or list item is read in the person's language where it is translated
    /// (chosen as a feed's localised text is, `LocalisedText`), else untranslated.
    package static func notes(in text: String, after lastSeen: String, upTo running: String, languages: [String]) -> String? {
        let unseen = releases(in: text).filter { release in
            !release.isDevelopment && VersionComparison.numeric(release.version, lastSeen) == .descending
                && VersionComparison.numeric(release.version, running) != .descending
        }
        let newestFirst = unseen.enumerated().sorted { left, right in
            switch VersionComparison.numeric(left.element.version, right.element.version) {
            case .descending: return true
            case .ascending: return false
            case .same: return left.offset < right.offset
            }
        }.map(\.element)
        let sections = newestFirst.compactMap { release -> String? in
            let lines = lines(of: release, languages: languages)
            return lines.isEmpty ? nil : ([release.version] + lines).joined(separator: "\n")
        }
        return sections.isEmpty ? nil : sections.joined(separator: "\n\n")
    }

    /// A release's notes as lines, in the person's language where they are translated.
    private static func lines(of release: Release, languages: [String]) -> [String] {
        // A whole description may be translated, or each paragraph and item within one.
        let byLanguage = Dictionary(release.descriptions.map { ($0.language, $0) }, uniquingKeysWith: { first, _ in first })
        guard let chosen = pick(from: byLanguage, languages: languages) else { return [] }
        // A block in the description's own language starts a group; the translations that
        // follow it (their own `xml:lang`) join the group.
        var groups: [[String?: Block]] = []
        for block in chosen.blocks {
            if block.language == chosen.language || groups.isEmpty {
                groups.append([block.language: block])
            } else if groups[groups.count - 1][block.language] == nil {
                groups[groups.count - 1][block.language] = block
            }
        }
        return groups.compactMap { pick(from: $0, languages: languages) }.filter { !$0.text.isEmpty }
            .map { $0.isItem ? "• " + $0.text : $0.text }
    }

    /// The variant for `languages`, as `LocalisedText` picks a feed's localised text, the
    /// untranslated one standing for English (AppStream's source language) unless an English
    /// translation is there.
    private static func pick<Variant>(from variants: [String?: Variant], languages: [String]) -> Variant? {
        var named: [String: Variant] = [:]
        for case let (language?, variant) in variants { named[language] = variant }
        if let untranslated = variants[nil], named[LocalisedText.fallbackLanguage] == nil {
            named[LocalisedText.fallbackLanguage] = untranslated
        }
        return LocalisedText.language(of: Array(named.keys), for: languages).flatMap { named[$0] }
    }

    /// Where the metainfo of `appID` may be in one data folder, in the order looked at: its
    /// name today, the old name in today's folder, the old name in the old folder.
    package static func files(appID: String, in dataFolder: String) -> [String] {
        [dataFolder + "/metainfo/" + appID + ".metainfo.xml", dataFolder + "/metainfo/" + appID + ".appdata.xml",
         dataFolder + "/appdata/" + appID + ".appdata.xml"]
    }

    /// The metainfo of `appID`, the first found in `dataFolders` (in XDG order: the data home
    /// first): its text and its file; `nil` when there is none.
    package static func read(appID: String, dataFolders: [String]) throws(FileError) -> (text: String, file: String)? {
        for dataFolder in dataFolders {
            for file in files(appID: appID, in: dataFolder) {
                // A link is followed, as a package may link its files.
                guard let bytes = try RegularFile.read(file, limit: sizeLimit, followingLinks: true) else { continue }
                return (String(decoding: bytes, as: UTF8.self), file)
            }
        }
        return nil
    }

    /// The releases of the first `<releases>` element, in the order written; a release without
    /// a version is left out.
    package static func releases(in text: String) -> [Release] {
        var releases: [Release] = []
        var release: Release?
        var description: Description?
        var block: Block?
        var rest = Substring(text)
        var inReleases = false
        func endBlock() {
            guard let ended = block else { return }
            block = nil
            let text = ended.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            description?.blocks.append(Block(isItem: ended.isItem, language: ended.language, text: text))
        }
        func endDescription() {
            endBlock()
            if let ended = description { release?.descriptions.append(ended) }
            description = nil
        }
        func endRelease() {
            endDescription()
            if let ended = release, !ended.version.isEmpty { releases.append(ended) }
            release = nil
        }
        while let open = rest.firstIndex(of: "<") {
            if block != nil { block?.text += resolvingReferences(rest[..<open]) }
            rest = rest[open...]
            if block != nil, rest.hasPrefix("<![CDATA["), let end = rest.firstRange(of: "]]>") {
                block?.text += rest[rest.index(rest.startIndex, offsetBy: 9)..<end.lowerBound]
                rest = rest[end.upperBound...]
                continue
            }
            if let skipped = skipOver(&rest) {
                guard skipped else { break }
                continue
            }
            guard let tag = startOrEndTag(&rest) else { break }
            switch (tag.closing, tag.name) {
            case (false, "releases"):
                if tag.empty { return releases }
                inReleases = true
            case (true, "releases") where inReleases:
                endRelease()
                return releases
            case (false, "release") where inReleases:
                endRelease()
                let started = Release(version: attribute("version", in: tag.attributes) ?? "",
                                      isDevelopment: attribute("type", in: tag.attributes) == "development", descriptions: [])
                if tag.empty { release = started; endRelease() } else { release = started }
            case (true, "release") where inReleases:
                endRelease()
            case (false, "description") where release != nil && !tag.empty:
                endDescription()
                description = Description(language: attribute("xml:lang", in: tag.attributes), blocks: [])
            case (true, "description") where release != nil:
                endDescription()
            case (false, "p"), (false, "li"):
                guard description != nil, !tag.empty else { break }
                endBlock()
                block = Block(isItem: tag.name == "li", language: attribute("xml:lang", in: tag.attributes) ?? description?.language, text: "")
            case (true, "p"), (true, "li"):
                endBlock()
            default:
                break
            }
        }
        endRelease()
        return releases
    }

    /// XML's character and entity references in `text` resolved: the five named entities,
    /// `&#NN;` and `&#xHH;`. A reference it cannot resolve stays as written.
    private static func resolvingReferences(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = rest.dropFirst()
                continue
            }
            let name = rest[rest.index(after: rest.startIndex)..<semicolon]
            let named: [Substring: Character] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            var resolved = named[name]
            if resolved == nil, name.first == "#" {
                let digits = name.dropFirst()
                let value = digits.first == "x" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                resolved = value.flatMap(Unicode.Scalar.init).map(Character.init)
            }
            if let resolved {
                out.append(resolved)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                out += "&"
                rest = rest.dropFirst()
            }
        }
        return out + rest
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
