import FoundationEssentials
import HeraldCore
import HeraldPublishing
import XCTest

/// The ids `herald feed add` gives: the UTC date, then zero-padded suffixes that sort after the
/// day's earlier ids under iNotify's case-insensitive order, never an id in use or retired.
final class MessageKeysTests: XCTestCase {
    /// 2026-11-22 23:30 in New York, already the 23rd in UTC.
    let lateEvening = Date(timeIntervalSince1970: 1_795_408_200)

    func testTheFirstMessageOfADayIsItsDateInUTC() {
        XCTAssertEqual(MessageKeys.day(of: Date(timeIntervalSince1970: 0)), "1970/01/01")
        XCTAssertEqual(MessageKeys.day(of: lateEvening), "2026/11/23")
        XCTAssertEqual(MessageKeys.next(on: lateEvening, taken: ["2026/11/22"]), "2026/11/23")
        XCTAssertEqual(MessageKeys.ledgerDate(of: Date(timeIntervalSince1970: 951_782_400)), "2000-02-29")
    }

    func testTheDaysLaterMessagesGetZeroPaddedSuffixesThatSortAfterTheEarlierOnes() {
        var taken: [String] = []
        for _ in 1...12 {
            taken.append(MessageKeys.next(on: lateEvening, taken: taken)!)
        }
        XCTAssertEqual(taken.prefix(3), ["2026/11/23", "2026/11/23-02", "2026/11/23-03"])
        XCTAssertEqual(taken.last, "2026/11/23-12")
        XCTAssertEqual(VersionComparison.caseInsensitiveOrder(of: taken), Array(taken.indices), "each id sorts after the ones before it")
    }

    func testARetiredIdIsNeverGivenOutAgainAndTheNextOneSortsAfterIt() {
        XCTAssertEqual(MessageKeys.next(on: lateEvening, taken: ["2026/11/23-02"]), "2026/11/23-03",
                       "the date alone would sort before the day's retired -02")
    }

    func testADayWhoseSuffixesAreUsedUpHasNoId() {
        XCTAssertNil(MessageKeys.next(on: lateEvening, taken: ["2026/11/23-99"]))
    }
}
