import Foundation
@testable import HeraldCore
@testable import HeraldPublishing
import HeraldTestSupport
import XCTest

/// `herald feed add`'s message: every key a publisher sets by hand, each value as the feed
/// holds it, refused by the very rules `herald validate` applies to a feed, in its words.
final class MessageDraftTests: XCTestCase {
    /// 2023-11-14T22:13:20Z.
    let clock = TestClock()

    /// A draft with a title and a message, and `change` made to it.
    func draft(_ change: (inout MessageDraft) throws -> Void) rethrows -> MessageDraft {
        var draft = MessageDraft()
        draft.set(FeedKey.title, text: "Winter sale")
        draft.set(FeedKey.message, text: "Half price")
        try change(&draft)
        return draft
    }

    /// What `herald validate` reports of the draft's entry written in a feed by hand.
    func validated(_ draft: MessageDraft) throws -> [FeedFinding] {
        let json = FeedValue.dictionary(["a": .dictionary(draft.fields)]).jsonText
        return FeedValidation.report(for: try FeedDecoder.decode(Data(json.utf8)), appVersion: nil, rules: URLRules(), now: clock.now).findings
            .map { FeedFinding(id: "", key: $0.key, kind: $0.kind, sentence: $0.sentence) }
    }

    func testEveryBadValueIsAnErrorInTheWordsValidateUsesForTheSameEntry() throws {
        let bad: [(String, (inout MessageDraft) throws -> Void)] = [
            ("MinVersion 1.x", { $0.set(FeedKey.minVersion, text: "1.x") }),
            ("MinVersion above MaxVersion", { $0.set(FeedKey.minVersion, text: "2.0"); $0.set(FeedKey.maxVersion, text: "1.9") }),
            ("empty MaxVersion", { $0.set(FeedKey.maxVersion, text: "") }),
            ("StartDate", { $0.set(TargetingKey.startDate, text: "next week") }),
            ("EndDate before StartDate", { $0.set(TargetingKey.startDate, text: "2026-12-02"); $0.set(TargetingKey.endDate, text: "2026-12-01") }),
            ("Category", { $0.set(TargetingKey.category, text: "securty") }),
            ("Urgency", { $0.set(TargetingKey.urgency, text: "loud") }),
            ("Icon", { $0.set(TargetingKey.icon, text: "/tmp/a.png") }),
            ("Rollout above 100", { $0.set(TargetingKey.rollout, number: "150") }),
            ("Rollout not a number", { $0.set(TargetingKey.rollout, number: "5%") }),
            ("Priority", { $0.set(TargetingKey.priority, number: "high") }),
            ("MaxShows", { $0.set(TargetingKey.maxShows, number: "0") }),
            ("MinDaysBetween", { $0.set(TargetingKey.minDaysBetween, number: "4000") }),
            ("Languages", { $0.set(TargetingKey.languages, list: ["de", "German"]) }),
            ("empty Languages", { $0.set(TargetingKey.languages, list: []) }),
            ("Title's language", { try $0.set(FeedKey.title, text: "Neu", for: "German") }),
            ("ActionURL", { $0.set(FeedKey.actionURL, text: "javascript:alert(1)") }),
        ]
        for (name, change) in bad {
            let draft = try draft(change)
            let findings = draft.findings(rules: URLRules(), now: clock.now)
            XCTAssertEqual(findings.filter { $0.severity == .error }.count, 1, "\(name): \(findings)")
            XCTAssertEqual(findings, try validated(draft), "\(name): the rules and words of herald validate")
        }
    }

    func testAMessageWithEveryKeyHasNoFinding() throws {
        XCTAssertEqual(try everyKey().findings(rules: URLRules(), now: clock.now), [])
    }

    func everyKey() throws -> MessageDraft {
        try draft { draft in
            try draft.set(FeedKey.title, text: "Winterschlussverkauf", for: "de")
            try draft.set(FeedKey.message, text: "Halber Preis", for: "de")
            draft.set(FeedKey.actionURL, text: "https://example.com/sale")
            draft.set(FeedKey.actionButton, text: "Shop")
            try draft.set(FeedKey.actionButton, text: "Kaufen", for: "de")
            draft.set(FeedKey.minVersion, text: "1.5")
            draft.set(FeedKey.maxVersion, text: "2.0")
            draft.set(TargetingKey.startDate, text: "2099-12-01")
            draft.set(TargetingKey.endDate, text: "2099-12-31T18:00:00+01:00")
            draft.set(TargetingKey.languages, list: ["en", "de"])
            draft.set(TargetingKey.desktops, list: ["GNOME"])
            draft.set(TargetingKey.rollout, number: "12.5")
            draft.set(TargetingKey.priority, number: "-1")
            draft.set(TargetingKey.urgency, text: "low")
            draft.set(TargetingKey.icon, text: "emblem-sale")
            draft.set(TargetingKey.maxShows, number: "2")
            draft.set(TargetingKey.minDaysBetween, number: "0.5")
            draft.set(TargetingKey.category, text: "promotion")
        }
    }

    func testNumbersAreWrittenAsWholeNumbersOrRealsAndOtherTextAsGiven() {
        let draft = draft { draft in
            draft.set(TargetingKey.rollout, number: "20")
            draft.set(TargetingKey.priority, number: "-2.5")
            draft.set(TargetingKey.maxShows, number: "many")
        }
        XCTAssertEqual(draft.fields[TargetingKey.rollout], .integer(20))
        XCTAssertEqual(draft.fields[TargetingKey.priority], .real(-2.5))
        XCTAssertEqual(draft.fields[TargetingKey.maxShows], .string("many"))
    }

