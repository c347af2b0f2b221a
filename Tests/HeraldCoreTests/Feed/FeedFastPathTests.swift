import Foundation
@testable import HeraldCore
import HeraldTestSupport
import XCTest

extension FeedFields {
    /// The values in document order.
    fileprivate var values: [FeedValue] { pairs.map(\.value) }
}

/// The readers' and the ordering's shortcuts (strings scanned eight bytes at a time, keys
/// ordered by their folded prefixes, long entries indexed) give what their general paths give.
final class FeedFastPathTests: XCTestCase {
    /// Keys that are one of `FeedKey`'s, or nearly: each must be read as written.
    private let keys = [
        "Title", "Message", "ActionURL", "ActionButton", "MinVersion", "MaxVersion",
        "title", "Titles", "Titl", "TITLE", "Messages", "ActionURl", "MinVersio", "MaxVersionX", "MidVersion",
        "ActionButtoN", "Tîtle", "", "Extra",
    ]

    /// A feed of one entry, `k`, holding each of `keys` with the value "vN" under the Nth key,
    /// written by `document` from its (key, value) pairs: once with the keys as they are, once
    /// with each spelled by `spell`.
    private func decodedPlainAndSpelled(_ document: ([(key: String, value: String)]) -> String,
                                        spell: (String) -> String) throws -> (plain: Feed, spelled: Feed) {
        let values = keys.indices.map { "v\($0)" }
        let plain = document(Array(zip(keys, values))), spelled = document(Array(zip(keys.map(spell), values)))
        return (try FeedDecoder.decode(Data(plain.utf8)), try FeedDecoder.decode(Data(spelled.utf8)))
    }

    func testAJSONKeyReadsTheSameWrittenPlainOrWithEscapes() throws {
        // A key written with escapes is the same key: the entries must come out equal.
        let (fast, general) = try decodedPlainAndSpelled({ pairs in
            "{\"k\": {" + pairs.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ") + "}}"
        }, spell: { key in key.unicodeScalars.map { "\\u" + String(format: "%04x", $0.value) }.joined() })
        XCTAssertEqual(fast, general)
        XCTAssertEqual(fast.entries["k"]?.title, "v0")
        XCTAssertEqual(fast.entries["k"]?.maxVersion, "v5")
        XCTAssertEqual(fast.entries["k"]?.details.count, keys.count)
    }

    func testAnXMLKeyReadsTheSameWrittenPlainOrWithReferences() throws {
        let (fast, general) = try decodedPlainAndSpelled({ pairs in
            "<plist><dict><key>k</key><dict>" + pairs.map { "<key>\($0.key)</key><string>\($0.value)</string>" }.joined()
                + "</dict></dict></plist>"
        }, spell: { key in key.unicodeScalars.map { "&#\($0.value);" }.joined() })
        XCTAssertEqual(fast, general)
        XCTAssertEqual(fast.entries["k"]?.actionButton, "v3")
        XCTAssertEqual(fast.entries["k"]?.details.count, keys.count)
    }

    func testABinaryKeyReadsTheSameAsASCIIAsUTF16OrWithItsLengthApart() throws {
        // A key in a short ASCII string, the same key as UTF-16, or with its length written as a
        // separate integer: the same key.
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

    func testFieldsKeepEachKeyOnceInTheOrderItWasFirstAdded() {
        // Adding, replacing and removing keys keeps each key once, in the order it was first
        // added.
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
