import FoundationEssentials
import HeraldCore

/// The publisher's side of the targeting keys: what `herald validate` says about them.
extension FeedValidation {
    /// The faults of a localised `Title`, `Message` or `ActionButton` (a dictionary keyed by
    /// language): values that are not text, names that are not language codes, and no `en`
    /// entry to fall back on.
    static func localisedTextFindings(id: String, key: String, texts: [String: FeedValue]) -> [FeedFinding] {
        var found: [FeedFinding] = []
        func add(_ kind: FeedFinding.Kind, _ sentence: String) {
            found.append(FeedFinding(id: id, key: key, kind: kind, sentence: sentence))
        }
        guard !texts.isEmpty else {
            add(.wrongType, "\(key) is an empty dictionary, not text per language")
            return found
        }
        for language in texts.keys.sorted() {
            if case .string = texts[language]! {} else {
                add(.wrongType, "\(key) for \(language) is \(shown(texts[language]!)), not a string: a check skips the message")
            }
            if !LocalisedText.isLanguageCode(language) {
                add(.unknownLanguage, "\(key): \"\(language)\" is not a language code such as de, pt_BR or zh_Hans, so no user's language picks it")
            }
        }
        let languages = texts.keys.filter { if case .string = texts[$0]! { true } else { false } }
        let fallback = LocalisedText.normalised(LocalisedText.fallbackLanguage)
        if !languages.contains(where: { LocalisedText.normalised($0) == fallback }), let first = LocalisedText.language(of: languages, for: []) {
            add(.noFallbackLanguage, "\(key) has no \(LocalisedText.fallbackLanguage) text: users whose language is not listed see the '\(first)' text")
        }
        return found
    }

