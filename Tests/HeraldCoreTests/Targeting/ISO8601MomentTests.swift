import Foundation
@testable import HeraldCore
import XCTest

/// Herald writes dates in its messages and files as `Date.ISO8601FormatStyle` writes them by
/// default, without setting up the calendar that style needs; the style is the oracle here.
final class ISO8601MomentTests: XCTestCase {
    func testDatesAreWrittenAsTheISO8601FormatStyleWritesThem() {
        var generator = SystemRandomNumberGenerator()
        var dates = [0, 0.999_999, 59.5, 86_399.999, 951_782_400, 1_798_761_599.75, 4_107_542_400, 253_402_300_799.9, 253_402_300_800,
                     -0.001, -86_400, -62_135_596_800, -12_219_292_800, 1e12]
            .map { Date(timeIntervalSince1970: $0) }
        dates += [Date.distantPast, Date.distantFuture]
        dates += (0..<20_000).map { _ in Date(timeIntervalSince1970: Double.random(in: -1e11...3e11, using: &generator)) }
        for date in dates {
            XCTAssertEqual(ISO8601Moment.text(date), date.formatted(.iso8601), "\(date.timeIntervalSince1970)")
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
}
