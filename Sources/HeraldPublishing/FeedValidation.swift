import FoundationEssentials
import HeraldCore

/// One fault of a feed that its publisher should fix, found by `FeedValidation`.
package struct FeedFinding: Sendable, Equatable, CustomStringConvertible {
    /// What kind of fault it is: a stable name for scripts (`herald validate --json`).
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A known key holds a value of the wrong kind (a number Title): a check skips the message.
        case wrongType = "wrong-type"
        /// A value could not be read at all (a lone surrogate, a number beyond a double).
        case unreadableValue = "unreadable-value"
        /// An iNotify client crashes on it: an entry that is not a dictionary, a number
        /// MinVersion or MaxVersion (ORIGINALS.md §1.6, §1.7).
        case crashesINotify = "crashes-inotify"
        /// A MinVersion or MaxVersion that is not dotted numbers, so it compares in ways its
        /// writer did not mean.
        case unparseableVersion = "unparseable-version"
        /// MinVersion above MaxVersion, or an empty MaxVersion: no app version can match.
        case rangeNeverMatches = "range-never-matches"
        /// An unknown key one typo away from a known one ("Titel").
        case misspeltKey = "misspelt-key"
        /// An ActionURL that Herald refuses to offer.
        case unsafeLink = "unsafe-link"
        /// An ActionButton without an ActionURL, which is never shown.
        case buttonWithoutLink = "button-without-link"
        /// Neither Title nor Message: the notification has nothing to say.
        case noText = "no-text"
        /// Two ids that differ only in case, whose order is arbitrary.
        case duplicateID = "duplicate-id"
        /// An id that does not sort by date where the other ids are dates.
        case idOutOfDateOrder = "id-out-of-date-order"
        /// The `--app-version` asked about would not see the message.
        case hiddenFromVersion = "hidden-from-version"
        /// The id was retired (`herald feed remove`): clients that answered it never show it again.
        case retiredID = "retired-id"
        /// A `StartDate` or `EndDate` that is not a date: a check never shows the message.
        case unreadableDate = "unreadable-date"
        /// An `EndDate` before its `StartDate`: the message can never show.
        case scheduleNeverMatches = "schedule-never-matches"
        /// An `EndDate` already past (a note): no user sees the message any more.
        case ended
        /// A localised text without an `en` entry, so other users get whichever sorts first.
        case noFallbackLanguage = "no-fallback-language"
        /// A language name that is not a language code (`de`, `pt_BR`, `zh_Hans`).
        case unknownLanguage = "unknown-language"
        /// An empty `Languages` or `Desktops` list: no user sees the message.
        case emptyAudience = "empty-audience"
        /// A number its key does not take: a `Rollout` outside 0–100 (a check never shows the
        /// message), a `MaxShows` that is not a whole number of at least 1 or a `MinDaysBetween`
        /// not above 0 or above 3650 (the key is ignored).
        case outOfRange = "out-of-range"
        /// An `Urgency` that is not `low`, `normal` or `critical`.
        case unknownUrgency = "unknown-urgency"
        /// A `Category` that is not one of `MessageCategory`'s: read as `promotion`, the most restrictive.
        case unknownCategory = "unknown-category"
        /// `Urgency` critical (a note): shown as normal unless the app allows critical urgency.
        case criticalUrgency = "critical-urgency"
        /// An `Icon` that is a path, a URL or not a themed icon name: the app's icon is shown.
        case notAnIconName = "not-an-icon-name"
        /// A URL written in the Message: GNOME Shell makes it clickable outside Herald's link
        /// rules, and a click on it records no answer; a link belongs in ActionURL.
        case linkInText = "link-in-text"

        /// How much it matters: the one place each kind is weighed, for `herald validate`'s
        /// exit status and for the values `herald feed add` refuses.
        package var severity: Severity {
            switch self {
            // A check never shows the message, or a value is refused: Herald does not take the
            // key as written (it skips the message, reads a default, or ignores the key).
            case .wrongType, .unreadableValue, .crashesINotify, .unparseableVersion, .rangeNeverMatches, .unsafeLink,
                 .retiredID, .unreadableDate, .scheduleNeverMatches, .unknownLanguage, .emptyAudience, .outOfRange,
                 .unknownUrgency, .unknownCategory, .notAnIconName:
                return .error
            // Every value is taken, but the message is not what its writer meant, or reads
            // worse than it could.
            case .misspeltKey, .buttonWithoutLink, .noText, .duplicateID, .idOutOfDateOrder, .hiddenFromVersion,
                 .noFallbackLanguage, .linkInText:
                return .warning
            case .ended, .criticalUrgency:
                return .note
            }
        }
    }

    /// How much a finding matters, from most to least.
    package enum Severity: String, Sendable, Equatable, CaseIterable {
        /// A message a check never shows, or a value Herald does not take as written:
        /// `herald validate` fails (exit 65) and `herald feed add` refuses it.
        case error
        /// A fault to fix that leaves every value taken: `herald validate` fails on it only
        /// with `--strict`.
        case warning
        /// Not a fault: it tells what users will see (an end already past, a critical
        /// urgency). It does not mark the message, and `--strict` lets it pass.
        case note
    }

    /// The message id of the entry.
    package var id: String
    /// The entry's key the fault is about ("Title", "Titel"), or `nil` for the entry as a whole.
    package var key: String?
    /// What kind of fault it is.
    package var kind: Kind
    /// What is wrong, in one sentence that starts with the key when there is one.
    package var sentence: String
    /// How much it matters (`Kind.severity`).
    package var severity: Severity { kind.severity }

    /// Creates a finding.
    package init(id: String, key: String?, kind: Kind, sentence: String) {
        self.id = id
        self.key = key
        self.kind = kind
        self.sentence = sentence
    }

    /// "'id': sentence".
    package var description: String { "'\(id)': \(sentence)" }
}