    /// The faults of an entry's targeting keys, each key on its own, and the notes a publisher
    /// should read (an end already past, a critical urgency). A value Herald cannot read is
    /// reported with what a check does instead: never shows the message, reads the default, or
    /// ignores the key.
    static func targetingFindings(id: String, entry: FeedEntry, now: Date) -> [FeedFinding] {
        let fields = entry.details
        var found: [FeedFinding] = []
        func add(_ key: String, _ kind: FeedFinding.Kind, _ sentence: String) {
            found.append(FeedFinding(id: id, key: key, kind: kind, sentence: sentence))
        }
        for (key, date) in [(TargetingKey.startDate, entry.startDate), (TargetingKey.endDate, entry.endDate)] {
            guard case .unreadable? = date, let value = fields[key] else { continue }
            let what = if case .string(let text) = value {
                "\"\(text)\" is not an ISO 8601 date or date-time such as 2026-12-01 or 2026-12-01T09:00Z"
            } else {
                "is \(shown(value)), not a date"
            }
            add(key, .unreadableDate, "\(key) \(what): a check never shows the message")
        }
        if case .moment(let end)? = entry.endDate, let written = fields[TargetingKey.endDate].map(writtenDate) {
            if case .moment(let start)? = entry.startDate, end < start, let startWritten = fields[TargetingKey.startDate].map(writtenDate) {
                add(TargetingKey.endDate, .scheduleNeverMatches, "EndDate \(written) is before StartDate \(startWritten): the message can never show")
            } else if now > end {
                add(TargetingKey.endDate, .ended, "EndDate: ended on \(written): no user sees it")
            }
        }
        for (key, noun) in [(TargetingKey.languages, "language"), (TargetingKey.desktops, "desktop")] {
            guard let value = fields[key] else { continue }
            switch value {
            case .string, .array:
                let items = if case .array(let items) = value { items } else { [value] }
                for item in items where item.kindName != "string" {
                    add(key, .wrongType, "\(key) holds \(shown(item)), not a string: it is left out")
                }
                if FeedEntry.list(value)?.isEmpty == true {
                    add(key, .emptyAudience, "\(key) " + (items.isEmpty ? "is empty" : "names no \(noun)") + ": no user sees it")
                }
            default:
                add(key, .wrongType, "\(key) is \(shown(value)), not a string or an array of strings: every user sees the message")
            }
        }
        for language in entry.languages ?? [] where !LocalisedText.isLanguageCode(language) {
            add(TargetingKey.languages, .unknownLanguage,
                "Languages: \"\(language)\" is not a language code such as de, pt_BR or zh_Hans, so no user's language matches it")
        }
        // A number key's sentence says what Herald does instead; whether a number is one the key
        // takes is its reader's to say (`isRead`), and `refusal` only words why not.
        func number(_ key: String, isRead: Bool, wanted: String, instead: String, refusal: (Double) -> String = { _ in "" }) {
            guard let value = fields[key] else { return }
            guard let number = FeedEntry.number(value) else {
                return add(key, .wrongType, "\(key) is \(shown(value)), not \(wanted): \(instead)")
            }
            if !isRead { add(key, .outOfRange, "\(key) \(value.textValue!) \(refusal(number)): \(instead)") }
        }
        number(TargetingKey.rollout, isRead: entry.rollout != nil, wanted: "a number from 0 to 100",
               instead: "a check never shows the message") { _ in "is outside 0–100" }
        number(TargetingKey.priority, isRead: true, wanted: "a number", instead: "read as 0")
        number(TargetingKey.maxShows, isRead: entry.maxShows != nil, wanted: "a whole number of at least 1",
               instead: "ignored, so the message may show any number of times") {
            $0 >= 1 && $0.rounded() == $0 ? "is above \(Int32.max)" : "is not a whole number of at least 1"
        }
        number(TargetingKey.minDaysBetween, isRead: entry.minTimeBetweenShows != nil, wanted: "a number of days",
               instead: "ignored, so no time is kept between two showings") { $0 > 0 ? "is above 3650 days" : "is not above 0" }
        switch fields[TargetingKey.category] {
        case .string(let text)? where entry.categoryAsWritten == nil:
            let names = MessageCategory.allCases.map(\.rawValue)
            let meant = Spelling.nearest(to: NotificationText.trimmed(text), among: names).map { "; did you mean \($0)?" } ?? ""
            add(TargetingKey.category, .unknownCategory,
                "Category \"\(text)\" is not \(names.dropLast().joined(separator: ", ")) or \(names.last!): read as \(entry.category.rawValue)" + meant)
        case .string?, nil:
            break
        case let value?:
            add(TargetingKey.category, .wrongType, "Category is \(shown(value)), not a string: read as \(entry.category.rawValue)")
        }
        switch (fields[TargetingKey.urgency], entry.urgency) {
        case (nil, _), (.string?, .low?), (.string?, .normal?):
            break
        case (.string?, .critical?):
            let security = entry.categoryAsWritten == .security
                ? "; where it does, Category security lets the message pass the attention budget, never do-not-disturb" : ""
            add(TargetingKey.urgency, .criticalUrgency, "Urgency critical is shown as normal unless the app allows critical urgency" + security)
        case (.string(let text)?, nil):
            add(TargetingKey.urgency, .unknownUrgency, "Urgency \"\(text)\" is not low, normal or critical: the notification has normal urgency")
        case (let value?, _):
            add(TargetingKey.urgency, .wrongType, "Urgency is \(shown(value)), not a string: low, normal or critical")
        }
        switch fields[TargetingKey.icon] {
        case .string(let name)? where entry.icon == nil:
            add(TargetingKey.icon, .notAnIconName, "Icon \"\(name)\" \(iconFault(name)): only themed icon names are used, so the app's icon is shown")
        case .string?, nil:
            break
        case let value?:
            add(TargetingKey.icon, .wrongType, "Icon is \(shown(value)), not a string")
        }
        return found
    }

