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
}
