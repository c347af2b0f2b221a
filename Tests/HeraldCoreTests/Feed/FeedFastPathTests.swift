import Foundation
@testable import HeraldCore
import HeraldTestSupport
import XCTest

extension FeedFields {
    /// The values in document order, texts in the document made strings.
    fileprivate var values: [FeedValue] { pairs.indices.map(value(at:)) }
}

/// The readers' shortcuts give what their general paths give.
final class FeedFastPathTests: XCTestCase {
    /// Keys that are one of `FeedKey`'s, or nearly: the shortcut must take only the exact ones.
    private let keys = [
        "Title", "Message", "ActionURL", "ActionButton", "MinVersion", "MaxVersion",
        "title", "Titles", "Titl", "TITLE", "Messages", "ActionURl", "MinVersio", "MaxVersionX", "MidVersion",
        "ActionButtoN", "Tîtle", "", "Extra",
    ]

    func testAKnownKeyIsSpelledByItsConstantAndNoOtherTextIs() {
        let known: Set = [FeedKey.title, FeedKey.message, FeedKey.actionURL, FeedKey.actionButton, FeedKey.minVersion, FeedKey.maxVersion]
        for key in keys {
            let found = Array(key.utf8).withUnsafeBufferPointer { FeedFields.knownKey($0) }
            XCTAssertEqual(found, known.contains(key) ? key : nil, key)
        }
    }

    func testJSONKeysReadThroughTheShortcutEqualKeysReadWithEscapes() throws {
        // An escape in a key sends it through the general path; the entries must come out equal.
        var plain = "{\"k\": {", escaped = "{\"k\": {"
        for (index, key) in keys.enumerated() {
            let separator = index == 0 ? "" : ", "
            let value = "\"v\(index)\""
            plain += "\(separator)\"\(key)\": \(value)"
            let spelled = key.unicodeScalars.map { "\\u" + String(format: "%04x", $0.value) }.joined()
            escaped += "\(separator)\"\(spelled)\": \(value)"
        }
        plain += "}}"
        escaped += "}}"
        let fast = try FeedDecoder.decode(Data(plain.utf8)), general = try FeedDecoder.decode(Data(escaped.utf8))
        XCTAssertEqual(fast, general)
        XCTAssertEqual(fast.entries["k"]?.title, "v0")
        XCTAssertEqual(fast.entries["k"]?.maxVersion, "v5")
        XCTAssertEqual(fast.entries["k"]?.details.count, keys.count)
    }

    func testXMLKeysReadThroughTheShortcutEqualKeysReadWithReferences() throws {
        var plain = "<plist><dict><key>k</key><dict>", referenced = plain
        for (index, key) in keys.enumerated() {
            plain += "<key>\(key)</key><string>v\(index)</string>"
            let spelled = key.unicodeScalars.map { "&#\($0.value);" }.joined()
            referenced += "<key>\(spelled)</key><string>v\(index)</string>"
        }
        plain += "</dict></dict></plist>"
        referenced += "</dict></dict></plist>"
        let fast = try FeedDecoder.decode(Data(plain.utf8)), general = try FeedDecoder.decode(Data(referenced.utf8))
        XCTAssertEqual(fast, general)
        XCTAssertEqual(fast.entries["k"]?.actionButton, "v3")
        XCTAssertEqual(fast.entries["k"]?.details.count, keys.count)
    }

