import Foundation
@testable import HeraldCore
import XCTest

/// The XML property list reader accepts every form Foundation's reader accepts in a feed.
final class XMLPropertyListTests: XCTestCase {
    let header = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        + #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"# + "\n"

    /// Why the document of the header and `body` is refused, or "decoded".
    func refusal(_ body: String) -> String {
        do {
            _ = try FeedDecoder.decode(Data((header + body).utf8))
            return "decoded"
        } catch {
            return (error as? FeedError)?.description ?? "\(error)"
        }
    }

    /// The `details` of entry `a` of a feed whose entry `a` is `fields` (XML inside `<dict>`).
    func details(_ fields: String) throws -> [String: FeedValue] {
        let xml = header + "<plist version=\"1.0\"><dict><key>a</key><dict>" + fields + "</dict></dict></plist>\n"
        let feed = try FeedDecoder.decode(Data(xml.utf8))
        XCTAssertEqual(feed.problems, [])
        return try XCTUnwrap(feed.entries["a"]).details
    }

    func testEveryValueKindIsReadAsFoundationReadsIt() throws {
        let read = try details("""
            <key>S</key><string>text</string>
            <key>I</key><integer>-42</integer>
            <key>H</key><integer>0x1F</integer>
            <key>R</key><real>1.5</real>
            <key>T</key><true/>
            <key>F</key><false></false>
            <key>D</key><date>2024-02-29T12:30:05Z</date>
            <key>B</key><data>
                aGVs
                bG8=
            </data>
            <key>A</key><array><string>x</string><integer>1</integer><array/></array>
            <key>E</key><dict/>
            """)
        XCTAssertEqual(read["S"], .string("text"))
        XCTAssertEqual(read["I"], .integer(-42))
        XCTAssertEqual(read["H"], .integer(31))
        XCTAssertEqual(read["R"], .real(1.5))
        XCTAssertEqual(read["T"], .bool(true))
        XCTAssertEqual(read["F"], .bool(false))
        XCTAssertEqual(read["D"], .date(Date(timeIntervalSince1970: 1_709_209_805)))
        XCTAssertEqual(read["B"], .data(Data("hello".utf8)))
        XCTAssertEqual(read["A"], .array([.string("x"), .integer(1), .array([])]))
        XCTAssertEqual(read["E"], .dictionary([:]))
    }

    func testTextKeepsEntitiesReferencesCDATAAndWhiteSpaceAndDropsComments() throws {
        let read = try details("""
            <key>Title</key><string>Tom &amp; Jerry &lt;3 &quot;&apos;&gt; &#233;&#x1F600;</string>
            <key>Message</key><string>  two
            lines <![CDATA[<b>&amp;</b>]]><!-- a note --> end</string>
            <key>Empty</key><string/>
            <key>Also</key><string></string>
            """)
        XCTAssertEqual(read["Title"], .string("Tom & Jerry <3 \"'> é😀"))
        XCTAssertEqual(read["Message"], .string("  two\nlines <b>&amp;</b> end"))
        XCTAssertEqual(read["Empty"], .string(""))
        XCTAssertEqual(read["Also"], .string(""))
    }

    func testTagsWithSpaceBeforeTheirEndReadAsPlainOnes() throws {
        let read = try details("<key >Title</key\n><string\t>spaced</string >\n<key>N</key><integer >7</integer>")
        XCTAssertEqual(read["Title"], .string("spaced"))
        XCTAssertEqual(read["N"], .integer(7))
    }

    func testACloseTagMustSpellTheNameItClosesWhateverItsLength() {
        func refusal(_ fields: String) -> String { self.refusal("<plist><dict><key>a</key><dict>" + fields + "</dict></dict></plist>") }
        XCTAssertEqual(refusal("<key>T</kez><string>x</string>"),
                       "line 3, column 38: </kez> does not close <key> from line 3 (XML property list)")
        XCTAssertEqual(refusal("<key>T</keys><string>x</string>"),
                       "line 3, column 38: </keys> does not close <key> from line 3 (XML property list)")
        XCTAssertEqual(refusal("<key>T</key><string>x</strin>"),
                       "line 3, column 53: </strin> does not close <string> from line 3 (XML property list)")
        XCTAssertEqual(refusal("<key>T</key><date>2024-01-01T00:00:00Z</data>"),
                       "line 3, column 70: </data> does not close <date> from line 3 (XML property list)")
        XCTAssertEqual(refusal("<key>T</key><strings>x</strings>"),
                       "line 3, column 44: <strings> is not a property list tag (XML property list)")
        XCTAssertEqual(refusal("<key>T</key><String>x</String>"),
                       "line 3, column 44: <String> is not a property list tag (XML property list)")
    }

