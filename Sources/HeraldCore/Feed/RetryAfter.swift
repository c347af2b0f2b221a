import FoundationEssentials

/// A feed server's request not to be asked again before a time: an HTTP 429 Too Many Requests
/// or 503 Service Unavailable with a `Retry-After` header (RFC 9110 §10.2.3), and the one
/// reader of that header.
///
/// The app's state keeps it with the failure (`HeraldState.FailureRecord.retryAfter`), so the
/// gate asks again no sooner; a success forgets it.
package struct RetryAfter: Codable, Sendable, Equatable {
    /// The server that asked: its host, with the port when the feed URL names one other than
    /// its scheme's own (`FeedFetcher.server(of:)`).
    package var host: String
    /// Not to be asked before this moment.
    package var until: Date

    /// Creates the request of `host`.
    package init(host: String, until: Date) {
        self.host = host
        self.until = until
    }

    /// The longest wait a server is granted: 7 days. A longer `Retry-After` (a typo, a server
    /// set up to mean "never") is read as this long, so one header cannot silence an app for
    /// good; a week outlasts any maintenance a feed server announces, and the backoff after it
    /// still spaces the retries.
    package static let longestWait: TimeInterval = 7 * secondsPerDay

    /// The moment a `Retry-After` value asks not to be asked before, or `nil` when it asks for
    /// no wait or cannot be read.
    ///
    /// The value is delta-seconds (`120`) or an HTTP-date in any of RFC 9110's three forms
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete `Sunday, 06-Nov-94 08:49:37 GMT` and
    /// `Sun Nov  6 08:49:37 1994`). Zero seconds or a date that is not after `now` is no wait;
    /// anything further than `longestWait` from `now` is `longestWait` away.
    package static func moment(fromHeader value: String, now: Date) -> Date? {
        let text = NotificationText.trimmed(value)
        let wait: TimeInterval
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            // Digits beyond what a Double holds exactly are still a wait longer than the cap.
            wait = Double(text) ?? .infinity
        } else if let date = httpDate(text, now: now) {
            wait = date.timeIntervalSince(now)
        } else {
            return nil
        }
        guard wait > 0 else { return nil }
        return now.addingTimeInterval(min(wait, longestWait))
    }

    /// An HTTP-date (RFC 9110 §5.6.7) in UTC, or `nil`. A two-digit year (the RFC 850 form) is
    /// the most recent year with those digits that is not more than 50 years after `now`.
    package static func httpDate(_ text: String, now: Date) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let year: Int, month: Int, day: Int, time: String
        switch words.count {
        case 6 where words[0].hasSuffix(",") && shortDays.contains(String(words[0].dropLast())) && words[5] == "GMT":
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard words[1].count == 2, let parsedDay = Int(words[1]), let parsedMonth = monthNumber(words[2]),
                  words[3].count == 4, let parsedYear = Int(words[3]) else { return nil }
            (year, month, day, time) = (parsedYear, parsedMonth, parsedDay, words[4])
        case 4 where words[0].hasSuffix(",") && longDays.contains(String(words[0].dropLast())) && words[3] == "GMT":
            // rfc850-date: Sunday, 06-Nov-94 08:49:37 GMT
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[0].count == 2, let parsedDay = Int(parts[0]), let parsedMonth = monthNumber(parts[1]),
                  parts[2].count == 2, let twoDigits = Int(parts[2]) else { return nil }
            let thisYear = ISO8601Moment.utcDay(of: now).year
            var century = thisYear - thisYear % 100 + twoDigits
            if century > thisYear + 50 { century -= 100 }
            (year, month, day, time) = (century, parsedMonth, parsedDay, words[2])
        case 5 where shortDays.contains(words[0]):
            // asctime-date: Sun Nov  6 08:49:37 1994
            guard let parsedMonth = monthNumber(words[1]), (1...2).contains(words[2].count), let parsedDay = Int(words[2]),
                  words[4].count == 4, let parsedYear = Int(words[4]) else { return nil }
            (year, month, day, time) = (parsedYear, parsedMonth, parsedDay, words[3])
        default:
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]) else { return nil }
        return ISO8601Moment.moment(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    private static let shortDays: Set<String> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays: Set<String> = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func monthNumber(_ name: String) -> Int? { months.firstIndex(of: name).map { $0 + 1 } }
}