    func testBinaryKeysReadThroughTheShortcutEqualKeysWrittenAsUTF16() throws {
        // A key in a short ASCII string takes the shortcut; the same key as UTF-16, or with its
        // length written as a separate integer, takes the general path.
        let asciiKeys = keys.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        func feed(_ spell: (String) -> [UInt8]) throws -> Feed {
            // Object 0 the root, 1 its key, 2 the entry; then each key and its value.
            var objects: [[UInt8]] = [BinaryPlistObject.dictionary([(key: 1, value: 2)]), BinaryPlistObject.ascii("k")]
            let pairs = asciiKeys.indices.map { (key: 3 + 2 * $0, value: 4 + 2 * $0) }
            objects.append(BinaryPlistObject.dictionary(pairs))
            for (index, key) in asciiKeys.enumerated() {
                objects.append(spell(key))
                objects.append(BinaryPlistObject.ascii("v\(index)"))
            }
            return try FeedDecoder.decode(Fixtures.binaryPlist(objects: objects))
        }
        let fast = try feed(BinaryPlistObject.ascii)
        let utf16 = try feed { BinaryPlistObject.utf16(Array($0.utf16)) }
        let longLength = try feed { [0x5F, 0x10, UInt8($0.utf8.count)] + Array($0.utf8) }
        XCTAssertEqual(fast, utf16)
        XCTAssertEqual(fast, longLength)
        XCTAssertEqual(fast.entries["k"]?.title, "v0")
        XCTAssertEqual(fast.entries["k"]?.maxVersion, "v5")
        XCTAssertEqual(fast.entries["k"]?.details.count, asciiKeys.count)
    }

    func testJSONStringsEndingAnywhereInAnEightByteWordReadAsJSONDecoderReadsThem() throws {
        // The string scanner reads eight bytes at a time and stops at the first quote, backslash
        // or control character within them: each must be found at every place in a word, with
        // and without a non-ASCII character before it.
        var values: [String] = []
        for length in 0...20 {
            let plain = String(repeating: "a", count: length)
            values += [plain, plain + "\\n", plain + "\\\"x", plain + "\\u00e9z", "é" + plain, plain + "é", plain + "\\/" + plain]
        }
        var document = "{\"k\": {"
        for (index, value) in values.enumerated() { document += (index == 0 ? "" : ", ") + "\"f\(index)\": \"\(value)\"" }
        document += "}}"
        let bytes = Data(document.utf8)
        let expected = try JSONDecoder().decode([String: [String: String]].self, from: bytes)["k"]
        let read = try FeedDecoder.decode(bytes).entries["k"]?.details
        XCTAssertEqual(read?.count, values.count)
        XCTAssertEqual(read, expected?.mapValues { FeedValue.string($0) })
        for length in 0...20 {
            // A raw control character is refused wherever it stands.
            let broken = "{\"k\": {\"Title\": \"" + String(repeating: "a", count: length) + "\u{1}\"}}"
            XCTAssertThrowsError(try FeedDecoder.decode(Data(broken.utf8)), "control character after \(length) bytes")
            // A byte that is not UTF-8 just before the closing quote spoils its entry only.
            let invalid = Data("{\"k\": {\"Title\": \"".utf8 + Array(repeating: UInt8(ascii: "a"), count: length) + [0xFF] + Array("\"}, \"ok\": {}}".utf8))
            let feed = try FeedDecoder.decode(invalid)
            XCTAssertNil(feed.entries["k"], "invalid UTF-8 after \(length) bytes")
            XCTAssertNotNil(feed.entries["ok"])
            XCTAssertEqual(feed.problems.map(\.key), ["k"])
        }
    }

    /// The fields of the document's first entry as a check reads them, after checking that they
    /// equal those of `eagerly`, the same reader making every string at once.
    private func firstEntryReadBothWays(_ bytes: Data, eagerly: ([UInt8]) throws -> FeedDocument) throws -> FeedFields {
        let lazy = try FeedDecoder.read(bytes), eager = try eagerly(Array(bytes))
        guard case .fields(let left)? = lazy.entries?.first?.body, case .fields(let right)? = eager.entries?.first?.body else {
            throw FeedError.unreadable("its first entry is not a dictionary")
        }
        XCTAssertEqual(left.pairs.map(\.name), right.pairs.map(\.name))
        XCTAssertEqual(left.values, right.values)
        XCTAssertEqual(Self.textsInDocument(right), 0)
        return left
    }

    /// How many of the values are left in the document.
    private static func textsInDocument(_ fields: FeedFields) -> Int {
        fields.pairs.filter { if case .text = $0.stored { true } else { false } }.count
    }

