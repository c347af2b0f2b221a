import FoundationEssentials
import HeraldCore
import HeraldPublishing
import XCTest

/// `FEED.keys`: a line per retired id, the date first, the id verbatim to the end of the line.
final class RetiredKeysTests: XCTestCase {
    let day = Date(timeIntervalSince1970: 1_795_392_000)  // 2026-11-23, 00:00 UTC

    func testALedgerLineIsTheDateASpaceAndTheIdAsItIs() {
        XCTAssertEqual(RetiredKeys.line(retiring: "2026/11/01 spring sale", on: day), "2026-11-23 2026/11/01 spring sale\n")
        let ledger = RetiredKeys.parse(RetiredKeys.header(feedName: "feed.plist") + RetiredKeys.line(retiring: "2026/11/01 spring sale", on: day)!)
        XCTAssertEqual(ledger.dates, ["2026/11/01 spring sale": "2026-11-23"])
    }

    func testCommentsAndBlankLinesRetireNothingAndAnIdWithoutADateStillCounts() {
        let ledger = RetiredKeys.parse("# a comment\n\n  \n2026-11-23 a\r\nwritten by hand\n2026-11-24 a\n")
        XCTAssertEqual(ledger.dates, ["a": "2026-11-23", "written by hand": String?.none], "the first date of an id is kept")
        XCTAssertEqual(ledger.refusal(of: "written by hand"),
                       "was retired on an unknown date; an iNotify client that answered it will never show it again")
        XCTAssertNil(ledger.refusal(of: "A"), "ids match exactly, as a user's answers do")
    }

    func testAnIdWithALineBreakCannotBeWritten() {
        XCTAssertNil(RetiredKeys.line(retiring: "two\nlines", on: day))
    }

    func testAnIdWithAnyControlCharacterOrLineSeparatorCannotBeWritten() {
        for key in ["a\u{1B}[2Jb", "a\u{2028}b", "a\rb", "a\u{85}b", "a\u{7F}b", "a\tb"] {
            XCTAssertFalse(RetiredKeys.isWritable(key), key.debugDescription)
            XCTAssertNil(RetiredKeys.line(retiring: key, on: day), key.debugDescription)
        }
        XCTAssertTrue(RetiredKeys.isWritable("2026/11/24-02 été"))
    }

    func testEachRetiredIdOfTheFeedIsAProblemNamingItsDate() {
        let ledger = RetiredKeys.parse("2026-11-23 b\n2026-11-20 a\n2026-11-21 gone\n")
        XCTAssertEqual(ledger.problems(for: ["c", "b", "a"]), [
            FeedProblem(key: "a", reason: "was retired on 2026-11-20; an iNotify client that answered it will never show it again"),
            FeedProblem(key: "b", reason: "was retired on 2026-11-23; an iNotify client that answered it will never show it again"),
        ])
    }

    func testTheLastSignedVersionIsReadFromItsCommentAndRecordedInPlaceOfTheOldOne() {
        let ledger = "# Ids removed from feed.plist by herald feed remove: never use them again.\n2026-11-30 2026/11/22\n# last signed version 7\n"
        let parsed = RetiredKeys.parse(ledger)
        XCTAssertEqual(parsed.lastSignedVersion, 7)
        XCTAssertTrue(parsed.isRetired("2026/11/22"))
        XCTAssertFalse(parsed.isRetired("# last signed version 7"), "a comment retires nothing")
        XCTAssertEqual(RetiredKeys.text(ledger, recordingSignedVersion: 9, feedName: "feed.plist"),
                       "# Ids removed from feed.plist by herald feed remove: never use them again.\n2026-11-30 2026/11/22\n# last signed version 9\n")
        XCTAssertEqual(RetiredKeys.text("", recordingSignedVersion: 3, feedName: "feed.plist"),
                       "# Ids removed from feed.plist by herald feed remove: never use them again.\n# last signed version 3\n")
        XCTAssertNil(RetiredKeys.parse("2026-11-30 a\n").lastSignedVersion)
    }
}
