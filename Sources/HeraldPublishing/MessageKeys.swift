import FoundationEssentials
import HeraldCore

/// The ids `herald feed add` gives new messages: the day's date, `YYYY/MM/DD` in UTC, and for
/// the day's second message on, a two-digit suffix: `2026/11/22-02`, `2026/11/22-03`, … up to
/// `-99`.
///
/// iNotify shows the newest id first, in case-insensitive (not numeric) order, so a new id must
/// sort after every id of the same day already in the feed or retired: `2026/11/22` sorts
/// before `2026/11/22-02`, and zero-padding keeps `-10` after `-09`. An id a user answered is
/// never shown to that user again, so an id in the feed or in its retired ledger is never given
/// out again.
package enum MessageKeys {
    /// The largest suffix of one day.
    package static let lastSuffix = 99

    /// The day part of an id: `YYYY/MM/DD` of `date` in UTC.
    package static func day(of date: Date) -> String {
        let parts = ISO8601Moment.utcDay(of: date)
        return "\(pad(parts.year, 4))/\(pad(parts.month, 2))/\(pad(parts.day, 2))"
    }

    /// A date as the retired ledger writes it: `YYYY-MM-DD` in UTC.
    package static func ledgerDate(of date: Date) -> String {
        let parts = ISO8601Moment.utcDay(of: date)
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
    }

    /// The id for a new message on `date`, or `nil` when the day's suffixes are used up.
    ///
    /// - Parameter taken: the ids in the feed and the retired ones.
    package static func next(on date: Date, taken: some Sequence<String>) -> String? {
        let day = day(of: date)
        let foldedDay = day.lowercased()
        let sameDay = taken.filter { $0.lowercased().hasPrefix(foldedDay) }
        let candidates = [day] + (2...lastSuffix).map { "\(day)-\(pad($0, 2))" }
        return candidates.first { candidate in
            sameDay.allSatisfy { VersionComparison.caseInsensitive($0, candidate) == .ascending }
        }
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