    func testPlainJSONTextsLeftInTheDocumentReadAsStringsMadeAtOnce() throws {
        // Plain ASCII values are left in the document's bytes; escaped, non-ASCII and other
        // values are made at once. Both must read as the reader that makes every string reads.
        var values = (0...40).map { "\"" + String(repeating: "x", count: $0) + "\"" }
        values += ["\"caf\\u00e9\"", "\"café\"", "\"tab\\there\"", "12", "1.5", "true", "null", "[\"a\", \"b\"]", "{\"en\": \"Hi\"}"]
        var document = "{\"k\": {\"Title\": \"first\", \"Message\": \"Body text that is longer than a small string\", "
        for (index, value) in values.enumerated() { document += "\"f\(index)\": \(value), " }
        document += "\"Title\": \"second\"}}"
        let bytes = Data(document.utf8)
        let left = try firstEntryReadBothWays(bytes, eagerly: JSONFeedReader.read)
        XCTAssertEqual(left["Title"], .string("second"), "a key given twice keeps its last value")
        XCTAssertEqual(Self.textsInDocument(left), 2 + 41, "the title, the message and the 41 plain values")
        let entry = try XCTUnwrap(FeedDecoder.decode(bytes).entries["k"])
        XCTAssertEqual(entry.title, "second")
        XCTAssertEqual(entry.message, "Body text that is longer than a small string")
        XCTAssertEqual(entry.field("f3"), .string("xxx"))
        XCTAssertEqual(entry.field("f41"), .string("café"))
    }

    func testPlainXMLTextsLeftInTheDocumentReadAsStringsMadeAtOnce() throws {
        // Plain `<string>` text is left in the document's bytes, whatever its length or script;
        // text with a reference, CDATA or a comment, and other values, are made at once.
        var values = (0...40).map { "<string>" + String(repeating: "x", count: $0) + "</string>" }
        values += ["<string>café</string>", "<string>a &amp; b</string>", "<string><![CDATA[<b>]]></string>", "<string>a<!-- c -->b</string>",
                   "<string/>", "<string>\n  spaced  \n</string>", "<integer>12</integer>", "<real>1.5</real>", "<true/>",
                   "<array><string>a</string></array>", "<dict><key>en</key><string>Hi</string></dict>"]
        var document = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>k</key><dict><key>Title</key><string>first</string>"
        for (index, value) in values.enumerated() { document += "<key>f\(index)</key>\(value)" }
        document += "<key>Title</key><string>second</string></dict></dict></plist>"
        let left = try firstEntryReadBothWays(Data(document.utf8), eagerly: XMLPropertyList.read)
        XCTAssertEqual(left["f41"], .string("café"))
        XCTAssertEqual(left["Title"], .string("second"), "a key given twice keeps its last value")
        XCTAssertEqual(Self.textsInDocument(left), 1 + 41 + 2, "the title, the 41 plain values, café and the spaced text")
        // Bytes that are not UTF-8 read as the reader that makes every string reads them.
        var invalid = Data("<plist><dict><key>k</key><dict><key>Title</key><string>a".utf8)
        invalid += [0xFF, 0xC3] + Data("b</string></dict></dict></plist>".utf8)
        XCTAssertEqual(try firstEntryReadBothWays(invalid, eagerly: XMLPropertyList.read)["Title"], .string("a\u{FFFD}\u{FFFD}b"))
        // A plain text whose close tag is not its own is refused, as any other text is.
        XCTAssertThrowsError(try FeedDecoder.decode(Data("<plist><dict><key>k</key><dict><key>Title</key><string>a</integer></dict></dict></plist>".utf8))) {
            XCTAssertTrue("\($0)".contains("</integer>"), "\($0)")
        }
    }

