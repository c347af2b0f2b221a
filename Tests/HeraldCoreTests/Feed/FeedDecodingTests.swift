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

    func testJSONAfterLeadingWhiteSpaceIsReadAsJSON() throws {
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

/// A Herald feed with every targeting key stays an iNotify feed: an iNotify client, which
/// reads the document as a plain dictionary and only looks at its own keys, finds them as
/// before, and the keys change nothing of what a check decodes from iNotify's.
final class TargetingCompatibilityTests: XCTestCase {
    /// Every key Herald adds, as a plist writes each kind (a `<date>` start, a string end).
    let newKeys = """
        <key>StartDate</key><date>2026-12-01T00:00:00Z</date>
        <key>EndDate</key><string>2026-12-31</string>
        <key>Languages</key><array><string>en</string><string>de</string></array>
        <key>Desktops</key><array><string>GNOME</string><string>KDE</string></array>
        <key>Rollout</key><integer>20</integer>
        <key>Priority</key><real>2.5</real>
        <key>Urgency</key><string>low</string>
        <key>Icon</key><string>emblem-sale</string>
        <key>MaxShows</key><integer>2</integer>
        <key>MinDaysBetween</key><real>1.5</real>
        <key>Category</key><string>promotion</string>
        """
    /// The keys `newKeys` writes: every key Herald reads that iNotify does not.
    let addedKeys = Set(TargetingKey.all).subtracting([FeedKey.title, FeedKey.message, FeedKey.actionURL, FeedKey.actionButton,
                                                       FeedKey.minVersion, FeedKey.maxVersion])

    func feed(withNewKeys: Bool) -> String {
        let extra = withNewKeys ? newKeys : ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>2026/12/01</key>
                <dict>
                    <key>Title</key><string>Winter sale</string>
                    <key>Message</key><string>Half price until the end of the year.</string>
                    <key>ActionURL</key><string>https://example.com/sale</string>
                    <key>ActionButton</key><string>Shop</string>
                    <key>MinVersion</key><string>1.5</string>
                    \(extra)
                </dict>
                <key>2026/11/01</key>
                <dict>
                    <key>Title</key><string>Version 2</string>
                    <key>Message</key><string>Faster sync.</string>
                    <key>MaxVersion</key><string>1.9.9</string>
                    \(extra)
                </dict>
            </dict>
            </plist>
            """
    }

    func testAnINotifyClientReadingAFeedWithEveryNewKeyStillFindsTitleAndMessageAsStrings() throws {
        let json = #"{"a": {"Title": "T", "Message": "M", "StartDate": "2026-12-01", "EndDate": "2026-12-31T18:00:00+01:00", "Languages": "de", "Desktops": ["GNOME"], "Rollout": 20.5, "Priority": -1, "Urgency": "critical", "Icon": "starred", "MaxShows": 3, "MinDaysBetween": 7, "Category": "tip"}}"#
        let documents = [
            try PropertyListDecoder().decode([String: [String: FeedValue]].self, from: Data(feed(withNewKeys: true).utf8)),
            try JSONDecoder().decode([String: [String: FeedValue]].self, from: Data(json.utf8)),
        ]
        for entries in documents {
            for (id, fields) in entries {
                for key in [FeedKey.title, FeedKey.message] {
                    guard case .string? = fields[key] else { return XCTFail("\(id): \(key) is \(String(describing: fields[key]))") }
                }
                XCTAssertEqual(Set(fields.keys).intersection(addedKeys), addedKeys, id)
            }
        }
        XCTAssertEqual(documents.map(\.count), [2, 1])
    }

    func testEveryNewKeyLeavesWhatACheckDecodesFromINotifysKeysAsItWas() throws {
        let plain = try FeedDecoder.decode(Data(feed(withNewKeys: false).utf8))
        var targeted = try FeedDecoder.decode(Data(feed(withNewKeys: true).utf8))
        for key in targeted.entries.keys {
            XCTAssertEqual(Set(targeted.entries[key]!.details.keys).intersection(addedKeys), addedKeys, key)
            targeted.entries[key]!.details = targeted.entries[key]!.details.filter { !addedKeys.contains($0.key) }
        }
        XCTAssertEqual(targeted.entries, plain.entries)
        XCTAssertEqual(targeted.problems, [])
        XCTAssertEqual(targeted.format, plain.format)
    }
}

/// The tool's event lines are written without `JSONEncoder`, and read the same; beyond its
/// escapes, the characters a terminal must not receive are escaped too (`TerminalText`).
final class FeedValueJSONTextTests: XCTestCase {
    /// What `JSONEncoder` writes, with each character `TerminalText.isEscaped` names that it
    /// leaves raw written as an upper-case `\uXXXX` (as `TerminalText.escape` writes it).
    static func encoderText(_ value: some Encodable, _ encoder: JSONEncoder) throws -> String {
        var out = ""
        for scalar in String(decoding: try encoder.encode(value), as: UTF8.self).unicodeScalars {
            if TerminalText.isEscaped(scalar) {
                out += TerminalText.escape(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    func testJSONTextIsWhatJSONEncoderWritesWithSortedKeys() throws {
        let value = FeedValue.dictionary([
            "event": .string("skipped"), "key": .string("2024/01/02"), "count": .integer(-3), "share": .real(0.25),
            "whole": .real(2), "ok": .bool(true), "none": .null,
            "text": .string("quote \" backslash \\ slash / tab \t line\n bell \u{7} é 😀 \u{2028}"),
            "list": .array([.string("a"), .integer(1), .dictionary(["z": .bool(false), "a": .string("")])]),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        XCTAssertEqual(value.jsonText, try Self.encoderText(value, encoder))
    }

    func testJSONStringsEscapeWhatATerminalMustNotReceiveAndReadBackTheSame() throws {
        let hostile = "a\u{1B}]0;title\u{7}b\u{9B}c\u{85}d\u{2028}e\u{2029}f\u{202E}g\u{2066}h\u{200F}i\u{61C}j\u{7F}k — … €"
        let text = FeedValue.string(hostile).jsonText
        XCTAssertEqual(text, #""a\u001B]0;title\u0007b\u009Bc\u0085d\u2028e\u2029f\u202Eg\u2066h\u200Fi\u061Cj\u007Fk — … €""#)
        XCTAssertEqual(try JSONDecoder().decode(String.self, from: Data(text.utf8)), hostile)
    }

    /// One escaper per target language: a JSON string the tool writes reads back as its text,
    /// and writes every character a terminal must not receive as its text lines do.
    func testJSONStringsReadBackAsTheirTextAndEscapeAsTheTerminalRuleDoes() throws {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        // Each byte to escape also at every place of an eight-byte word, after ASCII or not.
        var texts = ["", "2024/01/02", "more messages than one check shows", controls, "quote \" backslash \\ slash /",
                     "é 😀 \u{2028} \u{7F}", "a\u{0}b", "\u{202E}x\u{85}", "—\u{2069}", "\u{8}\u{C}\u{1B}[2J"]
        for length in 0...17 {
            for special in ["\"", "\\", "/", "\n", "\u{1F}", "\u{7F}", "\u{85}", "\u{2028}", "\u{202E}", "—"] {
                texts += [String(repeating: "a", count: length) + special + "z", "é" + String(repeating: "b", count: length) + special]
            }
        }
        for text in texts {
            var bytes: [UInt8] = [0x2A]
            FeedValue.appendJSONString(text, to: &bytes)
            XCTAssertEqual(bytes.first, 0x2A, "appended after what was there")
            let json = String(decoding: bytes.dropFirst(), as: UTF8.self)
            let quoted = text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            XCTAssertEqual(json, "\"" + TerminalText.visible(quoted) + "\"", "\(Array(text.utf8))")
            XCTAssertEqual(try JSONDecoder().decode(String.self, from: Data(bytes.dropFirst())), text, "\(Array(text.utf8))")
            XCTAssertEqual(FeedValue.string(text).jsonText, json)
        }
    }
}
