import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// The description of the `FeedError` a document is refused with, or a failure note.
private func refusal(_ bytes: Data) -> String {
    do {
        let feed = try FeedDecoder.decode(bytes)
        return "decoded \(feed.entries.count) entries"
    } catch {
        return (error as? FeedError)?.description ?? "not a FeedError: \(error)"
    }
}

private func refusal(_ text: String) -> String { refusal(Data(text.utf8)) }

/// Binary plists are read by Herald's own reader, which refuses hostile object graphs.
final class HostileBinaryPlistTests: XCTestCase {
    typealias Object = BinaryPlistObject

    func testRootThatContainsItselfIsRefusedNotAStackOverflow() {
        let feed = Fixtures.binaryPlist(objects: [Object.array([0])])
        XCTAssertEqual(feed.count, 43)
        XCTAssertEqual(refusal(feed), "byte 8: object 0 contains itself (binary property list)")
    }

    func testEntryThatContainsItsOwnDictionaryIsRefused() {
        // { "a": { "Title": <the entry itself> } }
        let feed = Fixtures.binaryPlist(objects: [
            Object.dictionary([(key: 1, value: 2)]), Object.ascii("a"), Object.dictionary([(key: 3, value: 2)]), Object.ascii("Title"),
        ])
        XCTAssertEqual(refusal(feed), "byte 13: object 2 contains itself (binary property list)")
    }

    func testSharedChildrenThatExpandPastTheValueLimitAreRefusedAtOnce() {
        // Thirty arrays, each holding the next one twice: 2^30 values from 167 bytes.
        var objects = [Object.dictionary([(key: 1, value: 2)]), Object.ascii("a")]
        for level in 0..<30 { objects.append(Object.array([3 + level, 3 + level])) }
        objects.append(Object.ascii("x"))
        let feed = Fixtures.binaryPlist(objects: objects)
        XCTAssertLessThan(feed.count, 210)
        XCTAssertEqual(refusal(feed), "the document expands to more than 1,000,000 values "
            + "(an object shared by several containers counts each time it is reached) (binary property list)")
    }

    func testSharedStringThatExpandsPastTheByteLimitIsRefused() {
        // One 1 MiB string, referred to seventy times: 70 MiB of text from a 1 MiB file.
        let big = Object.ascii(String(repeating: "x", count: 1 << 20))
        let feed = Fixtures.binaryPlist(objects: [Object.dictionary([(key: 1, value: 2)]), Object.ascii("a"),
                                                  Object.array(Array(repeating: 3, count: 70)), big])
        XCTAssertEqual(refusal(feed), "the document expands to more than 64 MiB of strings and data "
            + "(an object shared by several containers counts each time it is reached) (binary property list)")
    }

    func testNestingDeeperThanTheLimitIsRefused() {
        // Forty distinct arrays, each inside the one before: no cycle, no sharing, just deep.
        var objects = (0..<40).map { Object.array([$0 + 1]) }
        objects.append(Object.ascii("x"))
        XCTAssertEqual(refusal(Fixtures.binaryPlist(objects: objects)), "the document nests deeper than 32 levels (binary property list)")
    }

    func testReferenceToAnObjectThatDoesNotExistIsRefused() {
        let feed = Fixtures.binaryPlist(objects: [Object.array([7])])
        XCTAssertEqual(refusal(feed), "byte 9: object 0 refers to object 7, which does not exist (binary property list)")
    }

    func testFileTooShortForItsTrailerEndsEarly() {
        XCTAssertEqual(refusal(Data("bplist00\u{A1}\u{0}".utf8)), "byte 11: the document ends early: the file is too short to hold a trailer (binary property list)")
    }

    func testOffsetTableOutsideTheFileIsRefused() {
        var bytes = [UInt8](Fixtures.binaryPlist(objects: [Object.ascii("x")]))
        bytes[bytes.count - 1] = 0xF0
        XCTAssertEqual(refusal(Data(bytes)), "byte 35: the offset table does not fit in the file (binary property list)")
    }

