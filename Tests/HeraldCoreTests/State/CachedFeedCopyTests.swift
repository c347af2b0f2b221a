import Foundation
import HeraldCore
import XCTest

final class CachedFeedCopyTests: XCTestCase {
    let german = "https://example.org/feed.de.plist"
    let bytes = Data("<plist><dict/></plist>".utf8)

    func testACachedCopyIsReadBackOnlyForTheURLItsBytesCameFrom() throws {
        let contents = try XCTUnwrap(CachedFeedCopy.contents(of: bytes, from: german))
        XCTAssertEqual(CachedFeedCopy.bytes(in: contents, from: german), bytes)
        for other in ["https://example.org/feed.fr.plist", "https://example.org/feed.de.plist2", "https://example.org/feed.de.plis",
                      "https://mirror.example.org/feed.de.plist", ""] {
            XCTAssertNil(CachedFeedCopy.bytes(in: contents, from: other), other)
        }
    }

    func testACopyThatNamesNoURLCountsAsNone() {
        XCTAssertNil(CachedFeedCopy.bytes(in: bytes, from: german), "a copy written before copies named their URL")
        XCTAssertNil(CachedFeedCopy.bytes(in: Data(), from: german))
    }

    func testAURLThatCannotBeKeptOnOneLineIsNotCached() {
        XCTAssertNil(CachedFeedCopy.contents(of: bytes, from: german + "\nherald-cached-from: x"))
        XCTAssertNil(CachedFeedCopy.contents(of: bytes, from: german + "\r"))
    }
}
