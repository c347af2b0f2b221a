import Foundation
import HeraldCore
import HeraldPublishing
import HeraldTestSupport
import XCTest

/// Adding and removing entries as a publisher would by hand: the feed's own format, the
/// file's indentation, every other byte kept; a binary property list written anew.
final class FeedEditorTests: XCTestCase {
    let entry = FeedEntry(key: "2026/11/23", title: "Fish & <chips>", message: "Two\nlines \"quoted\"", actionURL: "https://example.org/a?b=1&c=2")

    func added(_ entry: FeedEntry? = nil, to text: String) throws -> (text: String, edit: FeedTextEdit) {
        let entry = entry ?? self.entry
        let result = try FeedEditor.adding(entry, to: Array(text.utf8))
        let edit = try XCTUnwrap(result.edit)
        XCTAssertEqual(try FeedDecoder.decode(Data(result.bytes)).entries[entry.key], entry, "the entry reads back as it was given")
        return (String(decoding: result.bytes, as: UTF8.self), edit)
    }

    func inserted(_ edit: FeedTextEdit) -> String { String(decoding: edit.replacement, as: UTF8.self) }

    func testAnXMLEntryGoesBeforeTheRootsEndIndentedAsTheFilesEntriesAre() throws {
        let feed = Fixtures.xmlFeed(["2026/11/01": ["Title": "Old"]])
        let (_, edit) = try added(to: feed)
        XCTAssertTrue(edit.range.isEmpty, "an insertion replaces nothing")
        XCTAssertEqual(inserted(edit), """
              <key>2026/11/23</key>
              <dict>
                <key>Title</key><string>Fish &amp; &lt;chips&gt;</string>
                <key>Message</key><string>Two
            lines "quoted"</string>
                <key>ActionURL</key><string>https://example.org/a?b=1&amp;c=2</string>
              </dict>

            """)
        XCTAssertEqual(edit.range.lowerBound, feed.utf8.count - "</dict>\n</plist>\n".utf8.count)
    }