    func testAPropertyListWithoutThePlistElementOrDeclarationIsRead() throws {
        let feed = try FeedDecoder.decode(Data("<dict><key>a</key><dict><key>Title</key><string>Bare</string></dict></dict>".utf8))
        XCTAssertEqual(feed.entries["a"]?.title, "Bare")
    }

    func testALaterDuplicateKeyReplacesTheEarlier() throws {
        XCTAssertEqual(try details("<key>Title</key><string>first</string><key>Title</key><string>second</string>")["Title"], .string("second"))
    }

    func testAnIntegerBeyond64BitsSkipsItsEntry() throws {
        let xml = header + "<plist><dict><key>a</key><dict><key>N</key><integer>9223372036854775808</integer></dict></dict></plist>"
        let feed = try FeedDecoder.decode(Data(xml.utf8))
        XCTAssertEqual(feed.problems.map(\.description), ["'a': N is <integer>9223372036854775808</integer>, not a whole number that fits 64 bits"])
        XCTAssertEqual(XMLPropertyList.integer("-9223372036854775808"), Int.min)
    }

    /// A `<date>` names a real day, as every date Herald reads must (`ISO8601Moment`): the
    /// 31st of a 30-day month or February's 29th outside a leap year skips its entry rather
    /// than becoming a day of the next month.
    func testADateMustNameADayItsMonthHas() throws {
        let xml = header + "<plist><dict><key>a</key><dict><key>D</key><date>2024-02-31T00:00:00Z</date></dict></dict></plist>"
        let feed = try FeedDecoder.decode(Data(xml.utf8))
        XCTAssertEqual(feed.problems.map(\.description), ["'a': D is <date>2024-02-31T00:00:00Z</date>, not a date such as 2024-01-31T09:00:00Z"])
        for text in ["2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-11-31T00:00:00Z"] {
            XCTAssertNil(XMLPropertyList.date(text[...]), text)
            XCTAssertNil(ISO8601Moment.parse(text), text)
        }
        for text in ["2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2024-04-30T23:59:59Z", "2024-12-31T00:00:00Z"] {
            XCTAssertEqual(XMLPropertyList.date(text[...]), ISO8601Moment.parse(text)?.date, text)
        }
    }

    func testStructuralFaultsNameTheirPlace() {
        XCTAssertEqual(refusal("<plist><dict><string>a</string></dict></plist>"),
                       "line 3, column 14: <string> where a <key> was expected (XML property list)")
        XCTAssertEqual(refusal("<plist><dict><key>a</key></dict></plist>"),
                       "line 3, column 26: the key 'a' has no value (XML property list)")
        XCTAssertEqual(refusal("<plist><dict/><dict/></plist>"),
                       "line 3, column 15: <plist> holds more than one value (XML property list)")
        XCTAssertEqual(refusal("<plist><dict/></plist>trailing"),
                       "line 3, column 23: text after the property list (XML property list)")
        XCTAssertEqual(refusal("<plist><dict><key>a</key><string>x<b>y</b></string></dict></plist>"),
                       "line 3, column 35: <string> holds a tag; write < in text as &lt; (XML property list)")
        XCTAssertEqual(refusal("<plist><dict><key>a</key><string>&nbsp;</string></dict></plist>"),
                       "line 3, column 34: &nbsp; is not one of the five entities XML defines (XML property list)")
        XCTAssertEqual(refusal("<plist><!-- open"), "line 3, column 8: the document ends before this comment is closed (XML property list)")
        XCTAssertEqual(refusal(""), "line 3, column 1: the document ends early: there is no property list in it (XML property list)")
    }
}