/// One message of a feed as a publisher's listing shows it, usable or not.
package struct ListedMessage: Sendable, Equatable {
    /// The message id.
    package var id: String
    /// The entry as it was written.
    package var value: FeedValue
    /// Why a check would leave it out whatever the user answered before, or `nil` when a check
    /// may show it.
    package var notShown: String?
    /// Whether any finding that is not a note is about it.
    package var hasFindings: Bool
    /// A short note of who sees it and when, for a message with targeting keys:
    /// `[de, fr]  on GNOME  from 2026-12-01  until 2026-12-31  rollout 20 %  priority 5`.
    package var targeting: String?

    /// A field of the entry as text (a string, or a number as iNotify's port reads it).
    package func text(_ key: String) -> String? {
        guard case .dictionary(let fields) = value else { return nil }
        return fields[key]?.textValue
    }

    /// A text field as a user without a listed language reads it: a string, or a localised
    /// dictionary's fallback (`en`, else the language that sorts first).
    package func fallbackText(_ key: String) -> String? {
        guard case .dictionary(let fields) = value else { return nil }
        return LocalisedText.resolve(fields[key], languages: [])
    }

    /// A field of the entry when it is a string.
    package func string(_ key: String) -> String? {
        guard case .dictionary(let fields) = value, case .string(let text)? = fields[key] else { return nil }
        return text
    }
}

/// What `FeedValidation` found in a feed.
package struct FeedReport: Sendable, Equatable {
    /// Every message in the order checks show them (newest first, or by `Priority` when the
    /// feed gives one), those with faults included.
    package var messages: [ListedMessage]
    /// Every finding, in the order of `messages`.
    package var findings: [FeedFinding]
    /// Whether `messages` are ordered by `Priority` first.
    package var byPriority = false

    /// The findings that are faults to fix: errors and warnings, in the order of `messages`.
    package var problems: [FeedFinding] { findings.filter { $0.severity != .note } }
    /// The findings that are errors: a message a check never shows, or a value refused.
    package var errors: [FeedFinding] { findings.filter { $0.severity == .error } }
    /// The findings that are warnings: faults that leave every value taken.
    package var warnings: [FeedFinding] { findings.filter { $0.severity == .warning } }
    /// The findings that are notes (`FeedFinding.Severity.note`).
    package var notes: [FeedFinding] { findings.filter { $0.severity == .note } }
}