    func testBinaryASCIIStringsLeftInTheDocumentReadAsStringsMadeAtOnce() throws {
        // ASCII and UTF-8 string objects whose bytes are all ASCII are left in the document,
        // whatever the form of their length; UTF-16, non-ASCII and other values are made at once,
        // and an ASCII object holding other bytes still spoils its entry.
        var values: [[UInt8]] = (0...20).map { BinaryPlistObject.ascii(String(repeating: "x", count: $0)) }
        values += [
            [0x5F, 0x10, 3] + Array("abc".utf8),
            [0x73] + Array("utf".utf8),
            [0x75] + Array("café".utf8),
            BinaryPlistObject.utf16(Array("wide".utf16)),
            [0x10, 12], [0x09], [0x40],
        ]
        // Object 0 the root; 1, 2 its keys; 3, 4 the entries; 5 a string both entries share;
        // then each field's key and value.
        var objects: [[UInt8]] = [BinaryPlistObject.dictionary([(key: 1, value: 3), (key: 2, value: 4)]), BinaryPlistObject.ascii("k"),
                                  BinaryPlistObject.ascii("m"), [], [], BinaryPlistObject.ascii("Shared text of both entries")]
        var pairs: [(key: Int, value: Int)] = []
        for (index, value) in values.enumerated() {
            pairs.append((key: objects.count, value: objects.count + 1))
            objects.append(BinaryPlistObject.ascii("f\(index)"))
            objects.append(value)
        }
        pairs.append((key: objects.count, value: 5))
        objects.append(BinaryPlistObject.ascii("Title"))
        objects[3] = BinaryPlistObject.dictionary(pairs)
        objects[4] = BinaryPlistObject.dictionary([(key: objects.count - 1, value: 5)])
        let bytes = Fixtures.binaryPlist(objects: objects)
        let left = try firstEntryReadBothWays(bytes, eagerly: BinaryPropertyList.read)
        XCTAssertEqual(left["f21"], .string("abc"))
        XCTAssertEqual(left["f22"], .string("utf"))
        XCTAssertEqual(Self.textsInDocument(left), 21 + 2 + 1, "the 21 ASCII values, abc, utf and the title")
        let feed = try FeedDecoder.decode(bytes)
        XCTAssertEqual(feed.entries["k"]?.title, "Shared text of both entries")
        XCTAssertEqual(feed.entries["m"]?.title, "Shared text of both entries")
        XCTAssertEqual(feed.entries["k"]?.field("f23"), .string("café"))
        XCTAssertEqual(feed.entries["k"]?.field("f24"), .string("wide"))
        // Bytes beyond ASCII in an ASCII string spoil the entry, read either way.
        objects[5] = [0x52, 0x61, 0xE9]
        let spoiled = try FeedDecoder.decode(Fixtures.binaryPlist(objects: objects))
        XCTAssertEqual(spoiled.entries.count, 0)
        XCTAssertEqual(spoiled.problems.count, 2)
        XCTAssertEqual(spoiled.problems.first?.reason, "Title holds an ASCII string with bytes beyond ASCII")
    }

    func testAnEntryReadsItsTextsAfterTheBytesItWasReadFromAreGone() throws {
        // The bytes are a slice that does not start at 0, and nothing but the entry keeps them.
        func readEntry() throws -> FeedEntry {
            let padded = Data(Array(repeating: UInt8(ascii: " "), count: 64) + Array("{\"k\": {\"Title\": \"A title\", \"ActionURL\": \"https://example.com/a\", \"MinVersion\": \"1.2\"}}".utf8))
            let feed = try FeedDecoder.decode(padded[64...])
            return try XCTUnwrap(feed.entries["k"])
        }
        var entry = try readEntry()
        XCTAssertEqual(entry.title, "A title")
        XCTAssertEqual(entry.actionURL, "https://example.com/a")
        XCTAssertEqual(entry.minVersion, "1.2")
        XCTAssertEqual(entry.details, ["Title": .string("A title"), "ActionURL": .string("https://example.com/a"), "MinVersion": .string("1.2")])
        // Replacing the keys keeps the texts that were read from the document.
        let copy = entry
        entry.details = ["Other": .integer(1)]
        XCTAssertEqual(entry.title, "A title")
        XCTAssertEqual(entry.field("Other"), .integer(1))
        XCTAssertEqual(copy.field("ActionURL"), .string("https://example.com/a"))
        XCTAssertNotEqual(entry, copy)
    }

