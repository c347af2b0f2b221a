import HeraldCore
import XCTest

final class VersionComparisonTests: XCTestCase {
    func testNumericCompareMatchesNSNumericSearchTable() {
        let table: [(String, String, VersionComparison.Ordering)] = [
            ("1.10", "1.9", .descending), ("2", "10", .ascending), ("1.0", "1.0.0", .ascending),
            ("1", "1.0", .ascending), ("1.0", "1.00", .same), ("1.01", "1.1", .same), ("1.2", "1.2b", .ascending),
            ("1.0-beta", "1.0", .descending), ("v1.2", "1.2", .descending), ("1.0 ", "1.0", .descending),
        ]
        for (lhs, rhs, expected) in table {
            XCTAssertEqual(VersionComparison.numeric(lhs, rhs), expected, "\(lhs) vs \(rhs)")
        }
    }

    func testDigitRunsOverflowLikeUnsigned64Bit() {
        XCTAssertEqual(VersionComparison.numeric("18446744073709551616", "0"), .same)
    }

    func testKeysSortCaseInsensitivelyNotNumerically() {
        let keys = ["Zeta", "b", "alpha", "a_", "a[", "A", "9", "2011/1/22", "2011/02/01", "2011/01/22", "10"]
        let sorted = keys.sorted { VersionComparison.caseInsensitive($0, $1) == .ascending }
        XCTAssertEqual(sorted, ["10", "2011/01/22", "2011/02/01", "2011/1/22", "9", "A", "a[", "a_", "alpha", "b", "Zeta"])
    }

    func testKeysDifferingOnlyInCaseHaveAStableOrder() {
        XCTAssertEqual(VersionComparison.caseInsensitive("ABC", "abc"), .ascending)
        XCTAssertEqual(VersionComparison.caseInsensitive("abc", "ABC"), .descending)
    }
}