    /// The plain text is the one users of no listed language read: the localised key's `en`.
    func testALanguagesTextMakesTheKeyLocalisedWithThePlainTextAsItsEnglish() throws {
        let draft = try draft { try $0.set(FeedKey.title, text: "Neu", for: "de") }
        XCTAssertEqual(draft.fields[FeedKey.title], .dictionary(["en": .string("Winter sale"), "de": .string("Neu")]))
        var twice = draft
        XCTAssertThrowsError(try twice.set(FeedKey.title, text: "Anders", for: "DE")) {
            XCTAssertEqual("\($0)", "Title for DE is given twice: it already has a de text")
        }
        XCTAssertThrowsError(try self.draft { try $0.set(FeedKey.title, text: "New", for: "en") }) {
            XCTAssertEqual("\($0)", "Title for en is given twice: the plain Title is its en text, for users of no listed language")
        }
    }

    /// Written by the editor in every format, the message reads back with every value.
    func testAMessageWithEveryKeyIsAddedToEachFormatAndReadBackWithItsValues() throws {
        let draft = try everyKey()
        let binary = try PropertyListSerialization.data(fromPropertyList: ["old": ["Title": "Old"]], format: .binary, options: 0)
        let feeds = [Fixtures.xmlFeed(["old": ["Title": "Old"]]), "{\n  \"old\": {\"Title\": \"Old\"}\n}\n",
                     "{\n  old = { Title = Old; };\n}\n"].map { Array($0.utf8) } + [Array(binary)]
        for bytes in feeds {
            let added = try FeedEditor.adding(draft.entry(key: "2026/12/01"), to: bytes)
            let feed = try FeedDecoder.decode(Data(added.bytes))
            let entry = try XCTUnwrap(feed.entries["2026/12/01"], "\(feed.format)")
            let report = FeedValidation.report(for: feed, appVersion: nil, rules: URLRules(), now: clock.now)
            XCTAssertEqual(report.findings, [], "\(feed.format)")
            let german = entry.localised(to: ["de"])
            XCTAssertEqual([german.title, german.message, german.actionButton], ["Winterschlussverkauf", "Halber Preis", "Kaufen"])
            let other = entry.localised(to: ["fr"])
            XCTAssertEqual([other.title, other.message, other.actionButton], ["Winter sale", "Half price", "Shop"])
            XCTAssertEqual([entry.actionURL, entry.minVersion, entry.maxVersion], ["https://example.com/sale", "1.5", "2.0"])
            XCTAssertEqual(entry.startDate, .moment(try XCTUnwrap(ISO8601Moment.parse("2099-12-01")?.date)))
            XCTAssertEqual(entry.endDate, .moment(try XCTUnwrap(ISO8601Moment.parse("2099-12-31T18:00:00+01:00")?.date)))
            XCTAssertEqual(entry.languages, ["en", "de"])
            XCTAssertEqual(entry.desktops, ["GNOME"])
            XCTAssertEqual(entry.rollout, 12.5)
            XCTAssertEqual(entry.priority, -1)
            XCTAssertEqual(entry.urgency, .low)
            XCTAssertEqual(entry.icon, "emblem-sale")
            XCTAssertEqual(entry.maxShows, 2)
            XCTAssertEqual(entry.minTimeBetweenShows, 43_200)
            XCTAssertEqual(entry.categoryAsWritten, .promotion)
        }
    }

    func testAnXMLEntryWritesNumbersListsAndLanguagesAsTheirOwnKinds() throws {
        let draft = draft { draft in
            draft.set(TargetingKey.rollout, number: "20")
            draft.set(TargetingKey.minDaysBetween, number: "0.5")
            draft.set(TargetingKey.languages, list: ["en", "de"])
        }
        let localised = try { var draft = draft; try draft.set(FeedKey.title, text: "Neu", for: "de"); return draft }()
        let added = try FeedEditor.adding(localised.entry(key: "k"), to: Array(Fixtures.xmlFeed(["old": ["Title": "Old"]]).utf8))
        XCTAssertEqual(String(decoding: try XCTUnwrap(added.edit).replacement, as: UTF8.self), """
              <key>k</key>
              <dict>
                <key>Title</key><dict><key>de</key><string>Neu</string><key>en</key><string>Winter sale</string></dict>
                <key>Message</key><string>Half price</string>
                <key>Languages</key><array><string>en</string><string>de</string></array>
                <key>Rollout</key><integer>20</integer>
                <key>MinDaysBetween</key><real>0.5</real>
              </dict>

            """)
    }

    func testAnOpenStepEntryWritesNumbersAsTextListsInParenthesesAndLanguagesAsADictionary() throws {
        let draft = try draft { draft in
            try draft.set(FeedKey.title, text: "Neu", for: "de")
            draft.set(TargetingKey.languages, list: ["en", "de"])
            draft.set(TargetingKey.rollout, number: "20")
        }
        let added = try FeedEditor.adding(draft.entry(key: "k"), to: Array("{\n  old = {\n    Title = Old;\n  };\n}\n".utf8))
        XCTAssertEqual(String(decoding: added.bytes, as: UTF8.self), """
            {
              old = {
                Title = Old;
              };
              "k" = {
                Title = {"de" = "Neu"; "en" = "Winter sale";};
                Message = "Half price";
                Languages = ("en", "de");
                Rollout = "20";
              };
            }

            """)
    }
}
