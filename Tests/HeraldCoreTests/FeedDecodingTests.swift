import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

final class FeedDecodingTests: XCTestCase {
    func testXMLPlistFeedIsReadWithAllKnownKeys() throws {
        let xml = Fixtures.xmlFeed(["2024/01/02": [
            "Title": "New", "Message": "Body", "ActionURL": "https://example.com", "ActionButton": "Go",
            "MinVersion": "1.0", "MaxVersion": "2.0",
        ]])
        let feed = try FeedDecoder.decode(Data(xml.utf8))
        XCTAssertEqual(feed.format, .xmlPropertyList)
        XCTAssertEqual(feed.entries["2024/01/02"], FeedEntry(
            key: "2024/01/02", title: "New", message: "Body", actionURL: "https://example.com",
            actionButton: "Go", minVersion: "1.0", maxVersion: "2.0"))
    }

    func testBinaryPlistFeedIsDetectedByContent() throws {
        let feed = try FeedDecoder.decode(try Fixtures.binaryFeed(["a": ["Title": "T"]]))
        XCTAssertEqual(feed.format, .binaryPropertyList)
        XCTAssertEqual(feed.entries["a"]?.title, "T")
    }

    func testJSONFeedWithTheSameKeysIsRead() throws {
        let feed = try FeedDecoder.decode(Data(#"{"k": {"Title": "T", "Message": "M", "MinVersion": "1.2"}}"#.utf8))
        XCTAssertEqual(feed.format, .json)
        XCTAssertEqual(feed.entries["k"]?.message, "M")
        XCTAssertEqual(feed.entries["k"]?.minVersion, "1.2")
    }

    func testOpenStepPlistFeedIsRead() throws {
        let text = #"{ "2011/01/01" = { Title = "Old style"; Message = "Hello \"there\""; MinVersion = 1.0; }; /* c */ b = { Title = x; }; }"#
        let feed = try FeedDecoder.decode(Data(text.utf8))
        XCTAssertEqual(feed.format, .openStepPropertyList)
        XCTAssertEqual(feed.entries["2011/01/01"]?.message, "Hello \"there\"")
        XCTAssertEqual(feed.entries["2011/01/01"]?.minVersion, "1.0")
        XCTAssertEqual(feed.entries["b"]?.title, "x")
    }

    func testFormatIsChosenByContentNotFileName() throws {
        // The same bytes decode the same way whatever they were called; only content counts.
        let json = try FeedDecoder.decode(Data("  \n{\"a\": {\"Title\": \"J\"}}".utf8))
        XCTAssertEqual(json.format, .json)
    }

    func testRootThatIsAnArrayFailsTheWholeFeed() {
        let xml = #"<?xml version="1.0"?><plist version="1.0"><array><string>a</string></array></plist>"#
        XCTAssertThrowsError(try FeedDecoder.decode(Data(xml.utf8))) { error in
            XCTAssertEqual(error as? FeedError, .rootNotDictionary(found: "array"))
        }
    }

    func testRootThatIsABareOpenStepStringFailsTheWholeFeed() {
        XCTAssertThrowsError(try FeedDecoder.decode(Data("hello".utf8))) { error in
            XCTAssertEqual(error as? FeedError, .rootNotDictionary(found: "string"))
        }
    }

    func testEmptyAndGarbageFeedsFailWithAClearError() {
        XCTAssertThrowsError(try FeedDecoder.decode(Data())) { XCTAssertEqual($0 as? FeedError, .empty) }
        XCTAssertThrowsError(try FeedDecoder.decode(Data("<html><body>404</body></html>".utf8))) { error in
            XCTAssertEqual((error as? FeedError)?.description, "line 1, column 1: <html> is not a property list tag (XML property list)")
        }
        XCTAssertThrowsError(try FeedDecoder.decode(Data("{ a = ".utf8))) { error in
            XCTAssertEqual(error as? FeedError, .malformed(.openStepPropertyList, at: .text(line: 1, column: 7), reason: "the document ends early: a value is missing"))
        }
    }

    func testEntryThatIsNotADictionaryIsSkippedAndReportedOthersStay() throws {
        let feed = try FeedDecoder.decode(Data(#"{"bad": "text", "good": {"Title": "ok"}}"#.utf8))
        XCTAssertEqual(Array(feed.entries.keys), ["good"])
        XCTAssertEqual(feed.problems, [FeedProblem(key: "bad", reason: "the entry is a string, not a dictionary")])
    }

    func testWrongValueTypeSkipsOnlyThatEntry() throws {
        let feed = try FeedDecoder.decode(Data(#"{"bad": {"Title": ["x"]}, "good": {"Title": "ok"}}"#.utf8))
        XCTAssertEqual(Array(feed.entries.keys), ["good"])
        XCTAssertEqual(feed.problems.map(\.key), ["bad"])
        XCTAssertEqual(feed.problems[0], FeedProblem(key: "bad", reason: "Title is an array, not a string", field: "Title"))
    }

    func testNumericVersionBoundsAreReadAsStrings() throws {
        let xml = #"<?xml version="1.0"?><plist version="1.0"><dict><key>a</key><dict><key>MinVersion</key><real>1.2</real><key>MaxVersion</key><integer>3</integer></dict></dict></plist>"#
        let entry = try XCTUnwrap(try FeedDecoder.decode(Data(xml.utf8)).entries["a"])
        XCTAssertEqual(entry.minVersion, "1.2")
        XCTAssertEqual(entry.maxVersion, "3")
    }

    func testUnknownKeysPassThroughInDetails() throws {
        let feed = try FeedDecoder.decode(Data(#"{"a": {"Title": "T", "Campaign": "spring", "Weight": 3}}"#.utf8))
        XCTAssertEqual(feed.entries["a"]?.details["Campaign"], .string("spring"))
        XCTAssertEqual(feed.entries["a"]?.details["Weight"], .integer(3))
    }

    func testMissingTitleAndMessageAreAllowed() throws {
        let feed = try FeedDecoder.decode(Data(#"{"a": {}}"#.utf8))
        XCTAssertEqual(feed.entries["a"], FeedEntry(key: "a", details: [:]))
    }
}

/// The tool's event lines are written without `JSONEncoder`, and read the same.
final class FeedValueJSONTextTests: XCTestCase {
    func testJSONTextIsWhatJSONEncoderWritesWithSortedKeys() throws {
        let value = FeedValue.dictionary([
            "event": .string("skipped"), "key": .string("2024/01/02"), "count": .integer(-3), "share": .real(0.25),
            "whole": .real(2), "ok": .bool(true), "none": .null,
            "text": .string("quote \" backslash \\ slash / tab \t line\n bell \u{7} é 😀 \u{2028}"),
            "list": .array([.string("a"), .integer(1), .dictionary(["z": .bool(false), "a": .string("")])]),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        XCTAssertEqual(value.jsonText, String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