    func testOrderingByFoldedPrefixesGivesTheOrderOfTheFullComparison() {
        // Long shared prefixes, case-only differences, equal keys, NUL bytes, non-ASCII keys
        // mixed with ASCII ones: the shortcut must agree with `caseInsensitive` everywhere.
        var keys = [
            "2024/05/01", "2024/5/1", "2024/05/01-b", "2024/05/01-B", "2024/05/01", "a", "A", "", "\u{0}", "a\u{0}",
            "message-0000000000000000-1", "message-0000000000000000-2", "MESSAGE-0000000000000000-10",
            "é", "E", "z", "Zebra", "zebra", "Ωmega", "0", "10", "9", "[", "_", "`",
        ]
        for number in stride(from: 0, to: 400, by: 7) { keys.append("feed/\(number % 3 == 0 ? "X" : "x")/\(number)") }
        let expected = keys.indices.sorted { VersionComparison.caseInsensitive(keys[$0], keys[$1]) == .ascending }
        XCTAssertEqual(VersionComparison.caseInsensitiveOrder(of: keys), expected)
        XCTAssertEqual(CheckPolicy.order(keys.map { FeedEntry(key: $0) }, oldestFirst: true).map(\.key), expected.map { keys[$0] })
    }

    func testXMLTextEndingAnywhereInAnEightByteWordReadsAsFoundationReadsIt() throws {
        // Text is scanned eight bytes at a time up to the first '<' or '&': a close tag, a
        // reference or a CDATA section must each be found at every place in a word.
        var values: [String] = []
        for length in 0...17 {
            let plain = String(repeating: "a", count: length)
            values += [plain, plain + "&amp;x", "é" + plain + "&lt;", plain + "&#233;" + plain, plain + "<![CDATA[<c>]]>z"]
        }
        var document = "<plist><dict><key>k</key><dict>"
        for (index, value) in values.enumerated() { document += "<key>f\(index)</key><string>\(value)</string>" }
        document += "</dict></dict></plist>"
        let bytes = Data(document.utf8)
        let expected = try XCTUnwrap(try PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: [String: String]])["k"]
        let read = try FeedDecoder.decode(bytes).entries["k"]?.details
        XCTAssertEqual(read?.count, values.count)
        XCTAssertEqual(read, expected?.mapValues { FeedValue.string($0) })
    }

    func testAKeyOfALengthNoKeyHasIsNewAndOnlyThen() {
        // Keys are told new by their length first; lengths 64 apart share a bit, and a removed
        // key leaves its length's bit behind: neither may make a key look new or old wrongly.
        let long = String(repeating: "b", count: 65)
        var fields = FeedFields()
        fields.add("a", .integer(1))
        fields.add(long, .integer(2))
        fields.add(long, .integer(3))
        fields.add("c", .integer(4))
        XCTAssertEqual(fields.pairs.map(\.name), ["a", long, "c"])
        XCTAssertEqual(fields[long], .integer(3))
        fields["a"] = nil
        XCTAssertNil(fields["a"])
        fields.add("a", .integer(5))
        fields["d"] = .integer(6)
        fields["d"] = .integer(7)
        XCTAssertEqual(fields.pairs.map(\.name), [long, "c", "a", "d"])
        XCTAssertEqual(fields.values, [.integer(3), .integer(4), .integer(5), .integer(7)])
        XCTAssertNil(fields["e"])
    }

    func testAddingFieldsAsReadGivesWhatTheSubscriptGives() {
        // Past `indexedFrom` keys lookups go through an index; duplicates replace on both sides.
        var names = (0..<24).map { "key\($0)" }
        names += ["key3", "key20", "Title", "key23", "Title"]
        var added = FeedFields(), assigned = FeedFields()
        for (number, name) in names.enumerated() {
            added.add(name, .integer(number))
            assigned[name] = .integer(number)
        }
        XCTAssertEqual(added.pairs.map(\.name), assigned.pairs.map(\.name))
        XCTAssertEqual(added.values, assigned.values)
        for name in names + ["absent"] { XCTAssertEqual(added[name], assigned[name], name) }
        XCTAssertEqual(added["key20"], .integer(25))
    }
}
