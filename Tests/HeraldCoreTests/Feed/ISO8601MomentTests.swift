import Foundation
@testable import HeraldCore
import XCTest

/// Herald writes dates in its messages and files as `Date.ISO8601FormatStyle` writes them by
/// default, without setting up the calendar that style needs; from the Gregorian calendar's
/// first day to year 9999 the style is the oracle. Before it, the style counts in the Julian
/// calendar, and Herald keeps to the proleptic Gregorian calendar its date parser reads.
final class ISO8601MomentTests: XCTestCase {
    /// 1582-10-15T00:00:00Z, the Gregorian calendar's first day.
    static let gregorianStart: Double = -12_219_292_800
    /// 10000-01-01T00:00:00Z, in seconds since 1970.
    static let afterYear9999: Double = 253_402_300_800

    func testDatesAreWrittenAsTheISO8601FormatStyleWritesThem() {
        var generator = SystemRandomNumberGenerator()
        var dates = [0, 0.999_999, 59.5, 86_399.999, 951_782_400, 1_798_761_599.75, 4_107_542_400, 253_402_300_799.9,
                     -0.001, -86_400, Self.gregorianStart]
            .map { Date(timeIntervalSince1970: $0) }
        dates += (0..<20_000).map { _ in Date(timeIntervalSince1970: Double.random(in: Self.gregorianStart..<253_402_300_800, using: &generator)) }
        for date in dates {
            XCTAssertEqual(ISO8601Moment.text(date), date.formatted(.iso8601), "\(date.timeIntervalSince1970)")
        }
    }

    func testDatesBeforeTheGregorianCalendarAreWrittenInItAsTheyAreRead() throws {
        let read = try XCTUnwrap(ISO8601Moment.parse("1500-06-15"))
        XCTAssertEqual(ISO8601Moment.text(read.date), "1500-06-15T00:00:00Z")
        XCTAssertEqual(ISO8601Moment.text(Date(timeIntervalSince1970: Self.gregorianStart - 1)), "1582-10-14T23:59:59Z")
        XCTAssertEqual(ISO8601Moment.text(Date(timeIntervalSince1970: -62_135_596_800)), "0001-01-01T00:00:00Z")
        XCTAssertEqual(ISO8601Moment.text(Date(timeIntervalSince1970: -62_135_596_801)), "0000-12-31T23:59:59Z")
        XCTAssertEqual(ISO8601Moment.text(Date(timeIntervalSince1970: 253_402_300_800)), "+10000-01-01T00:00:00Z")
        for seconds in stride(from: -62_135_596_800.0, to: Self.gregorianStart, by: 7_654_321.5) {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(try XCTUnwrap(ISO8601Moment.parse(ISO8601Moment.text(date))).date, Date(timeIntervalSince1970: seconds.rounded(.down)))
        }
    }

    func testAWrittenDateReadsBackAsItsWholeSecond() throws {
        for seconds in stride(from: 0.0, to: 4e9, by: 9_876_543.21) {
            let date = Date(timeIntervalSince1970: seconds)
            let read = try XCTUnwrap(ISO8601Moment.parse(ISO8601Moment.text(date)))
            XCTAssertEqual(read.date, Date(timeIntervalSince1970: seconds.rounded(.down)))
            XCTAssertFalse(read.dateOnly)
        }
    }

    /// Whatever the writer writes, the reader reads back, expanded years (before 0 and after
    /// 9999) among them.
    func testEveryWrittenDateReadsBackAsItsWholeSecond() throws {
        for seconds in stride(from: -1e13, to: 1e13, by: 98_765_432.1) {
            let date = Date(timeIntervalSince1970: seconds)
            let text = ISO8601Moment.text(date)
            XCTAssertEqual(ISO8601Moment.parse(text)?.date, Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)), text)
        }
    }

    /// A date too far from 1970 for any calendar a person uses, or not a number, is still
    /// written in the one form, and reads back.
    func testDatesBeyondTheWrittenRangeAreWrittenInTheOneForm() throws {
        let limit = ISO8601Moment.text(Date(timeIntervalSince1970: 1e15))
        let negativeLimit = ISO8601Moment.text(Date(timeIntervalSince1970: -1e15))
        XCTAssertEqual(limit, "+31690708-07-05T01:46:40Z")
        XCTAssertEqual(negativeLimit, "-31686769-06-29T22:13:20Z")
        XCTAssertEqual(ISO8601Moment.text(Date(timeIntervalSince1970: 4e16)), limit)
        XCTAssertEqual(ISO8601Moment.text(Date.distantFuture.addingTimeInterval(.infinity)), limit)
        XCTAssertEqual(ISO8601Moment.text(Date(timeIntervalSince1970: -.infinity)), negativeLimit)
        XCTAssertEqual(ISO8601Moment.text(Date(timeIntervalSince1970: .nan)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(ISO8601Moment.parse(limit)?.date, Date(timeIntervalSince1970: 1e15))
        XCTAssertEqual(ISO8601Moment.parse(negativeLimit)?.date, Date(timeIntervalSince1970: -1e15))
    }

    /// A feed value's date is written in the one calendar whichever writer writes it: its
    /// `Encodable` conformance (the tool's JSON output) and its JSON text (the event lines).
    func testFeedValueDatesAreWrittenInTheOneCalendarByEveryWriter() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for text in ["1500-06-15", "1582-10-04", "2026-11-22T14:43:32Z", "0001-01-01"] {
            let value = FeedValue.array([.date(try XCTUnwrap(ISO8601Moment.parse(text)).date)])
            XCTAssertEqual(String(decoding: try encoder.encode(value), as: UTF8.self), value.jsonText, text)
            XCTAssertEqual(value.jsonText, "[\"\(ISO8601Moment.text(try XCTUnwrap(ISO8601Moment.parse(text)).date))\"]")
        }
    }
}
