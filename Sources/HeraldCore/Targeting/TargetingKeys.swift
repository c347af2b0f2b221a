import FoundationEssentials

/// The keys Herald adds to iNotify's, all optional: a feed without them behaves as iNotify's
/// does, and an iNotify client passes them through untouched (ORIGINALS.md §1.1).
package enum TargetingKey {
    /// Not shown before this date: a plist `<date>` or an ISO 8601 date or date-time string.
    package static let startDate = "StartDate"
    /// Not shown after this date; a date without a time means the end of that day (UTC).
    package static let endDate = "EndDate"
    /// Only users whose language is one of these see the message (`["de", "pt_BR"]`).
    package static let languages = "Languages"
    /// Only these `XDG_CURRENT_DESKTOP` values see the message (`["GNOME", "KDE"]`).
    package static let desktops = "Desktops"
    /// The share of installs, 0–100, that see the message.
    package static let rollout = "Rollout"
    /// Higher first when more messages are pending than one check shows. Default 0.
    package static let priority = "Priority"
    /// `low`, `normal` or `critical` (critical only where the app allows it).
    package static let urgency = "Urgency"
    /// A themed icon name for this message, in place of the app's.
    package static let icon = "Icon"

    /// Every key Herald reads, iNotify's first.
    package static let all = [FeedKey.title, FeedKey.message, FeedKey.actionURL, FeedKey.actionButton, FeedKey.minVersion,
                             FeedKey.maxVersion, startDate, endDate, languages, desktops, rollout, priority, urgency, icon]
}

/// How pressing a message is, as the notification spec's urgency hint says it.
package enum MessageUrgency: String, Sendable, Equatable, CaseIterable {
    /// Shown quietly; servers may not pop it up.
    case low
    /// The default.
    case normal
    /// Stays until answered; only for apps that allow it (`CheckConfiguration.allowsCriticalUrgency`).
    case critical
}

extension FeedEntry {
    /// When the message starts to show (`StartDate`); `.unreadable` when the value is not a date.
    package var startDate: FeedDate? { FeedDate(field(TargetingKey.startDate), endOfDay: false) }
    /// When the message stops showing (`EndDate`); a bare date lasts to the end of that day.
    package var endDate: FeedDate? { FeedDate(field(TargetingKey.endDate), endOfDay: true) }

    /// The languages the message is for (`Languages`), `nil` for everyone. A single string
    /// counts as a list of one.
    package var languages: [String]? { Self.list(field(TargetingKey.languages)) }
    /// The desktops the message is for (`Desktops`), `nil` for every desktop.
    package var desktops: [String]? { Self.list(field(TargetingKey.desktops)) }

    /// The share of installs that see the message (`Rollout`), a number from 0 to 100; `nil`
    /// when there is none, or none Herald can read (`hasUnreadableRollout`).
    package var rollout: Double? {
        guard let value = field(TargetingKey.rollout), let number = Self.number(value), (0...100).contains(number) else { return nil }
        return number
    }

    /// Whether `Rollout` is there but is not a number from 0 to 100 (`"5%"`, `"nan"`, `true`,
    /// `[5]`, `-5`, `150`): the message is kept back, as for a date Herald cannot read, since a
    /// share it cannot read is not one it may take for everyone.
    package var hasUnreadableRollout: Bool { field(TargetingKey.rollout) != nil && rollout == nil }

    /// The message's priority (`Priority`); 0 when absent or not a number.
    package var priority: Double { field(TargetingKey.priority).flatMap(Self.number) ?? 0 }

    /// The urgency the feed asks for (`Urgency`), `nil` when absent or unknown.
    package var urgency: MessageUrgency? {
        guard case .string(let text) = field(TargetingKey.urgency) else { return nil }
        return MessageUrgency(rawValue: text.lowercased())
    }

    /// The themed icon name for this message (`Icon`), when it is one: letters, digits, `-`,
    /// `_` and `.`, no path, so a feed cannot point the server at a file.
    package var icon: String? {
        guard case .string(let name) = field(TargetingKey.icon), !name.isEmpty, name.count <= 255,
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }),
              name.first != "."
        else { return nil }
        return name
    }

    package static func list(_ value: FeedValue?) -> [String]? {
        switch value {
        case .string(let text): return [text]
        case .array(let items): return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        default: return nil
        }
    }

    package static func number(_ value: FeedValue) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .real(let number): return number.isFinite ? number : nil
        case .string(let text): return Double(NotificationText.trimmed(text)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }
}

