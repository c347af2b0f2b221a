import FoundationEssentials

/// Herald's one calendar and its one ISO 8601 reader and writer: the proleptic Gregorian
/// calendar at every year, as ISO 8601 defines it, in UTC.
///
/// Every date Herald reads or writes as text goes through here: feed schedules, property-list
/// `<date>`s, the state file, new message ids, signatures' expiry and the tool's output.
/// Foundation's `Date.ISO8601FormatStyle` is not used for text: it counts days before 1582 in
/// the Julian calendar, so its text and this reader's disagree there.
///
/// The reader is small and strict: `YYYY-MM-DD` (or an expanded year, `+10000-01-01`,
/// `-0044-03-15`), optionally `THH:MM`, `:SS`, a fraction, and
/// `Z` or `±HH:MM` (UTC when no offset is given).
package enum ISO8601Moment {
    /// A moment read from text, and whether the text named a day only; `nil` for text that is
    /// not in the form above or names no real day or time.
    package static func parse(_ text: String) -> (date: Date, dateOnly: Bool)? {
        var trimmed = NotificationText.trimmed(text)
        return trimmed.withUTF8(parse(bytes:))
    }

    /// `parse(_:)` of trimmed text's UTF-8 bytes.
    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> (date: Date, dateOnly: Bool)? {
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
        // A scalar, not a `Character`: its byte is a constant, where a character's ASCII value
        // is worked out at every call, and the state files' dates are read by the hundred.
        func expect(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
        // An expanded year, as `text(_:)` writes years outside 0…9999: a sign, then four or
        // more digits.
        let sign = expect("+") ? 1 : expect("-") ? -1 : 0
        var yearDigits = 4
        if sign != 0 {
            while index + yearDigits < bytes.count, yearDigits < 10, (0x30...0x39).contains(bytes[index + yearDigits]) { yearDigits += 1 }
        }
        guard let magnitude = digits(yearDigits) else { return nil }
        let year = sign < 0 ? -magnitude : magnitude
        guard expect("-"), let month = digits(2), expect("-"), let day = digits(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * secondsPerDay
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

    /// A moment in exactly the form `text(_:)` writes, `2026-01-31T12:00:00Z`: no offset, no
    /// fraction, no other separator; `nil` for any other text.
    package static func parseWritten(_ text: String) -> Date? {
        guard let parsed = parse(text), !parsed.dateOnly, parsed.date.timeIntervalSince1970.rounded(.down) == parsed.date.timeIntervalSince1970,
              Self.text(parsed.date) == text else { return nil }
        return parsed.date
    }

    /// A date as `Date.ISO8601FormatStyle` writes it by default, `2026-11-22T14:43:32Z`: UTC,
    /// whole seconds rounded down, in the proleptic Gregorian calendar that ISO 8601 and the
    /// date parser use, at every year (the format style counts days before 1582 in the Julian
    /// calendar, so `1500-06-15` would read back as `1500-06-05`). Years outside 0…9999 carry
    /// a sign and as many digits as they need (ISO 8601's expanded years).
    ///
    /// A date further than `writtenLimit` seconds from 1970 (some 31 million years, never a
    /// date a person means) is written as the limit on its side, and one that is not a number
    /// as 1970-01-01T00:00:00Z: the text is always in this form and always reads back.
    package static func text(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        appendText(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The moment `text(date)` names, as `parse(_:)` reads it back: the date clamped as `text`
    /// clamps it, down to the whole second.
    package static func written(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(writtenSeconds(date)))
    }

    /// The whole seconds since 1970 `text(date)` writes: the date clamped to `writtenLimit` on
    /// its side (one that is not a number as 0), rounded down.
    private static func writtenSeconds(_ date: Date) -> Int {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isNaN ? 0 : min(max(interval, -writtenLimit), writtenLimit)
        return Int(clamped.rounded(.down))
    }

    /// Appends `text(date)` to UTF-8 bytes, for a writer that gathers a whole file or line:
    /// ASCII digits, signs and separators only, so it never needs escaping in JSON.
    package static func appendText(_ date: Date, to bytes: inout [UInt8]) {
        let (days, time) = daysAndSeconds(writtenSeconds(date))
        let (year, month, day) = civil(daysSince1970: days)
        if year < 0 || year > 9999 { bytes.append(year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")) }
        func append(_ value: Int, digits count: Int, then separator: UInt8) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(0x30 + value / divisor % 10))
                divisor /= 10
            }
            bytes.append(separator)
        }
        var yearDigits = 1
        var rest = abs(year) / 10
        while rest > 0 { yearDigits += 1; rest /= 10 }
        append(abs(year), digits: max(4, yearDigits), then: UInt8(ascii: "-"))
        append(month, digits: 2, then: UInt8(ascii: "-"))
        append(day, digits: 2, then: UInt8(ascii: "T"))
        append(time / 3600, digits: 2, then: UInt8(ascii: ":"))
        append(time / 60 % 60, digits: 2, then: UInt8(ascii: ":"))
        append(time % 60, digits: 2, then: UInt8(ascii: "Z"))
    }

    /// Year, month and day of a date in UTC: the same day on every machine, whatever its time
    /// zone.
    package static func utcDay(of date: Date) -> (year: Int, month: Int, day: Int) {
        civil(daysSince1970: daysAndSeconds(Int(date.timeIntervalSince1970.rounded(.down))).days)
    }

    /// The furthest a written date is from 1970, in seconds: 1e15, some 31 million years.
    static let writtenLimit = 1e15

    /// Whole days since 1970-01-01 (rounded down, before 1970 too) and the seconds into the last.
    private static func daysAndSeconds(_ seconds: Int) -> (days: Int, time: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (days, seconds - days * 86_400)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// algorithm, the inverse of `daysFromCivil`).
    private static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
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

    /// How many days the month has in that year.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The moment of a day and a time of day in UTC, or `nil` when they name no real day or
    /// time: a month outside 1…12, a day the month does not have, an hour past 23, a minute past
    /// 59 or a second past 60 (a leap second). The readers of other forms (property lists'
    /// `<date>`, HTTP-dates) end here.
    package static func moment(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days) * secondsPerDay + Double(hour * 3600 + minute * 60 + second))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `JSONEncoder`'s dates as `text(_:)` writes them.
    package static let jsonEncoding: JSONEncoder.DateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(text(date))
    }

    /// `JSONDecoder`'s dates as `parse(_:)` reads them, a moment and not a bare day.
    package static let jsonDecoding: JSONDecoder.DateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = parse(text), !parsed.dateOnly else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 moment")
        }
        return parsed.date
    }
}
