@testable import HeraldCore
import XCTest

/// The byte order of message ids (`ByteSearch.precedes`), which the state file lists its ids
/// in and the inbox keeps its latest by: UTF-8 bytes compared as unsigned numbers, a string
/// before any that it begins.
final class ByteOrderTests: XCTestCase {
    func testIdsGoInTheOrderOfTheirUTF8BytesAndAPrefixFirst() {
        let decomposed = "e\u{301}"
        let ids = ["", "2020/01/02", "2020/01/02-1", "2020/1/1", "A", "a", "\u{E9}", decomposed, "\u{E9}0", "z\u{1F600}", "zz",
                   String(repeating: "long id past the small string's fifteen bytes ", count: 3)]
        for left in ids {
            for right in ids {
                XCTAssertEqual(ByteSearch.precedes(left, right), left.utf8.lexicographicallyPrecedes(right.utf8), "\(left) before \(right)")
            }
        }
        XCTAssertEqual(ids.sorted(by: ByteSearch.precedes),
                       ["", "2020/01/02", "2020/01/02-1", "2020/1/1", "A", "a", decomposed,
                        String(repeating: "long id past the small string's fifteen bytes ", count: 3), "zz", "z\u{1F600}", "\u{E9}", "\u{E9}0"])
    }
}