    /// Why a string is not a themed icon name, from the most telling fault.
    static func iconFault(_ name: String) -> String {
        let scheme = name.prefix { $0 != ":" }
        if scheme.count < name.count, !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && $0.isLetter }) { return "is a URL" }
        if name.contains("/") { return "is a path" }
        if name.contains(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0))) }) {
            return "has characters other than letters, digits, -, _ and ."
        }
        return "is not a themed icon name"
    }

    /// Why a check leaves a message out whatever the user answered and whoever the user is,
    /// or `nil` when some user may see it.
    ///
    /// A check's targeting depends on who runs it, so here it applies as for the user it
    /// suits best (a listed language and desktop, inside every rollout short of 0 %), and a
    /// start still to come is a schedule, not a reason. A finding that says the same thing
    /// better gives the sentence.
    static func exclusion(of entry: FeedEntry, appVersion: String?, rules: URLRules, now: Date, findings: [FeedFinding]) -> String? {
        var suited = entry
        if case .moment? = entry.startDate { suited.details[TargetingKey.startDate] = nil }
        var state = HeraldState()
        state.rolloutDraw = 0
        let configuration = CheckConfiguration(
            appVersion: appVersion, audience: Audience(languages: entry.languages ?? [], desktops: entry.desktops ?? []))
        func sentence(_ kinds: FeedFinding.Kind...) -> String? { findings.first { kinds.contains($0.kind) }?.sentence }
        let reason = CheckPolicy.exclusion(of: suited, state: state, claimant: nil,
                                           in: PolicyContext(configuration: configuration, now: now, urlRules: rules))
        switch reason {
        case nil: return sentence(.rangeNeverMatches, .scheduleNeverMatches)
        case .outsideRollout?: return "Rollout is 0: no install sees it"
        case .unreadableDate?, .ended?: return sentence(.unreadableDate, .scheduleNeverMatches, .ended) ?? reason?.description
        case .unreadableRollout?:
            return findings.first { $0.key == TargetingKey.rollout && [.wrongType, .outOfRange].contains($0.kind) }?.sentence ?? reason?.description
        case .otherLanguage?, .otherDesktop?: return sentence(.emptyAudience) ?? reason?.description
        default: return reason?.description
        }
    }

    /// Who sees a message and when, in a few words, or `nil` for a message without targeting
    /// keys: `[de, fr]  on GNOME, KDE  from 2026-12-01  until 2026-12-31  rollout 20 %  priority 5
    /// at most 3 shows  at least 7 days apart  category tip`.
    /// A date that cannot be read is left out: the listing says the message is not shown.
    static func targetingNote(of entry: FeedEntry) -> String? {
        var parts: [String] = []
        if let languages = entry.languages { parts.append("[\(languages.joined(separator: ", "))]") }
        if let desktops = entry.desktops { parts.append("on " + (desktops.isEmpty ? "no desktop" : desktops.joined(separator: ", "))) }
        if case .moment? = entry.startDate, let value = entry.details[TargetingKey.startDate] { parts.append("from \(writtenDate(value))") }
        if case .moment? = entry.endDate, let value = entry.details[TargetingKey.endDate] { parts.append("until \(writtenDate(value))") }
        if let share = entry.rollout { parts.append("rollout \(FeedValue.real(share).textValue!) %") }
        if entry.priority != 0 { parts.append("priority \(FeedValue.real(entry.priority).textValue!)") }
        if let shows = entry.maxShows { parts.append("at most \(shows) show" + (shows == 1 ? "" : "s")) }
        if entry.minTimeBetweenShows != nil, let days = entry.details[TargetingKey.minDaysBetween].flatMap(FeedEntry.number) {
            parts.append("at least \(FeedValue.real(days).textValue!) day" + (days == 1 ? "" : "s") + " apart")
        }
        if let category = entry.categoryAsWritten, category != .announcement { parts.append("category \(category.rawValue)") }
        return parts.isEmpty ? nil : parts.joined(separator: "  ")
    }

    /// A date as the publisher wrote it (`2026-12-01`), or a plist `<date>` in ISO 8601.
    static func writtenDate(_ value: FeedValue) -> String {
        switch value {
        case .string(let text): return NotificationText.trimmed(text)
        case .date(let date): return ISO8601Moment.text(date)
        default: return value.jsonText
        }
    }
}
