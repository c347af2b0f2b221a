import Foundation
@testable import HeraldCore
@testable import HeraldPublishing
import HeraldTestSupport
import XCTest

/// `FeedValidation` knows every targeting key (`TargetingKey`): each fault of a new key is a
/// finding naming the message and the key with what a check does instead, an end already past
/// and a critical urgency are notes, and the listing says who a targeted message is for.
final class TargetingValidationTests: XCTestCase {
    /// 2023-11-14T22:13:20Z.
    let clock = TestClock()

    private func report(_ json: String) throws -> FeedReport {
        FeedValidation.report(for: try FeedDecoder.decode(Data(json.utf8)), appVersion: nil, rules: URLRules(), now: clock.now)
    }

    private func findings(_ json: String) throws -> [FeedFinding] {
        try report(json).findings
    }

    private func finding(_ key: String?, _ kind: FeedFinding.Kind, _ sentence: String) -> FeedFinding {
        FeedFinding(id: "a", key: key, kind: kind, sentence: sentence)
    }

    // MARK: keys

    func testEveryNewKeyIsAKnownKey() throws {
        let json = #"{"a": {"Title": "T", "StartDate": "2023-11-01", "EndDate": "2023-12-01", "Languages": ["de"], "Desktops": "GNOME", "Rollout": 20, "Priority": 1, "Urgency": "low", "Icon": "starred", "MaxShows": 3, "MinDaysBetween": 7, "Category": "tip"}}"#
        XCTAssertEqual(try findings(json), [])
    }

