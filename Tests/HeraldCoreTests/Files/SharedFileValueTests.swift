import Foundation
import HeraldCore
import XCTest

/// The shared files' format (`SharedFileValue`): the attention ledger and the inbox are written
/// as they were when `JSONEncoder` wrote them, files written then read as they did, and a file
/// that is not such a value reads as none (its store starts over).
final class SharedFileValueTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

    /// A ledger as `JSONEncoder` wrote it (`.prettyPrinted`, `.sortedKeys`, dates as text),
    /// slashes escaped as it escaped them.
    let ledgerWrittenByTheEncoder = """
        {
          "shows" : [
            {
              "app" : "org.example.App",
              "at" : "2027-01-15T08:00:00Z",
              "key" : "2027\\/01\\/01",
              "weight" : 1
            },
            {
              "app" : "org.example.Other",
              "at" : "2027-01-15T08:00:00Z",
              "claim" : {
                "check" : "check-1",
                "processID" : 4242,
                "until" : "2027-01-15T09:00:00Z"
              },
              "key" : "news",
              "weight" : 2
            }
          ],
          "waiting" : {
            "org.example.Other" : {
              "tip" : {
                "priority" : 2.5,
                "reason" : "quiet",
                "seen" : "2027-01-15T08:00:00Z",
                "since" : "2027-01-15T08:00:00Z",
                "weight" : 1
              }
            }
          }
        }
        """

    var ledger: AttentionLedger {
        AttentionLedger(shows: [
            .init(app: "org.example.App", key: "2027/01/01", at: at, weight: 1),
            .init(app: "org.example.Other", key: "news", at: at, weight: 2,
                  claim: .init(processID: 4242, check: "check-1", until: at.addingTimeInterval(3600))),
        ], waiting: ["org.example.Other": ["tip": .init(since: at, seen: at, priority: 2.5, weight: 1, reason: .quiet)]])
    }

    func testALedgerTheEncoderWroteReadsAsItDid() throws {
        XCTAssertEqual(AttentionLedger.decoded(from: Data(ledgerWrittenByTheEncoder.utf8)), ledger)
    }

    func testALedgerIsWrittenInTheEncodersLayoutWithSlashesLeftAsTheyAre() throws {
        let written = String(decoding: ledger.encoded, as: UTF8.self)
        XCTAssertEqual(written, ledgerWrittenByTheEncoder.replacingOccurrences(of: "\\/", with: "/"))
        XCTAssertEqual(AttentionLedger.decoded(from: ledger.encoded), ledger)
    }

    func testAnEmptyLedgerIsWrittenAsTheEncoderWroteIt() throws {
        XCTAssertEqual(String(decoding: AttentionLedger().encoded, as: UTF8.self), "{\n  \"shows\" : [\n\n  ],\n  \"waiting\" : {\n\n  }\n}")
        XCTAssertEqual(AttentionLedger.decoded(from: AttentionLedger().encoded), AttentionLedger())
    }

    func testAClaimWithoutACheckFromAnOlderFileReads() throws {
        let older = #"{"shows":[{"app":"a","at":"2027-01-15T08:00:00Z","claim":{"processID":7,"until":"2027-01-15T08:00:00Z"},"key":"k","weight":1}],"waiting":{}}"#
        let read = try XCTUnwrap(AttentionLedger.decoded(from: Data(older.utf8)))
        XCTAssertEqual(read.shows.first?.claim, HeraldState.Claim(processID: 7, check: nil, until: at))
        XCTAssertFalse(String(decoding: read.encoded, as: UTF8.self).contains("\"check\""), "a nil field is left out")
    }

    func testKeysTheLedgerDoesNotKnowArePassedOverAndNullIsNoValue() throws {
        let file = #"{"shows":[{"app":"a","at":"2027-01-15T08:00:00Z","claim":null,"key":"k","weight":1.0,"later":[1,2]}],"waiting":{},"version":2}"#
        XCTAssertEqual(AttentionLedger.decoded(from: Data(file.utf8)), AttentionLedger(shows: [.init(app: "a", key: "k", at: at, weight: 1)]))
    }

    func testALedgerWithAFieldMissingOrOfAnotherTypeReadsAsNone() throws {
        let broken = [
            #"{"shows":[],"waiting":{"a":{"k":{"priority":1,"reason":"budget","seen":"2027-01-15T08:00:00Z","since":"2027-01-15T08:00:00Z"}}}}"#,
            #"{"shows":[],"waiting":{"a":{"k":{"priority":"high","reason":"budget","seen":"2027-01-15T08:00:00Z","since":"2027-01-15T08:00:00Z","weight":1}}}}"#,
            #"{"shows":[],"waiting":{"a":{"k":{"priority":1,"reason":"asleep","seen":"2027-01-15T08:00:00Z","since":"2027-01-15T08:00:00Z","weight":1}}}}"#,
            #"{"shows":[{"app":"a","at":"2027-01-15","key":"k","weight":1}],"waiting":{}}"#,
            #"{"shows":[{"app":"a","at":"2027-01-15T08:00:00Z","key":"k","weight":1.5}],"waiting":{}}"#,
            #"{"shows":[{"app":"a","at":"2027-01-15T08:00:00Z","claim":{"processID":9999999999,"until":"2027-01-15T08:00:00Z"},"key":"k","weight":1}],"waiting":{}}"#,
            #"{"shows":{},"waiting":{}}"#,
            #"{"waiting":{}}"#,
            #"{"shows":[],"waiting":{"a":[]}}"#,
            #"[]"#,
            #"{"shows":[],"waiting":{}"#,
            "",
        ]
        for file in broken {
            XCTAssertNil(AttentionLedger.decoded(from: Data(file.utf8)), file)
        }
    }

    /// An inbox as `JSONEncoder` wrote it.
    let inboxWrittenByTheEncoder = """
        {
          "apps" : {
            "org.example.App" : {
              "2027\\/01\\/01" : {
                "button" : "Read \\"more\\"",
                "category" : "news",
                "link" : "https:\\/\\/example.com\\/a?b=c&d=é",
                "message" : "Line one\\nLine two\\ttabbed",
                "reached" : "2027-01-15T08:00:00Z",
                "title" : "Title ✓",
                "withdrawn" : "2027-01-15T09:00:00Z"
              },
              "tip" : {
                "category" : "tip",
                "message" : "",
                "reached" : "2027-01-15T08:00:00Z",
                "title" : "A tip"
              }
            }
          }
        }
        """

    var inbox: Inbox {
        Inbox(apps: ["org.example.App": [
            "2027/01/01": .init(title: "Title ✓", message: "Line one\nLine two\ttabbed", link: "https://example.com/a?b=c&d=é",
                                button: "Read \"more\"", category: "news", reached: at, withdrawn: at.addingTimeInterval(3600)),
            "tip": .init(title: "A tip", message: "", category: "tip", reached: at),
        ]])
    }

    func testAnInboxTheEncoderWroteReadsAsItDidAndIsWrittenInItsLayout() throws {
        XCTAssertEqual(Inbox.decoded(from: Data(inboxWrittenByTheEncoder.utf8)), inbox)
        XCTAssertEqual(String(decoding: inbox.encoded, as: UTF8.self), inboxWrittenByTheEncoder.replacingOccurrences(of: "\\/", with: "/"))
        XCTAssertEqual(Inbox.decoded(from: inbox.encoded), inbox)
    }

    func testAnInboxRecordWithAFieldMissingOrOfAnotherTypeReadsAsNone() throws {
        XCTAssertNil(Inbox.decoded(from: Data(#"{"apps":{"a":{"k":{"category":"news","message":"m","reached":"2027-01-15T08:00:00Z"}}}}"#.utf8)))
        XCTAssertNil(Inbox.decoded(from: Data(#"{"apps":{"a":{"k":{"category":"news","link":3,"message":"m","reached":"2027-01-15T08:00:00Z","title":"t"}}}}"#.utf8)))
        XCTAssertNil(Inbox.decoded(from: Data(#"{"apps":[]}"#.utf8)))
        XCTAssertEqual(Inbox.decoded(from: Data(#"{"apps":{}}"#.utf8)), Inbox())
    }

    /// What a store remembers after writing (`SharedValueFile`) is the value its fields read
    /// back as, without the text between: it must be what any process reads from the bytes.
    func testAValueReadBackFromItsFieldsIsTheValueItsBytesRead() throws {
        var random = SeededGenerator(seed: 20_261_130)
        let texts = ["a", "", "a/b", "\"q\"", "back\\slash", "line\nbreak", "\u{7F}\u{85}", "\u{200E}rtl\u{2067}", "\u{2028}", "é", "e\u{301}", "😀", "日本"]
        func text() -> String { (0..<Int.random(in: 0...3, using: &random)).map { _ in texts.randomElement(using: &random)! }.joined() }
        func date() -> Date {
            Date(timeIntervalSince1970: [Double.random(in: 1.7e9..<1.9e9, using: &random), -1e11 - 0.25, 1e16, -1e16, .nan, 0.999,
                                         Double(Int.random(in: 0..<(1 << 35), using: &random))].randomElement(using: &random)!)
        }
        for round in 0..<300 {
            var ledger = AttentionLedger()
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let claim = Bool.random(using: &random)
                    ? HeraldState.Claim(processID: .random(in: .min ... .max, using: &random), check: Bool.random(using: &random) ? text() : nil, until: date())
                    : nil
                ledger.shows.append(.init(app: text(), key: text(), at: date(), weight: .random(in: -3...9, using: &random), claim: claim))
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let priority = [0, -0.0, 0.1, 1e-7, 2.5, -3, 1e300, Double.leastNonzeroMagnitude, .random(in: -10...10, using: &random)].randomElement(using: &random)!
                ledger.waiting[text(), default: [:]][text()] = .init(since: date(), seen: date(), priority: priority,
                                                                   weight: .random(in: 0...3, using: &random), reason: Bool.random(using: &random) ? .budget : .quiet)
            }
            XCTAssertEqual(AttentionLedger(fileValue: ledger.fileValue), AttentionLedger.decoded(from: ledger.encoded), "ledger \(round)")
            var inbox = Inbox()
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                inbox.apps[text(), default: [:]][text()] = .init(title: text(), message: text(), link: Bool.random(using: &random) ? text() : nil,
                                                                 button: Bool.random(using: &random) ? text() : nil, category: text(), reached: date(),
                                                                 withdrawn: Bool.random(using: &random) ? date() : nil)
            }
            XCTAssertEqual(Inbox(fileValue: inbox.fileValue), Inbox.decoded(from: inbox.encoded), "inbox \(round)")
        }
    }
}
