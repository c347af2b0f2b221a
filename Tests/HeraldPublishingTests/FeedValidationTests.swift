import Foundation
@testable import HeraldCore
@testable import HeraldPublishing
import HeraldTestSupport
import XCTest

/// `FeedValidation` finds every fault of a feed in one run, each with its entry id, its key,
/// a kind and a sentence, and lists every message, faulty ones marked.
final class FeedValidationTests: XCTestCase {
    private func report(_ json: String, appVersion: String? = nil, rules: URLRules = URLRules()) throws -> FeedReport {
        FeedValidation.report(for: try FeedDecoder.decode(Data(json.utf8)), appVersion: appVersion, rules: rules)
    }

    private func findings(_ json: String, appVersion: String? = nil) throws -> [FeedFinding] {
        try report(json, appVersion: appVersion).findings
    }

    private func finding(_ id: String, _ key: String?, _ kind: FeedFinding.Kind, _ sentence: String) -> FeedFinding {
        FeedFinding(id: id, key: key, kind: kind, sentence: sentence)
    }

    // MARK: every fault, each key on its own

    func testAnEntryWithFourFaultsReportsAllFour() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": 3, "Message": [1], "MinVersion": 2, "MaxVersion": "1"}}"#), [
            finding("a", "Title", .wrongType, "Title is an integer (3), not a string"),
            finding("a", "Message", .wrongType, "Message is an array, not a string"),
            finding("a", "MinVersion", .crashesINotify,
                    #"MinVersion is an integer (2), not a string: an iNotify client crashes on it (Herald reads it as "2"; write the string, "1.10" and 1.1 differ)"#),
            finding("a", "MinVersion", .rangeNeverMatches, "MinVersion 2 is above MaxVersion 1: no version can match"),
        ])
    }

    func testEveryKnownKeyOfTheWrongKindIsReported() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "ActionURL": true, "ActionButton": null, "MaxVersion": ["2"]}}"#), [
            finding("a", "ActionURL", .wrongType, "ActionURL is a boolean (true), not a string"),
            finding("a", "ActionButton", .wrongType, "ActionButton is null, not a string"),
            finding("a", "MaxVersion", .wrongType, "MaxVersion is an array, not a string"),
        ])
    }

    func testAValueThatCannotBeReadIsReportedUnderItsKey() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": "\ud800"}}"#),
                       [finding("a", "Title", .unreadableValue, #"Title holds a lone UTF-16 surrogate (\uD800), which is not text"#)])
    }

    // MARK: keys

    func testAKeyOneTypoFromAKnownKeyIsReportedWithTheKeyMeant() throws {
        XCTAssertEqual(try findings(#"{"a": {"Titel": "T", "Mesage": "M", "ActionULR": "https://example.com", "MinVerson": "1"}}"#), [
            finding("a", "ActionULR", .misspeltKey, "ActionULR: did you mean ActionURL?"),
            finding("a", "Mesage", .misspeltKey, "Mesage: did you mean Message?"),
            finding("a", "MinVerson", .misspeltKey, "MinVerson: did you mean MinVersion?"),
            finding("a", "Titel", .misspeltKey, "Titel: did you mean Title?"),
            finding("a", nil, .noText, "has neither Title nor Message"),
        ])
    }

    func testAKnownKeyInTheWrongCaseSaysKeysAreCaseSensitive() throws {
        XCTAssertEqual(try findings(#"{"a": {"title": "T", "Message": "M"}}"#),
                       [finding("a", "title", .misspeltKey, "title: did you mean Title? Keys are case-sensitive.")])
    }

    func testOtherUnknownKeysPassThroughWithoutAFinding() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "Campaign": "spring", "Weight": 3, "Tag": "x", "Action": "y"}}"#), [])
    }

    func testEditDistanceCountsASwapOfNeighboursAsOneEdit() {
        XCTAssertEqual(Spelling.editDistance(Array("titel"), Array("title")), 1)
        XCTAssertEqual(Spelling.editDistance(Array("mesage"), Array("message")), 1)
        XCTAssertEqual(Spelling.editDistance(Array("url"), Array("actionurl")), 6)
    }

    // MARK: versions

    func testAVersionOfWordsIsAboveEveryNumberSoNoAppSeesTheMessage() throws {
        XCTAssertEqual(try findings(#"{"b": {"Title": "t", "MinVersion": "one.two"}}"#), [
            finding("b", "MinVersion", .unparseableVersion,
                    #"MinVersion "one.two" is not dotted numbers such as 1.2: it compares character by character, and every version that starts with a digit is below it, so no such app sees this message"#),
        ])
    }

    func testAMaxVersionOfWordsSetsNoUpperBound() throws {
        XCTAssertEqual(try findings(#"{"b": {"Title": "t", "MaxVersion": "v2"}}"#), [
            finding("b", "MaxVersion", .unparseableVersion,
                    #"MaxVersion "v2" is not dotted numbers such as 1.2: it compares character by character, and every version that starts with a digit is below it, so it sets no upper bound for them"#),
        ])
    }

    func testAPreReleaseSuffixComparesAboveItsNumbers() throws {
        XCTAssertEqual(try findings(#"{"b": {"Title": "t", "MinVersion": "2.0-beta", "MaxVersion": "3.0 "}}"#), [
            finding("b", "MinVersion", .unparseableVersion,
                    #"MinVersion "2.0-beta" is not dotted numbers such as 1.2: it compares above 2.0, so app version 2.0 does not see this message"#),
            finding("b", "MaxVersion", .unparseableVersion,
                    #"MaxVersion "3.0 " is not dotted numbers such as 1.2: it compares above 3.0, so app version 3.0 still sees this message"#),
        ])
    }

    func testDottedNumbersAreVersions() {
        for version in ["1", "1.2", "1.10.0", "2024.1"] { XCTAssertTrue(FeedValidation.isDottedNumbers(version), version) }
        for version in ["1.", ".1", "1..2", "1.0b", "v1", " 1"] { XCTAssertFalse(FeedValidation.isDottedNumbers(version), version) }
    }

    func testARangeThatCanNeverMatchMarksTheMessageNotShown() throws {
        let report = try report(#"{"a": {"Title": "A", "MinVersion": "2.0", "MaxVersion": "1.10"}, "b": {"Title": "B", "MaxVersion": ""}}"#)
        XCTAssertEqual(report.findings, [
            finding("b", "MaxVersion", .rangeNeverMatches, "MaxVersion is empty, which excludes every app with a version"),
            finding("a", "MinVersion", .rangeNeverMatches, "MinVersion 2.0 is above MaxVersion 1.10: no version can match"),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), [
            "MaxVersion is empty, which excludes every app with a version", "MinVersion 2.0 is above MaxVersion 1.10: no version can match",
        ])
    }

    func testAnAppVersionOutsideTheRangeIsReported() throws {
        let report = try report(#"{"a": {"Title": "A", "MinVersion": "1.0.0"}}"#, appVersion: "1.0")
        XCTAssertEqual(report.findings, [finding("a", "MinVersion", .hiddenFromVersion, "not shown to version 1.0: below MinVersion 1.0.0")])
        XCTAssertEqual(report.messages.map(\.notShown), ["app version is below MinVersion 1.0.0"])
    }

    // MARK: links and text

    func testAnUnsafeLinkIsReportedAndTheMessageIsNotShown() throws {
        let report = try report(#"{"a": {"Title": "A", "ActionURL": "javascript:alert(1)", "ActionButton": "Go"}}"#)
        XCTAssertEqual(report.findings, [finding("a", "ActionURL", .unsafeLink, "ActionURL will be refused: the javascript: scheme is never opened")])
        XCTAssertEqual(report.messages.map(\.notShown), ["ActionURL refused: the javascript: scheme is never opened"])
    }

    func testAButtonWithoutALinkAndAnEntryWithoutTextAreReported() throws {
        XCTAssertEqual(try findings(#"{"a": {"ActionButton": "Go", "Title": ""}}"#), [
            finding("a", "ActionButton", .buttonWithoutLink, "ActionButton has no effect without ActionURL"),
            finding("a", nil, .noText, "has neither Title nor Message"),
        ])
    }

    // MARK: what iNotify crashes on

    func testAnEntryThatIsNotADictionaryCrashesINotifyAndStaysInTheListing() throws {
        let report = try report(#"{"a": {"Title": "A"}, "b": "text"}"#)
        XCTAssertEqual(report.findings, [
            finding("b", nil, .crashesINotify, "the entry is a string, not a dictionary: an iNotify client crashes on it, and Herald skips it"),
        ])
        XCTAssertEqual(report.messages.map(\.id), ["b", "a"])
        XCTAssertEqual(report.messages.map(\.notShown), ["the entry is a string, not a dictionary", nil])
        XCTAssertEqual(report.messages.map(\.hasFindings), [true, false])
    }

    func testARealMaxVersionCrashesINotifyAndReadsAsItsShortestText() throws {
        let xml = #"<plist><dict><key>a</key><dict><key>Title</key><string>A</string><key>MaxVersion</key><real>1.10</real></dict></dict></plist>"#
        let report = FeedValidation.report(for: try FeedDecoder.decode(Data(xml.utf8)), appVersion: nil, rules: URLRules())
        XCTAssertEqual(report.findings, [
            finding("a", "MaxVersion", .crashesINotify,
                    #"MaxVersion is a real (1.1), not a string: an iNotify client crashes on it (Herald reads it as "1.1"; write the string, "1.10" and 1.1 differ)"#),
        ])
    }

    // MARK: ids

    func testIdsThatDifferOnlyInCaseAreReported() throws {
        XCTAssertEqual(try findings(#"{"Spring": {"Title": "A"}, "spring": {"Title": "B"}}"#),
                       [finding("spring", nil, .duplicateID, "differs from 'Spring' only in case: their order is arbitrary")])
    }

    func testAnIdThatIsNotADateAmongDatesIsReportedWithWhereItSorts() throws {
        XCTAssertEqual(try findings(#"{"2024/01/05": {"Title": "A"}, "2024/02/01": {"Title": "B"}, "sale": {"Title": "C"}}"#), [
            finding("sale", nil, .idOutOfDateOrder,
                    "the message id is not a date as the others are (such as 2024/02/01), so it sorts after every date and shows first, as the newest"),
        ])
    }

    func testAnIdThatIsNotZeroPaddedSaysWhatItSortsWrongAgainst() throws {
        XCTAssertEqual(try findings(#"{"2024/10/01": {"Title": "A"}, "2024/9/30": {"Title": "B"}, "2024/03/01": {"Title": "C"}}"#), [
            finding("2024/9/30", nil, .idOutOfDateOrder,
                    "the message id is not zero-padded: ids sort by their characters, not as dates, so it sorts as newer than 2024/10/01; write 2024/09/30"),
        ])
    }

    func testADateThatDoesNotExistIsReported() throws {
        XCTAssertEqual(try findings(#"{"2023/02/29": {"Title": "A"}, "2024/02/29": {"Title": "B"}, "2024/13/01": {"Title": "C"}}"#), [
            finding("2024/13/01", nil, .idOutOfDateOrder, "the message id is not a real date: there is no month 13"),
            finding("2023/02/29", nil, .idOutOfDateOrder, "the message id is not a real date: month 2 of 2023 has no day 29"),
        ])
    }

    func testIdsAreNotJudgedWhenMostAreNotDates() throws {
        XCTAssertEqual(try findings(#"{"2024/01/05": {"Title": "A"}, "welcome": {"Title": "B"}, "sale": {"Title": "C"}}"#), [])
    }

    func testADateWithASuffixForASecondMessageThatDayIsADate() throws {
        XCTAssertEqual(try findings(#"{"2024/01/05": {"Title": "A"}, "2024/01/05-2": {"Title": "B"}, "20240201": {"Title": "C"}}"#), [])
    }

    // MARK: what a check does is unchanged

    func testFindingsLeaveWhatACheckUsesAsItWas() throws {
        let json = #"{"a": {"Titel": "T", "MinVersion": "one.two"}, "b": {"Title": 3}, "c": "text", "d": {"Title": "D"}}"#
        let feed = try FeedDecoder.decode(Data(json.utf8))
        _ = FeedValidation.report(for: feed, appVersion: "1.0", rules: URLRules())
        XCTAssertEqual(feed.entries.keys.sorted(), ["a", "d"])
        XCTAssertEqual(feed.problems.map(\.key), ["b", "c"])
    }

    func testACleanFeedHasNoFindingsAndEveryMessageMayBeShown() throws {
        let feed = try FeedDecoder.decode(Data(Fixtures.xmlFeed([
            "2024/01/02": ["Title": "New", "Message": "Body", "ActionURL": "https://example.com", "ActionButton": "Go", "MinVersion": "1.0", "MaxVersion": "2.0"],
            "2024/01/01": ["Title": "Old"],
        ]).utf8))
        let report = FeedValidation.report(for: feed, appVersion: "1.5", rules: URLRules())
        XCTAssertEqual(report.findings, [])
        XCTAssertEqual(report.messages.map(\.id), ["2024/01/02", "2024/01/01"])
        XCTAssertEqual(report.messages.map(\.notShown), [nil, nil])
    }

    // MARK: a link in the text

    /// GNOME Shell makes a URL in a body clickable, outside Herald's rules and its answers.
    func testALinkWrittenInTheMessageIsAWarningThatPointsToActionURL() throws {
        let sentence = "Message contains the link https://e.com/x: GNOME Shell makes it clickable outside Herald's link rules, and a click on it records no answer; put the link in ActionURL"
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "Message": "See https://e.com/x today"}}"#), [finding("a", "Message", .linkInText, sentence)])
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "Message": {"en": "No link", "de": "(https://e.com/x)"}}}"#).map(\.kind), [.linkInText])
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "Message": "Visit www.example.org"}}"#).map(\.kind), [.linkInText])
        // In any case, and as the last word of the text.
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "Message": "Visit WWW.Example.org"}}"#).map(\.kind), [.linkInText])
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "Message": "Fetch it from ftp://x"}}"#).map(\.kind), [.linkInText])
        XCTAssertEqual(FeedFinding.Kind.linkInText.severity, .warning)
    }

    func testTextWithoutALinkHasNoLinkNote() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": "https://e.com", "Message": "a:// or 3://x, www. alone"}}"#), [])
    }

    // MARK: severity

    /// An error is a message a check never shows or a value Herald does not take as written;
    /// a warning leaves every value taken; a note is no fault. Every kind is weighed once.
    func testEachKindOfFindingIsAnErrorAWarningOrANoteByWhatACheckDoesWithIt() {
        let weighed = Dictionary(grouping: FeedFinding.Kind.allCases, by: \.severity).mapValues { Set($0.map(\.rawValue)) }
        XCTAssertEqual(weighed, [
            .error: ["wrong-type", "unreadable-value", "crashes-inotify", "unparseable-version", "range-never-matches", "unsafe-link",
                     "retired-id", "unreadable-date", "schedule-never-matches", "unknown-language", "empty-audience", "out-of-range",
                     "unknown-urgency", "unknown-category", "not-an-icon-name"],
            .warning: ["misspelt-key", "button-without-link", "no-text", "duplicate-id", "id-out-of-date-order", "hidden-from-version",
                       "no-fallback-language", "link-in-text"],
            .note: ["ended", "critical-urgency"],
        ])
    }

    func testAReportSortsItsFindingsIntoErrorsWarningsAndNotesInMessageOrder() throws {
        let report = try report(#"""
            {"b": {"Title": "T", "Titel": "x", "MinVersion": "1.x", "Message": "See www.example.org"},
             "a": {"Title": "T", "Rollout": 150, "EndDate": "2020-01-01", "ActionButton": "Go"}}
            """#)
        XCTAssertEqual(report.errors.map { "\($0.id) \($0.kind.rawValue)" }, ["b unparseable-version", "a out-of-range"])
        XCTAssertEqual(report.warnings.map { "\($0.id) \($0.kind.rawValue)" }, ["b misspelt-key", "b link-in-text", "a button-without-link"])
        XCTAssertEqual(report.notes.map { "\($0.id) \($0.kind.rawValue)" }, ["a ended"])
        XCTAssertEqual(report.problems, report.findings.filter { $0.severity != .note })
        XCTAssertEqual(report.messages.map(\.hasFindings), [true, true])
    }
}
