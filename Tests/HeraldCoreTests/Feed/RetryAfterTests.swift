import Foundation
import HeraldCore
import XCTest

/// How a feed server's `Retry-After` is read (RFC 9110 §10.2.3): seconds or an HTTP-date, a
/// wait no longer than `RetryAfter.longestWait`, and nothing from a value that asks no wait or
/// does not read.
final class RetryAfterTests: XCTestCase {
    /// 2026-11-29T12:00:00Z, a Sunday.
    private let now = Date(timeIntervalSince1970: 1_795_953_600)

    private func moment(_ value: String) -> String? {
        RetryAfter.moment(fromHeader: value, now: now).map(ISO8601Moment.text)
    }

    func testDeltaSecondsCountFromNow() {
        XCTAssertEqual(ISO8601Moment.text(now), "2026-11-29T12:00:00Z")
        XCTAssertEqual(moment("120"), "2026-11-29T12:02:00Z")
        XCTAssertEqual(moment(" 3600 "), "2026-11-29T13:00:00Z", "spaces around the value are not part of it")
    }

    func testAnHTTPDateReadsInEachOfItsThreeForms() {
        XCTAssertEqual(moment("Sun, 29 Nov 2026 12:30:00 GMT"), "2026-11-29T12:30:00Z", "IMF-fixdate")
        XCTAssertEqual(moment("Monday, 30-Nov-26 08:49:37 GMT"), "2026-11-30T08:49:37Z", "the obsolete RFC 850 form")
        XCTAssertEqual(moment("Mon Nov 30 08:49:37 2026"), "2026-11-30T08:49:37Z", "the obsolete asctime form")
        XCTAssertEqual(moment("Tue Dec  1 00:00:00 2026"), "2026-12-01T00:00:00Z", "asctime pads a one-digit day with a space")
    }

    func testAValueThatDoesNotReadIsIgnored() {
        for garbage in ["", "soon", "-5", "1.5", "12 s", "0x10", "Sun, 29 Nov 2026 12:30:00 CET", "Sun, 31 Nov 2026 12:30:00 GMT",
                        "Sun, 29 Nov 2026 25:00:00 GMT", "29 Nov 2026 12:30:00 GMT", "2026-11-29T12:30:00Z", "Sun, 29 Foo 2026 12:30:00 GMT",
                        "Mon, 29 Feb 2027 12:00:00 GMT", "Sun, 29 Nov 2026 12:60:00 GMT", "Sun, 29 Nov 2026 12:00:61 GMT",
                        "Sun, 29 Nov 2026 12:0:00 GMT", "Sun, 29 Nov 2026 -1:00:00 GMT", "Monday, 30-Nov-26 08:49:37 CET"] {
            XCTAssertNil(moment(garbage), garbage)
        }
    }

    func testNoWaitAsksForNone() {
        XCTAssertNil(moment("0"), "zero seconds")
        XCTAssertNil(moment("Sun, 29 Nov 2026 12:00:00 GMT"), "now")
        XCTAssertNil(moment("Sun, 06 Nov 1994 08:49:37 GMT"), "a date in the past")
    }

    func testAWaitLongerThanAWeekIsAWeek() {
        XCTAssertEqual(RetryAfter.longestWait, 7 * 86_400)
        XCTAssertEqual(moment("604800"), "2026-12-06T12:00:00Z", "a week exactly")
        XCTAssertEqual(moment("31536000"), "2026-12-06T12:00:00Z", "a year")
        XCTAssertEqual(moment(String(repeating: "9", count: 400)), "2026-12-06T12:00:00Z", "more digits than any number holds")
        XCTAssertEqual(moment("Fri, 01 Jan 2100 00:00:00 GMT"), "2026-12-06T12:00:00Z", "a date far ahead")
    }

    func testATwoDigitYearIsTheLatestNotMoreThanFiftyYearsAhead() {
        XCTAssertEqual(RetryAfter.httpDate("Tuesday, 01-Dec-26 00:00:00 GMT", now: now).map(ISO8601Moment.text), "2026-12-01T00:00:00Z")
        XCTAssertEqual(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT", now: now).map(ISO8601Moment.text), "1994-11-06T08:49:37Z")
        XCTAssertEqual(RetryAfter.httpDate("Wednesday, 01-Jan-76 00:00:00 GMT", now: now).map(ISO8601Moment.text), "2076-01-01T00:00:00Z")
    }
}
