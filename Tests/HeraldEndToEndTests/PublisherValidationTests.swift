import Foundation
import HeraldTestSupport
import XCTest

/// `herald validate` as a publisher runs it: every fault of every entry in one run, and a feed
/// that cannot be read named by file, line and column, as compilers name their errors.
final class PublisherValidationTests: XCTestCase {
    struct Run: Equatable {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// Writes `contents` as `name` in a new session's folder and validates it by its path.
    ///
    /// - Returns: the run, and the path the feed was given by, which the output names.
    func validate(_ name: String, _ contents: String, _ options: [String] = []) throws -> (Run, String) {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let path = session.directory.appendingPathComponent(name).path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let child = try session.herald(["validate", path] + options)
        let status = child.wait(seconds: 60)
        return (Run(status: status, output: child.output, errorOutput: child.errorOutput), path)
    }

    let faulty = #"{"a": {"Titel": 3, "Mesage": [1], "MinVersion": 2, "MaxVersion":"1"}, "b": {"Title":"t","MinVersion":"one.two"}}"#

    /// A version that is not dotted numbers and a range no version matches are errors, so the
    /// run fails (exit 65) as a publisher's CI needs it to; the misspelt keys are warnings.
    func testEveryFaultOfEveryEntryIsReportedInOneRunAndAnErrorFailsTheRun() throws {
        let (run, path) = try validate("f.json", faulty)
        XCTAssertEqual(run, Run(status: 65, output: """
            \(path): json, 2 messages (1 not shown), newest first:
            ! b  t  [one.two...]
            ! a  (no title)  [2...1]  (not shown: MinVersion 2 is above MaxVersion 1: no version can match)
            3 errors, 3 warnings:
              error: 'b': MinVersion "one.two" is not dotted numbers such as 1.2: it compares character by character, and every version that starts with a digit is below it, so no such app sees this message
              error: 'a': MinVersion is an integer (2), not a string: an iNotify client crashes on it (Herald reads it as "2"; write the string, "1.10" and 1.1 differ)
              error: 'a': MinVersion 2 is above MaxVersion 1: no version can match
              warning: 'a': Mesage: did you mean Message?
              warning: 'a': Titel: did you mean Title?
              warning: 'a': has neither Title nor Message

            """, errorOutput: ""))
    }