/// A publisher's check of a feed: what users will see, and every fault, in one run.
///
/// The decoder a check uses stops at the first wrong value of an entry and skips it; this
/// walks every entry as it was written (`Feed.documentEntries`) and reports each fault on its
/// own, so a publisher fixes the feed in one pass. It never changes what a check accepts.
package enum FeedValidation {
    /// The keys an entry uses; an unknown key close to one of them is reported.
    static let knownKeys = TargetingKey.all

    /// Lists a feed's messages and finds every fault.
    ///
    /// - Parameters:
    ///   - appVersion: when given, messages this version would not see are reported too.
    ///   - rules: which ActionURLs the app may offer.
    ///   - now: the moment an `EndDate` is compared with.
    package static func report(for feed: Feed, appVersion: String?, rules: URLRules, now: Date = Date()) -> FeedReport {
        // Made once: the feed makes it from its entries each time it is read.
        let documentEntries = feed.documentEntries
        let unreadable = Dictionary(feed.problems.filter { documentEntries[$0.key] == nil }.map { ($0.key, $0) },
                                    uniquingKeysWith: { first, _ in first })
        let ids = Array(documentEntries.keys) + unreadable.keys
        let newestFirst = VersionComparison.caseInsensitiveOrder(of: ids).reversed().map { ids[$0] }
        let displayOrder = CheckPolicy.byPriority(newestFirst.map { id in
            guard case .dictionary(let fields)? = documentEntries[id] else { return FeedEntry(key: id, details: [:]) }
            return FeedEntry(key: id, details: fields)
        }).map(\.key)
        var messages: [ListedMessage] = []
        var findings: [FeedFinding] = []
        let shared = idFindings(newestFirst)
        for id in displayOrder {
            var found: [FeedFinding]
            var notShown: String?
            let value: FeedValue
            if let problem = unreadable[id] {
                value = .null
                found = [FeedFinding(id: id, key: problem.field, kind: .unreadableValue, sentence: problem.reason)]
                notShown = problem.reason
            } else {
                value = documentEntries[id]!
                found = entryFindings(id: id, value: value, appVersion: appVersion, rules: rules, now: now)
                switch FeedDecoder.entry(key: id, value: value) {
                case .failure(let problem):
                    notShown = problem.reason
                case .success(let entry):
                    notShown = exclusion(of: entry, appVersion: appVersion, rules: rules, now: now, findings: found)
                }
            }
            found += shared[id] ?? []
            var listed = ListedMessage(id: id, value: value, notShown: notShown, hasFindings: found.contains { $0.severity != .note })
            if case .dictionary(let fields) = value { listed.targeting = targetingNote(of: FeedEntry(key: id, details: fields)) }
            messages.append(listed)
            findings += found
        }
        return FeedReport(messages: messages, findings: findings, byPriority: displayOrder != newestFirst)
    }

    /// The faults of one entry, each key on its own.
    static func entryFindings(id: String, value: FeedValue, appVersion: String?, rules: URLRules, now: Date) -> [FeedFinding] {
        guard case .dictionary(let fields) = value else {
            return [FeedFinding(id: id, key: nil, kind: .crashesINotify,
                                sentence: "the entry is \(value.kindPhrase), not a dictionary: an iNotify client crashes on it, and Herald skips it")]
        }
        var found: [FeedFinding] = []
        func add(_ key: String?, _ kind: FeedFinding.Kind, _ sentence: String) {
            found.append(FeedFinding(id: id, key: key, kind: kind, sentence: sentence))
        }
        for key in FeedKey.texts {
            guard let field = fields[key] else { continue }
            if case .dictionary(let texts) = field, key != FeedKey.actionURL {
                found += localisedTextFindings(id: id, key: key, texts: texts)
            } else if field.kindName != "string" {
                add(key, .wrongType, "\(key) is \(shown(field)), not a string")
            }
        }
        var versions: [String: String] = [:]
        for key in FeedKey.versions {
            guard let field = fields[key] else { continue }
            switch field {
            case .string(let text):
                versions[key] = text
                if let problem = versionProblem(text, bound: key) { add(key, .unparseableVersion, problem) }
            case .integer, .real:
                versions[key] = field.textValue
                add(key, .crashesINotify,
                    "\(key) is \(shown(field)), not a string: an iNotify client crashes on it (Herald reads it as \"\(field.textValue!)\"; write the string, \"1.10\" and 1.1 differ)")
            default:
                add(key, .wrongType, "\(key) is \(shown(field)), not a string")
            }
        }
        if let minimum = versions[FeedKey.minVersion], let maximum = versions[FeedKey.maxVersion],
           VersionComparison.numeric(minimum, maximum) == .descending {
            add(FeedKey.minVersion, .rangeNeverMatches, "MinVersion \(minimum) is above MaxVersion \(maximum): no version can match")
        }
        if versions[FeedKey.maxVersion] == "" {
            add(FeedKey.maxVersion, .rangeNeverMatches, "MaxVersion is empty, which excludes every app with a version")
        }
        for key in fields.keys.sorted() where !knownKeys.contains(key) {
            if let meant = nearestKnownKey(to: key) {
                add(key, .misspeltKey, "\(key): did you mean \(meant)?" + (key.lowercased() == meant.lowercased() ? " Keys are case-sensitive." : ""))
            }
        }
        if case .string(let url)? = fields[FeedKey.actionURL], let refusal = rules.actionURLRefusal(url) {
            add(FeedKey.actionURL, .unsafeLink, "ActionURL will be refused: \(refusal)")
        }
        let messages: [String]
        switch fields[FeedKey.message] {
        case .string(let text)?: messages = [text]
        case .dictionary(let texts)?: messages = texts.keys.sorted().compactMap { if case .string(let text)? = texts[$0] { text } else { nil } }
        default: messages = []
        }
        if let link = messages.lazy.compactMap(Self.link(in:)).first {
            add(FeedKey.message, .linkInText, """
                Message contains the link \(link): GNOME Shell makes it clickable outside Herald's link rules, and a click \
                on it records no answer; put the link in ActionURL
                """)
        }
        if fields[FeedKey.actionButton] != nil, fields[FeedKey.actionURL] == nil {
            add(FeedKey.actionButton, .buttonWithoutLink, "ActionButton has no effect without ActionURL")
        }
        func isText(_ key: String) -> Bool {
            if case .string(let text)? = fields[key] { return !text.isEmpty }
            return fields[key] != nil && fields[key]?.kindName != "string"
        }
        if !isText(FeedKey.title), !isText(FeedKey.message) {
            add(nil, .noText, "has neither Title nor Message")
        }
        found += targetingFindings(id: id, entry: FeedEntry(key: id, details: fields), now: now)
        if let version = appVersion {
            if let minimum = versions[FeedKey.minVersion], VersionComparison.numeric(version, minimum) == .ascending {
                add(FeedKey.minVersion, .hiddenFromVersion, "not shown to version \(version): below MinVersion \(minimum)")
            }
            if let maximum = versions[FeedKey.maxVersion], VersionComparison.numeric(version, maximum) == .descending {
                add(FeedKey.maxVersion, .hiddenFromVersion, "not shown to version \(version): above MaxVersion \(maximum)")
            }
        }
        return found
    }

    /// The first word of a text that a desktop would take for a link (`scheme://…` or `www.…`),
    /// as GNOME Shell finds links in a notification's body.
    static func link(in text: String) -> String? {
        // A word taken for a link holds "://" or begins with "www.": a text that holds neither
        // (most messages) is not split into words, whose Unicode properties cost most of a
        // validation of a long feed.
        guard mayHoldLink(text) else { return nil }
        for word in text.split(whereSeparator: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }) {
            let lower = word.lowercased()
            if lower.hasPrefix("www."), lower.count > 4 { return String(word) }
            guard let separator = lower.firstRange(of: "://") else { continue }
            let scheme = lower[..<separator.lowerBound].drop { !$0.isLetter }
            if let first = scheme.first, first.isLetter, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
               separator.upperBound < lower.endIndex {
                return String(word[word.index(word.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: scheme.startIndex))...])
            }
        }
        return nil
    }

    /// Whether `text` holds "://" or "www." in any case, without which `link(in:)` finds none.
    private static func mayHoldLink(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 3 else { return false }
            for index in 0..<bytes.count - 2 {
                let byte = bytes[index]
                if byte == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") { return true }
                if index + 3 < bytes.count, byte | 0x20 == UInt8(ascii: "w"), bytes[index + 1] | 0x20 == UInt8(ascii: "w"), bytes[index + 2] | 0x20 == UInt8(ascii: "w"),
                   bytes[index + 3] == UInt8(ascii: ".") {
                    return true
                }
            }
            return false
        }
    }

    /// A value for a sentence: "an integer (3)", "an array", "null".
    static func shown(_ value: FeedValue) -> String {
        switch value {
        case .null:
            return "null"
        case .integer, .real, .bool:
            return "\(value.kindPhrase) (\(value.jsonText))"
        case .string(let text):
            return "a string (\(text))"
        default:
            return value.kindPhrase
        }
    }

    // MARK: - Versions

    /// What a version bound that is not dotted numbers does, or `nil` when it is dotted
    /// numbers (or empty, which `MaxVersion` reports on its own). iNotify compares it anyway,
    /// character by character where it is not digits (ORIGINALS.md §1.7), so the sentence says
    /// which apps see the message.
    static func versionProblem(_ version: String, bound: String) -> String? {
        guard !version.isEmpty, !isDottedNumbers(version) else { return nil }
        let isMinimum = bound == FeedKey.minVersion
        let lead = "\(bound) \"\(version)\" is not dotted numbers such as 1.2"
        let prefix = dottedPrefix(of: version)
        if !prefix.isEmpty {
            // The numbers it starts with compare equal, and the rest makes it the longer: above.
            return "\(lead): it compares above \(prefix), so app version \(prefix) "
                + (isMinimum ? "does not see this message" : "still sees this message")
        }
        let first = version.utf16.first!
        let aboveDigits = first > UInt16(UInt8(ascii: "9"))
        let relation = aboveDigits ? "below" : "above"
        let effect = aboveDigits == isMinimum ? "no such app sees this message" : "it sets no \(isMinimum ? "lower" : "upper") bound for them"
        return "\(lead): it compares character by character, and every version that starts with a digit is \(relation) it, so \(effect)"
    }

    /// Whether a version is digits separated by single dots: "1", "1.10.2".
    static func isDottedNumbers(_ version: String) -> Bool {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }

    /// The dotted numbers a version starts with: "1.0" of "1.0-beta", "" of "v1".
    private static func dottedPrefix(of version: String) -> String {
        var prefix = ""
        var part = ""
        for character in version {
            if character.isASCII, character.isNumber {
                part.append(character)
            } else if character == ".", !part.isEmpty {
                prefix += (prefix.isEmpty ? "" : ".") + part
                part = ""
            } else {
                break
            }
        }
        if !part.isEmpty { prefix += (prefix.isEmpty ? "" : ".") + part }
        return prefix
    }

    // MARK: - Keys

    /// The known key an unknown one was probably meant to be (`Spelling.nearest`).
    static func nearestKnownKey(to key: String) -> String? {
        Spelling.nearest(to: key, among: knownKeys)
    }

    // MARK: - Ids

    /// The faults of ids against each other: ids that differ only in case, and ids that do not
    /// sort by date where most ids are dates.
    static func idFindings(_ newestFirst: [String]) -> [String: [FeedFinding]] {
        var found: [String: [FeedFinding]] = [:]
        func add(_ id: String, _ kind: FeedFinding.Kind, _ sentence: String) {
            found[id, default: []].append(FeedFinding(id: id, key: nil, kind: kind, sentence: sentence))
        }
        var seen: [String: String] = [:]
        for id in newestFirst.reversed() {
            let folded = id.lowercased()
            if let other = seen[folded] {
                add(id, .duplicateID, "differs from '\(other)' only in case: their order is arbitrary")
            }
            seen[folded] = id
        }
        let dates = newestFirst.map { MessageDate(id: $0) }
        let dated = dates.compactMap { $0 }
        // Only a feed whose ids are mostly dates sorts by date; others may use any ids.
        guard dated.count >= 2, dated.count * 2 > newestFirst.count else { return found }
        for (index, id) in newestFirst.enumerated() {
            guard let date = dates[index] else {
                let example = dated[0].id
                let place = index == 0 ? "so it sorts after every date and shows first, as the newest"
                    : index == newestFirst.count - 1 ? "so it sorts before every date and shows last, as the oldest"
                    : "so it sorts by its characters among them"
                add(id, .idOutOfDateOrder, "the message id is not a date as the others are (such as \(example)), \(place)")
                continue
            }
            if !date.isRealDate {
                let why = (1...12).contains(date.month) ? "month \(date.month) of \(date.year) has no day \(date.day)" : "there is no month \(date.month)"
                add(id, .idOutOfDateOrder, "the message id is not a real date: \(why)")
            } else if !date.isZeroPadded {
                let misplaced = dated.first { other in
                    other.isRealDate && (other.ordinal < date.ordinal) != (VersionComparison.caseInsensitive(other.id, id) == .ascending)
                        && other.ordinal != date.ordinal
                }
                let consequence = misplaced.map { ", so it sorts as \($0.ordinal < date.ordinal ? "older" : "newer") than \($0.id)" } ?? ""
                add(id, .idOutOfDateOrder,
                    "the message id is not zero-padded: ids sort by their characters, not as dates\(consequence); write \(date.padded)")
            }
        }
        return found
    }
}