    func testLoneSurrogateSkipsOnlyItsEntry() throws {
        let feed = try FeedDecoder.decode(Fixtures.binaryPlist(objects: [
            Object.dictionary([(key: 1, value: 2), (key: 3, value: 5)]),
            Object.ascii("bad"), Object.dictionary([(key: 4, value: 6)]), Object.ascii("good"), Object.ascii("Title"),
            Object.dictionary([(key: 4, value: 7)]), Object.utf16([0x0041, 0xD800]), Object.ascii("Fine"),
        ]))
        XCTAssertEqual(Array(feed.entries.keys), ["good"])
        XCTAssertEqual(feed.entries["good"]?.title, "Fine")
        XCTAssertEqual(feed.problems, [FeedProblem(key: "bad", reason: "Title holds a lone UTF-16 surrogate, which is not text", field: "Title")])
    }

    func testSharedStringsAsFoundationWritesThemAreRead() throws {
        // Foundation's writer stores equal strings once; that sharing is ordinary.
        let entries = Dictionary(uniqueKeysWithValues: (1...50).map { ("2024/01/\($0)", ["Title": "Same", "MinVersion": "1.0"]) })
        let feed = try FeedDecoder.decode(try Fixtures.binaryFeed(entries))
        XCTAssertEqual(feed.format, .binaryPropertyList)
        XCTAssertEqual(feed.entries.count, 50)
        XCTAssertEqual(Set(feed.entries.values.map(\.title)), ["Same"])
    }

    func testAnASCIIStringHoldingBytesBeyondASCIISpoilsEveryEntryThatSharesItAndNoOther() throws {
        // Object 0 the root; 1, 2, 3 its keys; 4, 5 entries sharing the title 7, 6 an entry
        // with a title of its own (8); 9 the key Title.
        let objects: [[UInt8]] = [
            BinaryPlistObject.dictionary([(key: 1, value: 4), (key: 2, value: 5), (key: 3, value: 6)]),
            BinaryPlistObject.ascii("k"), BinaryPlistObject.ascii("m"), BinaryPlistObject.ascii("ok"),
            BinaryPlistObject.dictionary([(key: 9, value: 7)]), BinaryPlistObject.dictionary([(key: 9, value: 7)]),
            BinaryPlistObject.dictionary([(key: 9, value: 8)]),
            [0x52, 0x61, 0xE9], BinaryPlistObject.ascii("Fine"), BinaryPlistObject.ascii("Title"),
        ]
        let feed = try FeedDecoder.decode(Fixtures.binaryPlist(objects: objects))
        XCTAssertEqual(feed.entries.mapValues(\.title), ["ok": "Fine"])
        XCTAssertEqual(feed.problems.map(\.key).sorted(), ["k", "m"])
        XCTAssertEqual(Set(feed.problems.map(\.reason)), ["Title holds an ASCII string with bytes beyond ASCII"])
    }

    func testEveryValueKindReadsAsTheXMLOfTheSameFeedDoes() throws {
        let entry: [String: Any] = [
            "Title": "Ünïcode 😀", "Count": 42, "Negative": -7, "Big": Int64.max, "Ratio": 1.5, "Flag": true,
            "When": Date(timeIntervalSince1970: 1_700_000_000), "Blob": Data([0, 1, 2]), "List": ["a", 2], "Nested": ["k": "v"],
        ]
        let plist: [String: Any] = ["a": entry]
        let binary = try FeedDecoder.decode(try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
        let xml = try FeedDecoder.decode(try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0))
        XCTAssertEqual(binary.entries, xml.entries)
        XCTAssertEqual(binary.entries["a"]?.details["Big"], .integer(Int.max))
        XCTAssertEqual(binary.entries["a"]?.details["Ratio"], .real(1.5))
    }
}