    /// XML text has one escaper (`XMLText`): a feed's text escapes `&`, `<` and `>` and keeps
    /// quotes as typed.
    func testAnXMLEntryEscapesAmpersandAndAnglesAndKeepsQuotes() throws {
        let (_, edit) = try added(FeedEntry(key: "q&a", title: #"Fish & <chips> "q" 'a'"#), to: Fixtures.xmlFeed(["2026/11/01": ["Title": "Old"]]))
        XCTAssertEqual(inserted(edit), """
              <key>q&amp;a</key>
              <dict>
                <key>Title</key><string>Fish &amp; &lt;chips&gt; "q" 'a'</string>
              </dict>

            """)
    }

    func testASelfClosingXMLRootOpensForItsFirstEntry() throws {
        let (text, _) = try added(FeedEntry(key: "first", title: "One"), to: "<plist version=\"1.0\">\n<dict/>\n</plist>\n")
        XCTAssertEqual(text, "<plist version=\"1.0\">\n<dict>\n    <key>first</key>\n    <dict>\n        <key>Title</key><string>One</string>\n    </dict>\n</dict>\n</plist>\n")
    }

    func testAJSONEntryFollowsTheLastWithACommaAndTheFilesIndentation() throws {
        let feed = "{\n\t\"a\": {\n\t\t\"Title\": \"A\"\n\t}\n}\n"
        let (text, _) = try added(to: feed)
        XCTAssertEqual(text, """
            {
            \t"a": {
            \t\t"Title": "A"
            \t},
            \t"2026/11/23": {
            \t\t"Title": "Fish & <chips>",
            \t\t"Message": "Two\\nlines \\"quoted\\"",
            \t\t"ActionURL": "https://example.org/a?b=1&c=2"
            \t}
            }

            """)
    }

    func testAOneLineFeedGetsItsEntryOnThatLine() throws {
        let (text, _) = try added(to: #"{"a": {"Title": "A"}}"#)
        XCTAssertEqual(text, #"{"a": {"Title": "A"}, "2026/11/23": {"Title": "Fish & <chips>", "Message": "Two\nlines \"quoted\"", "ActionURL": "https://example.org/a?b=1&c=2"}}"#)
    }

    func testAnOpenStepEntryKeepsTheCommentsAndTabsAroundIt() throws {
        let feed = "// news\n{\n\t\"a\" = {\n\t\tTitle = \"A\"; /* short */\n\t};\n}\n"
        let (text, _) = try added(to: feed)
        XCTAssertEqual(text, """
            // news
            {
            \t"a" = {
            \t\tTitle = "A"; /* short */
            \t};
            \t"2026/11/23" = {
            \t\tTitle = "Fish & <chips>";
            \t\tMessage = "Two\\nlines \\"quoted\\"";
            \t\tActionURL = "https://example.org/a?b=1&c=2";
            \t};
            }

            """)
    }

    func testRemovingAJSONEntryTakesItsCommaWhereverItIs() throws {
        let feed = "{\n  \"a\": {\"Title\": \"A\"},\n  \"b\": {\"Title\": \"B\"},\n  \"c\": {\"Title\": \"C\"}\n}\n"
        func removing(_ key: String, from text: String) throws -> String {
            String(decoding: try FeedEditor.removing(key, from: Array(text.utf8)).bytes, as: UTF8.self)
        }
        XCTAssertEqual(try removing("a", from: feed), "{\n  \"b\": {\"Title\": \"B\"},\n  \"c\": {\"Title\": \"C\"}\n}\n")
        XCTAssertEqual(try removing("b", from: feed), "{\n  \"a\": {\"Title\": \"A\"},\n  \"c\": {\"Title\": \"C\"}\n}\n")
        XCTAssertEqual(try removing("c", from: feed), "{\n  \"a\": {\"Title\": \"A\"},\n  \"b\": {\"Title\": \"B\"}\n}\n")
        XCTAssertEqual(try removing("a", from: #"{"a": {"Title": "A"}}"#), "{}")
    }

    func testRemovingAnXMLEntryCutsItsLinesAndNothingElse() throws {
        let feed = Fixtures.xmlFeed(["a": ["Title": "A"], "b": ["Title": "B"]])
        let result = try FeedEditor.removing("a", from: Array(feed.utf8))
        XCTAssertEqual(String(decoding: result.bytes, as: UTF8.self), Fixtures.xmlFeed(["b": ["Title": "B"]]))
    }

    func testRemovingAnIdWrittenTwiceRemovesEveryCopySinceReadersShowTheLast() throws {
        let text = "{\n  \"a\": {\"Title\": \"First\"},\n  \"b\": {\"Title\": \"B\"},\n  \"a\": {\"Title\": \"Shown\"}\n}\n"
        XCTAssertEqual(try FeedDecoder.decode(Data(text.utf8)).entries["a"]?.title, "Shown")
        let result = try FeedEditor.removing("a", from: Array(text.utf8))
        XCTAssertEqual(String(decoding: result.bytes, as: UTF8.self), "{\n  \"b\": {\"Title\": \"B\"}\n}\n")
        XCTAssertEqual(result.copies, 2)
        XCTAssertEqual(try FeedEditor.removing("b", from: Array(text.utf8)).copies, 1)
    }

    func testAnIdInUseAnUndecodableFeedAndAControlCharacterAreRefused() {
        XCTAssertThrowsError(try FeedEditor.adding(FeedEntry(key: "a", title: "x"), to: Array(#"{"a": "not an entry"}"#.utf8))) {
            XCTAssertEqual($0 as? FeedEditError, .keyInUse("a"))
        }
        XCTAssertThrowsError(try FeedEditor.adding(entry, to: [])) { XCTAssertEqual($0 as? FeedEditError, .undecodable(.empty)) }
        XCTAssertThrowsError(try FeedEditor.adding(FeedEntry(key: "b", title: "bell\u{07}"), to: Array("{}".utf8))) {
            XCTAssertEqual("\($0)", "Title holds the control character U+0007, which a feed cannot carry")
        }
        XCTAssertThrowsError(try FeedEditor.removing("zz", from: Array("{}".utf8))) { XCTAssertEqual($0 as? FeedEditError, .noSuchKey("zz")) }
    }

    func testABinaryFeedIsWrittenAnewWithEveryOtherValueAsItWas() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let old: [String: Any] = ["a": ["Title": "A", "When": date, "Blob": Data([1, 2, 3]), "Count": 7]]
        let bytes = try PropertyListSerialization.data(fromPropertyList: old, format: .binary, options: 0)
        let result = try FeedEditor.adding(entry, to: Array(bytes))
        XCTAssertNil(result.edit, "written anew")
        let feed = try FeedDecoder.decode(Data(result.bytes))
        XCTAssertEqual(feed.format, .binaryPropertyList)
        XCTAssertEqual(feed.entries[entry.key], entry)
        XCTAssertEqual(feed.entries["a"]?.details, ["Title": .string("A"), "When": .date(date), "Blob": .data(Data([1, 2, 3])), "Count": .integer(7)])
        let removed = try FeedDecoder.decode(Data(try FeedEditor.removing("a", from: result.bytes).bytes))
        XCTAssertEqual(Array(removed.entries.keys), [entry.key])
    }
}
