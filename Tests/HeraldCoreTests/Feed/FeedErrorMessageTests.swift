import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// The one line `herald validate` prints for a feed that cannot be read, as compilers write
/// it: the place first (`feed:line:column:`, or `feed: byte N:` for a binary plist), so that
/// editors can jump to it, then what is wrong, then the format that was detected.
private func message(_ bytes: Data) -> String {
    do {
        let feed = try FeedDecoder.decode(bytes)
        return "decoded \(feed.entries.count) entries"
    } catch {
        return (error as? FeedError)?.description(source: "feed") ?? "not a FeedError: \(error)"
    }
}

private func message(_ text: String) -> String { message(Data(text.utf8)) }

private let plistHeader = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n"

final class XMLFeedErrorMessageTests: XCTestCase {
    func testAnUnclosedTagIsPlacedWhereItOpens() {
        XCTAssertEqual(message(plistHeader + "<dict>\n<key>a</key>\n<dict><key>Title</key><string>cut"),
                       "feed:5:23: the document ends before this <string> is closed (XML property list)")
    }

    func testAMissingCloseTagIsPlacedAtTheTagThatClosesTheWrongElement() {
        XCTAssertEqual(message(plistHeader + "<dict>\n<key>a</key>\n<dict><key>Title</key><string>x</dict>\n</dict>\n</plist>"),
                       "feed:5:32: </dict> does not close <string> from line 5 (XML property list)")
    }

    func testABareAmpersandIsPlacedAtTheAmpersand() {
        XCTAssertEqual(message(plistHeader + "<dict>\n<key>a</key>\n<dict><key>Title</key><string>Tom & Jerry</string></dict>\n</dict>\n</plist>"),
                       "feed:5:35: a bare '&'; write it as &amp; (XML property list)")
    }

    func testTheREADMEsLiteralEllipsisIsPlacedWhereAKeyBelongs() {
        // The published iNotify feed that kept the example's "..." between two entries.
        var xml = plistHeader + "<dict>\n"
        for day in 1...4 { xml += "  <key>2011/01/0\(day)</key>\n  <dict>\n    <key>Title</key>\n    <string>Tip \(day)</string>\n  </dict>\n" }
        xml += "  ...\n</dict>\n</plist>\n"
        XCTAssertEqual(message(xml), "feed:24:3: unexpected '...' where a <key> was expected (XML property list)")
    }

    func testATagThatIsNotAPropertyListTagIsNamed() {
        XCTAssertEqual(message("<html><body>404</body></html>"), "feed:1:1: <html> is not a property list tag (XML property list)")
    }

    func testATagIsAPropertyListTagOnlyWhenEveryLetterIsOne() {
        // Each differs from a name of the format only inside (same length, first and last letter).
        for near in ["plast", "dant", "kay", "alray", "strong", "intoger", "rail", "tree", "faxse", "dame", "dota", "Dict", "dict2"] {
            XCTAssertEqual(message(plistHeader + "<\(near)/>"), "feed:3:1: <\(near)> is not a property list tag (XML property list)")
        }
        let every = plistHeader + "<dict><key>k</key><dict><key>Title</key><string>s</string><key>More</key><array><integer>1</integer>"
            + "<real>1.5</real><true/><false/><date>2024-01-02T00:00:00Z</date><data>AA==</data><dict/></array></dict></dict></plist>"
        XCTAssertEqual(message(every), "decoded 1 entries")
    }

    func testColumnsCountCharactersNotBytes() {
        // "é" and "日本" take five bytes but three columns, as an editor shows them.
        XCTAssertEqual(message(plistHeader + "<dict><key>é日本</key><strin>"),
                       "feed:3:21: <strin> is not a property list tag (XML property list)")
    }

    func testLinesEndAtCRLFAndALoneCR() {
        XCTAssertEqual(message("<plist>\r\n<dict>\r<key>a</key>\r\n<oops/>"), "feed:4:1: <oops> is not a property list tag (XML property list)")
    }
}

final class JSONFeedErrorMessageTests: XCTestCase {
    func testAMissingCommaIsPlacedAtTheNextKey() {
        XCTAssertEqual(message("{\"a\": {\"Title\": \"x\"}\n \"b\": {}}"),
                       "feed:2:2: expected ',' or '}' after a value in an object: a ',' is missing before this key (JSON)")
    }