    /// A message a check can never show fails the run even when it is the only fault.
    func testAMessageThatCanNeverShowFailsTheRunWithTheWholeReport() throws {
        let (run, path) = try validate("never.json", #"{"2026/11/02": {"Title": "Staged", "Rollout": "5%"}, "2026/11/01": {"Title": "Everyone"}}"#)
        XCTAssertEqual(run, Run(status: 65, output: """
            \(path): json, 2 messages (1 not shown), newest first:
            ! 2026/11/02  Staged  (not shown: Rollout is a string (5%), not a number from 0 to 100: a check never shows the message)
              2026/11/01  Everyone
            1 error, no warnings:
              error: '2026/11/02': Rollout is a string (5%), not a number from 0 to 100: a check never shows the message

            """, errorOutput: ""))
    }

    /// Warnings leave every value taken: the run passes, and fails only with --strict.
    func testWarningsAlonePassAndFailOnlyWithStrict() throws {
        let warnings = #"{"2026/11/01": {"Title": "Sale", "Message": "See www.example.org", "RollOut": 20}}"#
        let (run, path) = try validate("warn.json", warnings)
        XCTAssertEqual(run, Run(status: 0, output: """
            \(path): json, 1 message, newest first:
            ! 2026/11/01  Sale
            no errors, 2 warnings:
              warning: '2026/11/01': RollOut: did you mean Rollout? Keys are case-sensitive.
              warning: '2026/11/01': Message contains the link www.example.org: GNOME Shell makes it clickable outside Herald's link rules, and a click on it records no answer; put the link in ActionURL

            """, errorOutput: ""))
        let (strict, strictPath) = try validate("warn.json", warnings, ["--strict"])
        XCTAssertEqual(strict, Run(status: 65, output: run.output.replacingOccurrences(of: path, with: strictPath), errorOutput: ""))
    }

    /// The README tells publishers to put `herald validate` in their CI, which may read the feed
    /// by path, from standard input, by a file: URL or from their server: each exits alike.
    func testEveryFormOfTheFeedArgumentExitsAlike() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        for (contents, status, strictStatus) in [(faulty, Int32(65), Int32(65)), (#"{"a": {"Title": "T", "ActionButton": "Go"}}"#, 0, 65),
                                                 (#"{"a": {"Title": "T"}}"#, 0, 0)] {
            let file = session.directory.appendingPathComponent("feed.json")
            try Data(contents.utf8).write(to: file)
            let server = try session.serveFeed(contents)
            defer { server.stop() }
            for (argument, input) in [(file.path, nil), ("-", file), ("file://" + file.path, nil), (server.url("feed.plist"), nil)] as [(String, URL?)] {
                XCTAssertEqual(try session.run(["validate", argument], standardInput: input).status, status, "\(argument): \(contents)")
                XCTAssertEqual(try session.run(["validate", argument, "--strict"], standardInput: input).status, strictStatus, "\(argument): \(contents)")
            }
        }
    }

    func testJSONGivesEachFindingWithItsEntryIdKeyAndKind() throws {
        let (run, _) = try validate("f.json", #"{"a": {"Title": 3, "Mesage": "M"}, "b": "text"}"#, ["--json"])
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.errorOutput, "")
        XCTAssertEqual(run.output, """
            {
              "entries" : [
                {
                  "key" : "b"
                },
                {
                  "Mesage" : "M",
                  "Title" : 3,
                  "key" : "a"
                }
              ],
              "format" : "json",
              "notShown" : [
                {
                  "key" : "b",
                  "reason" : "the entry is a string, not a dictionary"
                },
                {
                  "key" : "a",
                  "reason" : "Title is an integer, not a string"
                }
              ],
              "notes" : [

              ],
              "problems" : [
                {
                  "field" : null,
                  "key" : "b",
                  "kind" : "crashes-inotify",
                  "reason" : "the entry is a string, not a dictionary: an iNotify client crashes on it, and Herald skips it",
                  "severity" : "error"
                },
                {
                  "field" : "Title",
                  "key" : "a",
                  "kind" : "wrong-type",
                  "reason" : "Title is an integer (3), not a string",
                  "severity" : "error"
                },
                {
                  "field" : "Mesage",
                  "key" : "a",
                  "kind" : "misspelt-key",
                  "reason" : "Mesage: did you mean Message?",
                  "severity" : "warning"
                }
              ],
              "targeting" : [

              ],
              "usable" : true
            }

            """)
    }

    /// Every targeting key, each once right and once wrong: localised text, a schedule still to
    /// come, one that cannot be read and one that has ended, languages, desktops, rollout,
    /// priority, urgency, icon, the caps on showings and the category.
    let everyKey = """
        {
          "2026/12/01": {"Title": {"en": "Winter sale", "de": "Winterschlussverkauf"}, "Message": {"en": "Half price", "de": "Halber Preis"},
                         "ActionURL": "https://example.com/sale", "ActionButton": {"en": "Shop", "de": "Kaufen"},
                         "StartDate": "2099-12-01", "EndDate": "2099-12-31T18:00:00+01:00", "Languages": ["en", "de"], "Desktops": ["GNOME", "KDE"],
                         "Rollout": 20, "Priority": 5, "Urgency": "low", "Icon": "emblem-sale", "MaxShows": 2, "MinDaysBetween": 7, "Category": "promotion"},
          "2026/11/01": {"Title": {"de": "Neu", "fr": "Nouveau"}, "StartDate": "next week", "Languages": ["de", "German"],
                         "Rollout": 150, "Urgency": "critical", "Icon": "/usr/share/icons/sale.png", "MaxShows": 0, "MinDaysBetween": "weekly", "Category": "securty"},
          "2026/10/01": {"Title": "Autumn", "EndDate": "2020-01-31", "Desktops": [], "RollOut": 20}
        }

        """

    func testEveryTargetingKeyIsListedWithWhoItIsForAndEachFaultAndNoteIsReported() throws {
        let (run, path) = try validate("every.json", everyKey)
        XCTAssertEqual(run, Run(status: 65, output: """
            \(path): json, 3 messages (2 not shown), newest first:
              2026/12/01  Winter sale  -> https://example.com/sale  [en, de]  on GNOME, KDE  from 2099-12-01  until 2099-12-31T18:00:00+01:00  rollout 20 %  priority 5  at most 2 shows  at least 7 days apart  category promotion
            ! 2026/11/01  Neu  [de, German]  (not shown: StartDate "next week" is not an ISO 8601 date or date-time such as 2026-12-01 or 2026-12-01T09:00Z: a check never shows the message)
            ! 2026/10/01  Autumn  on no desktop  until 2020-01-31  (not shown: EndDate: ended on 2020-01-31: no user sees it)
            8 errors, 2 warnings:
              warning: '2026/11/01': Title has no en text: users whose language is not listed see the 'de' text
              error: '2026/11/01': StartDate "next week" is not an ISO 8601 date or date-time such as 2026-12-01 or 2026-12-01T09:00Z: a check never shows the message
              error: '2026/11/01': Languages: "German" is not a language code such as de, pt_BR or zh_Hans, so no user's language matches it
              error: '2026/11/01': Rollout 150 is outside 0–100: a check never shows the message
              error: '2026/11/01': MaxShows 0 is not a whole number of at least 1: ignored, so the message may show any number of times
              error: '2026/11/01': MinDaysBetween is a string (weekly), not a number of days: ignored, so no time is kept between two showings
              error: '2026/11/01': Category "securty" is not announcement, tip, promotion, security or survey: read as promotion; did you mean security?
              error: '2026/11/01': Icon "/usr/share/icons/sale.png" is a path: only themed icon names are used, so the app's icon is shown
              warning: '2026/10/01': RollOut: did you mean Rollout? Keys are case-sensitive.
              error: '2026/10/01': Desktops is empty: no user sees it
            2 notes:
              '2026/11/01': Urgency critical is shown as normal unless the app allows critical urgency
              '2026/10/01': EndDate: ended on 2020-01-31: no user sees it

            """, errorOutput: ""))
    }

    func testAHigherPriorityIsListedFirstAsAChecksShowsIt() throws {
        let (run, path) = try validate("p.json", #"{"2026/02/01": {"Title": "New"}, "2026/01/01": {"Title": "Urgent", "Priority": 10}}"#)
        XCTAssertEqual(run, Run(status: 0, output: """
            \(path): json, 2 messages, by priority, then newest first:
              2026/01/01  Urgent  priority 10
              2026/02/01  New
            no problems found

            """, errorOutput: ""))
    }

    func testNotesAloneLetStrictPass() throws {
        let notesOnly = #"{"a": {"Title": "Old", "EndDate": "2020-01-31", "Urgency": "critical"}}"#
        XCTAssertEqual(try validate("f.json", notesOnly, ["--strict"]).0.status, 0)
        XCTAssertEqual(try validate("f.json", everyKey, ["--strict"]).0.status, 65)
    }

    func testJSONGivesEveryTargetingKeysFaultsNotesAndTargeting() throws {
        let (run, _) = try validate("every.json", everyKey, ["--json"])
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.errorOutput, "")
        XCTAssertEqual(run.output, #"""
            {
              "entries" : [
                {
                  "ActionButton" : {
                    "de" : "Kaufen",
                    "en" : "Shop"
                  },
                  "ActionURL" : "https://example.com/sale",
                  "Category" : "promotion",
                  "Desktops" : [
                    "GNOME",
                    "KDE"
                  ],
                  "EndDate" : "2099-12-31T18:00:00+01:00",
                  "Icon" : "emblem-sale",
                  "Languages" : [
                    "en",
                    "de"
                  ],
                  "MaxShows" : 2,
                  "Message" : {
                    "de" : "Halber Preis",
                    "en" : "Half price"
                  },
                  "MinDaysBetween" : 7,
                  "Priority" : 5,
                  "Rollout" : 20,
                  "StartDate" : "2099-12-01",
                  "Title" : {
                    "de" : "Winterschlussverkauf",
                    "en" : "Winter sale"
                  },
                  "Urgency" : "low",
                  "key" : "2026/12/01"
                },
                {
                  "Category" : "securty",
                  "Icon" : "/usr/share/icons/sale.png",
                  "Languages" : [
                    "de",
                    "German"
                  ],
                  "MaxShows" : 0,
                  "MinDaysBetween" : "weekly",
                  "Rollout" : 150,
                  "StartDate" : "next week",
                  "Title" : {
                    "de" : "Neu",
                    "fr" : "Nouveau"
                  },
                  "Urgency" : "critical",
                  "key" : "2026/11/01"
                },
                {
                  "Desktops" : [
            
                  ],
                  "EndDate" : "2020-01-31",
                  "RollOut" : 20,
                  "Title" : "Autumn",
                  "key" : "2026/10/01"
                }
              ],
              "format" : "json",
              "notShown" : [
                {
                  "key" : "2026/11/01",
                  "reason" : "StartDate \"next week\" is not an ISO 8601 date or date-time such as 2026-12-01 or 2026-12-01T09:00Z: a check never shows the message"
                },
                {
                  "key" : "2026/10/01",
                  "reason" : "EndDate: ended on 2020-01-31: no user sees it"
                }
              ],
              "notes" : [
                {
                  "field" : "Urgency",
                  "key" : "2026/11/01",
                  "kind" : "critical-urgency",
                  "reason" : "Urgency critical is shown as normal unless the app allows critical urgency",
                  "severity" : "note"
                },
                {
                  "field" : "EndDate",
                  "key" : "2026/10/01",
                  "kind" : "ended",
                  "reason" : "EndDate: ended on 2020-01-31: no user sees it",
                  "severity" : "note"
                }
              ],
              "problems" : [
                {
                  "field" : "Title",
                  "key" : "2026/11/01",
                  "kind" : "no-fallback-language",
                  "reason" : "Title has no en text: users whose language is not listed see the 'de' text",
                  "severity" : "warning"
                },
                {
                  "field" : "StartDate",
                  "key" : "2026/11/01",
                  "kind" : "unreadable-date",
                  "reason" : "StartDate \"next week\" is not an ISO 8601 date or date-time such as 2026-12-01 or 2026-12-01T09:00Z: a check never shows the message",
                  "severity" : "error"
                },
                {
                  "field" : "Languages",
                  "key" : "2026/11/01",
                  "kind" : "unknown-language",
                  "reason" : "Languages: \"German\" is not a language code such as de, pt_BR or zh_Hans, so no user's language matches it",
                  "severity" : "error"
                },
                {
                  "field" : "Rollout",
                  "key" : "2026/11/01",
                  "kind" : "out-of-range",
                  "reason" : "Rollout 150 is outside 0–100: a check never shows the message",
                  "severity" : "error"
                },
                {
                  "field" : "MaxShows",
                  "key" : "2026/11/01",
                  "kind" : "out-of-range",
                  "reason" : "MaxShows 0 is not a whole number of at least 1: ignored, so the message may show any number of times",
                  "severity" : "error"
                },
                {
                  "field" : "MinDaysBetween",
                  "key" : "2026/11/01",
                  "kind" : "wrong-type",
                  "reason" : "MinDaysBetween is a string (weekly), not a number of days: ignored, so no time is kept between two showings",
                  "severity" : "error"
                },
                {
                  "field" : "Category",
                  "key" : "2026/11/01",
                  "kind" : "unknown-category",
                  "reason" : "Category \"securty\" is not announcement, tip, promotion, security or survey: read as promotion; did you mean security?",
                  "severity" : "error"
                },
                {
                  "field" : "Icon",
                  "key" : "2026/11/01",
                  "kind" : "not-an-icon-name",
                  "reason" : "Icon \"/usr/share/icons/sale.png\" is a path: only themed icon names are used, so the app's icon is shown",
                  "severity" : "error"
                },
                {
                  "field" : "RollOut",
                  "key" : "2026/10/01",
                  "kind" : "misspelt-key",
                  "reason" : "RollOut: did you mean Rollout? Keys are case-sensitive.",
                  "severity" : "warning"
                },
                {
                  "field" : "Desktops",
                  "key" : "2026/10/01",
                  "kind" : "empty-audience",
                  "reason" : "Desktops is empty: no user sees it",
                  "severity" : "error"
                }
              ],
              "targeting" : [
                {
                  "key" : "2026/12/01",
                  "note" : "[en, de]  on GNOME, KDE  from 2099-12-01  until 2099-12-31T18:00:00+01:00  rollout 20 %  priority 5  at most 2 shows  at least 7 days apart  category promotion"
                },
                {
                  "key" : "2026/11/01",
                  "note" : "[de, German]"
                },
                {
                  "key" : "2026/10/01",
                  "note" : "on no desktop  until 2020-01-31"
                }
              ],
              "usable" : true
            }

            """#)
    }

    func testOneMessageOneErrorAndOneWarningAreCountedInTheSingular() throws {
        let (run, path) = try validate("one.json", #"{"2024/05/01": {"Title": "Spring sale", "ActionButton": "Go", "Urgency": "loud"}}"#)
        XCTAssertEqual(run, Run(status: 65, output: """
            \(path): json, 1 message, newest first:
            ! 2024/05/01  Spring sale
            1 error, 1 warning:
              warning: '2024/05/01': ActionButton has no effect without ActionURL
              error: '2024/05/01': Urgency "loud" is not low, normal or critical: the notification has normal urgency

            """, errorOutput: ""))
    }

    let dots = """
        <?xml version="1.0"?>
        <plist version="1.0">
        <dict>
          <key>2024/05/01</key>
          <dict><key>Title</key><string>Sale</string></dict>
          ...
        </dict>
        </plist>

        """

    func testAParseErrorNamesFileLineColumnAndFormatForEditorsToJumpTo() throws {
        let (run, path) = try validate("dots.plist", dots)
        XCTAssertEqual(run, Run(status: 65, output: "", errorOutput: """
            herald: \(path):6:3: unexpected '...' where a <key> was expected (XML property list)

            """))
    }

    func testAParseErrorAsJSONGivesThePlaceAsData() throws {
        let (run, path) = try validate("dots.plist", dots, ["--json"])
        XCTAssertEqual(run, Run(status: 65, output: """
            {
              "column" : 3,
              "error" : "\(path):6:3: unexpected '...' where a <key> was expected (XML property list)",
              "format" : "xml-plist",
              "line" : 6,
              "reason" : "unexpected '...' where a <key> was expected",
              "usable" : false
            }

            """, errorOutput: ""))
    }

    func testJSONWithATrailingCommaIsRefusedAsJSON() throws {
        let (run, path) = try validate("feed.json", "{\n  \"a\": {\"Title\": \"x\"},\n}\n")
        XCTAssertEqual(run, Run(status: 65, output: "", errorOutput: """
            herald: \(path):2:22: a trailing ',' before '}': JSON allows none (JSON)

            """))
    }

    func testARootThatIsNotADictionaryIsRefusedAsAnINotifyCrash() throws {
        let (run, path) = try validate("list.json", "[1]")
        XCTAssertEqual(run, Run(status: 65, output: "", errorOutput: """
            herald: \(path): the feed's root is an array, not a dictionary keyed by message id: an iNotify client crashes on it

            """))
    }
}