/// JSON is chosen by its first bytes and read by Herald's own reader: one bad value skips its
/// entry, and syntax errors are JSON's, with line and column.
final class HostileJSONTests: XCTestCase {
    func testFormatIsChosenFromTheFirstBytes() {
        XCTAssertEqual(FeedDecoder.format(of: Data(#"{"a": {}}"#.utf8)), .json)
        XCTAssertEqual(FeedDecoder.format(of: Data(" \n[1]".utf8)), .json)
        XCTAssertEqual(FeedDecoder.format(of: Data("{}".utf8)), .json)
        XCTAssertEqual(FeedDecoder.format(of: Data(#"{ a = { Title = x; }; }"#.utf8)), .openStepPropertyList)
        XCTAssertEqual(FeedDecoder.format(of: Data(#"{ "a b" = x; }"#.utf8)), .openStepPropertyList)
        XCTAssertEqual(FeedDecoder.format(of: Data("<?xml".utf8)), .xmlPropertyList)
        XCTAssertEqual(FeedDecoder.format(of: Data("bplist00".utf8)), .binaryPropertyList)
        XCTAssertEqual(FeedDecoder.format(of: Data("( a )".utf8)), .openStepPropertyList)
        XCTAssertNil(FeedDecoder.format(of: Data(" \n\t".utf8)))
    }

    func testLoneSurrogateSkipsOnlyItsEntry() throws {
        let feed = try FeedDecoder.decode(Data(#"{"good": {"Title": "ok"}, "bad": {"Title": "x\ud800y"}}"#.utf8))
        XCTAssertEqual(feed.format, .json)
        XCTAssertEqual(Array(feed.entries.keys), ["good"])
        XCTAssertEqual(feed.problems, [FeedProblem(key: "bad", reason: #"Title holds a lone UTF-16 surrogate (\uD800), which is not text"#, field: "Title")])
    }

    func testLoneLowSurrogateDeepInsideAnEntrySkipsThatEntry() throws {
        let feed = try FeedDecoder.decode(Data(#"{"good": {"Title": "ok"}, "bad": {"Extra": {"Tags": ["a", "\udc00"]}}}"#.utf8))
        XCTAssertEqual(feed.problems, [FeedProblem(key: "bad", reason: #"Extra.Tags[1] holds a lone UTF-16 surrogate (\uDC00), which is not text"#, field: "Extra")])
    }

    func testLoneSurrogateInAMessageIDSkipsThatEntry() throws {
        let feed = try FeedDecoder.decode(Data(#"{"good": {"Title": "ok"}, "x\ud800": {"Title": "t"}}"#.utf8))
        XCTAssertEqual(Array(feed.entries.keys), ["good"])
        XCTAssertEqual(feed.problems, [FeedProblem(key: "x\u{FFFD}", reason: #"the message id holds a lone UTF-16 surrogate (\uD800), which is not text"#)])
    }

    func testAMessageIDHoldingANULOrAnotherControlCharacterSkipsOnlyItsEntryAndNoOtherIDCanBeCutIntoIt() throws {
        let feed = try FeedDecoder.decode(Data(#"{"a": {"Title": "ok"}, "a\u0000b": {"Title": "cut"}, "c\u001b[2J": {"Title": "t"}, "d\u0085": {"Title": "t"}}"#.utf8))
        XCTAssertEqual(Array(feed.entries.keys), ["a"])
        let sentence = ": an id is text without control characters, so that every place it goes carries it whole"
        XCTAssertEqual(feed.problems, [
            FeedProblem(key: "a\0b", reason: "the message id holds the control character U+0000" + sentence),
            FeedProblem(key: "c\u{1B}[2J", reason: "the message id holds the control character U+001B" + sentence),
            FeedProblem(key: "d\u{85}", reason: "the message id holds the control character U+0085" + sentence),
        ])
        XCTAssertEqual(feed.documentEntries.keys.sorted(), ["a"], "listed by herald validate as an entry that cannot be read")
        XCTAssertNil(FeedProblem.idRefusal("2026/01/01 é 😀 \u{200B}"), "only control characters")
    }

    func testAFeedCannotGiveAMessageTheIdOfHeraldsOwnWhatsNew() throws {
        let feed = try FeedDecoder.decode(Data(#"{"a": {"Title": "ok"}, "whats-new/9.0": {"Title": "Not Herald's"}}"#.utf8))
        XCTAssertEqual(Array(feed.entries.keys), ["a"])
        XCTAssertEqual(feed.problems, [FeedProblem(key: "whats-new/9.0",
                                                   reason: "the message id begins with “whats-new/”, which Herald keeps for the What's new messages it makes itself")])
    }

    func testSurrogatePairIsOneCharacter() throws {
        let feed = try FeedDecoder.decode(Data(#"{"a": {"Title": "\ud83d\ude00 \u00e9"}}"#.utf8))
        XCTAssertEqual(feed.entries["a"]?.title, "😀 é")
    }

    func testNumberBeyondADoubleSkipsOnlyItsEntry() throws {
        let feed = try FeedDecoder.decode(Data(#"{"good": {"Title": "ok"}, "bad": {"Title": "t", "Weight": 1e400}}"#.utf8))
        XCTAssertEqual(Array(feed.entries.keys), ["good"])
        XCTAssertEqual(feed.problems, [FeedProblem(key: "bad", reason: "Weight is the number 1e400, beyond the range of a double", field: "Weight")])
    }

    func testInvalidUTF8SkipsOnlyItsEntry() throws {
        var bytes = Array(#"{"good": {"Title": "ok"}, "bad": {"Message": "?"}}"#.utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "?"))!] = 0xFF
        let feed = try FeedDecoder.decode(Data(bytes))
        XCTAssertEqual(feed.problems, [FeedProblem(key: "bad", reason: "Message is not valid UTF-8", field: "Message")])
    }

    func testValuesReadAsJSONDecoderReadThem() throws {
        let feed = try FeedDecoder.decode(Data(#"{"a": {"I": 3, "Neg": -12, "R": 2.5, "E": 1e3, "Huge": 12345678901234567890, "T": true, "N": null, "L": [1, "x"], "D": {}}}"#.utf8))
        XCTAssertEqual(feed.entries["a"]?.details, [
            "I": .integer(3), "Neg": .integer(-12), "R": .real(2.5), "E": .real(1000), "Huge": .real(1.2345678901234567e19),
            "T": .bool(true), "N": .null, "L": .array([.integer(1), .string("x")]), "D": .dictionary([:]),
        ])
    }

    func testSyntaxErrorIsJSONsOwnWithLineAndColumn() {
        XCTAssertEqual(refusal("{\"a\": {\"Title\": \"x\",}\n}"),
                       "line 1, column 20: a trailing ',' before '}': JSON allows none (JSON)")
        XCTAssertEqual(refusal("{\"a\": {\"Title\": \"x\"}\n\"b\": 1}"),
                       "line 2, column 1: expected ',' or '}' after a value in an object: a ',' is missing before this key (JSON)")
    }

    func testDocumentCutOffEndsEarly() {
        XCTAssertEqual(refusal(#"{"a": {"Title": "x"#), "line 1, column 17: the document ends before this string is closed (JSON)")
    }

    func testNestingDeeperThanTheLimitIsRefused() {
        XCTAssertEqual(refusal(String(repeating: "[", count: 100_000)), "the document nests deeper than 32 levels (JSON)")
        XCTAssertEqual(refusal(String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40)),
                       "the document nests deeper than 32 levels (JSON)")
    }

    func testMoreValuesThanTheLimitAreRefused() {
        let list = Array(repeating: "0", count: 1_000_001).joined(separator: ",")
        XCTAssertEqual(refusal(#"{"a": {"L": ["# + list + "]}}"), "the document holds more than 1,000,000 values (JSON)")
    }
}

/// XML plists are checked before Foundation reads them; OpenStep plists obey the same limits.
final class HostileXMLAndOpenStepTests: XCTestCase {
    let header = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<plist version="1.0">"# + "\n"

    func testTruncatedXMLSaysWhereItEndsEarly() {
        let xml = header + "<dict>\n  <key>a</key>\n  <dict><key>Title</key><string>cut"
        XCTAssertEqual(refusal(xml), "line 5, column 25: the document ends before this <string> is closed (XML property list)")
        XCTAssertFalse(refusal(xml).contains("CocoaError"))
    }

    func testXMLCutInsideATagEndsEarly() {
        XCTAssertEqual(refusal(header + "<dict><key>a</key><dic"), "line 3, column 19: the document ends inside this tag (XML property list)")
    }

    func testMismatchedCloseTagNamesItsLine() {
        let xml = header + "<dict>\n<key>a</key>\n<dict><key>Title</key><string>x</strin></dict>\n</dict>\n</plist>\n"
        XCTAssertEqual(refusal(xml), "line 5, column 32: </strin> does not close <string> from line 5 (XML property list)")
    }

    func testAValueThatIsNotWhatItsTagSaysSkipsOnlyItsEntry() throws {
        let xml = header + "<dict><key>a</key><dict><key>N</key><integer>ten</integer></dict>"
            + "<key>b</key><dict><key>When</key><date>yesterday</date></dict>"
            + "<key>c</key><dict><key>Title</key><string>Kept</string></dict></dict></plist>"
        let feed = try FeedDecoder.decode(Data(xml.utf8))
        XCTAssertEqual(feed.entries.keys.sorted(), ["c"])
        XCTAssertEqual(feed.problems.map(\.description), [
            "'a': N is <integer>ten</integer>, not a whole number that fits 64 bits",
            "'b': When is <date>yesterday</date>, not a date such as 2024-01-31T09:00:00Z",
        ])
    }

    func testTextWhereAKeyBelongsNamesItsLineAndColumn() {
        let xml = header + "<dict>\n    <key>a</key><dict/>\n    ...\n</dict></plist>"
        XCTAssertEqual(refusal(xml), "line 5, column 5: unexpected '...' where a <key> was expected (XML property list)")
    }

    func testABareAmpersandIsRefusedWithItsPlace() {
        let xml = header + "<dict><key>a</key><dict><key>Title</key><string>Tom & Jerry</string></dict></dict></plist>"
        XCTAssertEqual(refusal(xml), "line 3, column 53: a bare '&'; write it as &amp; (XML property list)")
    }

    func testDeepXMLNestingIsRefusedNotAStackOverflow() {
        let xml = header + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>"
        XCTAssertEqual(refusal(xml), "the document nests deeper than 32 levels (XML property list)")
    }

    func testInlineDTDIsRefusedAsFoundationRefusesIt() {
        XCTAssertEqual(refusal(#"<!DOCTYPE plist [ <!ENTITY x "y"> ]><plist><dict/></plist>"#),
                       "line 1, column 17: an inline DTD is not allowed in a property list (XML property list)")
    }

    func testTagsInsideCommentsAndCDATADoNotCount() throws {
        let xml = header + "<!-- </dict></dict> <array> -->\n<dict><key>a</key><dict><key>Title</key><string><![CDATA[<b></dict>]]></string></dict></dict></plist>"
        XCTAssertEqual(try FeedDecoder.decode(Data(xml.utf8)).entries["a"]?.title, "<b></dict>")
    }

    func testDeepOpenStepNestingIsRefused() {
        XCTAssertEqual(refusal(String(repeating: "(", count: 10_000)), "the document nests deeper than 32 levels (OpenStep property list)")
    }

    func testOpenStepSurrogatePairIsOneCharacterAndALoneOneSkipsItsEntry() throws {
        let feed = try FeedDecoder.decode(Data(#"{ good = { Title = "\UD83D\UDE00"; }; bad = { Title = "\UD800"; }; }"#.utf8))
        XCTAssertEqual(feed.entries["good"]?.title, "😀")
        XCTAssertEqual(feed.problems, [FeedProblem(key: "bad", reason: #"Title holds a lone UTF-16 surrogate (\UD800), which is not text"#, field: "Title")])
    }

    func testOpenStepSyntaxErrorHasLineAndColumn() {
        XCTAssertEqual(refusal("{\n  a = { Title = x; }\n}"),
                       "line 3, column 1: expected ';' after the value of \"a\" (OpenStep property list)")
    }
}

/// Summaries and bodies: nothing invisible reaches the notification server, and the caps
/// count what the server receives.
final class HostileTextTests: XCTestCase {
    func testInvisibleCharactersAreRemovedFromSummaries() {
        let invisible = [
            "\u{061C}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
            "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{2060}", "\u{00AD}", "\u{115F}", "\u{1160}", "\u{3164}", "\u{FFA0}",
            "\u{E0001}", "\u{E0041}", "\u{E007F}", "\u{FEFF}", "\u{034F}", "\u{180E}", "\u{FFFF}",
        ]
        for character in invisible {
            let scalar = String(format: "U+%04X", character.unicodeScalars.first!.value)
            XCTAssertEqual(NotificationText.summary("Sale\(character) ends"), "Sale ends", scalar)
            XCTAssertEqual(NotificationText.body("a\(character)b\nc", markup: false), "ab\nc", scalar)
        }
    }

    func testLineAndParagraphSeparatorsAreSpacesInASummaryAndBreaksInABody() {
        XCTAssertEqual(NotificationText.summary("one\u{2028}two\u{2029}three\u{85}four\r\nfive"), "one two three four five")
        XCTAssertEqual(NotificationText.body("one\u{2028}two\u{2029}three\r\nfour\rfive", markup: false), "one\ntwo\nthree\nfour\nfive")
    }

    func testVariationSelectorIsKeptAfterItsCharacterAndRemovedAlone() {
        XCTAssertEqual(NotificationText.summary("\u{FE0F}I \u{2764}\u{FE0F} it \u{FE0F}\u{FE0E}"), "I \u{2764}\u{FE0F} it")
        XCTAssertEqual(NotificationText.summary("\u{845B}\u{E0100}"), "\u{845B}\u{E0100}")
    }

    func testEmojiSequencesStayWhole() {
        let developer = "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}"
        let rainbowFlag = "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}"
        let scotland = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        XCTAssertEqual(NotificationText.summary("\(developer) \(rainbowFlag) \(scotland)"), "\(developer) \(rainbowFlag) \(scotland)")
    }

    func testJoinerOutsideAnEmojiSequenceIsRemoved() {
        XCTAssertEqual(NotificationText.summary("pay\u{200D}pal \u{1F600}\u{200D} x\u{200D}\u{1F600}"), "paypal \u{1F600} x\u{1F600}")
    }

    func testSummaryWithNothingVisibleFallsBackToTheAppName() {
        let blank = "\u{3164}\u{200B} \u{2800}\u{115F}\u{FEFF}\u{2028}"
        XCTAssertEqual(NotificationText.summary(blank), "")
        let content = NotificationContent.make(for: FeedEntry(key: "k", title: blank, message: "m"), labels: .english,
                                               capabilities: ["actions"], fallbackSummary: "Example")
        XCTAssertEqual(content.summary, "Example")
    }

    func testCombiningMarksCountTowardTheCap() {
        let zalgo = "ab" + "e" + String(repeating: "\u{0301}", count: 250_000)
        let summary = NotificationText.summary(zalgo)
        XCTAssertEqual(summary, "ab…")
        let body = NotificationText.body(String(repeating: "e\u{0301}\u{0302}", count: 1_000), markup: false)
        XCTAssertEqual(body, String(repeating: "e\u{0301}\u{0302}", count: 333) + "…")
        XCTAssertEqual(body.unicodeScalars.count, 1_000)
    }

    func testSummaryCapCountsUTF8Bytes() {
        let summary = NotificationText.summary(String(repeating: "\u{1F600}", count: 200))
        XCTAssertEqual(summary, String(repeating: "\u{1F600}", count: 89) + "…")
        XCTAssertEqual(summary.utf8.count, 359)
    }

    func testBodyCapCutsOnAGraphemeBoundary() {
        let family = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        let body = NotificationText.body(String(repeating: family, count: 200), markup: false)
        XCTAssertEqual(body, String(repeating: family, count: 119) + "…")
        XCTAssertLessThanOrEqual(body.utf8.count, NotificationText.bodyByteLimit)
    }
}

/// Links are checked as written and opened as written; feed files are local.
final class HostileURLTests: XCTestCase {
    func testActionURLWithALineBreakIsRefused() {
        XCTAssertEqual(URLRules().actionURLRefusal("https://example.com/a\nhttps://evil.example"), "the URL contains a line break: percent-encode it")
        XCTAssertEqual(URLRules().actionURLRefusal("https://example.com/a\r"), "the URL contains a line break: percent-encode it")
    }

    func testActionURLWithWhiteSpaceControlInvisibleOrBackslashIsRefused() {
        let rules = URLRules()
        XCTAssertEqual(rules.actionURLRefusal("https://exa mple.com"), "the URL contains a space: percent-encode it")
        XCTAssertEqual(rules.actionURLRefusal("https://example.com/\tx"), "the URL contains a tab: percent-encode it")
        XCTAssertEqual(rules.actionURLRefusal("https://evil.example\\@example.com/"), "the URL contains a backslash: percent-encode it")
        XCTAssertEqual(rules.actionURLRefusal("https://example.com/\u{202E}gpj.exe"), "the URL contains U+202E: percent-encode it")
        XCTAssertEqual(rules.actionURLRefusal("https://example.com/\u{0}"), "the URL contains U+0000: percent-encode it")
        XCTAssertEqual(rules.actionURLRefusal("https://example.com/\u{A0}"), "the URL contains U+00A0: percent-encode it")
        XCTAssertNil(rules.actionURLRefusal("https://example.com/a%20b?q=%0A"))
    }

    func testMessageWithARefusedActionURLIsSkippedWithRefusedURL() {
        let feed = Feed(entries: [
            FeedEntry(key: "a", title: "A", actionURL: "https://example.com/\nx"),
            FeedEntry(key: "b", title: "B", actionURL: "https://example.com/b"),
        ])
        let selection = CheckPolicy.select(feed, state: HeraldState(), in: PolicyContext(configuration: CheckConfiguration(), now: TestClock().now))
        XCTAssertEqual(selection.candidates.map(\.key), ["b"])
        XCTAssertEqual(selection.skipped.map(\.key), ["a"])
        XCTAssertEqual(selection.skipped.first?.reason, .refusedURL("the URL contains a line break: percent-encode it"))
        XCTAssertEqual(selection.skipped.first?.reason.name, "refused-url")
    }

    func testFileFeedMustBeOnThisMachine() {
        let rules = URLRules()
        XCTAssertEqual(rules.feedURLRefusal("file://evil.example/etc/passwd"),
                       "a file: feed must be on this machine (file:///path or file://localhost/path), not on host evil.example")
        XCTAssertNotNil(rules.feedURLRefusal("file://127.0.0.1/etc/passwd"))
        XCTAssertNil(rules.feedURLRefusal("file:///tmp/feed.plist"))
        XCTAssertNil(rules.feedURLRefusal("file://localhost/tmp/feed.plist"))
        XCTAssertNil(rules.feedURLRefusal("file://LOCALHOST/tmp/feed.plist"))
        XCTAssertNil(rules.feedURLRefusal("file:/tmp/feed.plist"))
    }
}

/// Numbers on the command line and in prompts files stay within documented limits.
final class HostileNumberTests: XCTestCase {
    func testARangeRefusesNaNInfinityAndWhatIsOutsideIt() {
        let timeout = AllowedRange(upTo: 3_600, "seconds", zeroAllowed: false)
        XCTAssertEqual(timeout.requirement(refusing: 4_294_967_296), "must be more than 0 and at most 3600 seconds, not 4294967296")
        XCTAssertEqual(timeout.requirement(refusing: .infinity), "must be more than 0 and at most 3600 seconds, not inf")
        XCTAssertEqual(timeout.requirement(refusing: .nan), "must be more than 0 and at most 3600 seconds, not nan")
        XCTAssertEqual(timeout.requirement(refusing: 0), "must be more than 0 and at most 3600 seconds, not 0")
        XCTAssertNil(timeout.requirement(refusing: 3_600))
        XCTAssertNil(timeout.requirement(refusing: 0.5))
        let period = AllowedRange(upTo: 3_650, "days", zeroAllowed: true)
        XCTAssertEqual(period.requirement(refusing: 3_650.5), "must be from 0 to 3650 days, not 3650.5")
        XCTAssertEqual(period.requirement(refusing: -.infinity), "must be from 0 to 3650 days, not -inf")
        XCTAssertNil(period.requirement(refusing: 0))
    }

    func testPromptNumbersBeyondTheirLimitsLeaveOnlyThatPromptOut() throws {
        let file = try PromptsFile.decode(Data(#"""
            {"days": {"title": "D", "daysUntilPrompt": 1e19},
             "uses": {"title": "U", "usesUntilPrompt": 1e30},
             "remind": {"title": "R", "remindPeriod": "inf"},
             "fine": {"title": "F", "daysUntilPrompt": 3650, "usesUntilPrompt": 1000000000}}
            """#.utf8))
        XCTAssertEqual(file.prompts.map(\.name), ["fine"])
        XCTAssertEqual(file.problems.map(\.description), [
            "prompt 'days', key 'daysUntilPrompt': must be a number of days from 0 to 3650, not 1e+19 (prompt left out)",
            "prompt 'remind', key 'remindPeriod': must be a number of days from 0 to 3650, not inf (prompt left out)",
            "prompt 'uses', key 'usesUntilPrompt': must be a whole number of uses from 0 to 1,000,000,000, not 1e+30 (prompt left out)",
        ])
    }

    func testPromptWithAnUnreadableValueIsLeftOutByName() throws {
        let file = try PromptsFile.decode(Data(#"{"bad": {"title": "\ud800"}, "good": {"title": "G"}}"#.utf8))
        XCTAssertEqual(file.prompts.map(\.name), ["good"])
        XCTAssertEqual(file.problems.map(\.description),
                       [#"prompt 'bad': title holds a lone UTF-16 surrogate (\uD800), which is not text (prompt left out)"#])
    }

    func testDecisionAboutAPromptBuiltWithTheLongestPeriodsIsDescribedWithoutTrapping() {
        let prompt = Prompt(name: "p", settings: PromptSettings(title: "P", usesUntilPrompt: 0, daysUntilPrompt: .seconds(Int64.max), remindPeriod: .seconds(Int64.max)))
        let clock = TestClock()
        let waiting = PromptPolicy.decide(prompt, state: PromptState(firstUsed: clock.now, usesCount: 1), now: clock.after(days: 1))
        XCTAssertEqual(waiting.description, "waits: used for 1 day of 106751991167300.6 days")
        let reminded = Prompt(name: "r", settings: PromptSettings(title: "R", usesUntilPrompt: 0, daysUntilPrompt: .zero, remindPeriod: .seconds(Int64.max)))
        let decision = PromptPolicy.decide(reminded, state: PromptState(firstUsed: clock.now, lastReminded: clock.now, usesCount: 1), now: clock.after(days: 1))
        XCTAssertEqual(decision.description, "waits: reminded 24 h ago, remind period 106751991167300.6 days")
    }
}