    func testNearMissesOfTheNewKeysAreReportedWithTheKeyMeant() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "Startdate": 1, "EndDte": 1, "Language": 1, "Desktop": 1, "RollOut": 1, "MaxShow": 1, "MinDayBetween": 1, "Categroy": 1}}"#), [
            finding("Categroy", .misspeltKey, "Categroy: did you mean Category?"),
            finding("Desktop", .misspeltKey, "Desktop: did you mean Desktops?"),
            finding("EndDte", .misspeltKey, "EndDte: did you mean EndDate?"),
            finding("Language", .misspeltKey, "Language: did you mean Languages?"),
            finding("MaxShow", .misspeltKey, "MaxShow: did you mean MaxShows?"),
            finding("MinDayBetween", .misspeltKey, "MinDayBetween: did you mean MinDaysBetween?"),
            finding("RollOut", .misspeltKey, "RollOut: did you mean Rollout? Keys are case-sensitive."),
            finding("Startdate", .misspeltKey, "Startdate: did you mean StartDate? Keys are case-sensitive."),
        ])
    }

    // MARK: localised text

    func testALocalisedTitleMessageAndButtonAreNotAWrongType() throws {
        let json = #"{"a": {"Title": {"en": "Hello", "de": "Hallo"}, "Message": {"en": "M", "pt_BR": "M"}, "ActionURL": "https://example.com", "ActionButton": {"en": "Go", "zh-Hans": "Go"}}}"#
        let report = try report(json)
        XCTAssertEqual(report.findings, [])
        XCTAssertEqual(report.messages.map { $0.fallbackText(FeedKey.title) }, ["Hello"])
        XCTAssertEqual(report.messages.map(\.notShown), [nil])
    }

    func testALocalisedDictionaryWithAValueThatIsNotTextIsAWrongTypeAndNotShown() throws {
        let report = try report(#"{"a": {"Title": {"en": "Hello", "de": 3}, "Message": {}}}"#)
        XCTAssertEqual(report.findings, [
            finding("Title", .wrongType, "Title for de is an integer (3), not a string: a check skips the message"),
            finding("Message", .wrongType, "Message is an empty dictionary, not text per language"),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), ["Title is a dictionary whose values are not all strings, expected text per language"])
    }

    func testALocalisedDictionaryWithoutEnglishSaysWhichTextOtherUsersSee() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": {"fr": "Bonjour", "de": "Hallo", "en_US": "Hi"}}}"#), [
            finding("Title", .noFallbackLanguage, "Title has no en text: users whose language is not listed see the 'en_US' text"),
        ])
        XCTAssertEqual(try findings(#"{"a": {"Title": {"fr": "Bonjour", "de": "Hallo"}}}"#), [
            finding("Title", .noFallbackLanguage, "Title has no en text: users whose language is not listed see the 'de' text"),
        ])
    }

    func testADictionaryKeyThatIsNotALanguageCodeIsReported() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": {"en": "Hi", "German": "Hallo", "sr@latin": "Zdravo"}}}"#), [
            finding("Title", .unknownLanguage, #"Title: "German" is not a language code such as de, pt_BR or zh_Hans, so no user's language picks it"#),
            finding("Title", .unknownLanguage, #"Title: "sr@latin" is not a language code such as de, pt_BR or zh_Hans, so no user's language picks it"#),
        ])
    }

    func testLanguageCodesAreLanguageScriptAndRegionAsLocalesWriteThem() {
        for name in ["de", "fil", "pt_BR", "pt-BR", "zh_Hans", "zh-Hant-TW", "es_419", "EN"] {
            XCTAssertTrue(LocalisedText.isLanguageCode(name), name)
        }
        for name in ["", "d", "deutsch", "German", "pt_", "pt_BRA", "de_DE.UTF-8", "sr@latin", "zh_Hans_CN_x", "1a"] {
            XCTAssertFalse(LocalisedText.isLanguageCode(name), name)
        }
    }

    // MARK: dates

    func testADateThatDoesNotParseIsReportedAndTheMessageIsNotShown() throws {
        let report = try report(#"{"a": {"Title": "T", "StartDate": "next week"}, "b": {"Title": "U", "EndDate": 20231201}}"#)
        XCTAssertEqual(report.findings, [
            FeedFinding(id: "b", key: "EndDate", kind: .unreadableDate, sentence: "EndDate is an integer (20231201), not a date: a check never shows the message"),
            finding("StartDate", .unreadableDate,
                    #"StartDate "next week" is not an ISO 8601 date or date-time such as 2026-12-01 or 2026-12-01T09:00Z: a check never shows the message"#),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), report.findings.map(\.sentence))
        XCTAssertEqual(report.messages.map(\.targeting), [nil, nil])
    }

    func testAnEndBeforeItsStartCanNeverShow() throws {
        let report = try report(#"{"a": {"Title": "T", "StartDate": "2024-02-01", "EndDate": "2024-01-31T12:00Z"}}"#)
        XCTAssertEqual(report.findings, [
            finding("EndDate", .scheduleNeverMatches, "EndDate 2024-01-31T12:00Z is before StartDate 2024-02-01: the message can never show"),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), ["EndDate 2024-01-31T12:00Z is before StartDate 2024-02-01: the message can never show"])
    }

    func testAnEndAlreadyPastIsANoteAndTheMessageIsNotShown() throws {
        let report = try report(#"{"a": {"Title": "T", "EndDate": "2023-11-13"}, "b": {"Title": "U", "EndDate": "2023-11-14"}}"#)
        XCTAssertEqual(report.findings, [finding("EndDate", .ended, "EndDate: ended on 2023-11-13: no user sees it")])
        XCTAssertEqual(report.notes, report.findings)
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(report.messages.map(\.id), ["b", "a"])
        XCTAssertEqual(report.messages.map(\.notShown), [nil, "EndDate: ended on 2023-11-13: no user sees it"])
        XCTAssertEqual(report.messages.map(\.hasFindings), [false, false])
    }

    func testAStartStillToComeIsAScheduleNotAReason() throws {
        let report = try report(#"{"a": {"Title": "T", "StartDate": "2030-01-01T09:00:00+01:00"}}"#)
        XCTAssertEqual(report.findings, [])
        XCTAssertEqual(report.messages.map(\.notShown), [nil])
        XCTAssertEqual(report.messages.map(\.targeting), ["from 2030-01-01T09:00:00+01:00"])
    }

    // MARK: audience

    func testLanguagesThatAreNotCodesAndAnEmptyListAreReported() throws {
        let report = try report(#"{"a": {"Title": "T", "Languages": ["de", "English"]}, "b": {"Title": "U", "Languages": []}}"#)
        XCTAssertEqual(report.findings, [
            FeedFinding(id: "b", key: "Languages", kind: .emptyAudience, sentence: "Languages is empty: no user sees it"),
            finding("Languages", .unknownLanguage, #"Languages: "English" is not a language code such as de, pt_BR or zh_Hans, so no user's language matches it"#),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), ["Languages is empty: no user sees it", nil])
    }

    func testLanguagesAndDesktopsThatAreNotStringsAreReported() throws {
        XCTAssertEqual(try findings(#"{"a": {"Title": "T", "Languages": {"de": 1}, "Desktops": [3]}}"#), [
            finding("Languages", .wrongType, "Languages is a dictionary, not a string or an array of strings: every user sees the message"),
            finding("Desktops", .wrongType, "Desktops holds an integer (3), not a string: it is left out"),
            finding("Desktops", .emptyAudience, "Desktops names no desktop: no user sees it"),
        ])
    }

    func testAnEmptyDesktopsListIsNotShown() throws {
        let report = try report(#"{"a": {"Title": "T", "Desktops": []}}"#)
        XCTAssertEqual(report.findings, [finding("Desktops", .emptyAudience, "Desktops is empty: no user sees it")])
        XCTAssertEqual(report.messages.map(\.notShown), ["Desktops is empty: no user sees it"])
        XCTAssertEqual(report.messages.map(\.targeting), ["on no desktop"])
    }

    // MARK: rollout, priority, urgency, icon

    func testARolloutHeraldCannotReadIsReportedAndTheMessageIsNotShown() throws {
        let report = try report(#"{"a": {"Title": "T", "Rollout": 150}, "b": {"Title": "U", "Rollout": -5}, "c": {"Title": "V", "Rollout": "half"}, "d": {"Title": "W", "Rollout": "5%"}, "e": {"Title": "X", "Rollout": true}, "f": {"Title": "Y", "Rollout": [5]}, "g": {"Title": "Z", "Rollout": "nan"}}"#)
        let never = ": a check never shows the message"
        XCTAssertEqual(report.findings, [
            FeedFinding(id: "g", key: "Rollout", kind: .wrongType, sentence: "Rollout is a string (nan), not a number from 0 to 100" + never),
            FeedFinding(id: "f", key: "Rollout", kind: .wrongType, sentence: "Rollout is an array, not a number from 0 to 100" + never),
            FeedFinding(id: "e", key: "Rollout", kind: .wrongType, sentence: "Rollout is a boolean (true), not a number from 0 to 100" + never),
            FeedFinding(id: "d", key: "Rollout", kind: .wrongType, sentence: "Rollout is a string (5%), not a number from 0 to 100" + never),
            FeedFinding(id: "c", key: "Rollout", kind: .wrongType, sentence: "Rollout is a string (half), not a number from 0 to 100" + never),
            FeedFinding(id: "b", key: "Rollout", kind: .outOfRange, sentence: "Rollout -5 is outside 0–100" + never),
            finding("Rollout", .outOfRange, "Rollout 150 is outside 0–100" + never),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), report.findings.map(\.sentence), "each message is listed as not shown, with its value")
        XCTAssertEqual(report.messages.map(\.targeting), [nil, nil, nil, nil, nil, nil, nil], "no share is claimed for a value not read")
    }

    func testAPriorityThatIsNotANumberIsReportedAndAHigherPriorityListsFirst() throws {
        let report = try report(#"{"a": {"Title": "T", "Priority": "high"}, "b": {"Title": "U"}, "c": {"Title": "V", "Priority": 2.5}}"#)
        XCTAssertEqual(report.findings, [finding("Priority", .wrongType, "Priority is a string (high), not a number: read as 0")])
        XCTAssertEqual(report.messages.map(\.id), ["c", "b", "a"])
        XCTAssertEqual(report.messages.map(\.targeting), ["priority 2.5", nil, nil])
    }

    func testAnUnknownUrgencyIsReportedAndCriticalIsANote() throws {
        let report = try report(#"{"a": {"Title": "T", "Urgency": "urgent"}, "b": {"Title": "U", "Urgency": "Critical"}, "c": {"Title": "V", "Urgency": 2}}"#)
        XCTAssertEqual(report.findings, [
            FeedFinding(id: "c", key: "Urgency", kind: .wrongType, sentence: "Urgency is an integer (2), not a string: low, normal or critical"),
            FeedFinding(id: "b", key: "Urgency", kind: .criticalUrgency, sentence: "Urgency critical is shown as normal unless the app allows critical urgency"),
            finding("Urgency", .unknownUrgency, #"Urgency "urgent" is not low, normal or critical: the notification has normal urgency"#),
        ])
        XCTAssertEqual(report.notes.map(\.id), ["b"])
        XCTAssertEqual(report.messages.map(\.hasFindings), [true, false, true])
    }

    func testAnIconThatIsAPathAURLOrNotAnIconNameIsReported() throws {
        let json = #"{"a": {"Title": "T", "Icon": "/usr/share/pixmaps/a.png"}, "b": {"Title": "U", "Icon": "file:a.png"}, "c": {"Title": "V", "Icon": "a b"}, "d": {"Title": "W", "Icon": ".hidden"}, "e": {"Title": "X", "Icon": "software-update-available"}}"#
        let tail = "only themed icon names are used, so the app's icon is shown"
        XCTAssertEqual(try findings(json), [
            FeedFinding(id: "d", key: "Icon", kind: .notAnIconName, sentence: #"Icon ".hidden" is not a themed icon name: "# + tail),
            FeedFinding(id: "c", key: "Icon", kind: .notAnIconName, sentence: #"Icon "a b" has characters other than letters, digits, -, _ and .: "# + tail),
            FeedFinding(id: "b", key: "Icon", kind: .notAnIconName, sentence: #"Icon "file:a.png" is a URL: "# + tail),
            finding("Icon", .notAnIconName, #"Icon "/usr/share/pixmaps/a.png" is a path: "# + tail),
        ])
    }

    // MARK: caps and category

    func testAMaxShowsThatIsNotAWholeNumberOfAtLeastOneIsReportedAndIgnored() throws {
        let report = try report(#"{"a": {"Title": "T", "MaxShows": "0"}, "b": {"Title": "U", "MaxShows": -1}, "c": {"Title": "V", "MaxShows": 2.5}, "d": {"Title": "W", "MaxShows": "many"}, "e": {"Title": "X", "MaxShows": 3000000000}, "f": {"Title": "Y", "MaxShows": " 2 "}}"#)
        let ignored = ": ignored, so the message may show any number of times"
        XCTAssertEqual(report.findings, [
            FeedFinding(id: "e", key: "MaxShows", kind: .outOfRange, sentence: "MaxShows 3000000000 is above 2147483647" + ignored),
            FeedFinding(id: "d", key: "MaxShows", kind: .wrongType, sentence: "MaxShows is a string (many), not a whole number of at least 1" + ignored),
            FeedFinding(id: "c", key: "MaxShows", kind: .outOfRange, sentence: "MaxShows 2.5 is not a whole number of at least 1" + ignored),
            FeedFinding(id: "b", key: "MaxShows", kind: .outOfRange, sentence: "MaxShows -1 is not a whole number of at least 1" + ignored),
            finding("MaxShows", .outOfRange, "MaxShows 0 is not a whole number of at least 1" + ignored),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), [nil, nil, nil, nil, nil, nil], "a cap Herald cannot read keeps no message back")
        XCTAssertEqual(report.messages.map(\.targeting), ["at most 2 shows", nil, nil, nil, nil, nil])
    }

    func testAMinDaysBetweenThatIsNotANumberOfDaysAboveZeroAndAtMostTenYearsIsReportedAndIgnored() throws {
        let report = try report(#"{"a": {"Title": "T", "MinDaysBetween": -1}, "b": {"Title": "U", "MinDaysBetween": 0}, "c": {"Title": "V", "MinDaysBetween": "weekly"}, "d": {"Title": "W", "MinDaysBetween": 3651}, "e": {"Title": "X", "MinDaysBetween": [7]}, "f": {"Title": "Y", "MinDaysBetween": 0.5}}"#)
        let ignored = ": ignored, so no time is kept between two showings"
        XCTAssertEqual(report.findings, [
            FeedFinding(id: "e", key: "MinDaysBetween", kind: .wrongType, sentence: "MinDaysBetween is an array, not a number of days" + ignored),
            FeedFinding(id: "d", key: "MinDaysBetween", kind: .outOfRange, sentence: "MinDaysBetween 3651 is above 3650 days" + ignored),
            FeedFinding(id: "c", key: "MinDaysBetween", kind: .wrongType, sentence: "MinDaysBetween is a string (weekly), not a number of days" + ignored),
            FeedFinding(id: "b", key: "MinDaysBetween", kind: .outOfRange, sentence: "MinDaysBetween 0 is not above 0" + ignored),
            finding("MinDaysBetween", .outOfRange, "MinDaysBetween -1 is not above 0" + ignored),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), [nil, nil, nil, nil, nil, nil])
        XCTAssertEqual(report.messages.map(\.targeting), ["at least 0.5 days apart", nil, nil, nil, nil, nil])
    }

    func testAnUnknownCategoryIsReadAsAPromotionWithTheKindItIsOneTypoFrom() throws {
        let report = try report(#"{"a": {"Title": "T", "Category": "ad"}, "b": {"Title": "U", "Category": "securty"}, "c": {"Title": "V", "Category": " Tips"}, "d": {"Title": "W", "Category": 2}, "e": {"Title": "X", "Category": " PROMOTION "}}"#)
        let kinds = "is not announcement, tip, promotion, security or survey: read as promotion"
        XCTAssertEqual(report.findings, [
            FeedFinding(id: "d", key: "Category", kind: .wrongType, sentence: "Category is an integer (2), not a string: read as promotion"),
            FeedFinding(id: "c", key: "Category", kind: .unknownCategory, sentence: #"Category " Tips" "# + kinds + "; did you mean tip?"),
            FeedFinding(id: "b", key: "Category", kind: .unknownCategory, sentence: #"Category "securty" "# + kinds + "; did you mean security?"),
            finding("Category", .unknownCategory, #"Category "ad" "# + kinds),
        ])
        XCTAssertEqual(report.messages.map(\.notShown), [nil, nil, nil, nil, nil])
        XCTAssertEqual(report.messages.map(\.targeting), ["category promotion", nil, nil, nil, nil], "a kind in any case, trimmed, is read")
    }

    func testAnAnnouncementIsTheDefaultAndNotListed() throws {
        let report = try report(#"{"a": {"Title": "T", "Category": "announcement"}}"#)
        XCTAssertEqual(report.findings, [])
        XCTAssertEqual(report.messages.map(\.targeting), [nil])
    }

    func testASecurityMessageWithCriticalUrgencyIsANoteThatItMayPassTheBudget() throws {
        let report = try report(#"{"a": {"Title": "T", "Category": "security", "Urgency": "critical"}, "b": {"Title": "U", "Category": "tip", "Urgency": "critical"}}"#)
        XCTAssertEqual(report.findings, [
            FeedFinding(id: "b", key: "Urgency", kind: .criticalUrgency, sentence: "Urgency critical is shown as normal unless the app allows critical urgency"),
            finding("Urgency", .criticalUrgency, """
                Urgency critical is shown as normal unless the app allows critical urgency; where it does, Category security lets \
                the message pass the attention budget, never do-not-disturb
                """),
        ])
        XCTAssertEqual(report.problems, [])
    }

    // MARK: the listing

    func testATargetedMessageIsListedWithWhoItIsForAndWhen() throws {
        let json = #"{"a": {"Title": "T", "Languages": ["de", "fr"], "Desktops": ["GNOME", "KDE"], "StartDate": "2023-12-01", "EndDate": "2023-12-24", "Rollout": 20, "Priority": 3, "MaxShows": 1, "MinDaysBetween": 1, "Category": "survey"}, "b": {"Title": "U"}}"#
        XCTAssertEqual(try report(json).messages.map(\.targeting), [
            "[de, fr]  on GNOME, KDE  from 2023-12-01  until 2023-12-24  rollout 20 %  priority 3  at most 1 show  at least 1 day apart  category survey",
            nil,
        ])
    }

    func testAPlistDateIsListedInISO8601() throws {
        let xml = #"<plist><dict><key>a</key><dict><key>Title</key><string>A</string><key>StartDate</key><date>2023-12-01T08:00:00Z</date></dict></dict></plist>"#
        let report = FeedValidation.report(for: try FeedDecoder.decode(Data(xml.utf8)), appVersion: nil, rules: URLRules(), now: clock.now)
        XCTAssertEqual(report.findings, [])
        XCTAssertEqual(report.messages.map(\.targeting), ["from 2023-12-01T08:00:00Z"])
    }
}
