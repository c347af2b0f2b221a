import Foundation
@testable import HeraldCore
import HeraldPublishing
import XCTest

/// One list of keys (`FeedKey.all`, and `TargetingKey.all` made from it): every key the
/// decoder reads is one `herald validate` accepts and `herald feed add` writes.
final class FeedKeyAgreementTests: XCTestCase {
    func report(_ json: String) throws -> FeedReport {
        FeedValidation.report(for: try FeedDecoder.decode(Data(json.utf8)), appVersion: nil, rules: URLRules())
    }

    func testEveryKeyTheDecoderReadsIsOneValidateAcceptsAndFeedAddWrites() throws {
        for key in FeedKey.all {
            // The decoder reads the key: a list where text belongs skips the entry, naming it.
            let feed = try FeedDecoder.decode(Data(#"{"2026/01/01": {"\#(key)": [1]}}"#.utf8))
            XCTAssertEqual(feed.entries.count, 0, key)
            XCTAssertEqual(feed.problems.map(\.field), [key])
            // validate takes it for a key it knows: no "did you mean".
            let findings = try report(#"{"2026/01/01": {"Title": "T", "\#(key)": "1"}}"#).findings
            XCTAssertEqual(findings.filter { $0.kind == .misspeltKey }.map(\.key), [], key)
        }
        // feed add writes each of them, and they read back as written.
        let entry = FeedEntry(key: "2026/01/02", title: "T", message: "M", actionURL: "https://example.org/", actionButton: "B",
                              minVersion: "1", maxVersion: "2")
        let added = try FeedDecoder.decode(Data(try FeedEditor.adding(entry, to: Array("{\n}\n".utf8)).bytes))
        let written = try XCTUnwrap(added.entries[entry.key])
        XCTAssertEqual(FeedKey.all.map { written.field($0)?.textValue }, ["T", "M", "https://example.org/", "B", "1", "2"])
        XCTAssertEqual(written, entry)
    }
}