/// A `StartDate` or `EndDate` as read: a moment, or a value that is not a date.
package enum FeedDate: Sendable, Equatable {
    /// The moment the key names.
    case moment(Date)
    /// The value is there but no date can be read from it; the message is not shown (a
    /// schedule Herald cannot read is not a schedule it may ignore).
    case unreadable(String)

    /// Reads a value: a plist date, or an ISO 8601 string (`2026-12-01`, `2026-12-01T09:00Z`,
    /// `2026-12-01T09:00:00+01:00`; UTC unless it carries an offset). A bare date is the start
    /// of that day, or with `endOfDay` its last instant.
    init?(_ value: FeedValue?, endOfDay: Bool) {
        switch value {
        case nil: return nil
        case .date(let date): self = .moment(date)
        case .string(let text):
            guard let parsed = ISO8601Moment.parse(text) else {
                self = .unreadable(text)
                return
            }
            self = .moment(parsed.dateOnly && endOfDay ? parsed.date.addingTimeInterval(86_400 - 0.001) : parsed.date)
        case .some(let other): self = .unreadable(other.kindName)
        }
    }
}

/// A small, strict ISO 8601 reader: `YYYY-MM-DD`, optionally `THH:MM`, `:SS`, a fraction, and
/// `Z` or `±HH:MM` (UTC when no offset is given).
package enum ISO8601Moment {
    /// 1582-10-15T00:00:00Z, the Gregorian calendar's first day, in seconds since 1970.
    static let gregorianStart: Double = -12_219_292_800
    /// 10000-01-01T00:00:00Z, in seconds since 1970.
    static let afterYear9999: Double = 253_402_300_800

    static func parse(_ text: String) -> (date: Date, dateOnly: Bool)? {
        let bytes = Array(NotificationText.trimmed(text).utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        if index == bytes.count { return (Date(timeIntervalSince1970: seconds), true) }
        guard expect("T") || expect("t") || expect(" "), let hour = digits(2), expect(":"), let minute = digits(2),
              hour < 24, minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if expect(":") {
            guard let second = digits(2), second < 61 else { return nil }
            seconds += Double(second)
            if expect(".") || expect(",") {
                let start = index
                var fraction = 0.0, scale = 0.1
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    fraction += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
                seconds += fraction
            }
        }
        if expect("Z") || expect("z") {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "+") ? 1.0 : -1.0
            index += 1
            guard let hours = digits(2), hours < 24 else { return nil }
            // `+01`, `+0100` and `+01:00` are all ISO 8601.
            let colon = expect(":")
            let minutes = index < bytes.count || colon ? digits(2) : 0
            guard let minutes, minutes < 60 else { return nil }
            seconds -= sign * Double(hours * 3600 + minutes * 60)
        }
        guard index == bytes.count else { return nil }
        return (Date(timeIntervalSince1970: seconds), false)
    }

    /// A date as `Date.ISO8601FormatStyle` writes it by default, `2026-11-22T14:43:32Z`: UTC,
    /// whole seconds rounded down, in the proleptic Gregorian calendar that ISO 8601 and the
    /// date parser use, at every year (the format style counts days before 1582 in the Julian
    /// calendar, so `1500-06-15` would read back as `1500-06-05`). Years outside 0…9999 carry
    /// a sign and as many digits as they need (ISO 8601's expanded years).
    package static func text(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 1e15 else { return date.formatted(.iso8601) }
        let seconds = Int(interval.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = civil(daysSince1970: days)
        let time = seconds - days * 86_400
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        if year < 0 || year > 9999 { bytes.append(year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")) }
        func append(_ value: Int, digits count: Int, then separator: String) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(0x30 + value / divisor % 10))
                divisor /= 10
            }
            bytes.append(contentsOf: separator.utf8)
        }
        append(abs(year), digits: max(4, String(abs(year)).count), then: "-")
        append(month, digits: 2, then: "-")
        append(day, digits: 2, then: "T")
        append(time / 3600, digits: 2, then: ":")
        append(time / 60 % 60, digits: 2, then: ":")
        append(time % 60, digits: 2, then: "Z")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// algorithm, the inverse of `daysFromCivil`).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