/// A message id that reads as a date: `YYYY/MM/DD` with `/`, `-` or `.` between the parts, or
/// `YYYYMMDD`, and anything after it (a suffix for a second message that day).
struct MessageDate {
    let id: String
    let year: Int
    let month: Int
    let day: Int
    let isZeroPadded: Bool
    /// The id with month and day zero-padded.
    let padded: String

    init?(id: String) {
        self.id = id
        let characters = Array(id)
        var index = 0
        func digits(max: Int) -> String {
            var out = ""
            while index < characters.count, out.count < max, characters[index].isASCII, characters[index].isNumber {
                out.append(characters[index])
                index += 1
            }
            return out
        }
        let yearText = digits(max: 4)
        guard yearText.count == 4, index < characters.count else { return nil }
        let separator = characters[index]
        if separator.isASCII, separator.isNumber {
            let monthText = digits(max: 2), dayText = digits(max: 2)
            guard monthText.count == 2, dayText.count == 2, index == characters.count || !(characters[index].isNumber) else { return nil }
            (year, month, day) = (Int(yearText)!, Int(monthText)!, Int(dayText)!)
            isZeroPadded = true
            padded = id
            return
        }
        guard "/-.".contains(separator) else { return nil }
        index += 1
        let monthText = digits(max: 2)
        guard !monthText.isEmpty, index < characters.count, characters[index] == separator else { return nil }
        index += 1
        let dayText = digits(max: 2)
        guard !dayText.isEmpty, index == characters.count || !characters[index].isNumber else { return nil }
        (year, month, day) = (Int(yearText)!, Int(monthText)!, Int(dayText)!)
        isZeroPadded = monthText.count == 2 && dayText.count == 2
        let rest = String(characters[index...])
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        padded = yearText + String(separator) + two(month) + String(separator) + two(day) + rest
    }

    /// Whether the month has such a day, in the Gregorian calendar.
    var isRealDate: Bool {
        (1...12).contains(month) && day >= 1 && day <= ISO8601Moment.daysIn(month: month, year: year)
    }

    /// A number that orders dates.
    var ordinal: Int { (year * 100 + month) * 100 + day }
}