    func testATrailingCommaInAnObjectIsRefused() {
        XCTAssertEqual(message(#"{"a": {"Title": "x",}}"#), "feed:1:20: a trailing ',' before '}': JSON allows none (JSON)")
    }

    func testATrailingCommaInAnArrayIsRefused() {
        XCTAssertEqual(message(#"{"a": {"Tags": [1, 2, ]}}"#), "feed:1:21: a trailing ',' before ']': JSON allows none (JSON)")
    }

    func testALineCommentIsRefusedAsJSONNotReadAsOpenStep() {
        XCTAssertEqual(message("{\n  // the spring sale\n  \"a\": {\"Title\": \"x\"}\n}"),
                       "feed:2:3: a comment where a key in double quotes was expected: JSON has no comments (JSON)")
    }

    func testABlockCommentIsRefused() {
        XCTAssertEqual(message(#"{"a": /* soon */ {"Title": "x"}}"#), "feed:1:7: a comment where a value was expected: JSON has no comments (JSON)")
    }

    func testBareWordsAndSingleQuotesAreRefusedForWhatTheyAre() {
        let refusals = [
            #"{"a": {"Title": yes}}"#: "feed:1:17: the bare word 'yes' where a value was expected: JSON strings need double quotes (JSON)",
            #"{"a": {"On": ture}}"#: "feed:1:14: the bare word 'ture' where a value was expected: JSON strings need double quotes (JSON)",
            #"{a: {"Title": "x"}}"#: "feed:1:2: the bare word 'a' where a key in double quotes was expected: JSON strings need double quotes (JSON)",
            #"{"a": {"Title": 'x'}}"#: "feed:1:17: a string in single quotes where a value was expected: JSON strings use double quotes (JSON)",
        ]
        for (json, expected) in refusals { XCTAssertEqual(message(json), expected, json) }
    }

    func testNaNAndInfinityAreNotNumbers() {
        XCTAssertEqual(message(#"{"a": {"W": NaN}}"#), "feed:1:13: 'NaN' is not a JSON number (JSON)")
        XCTAssertEqual(message(#"{"a": {"W": -Infinity}}"#), "feed:1:13: '-Infinity' is not a JSON number (JSON)")
    }

    func testLeadingZerosAndHexAreNotNumbers() {
        XCTAssertEqual(message(#"{"a": {"W": 007}}"#), "feed:1:13: '007' is not a JSON number: only 0 itself may start with 0 (JSON)")
        XCTAssertEqual(message(#"{"a": {"W": 0x1F}}"#), "feed:1:13: '0x1F' is not a JSON number (JSON)")
        XCTAssertEqual(message(#"{"a": {"W": +1}}"#), "feed:1:13: '+1' is not a JSON number (JSON)")
    }

    func testAnUnterminatedStringIsPlacedWhereItOpens() {
        XCTAssertEqual(message("{\"a\": {\"Title\": \"Sale\n"), "feed:1:22: a control character (U+000A) must be escaped inside a string (JSON)")
        XCTAssertEqual(message(#"{"a": {"Title": "Sale"#), "feed:1:17: the document ends before this string is closed (JSON)")
    }

    func testAnObjectCutOffIsPlacedWhereItOpens() {
        XCTAssertEqual(message("{\"a\": {\"Title\": \"x\"}"), "feed:1:1: the document ends before this object is closed (JSON)")
    }

    func testAnEqualsSignAfterAKeyNamesTheOtherFormat() {
        XCTAssertEqual(message(#"{"a": {"Title" = "x"}}"#),
                       "feed:1:16: expected ':' after the key \"Title\", not '=' as in an OpenStep property list (JSON)")
    }
}

final class OpenStepFeedErrorMessageTests: XCTestCase {
    func testAMissingSemicolonIsPlacedWhereItBelongs() {
        XCTAssertEqual(message("{\n  a = { Title = x; }\n}"), "feed:3:1: expected ';' after the value of \"a\" (OpenStep property list)")
    }

    func testAnUnterminatedQuotedStringIsPlacedWhereItOpens() {
        XCTAssertEqual(message("{ a = { Title = \"Sale; }; }"), "feed:1:17: the document ends before this quoted string is closed (OpenStep property list)")
    }

    func testAnUnclosedDictionaryIsPlacedWhereItOpens() {
        XCTAssertEqual(message("{ a = { Title = x;"), "feed:1:7: the document ends before this dictionary is closed (OpenStep property list)")
    }

    func testDataWithALetterThatIsNotHexIsPlacedAtTheLetter() {
        XCTAssertEqual(message("{ a = { D = <0fg0>; }; }"), "feed:1:16: 'g' is not a hex digit in <data> (OpenStep property list)")
    }
}

final class BinaryFeedErrorMessageTests: XCTestCase {
    typealias Object = BinaryPlistObject

    func testATruncatedFileIsPlacedAtItsEnd() throws {
        let whole = try Fixtures.binaryFeed(["a": ["Title": "T"]])
        XCTAssertEqual(message(whole.prefix(30)),
                       "feed: byte 30: the document ends early: the file is too short to hold a trailer (binary property list)")
    }

    func testAnOffsetTableOutsideTheFileIsPlacedAtItsOffsetInTheTrailer() {
        var bytes = [UInt8](Fixtures.binaryPlist(objects: [Object.dictionary([])]))
        bytes[bytes.count - 1] = 0xF0
        XCTAssertEqual(message(Data(bytes)), "feed: byte 34: the offset table does not fit in the file (binary property list)")
    }

    func testAnOffsetOutsideTheObjectsIsPlacedAtItsEntryInTheTable() {
        var bytes = [UInt8](Fixtures.binaryPlist(objects: [Object.dictionary([(key: 1, value: 1)]), Object.ascii("a")]))
        // The objects take bytes 8 to 12 (a dictionary of one pair, then "a"); the table
        // follows, and object 1's entry in it is byte 14.
        bytes[14] = 0x02
        XCTAssertEqual(message(Data(bytes)), "feed: byte 14: the offset table puts object 1 outside the object area (binary property list)")
    }

    func testAReferenceToAMissingObjectIsPlacedAtTheReference() {
        XCTAssertEqual(message(Fixtures.binaryPlist(objects: [Object.array([9])])),
                       "feed: byte 9: object 0 refers to object 9, which does not exist (binary property list)")
    }

    func testAnUnknownVersionIsPlacedAtTheVersionInTheHeader() {
        var bytes = [UInt8](Fixtures.binaryPlist(objects: [Object.dictionary([])]))
        bytes[7] = UInt8(ascii: "1")
        XCTAssertEqual(message(Data(bytes)), "feed: byte 6: the header names version \"01\", but only version 00 is read (binary property list)")
    }
}

final class FeedFormatDetectionTests: XCTestCase {
    func testCommentsAreSkippedToTellJSONFromOpenStep() {
        XCTAssertEqual(FeedDecoder.format(of: Data("{ // c\n \"a\": 1 }".utf8)), .json)
        XCTAssertEqual(FeedDecoder.format(of: Data("{ /* c */ \"a\" = 1; }".utf8)), .openStepPropertyList)
        XCTAssertEqual(FeedDecoder.format(of: Data("/* c */ { a = 1; }".utf8)), .openStepPropertyList)
    }

    func testABareKeyIsOpenStepUnlessAColonFollowsIt() {
        XCTAssertEqual(FeedDecoder.format(of: Data("{a: 1}".utf8)), .json)
        XCTAssertEqual(FeedDecoder.format(of: Data("{ a:b = c; }".utf8)), .openStepPropertyList)
        XCTAssertEqual(FeedDecoder.format(of: Data("{ 2011/01/01 = { Title = x; }; }".utf8)), .openStepPropertyList)
    }

    func testAFeedThatDecodesKeepsItsFormat() throws {
        XCTAssertEqual(try FeedDecoder.decode(Data("{ /* c */ \"a\" = { Title = x; }; }".utf8)).entries["a"]?.title, "x")
        XCTAssertEqual(try FeedDecoder.decode(Data("{ 2011/01/01 = { Title = x; }; }".utf8)).format, .openStepPropertyList)
    }
}
