import Foundation
import HeraldTestSupport
import XCTest

/// `herald validate`, `herald state` and `herald demo`, run as a user runs them.
final class ToolEndToEndTests: XCTestCase {
    func testValidateListsMessagesInDisplayOrderAndEveryProblem() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = session.directory.appendingPathComponent("feed.json")
        try Data(#"""
            {"2024/01/01": {"Title": "Old"},
             "2024/03/01": {"Title": "Newest", "ActionURL": "javascript:alert(1)"},
             "2024/02/01": {"Title": "Middle", "MinVersion": "2.0", "MaxVersion": "1.0"},
             "broken": "text"}
            """#.utf8).write(to: feed)
        let result = try session.heraldToCompletion(["validate", feed.path])
        XCTAssertEqual(result.status, 65, result.output)
        XCTAssertEqual(result.output, """
            \(feed.path): json, 4 messages (3 not shown), newest first:
            ! broken  (no title)  (not shown: the entry is a string, not a dictionary)
            ! 2024/03/01  Newest  -> javascript:alert(1)  (not shown: ActionURL refused: the javascript: scheme is never opened)
            ! 2024/02/01  Middle  [2.0...1.0]  (not shown: MinVersion 2.0 is above MaxVersion 1.0: no version can match)
              2024/01/01  Old
            3 errors, 1 warning:
              error: 'broken': the entry is a string, not a dictionary: an iNotify client crashes on it, and Herald skips it
              warning: 'broken': the message id is not a date as the others are (such as 2024/03/01), so it sorts after every date and shows first, as the newest
              error: '2024/03/01': ActionURL will be refused: the javascript: scheme is never opened
              error: '2024/02/01': MinVersion 2.0 is above MaxVersion 1.0: no version can match

            """)
        XCTAssertEqual(try session.heraldToCompletion(["validate", "--strict", feed.path]).status, 65)
    }

    func testValidateReportsWhatAnAppVersionWouldNotSee() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = session.directory.appendingPathComponent("feed.plist")
        try Data(Fixtures.xmlFeed(["a": ["Title": "A", "MinVersion": "1.0.0"]]).utf8).write(to: feed)
        let result = try session.heraldToCompletion(["validate", "--json", "--app-version", "1.0", feed.path])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        XCTAssertEqual(report["format"] as? String, "xml-plist")
        let problems = report["problems"] as? [[String: String]] ?? []
        XCTAssertEqual(problems.first?["reason"], "not shown to version 1.0: below MinVersion 1.0.0")
    }

    func testValidateExits65ForAnUnusableFeed() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = session.directory.appendingPathComponent("feed.plist")
        try Data(#"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#.utf8).write(to: feed)
        XCTAssertEqual(try session.heraldToCompletion(["validate", feed.path]).status, 65)
    }

    func testValidateFetchesAURL() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "Served"]]))
        let result = try session.heraldToCompletion(["validate", server.url("feed.plist")])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("a  Served"), result.output)
        XCTAssertEqual(try session.heraldToCompletion(["validate", server.url("status/404")]).status, 75)
    }

    func testStateShowsAnswersAndResetMakesTheNextRunAFirstLaunch() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "A"]]))
        let run = try session.herald(["check", "--feed", server.url("feed.plist"), "--app-id", "org.example.S", "--show-on-first-launch", "--wait", "20", "--json"])
        XCTAssertTrue(eventually { run.output.contains("\"shown\"") })
        try session.invoke("ok", on: 1)
        XCTAssertEqual(run.wait(), 0)
        let shown = try session.heraldToCompletion(["state", "--app-id", "org.example.S"])
        XCTAssertTrue(shown.output.contains("viewed: a"), shown.output)
        XCTAssertTrue(shown.output.contains("first launch: passed"), shown.output)
        let reset = try session.heraldToCompletion(["state", "--app-id", "org.example.S", "--reset"])
        XCTAssertTrue(reset.output.contains("first launch: not yet"), reset.output)
        XCTAssertTrue(reset.output.contains("viewed: none"), reset.output)
    }

    func testDemoShowsTheSampleFeedOnTheDesktop() throws {
        let session = try DesktopSession()
        let run = try session.herald(["demo", "--json", "--wait", "1"])
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Publish your own feed", "Tip: seen once", "Herald 0.1 is out"])
        XCTAssertEqual(try session.notifyCalls().first?.appName, "Herald demo")
    }

    func testDemoWhereNothingOpensHTTPSLinksSaysSoInOneLineWithTheFix() throws {
        let session = try DesktopSession()
        let data = session.directory.appendingPathComponent("empty-data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: session.environment["XDG_CONFIG_HOME"]! + "/mimeapps.list")
        let run = try session.herald(["demo", "--json", "--wait", "1"], environment: ["XDG_DATA_DIRS": data.path])
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(run.errorOutput, """
            herald: no application opens https: links here, so the samples with a link are skipped; register a browser, \
            e.g. xdg-settings set default-web-browser firefox-esr.desktop

            """)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Tip: seen once"])
    }

    func testDemoWithoutANotificationServerSaysSoInOneLineAndExits69() throws {
        let session = try DesktopSession(capabilities: nil)
        let run = try session.herald(["demo"])
        XCTAssertEqual(run.wait(), 69)
        let lines = run.errorOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.errorOutput)
        XCTAssertTrue(lines.first?.contains("no notification server") ?? false, run.errorOutput)
    }
}

/// `herald state --json` and `herald validate --json`: pretty-printed JSON, keys sorted, slashes
/// as they are, and every character a terminal must not receive escaped as the event lines
/// escape it.
extension ToolEndToEndTests {
    /// Writes a state file for `appID` in the session's state directory.
    private func writeState(_ session: DesktopSession, appID: String, _ json: String) throws {
        let directory = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: URL(fileURLWithPath: directory + "/\(appID).json"))
    }

    /// A character a terminal must not receive, other than the line breaks between lines.
    private static func reachesTheTerminalRaw(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && [0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E].contains { $0.contains(scalar.value) }
    }

    func testStateJSONIsThePrettyPrintedStateWithTheMuteAndTheMirror() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let appID = "org.example.Shown"
        try writeState(session, appID: appID, #"""
            {"ignored": ["b", "a"], "viewed": ["2024/01/01", "x/y"], "reminded": {"r": "2024-03-01T10:00:00Z"},
             "absentSince": {"gone": "2024-02-01T00:00:00Z"}, "lastChecked": "2024-03-02T08:30:00Z",
             "failure": {"count": 2, "lastAttempt": "2024-03-02T09:00:00Z", "reason": "the server answered 503"},
             "cachedFeed": {"url": "https://example.com/feed.plist", "etag": "\"abc\"", "lastModified": "Sat, 02 Mar 2024 08:00:00 GMT"},
             "presenting": {}, "presentingPrompts": {"p": {"processID": 42, "check": "c1", "until": "2024-03-02T09:05:00Z"}},
             "prompts": {"rate": {"firstUsed": "2024-01-05T12:00:00Z", "usesCount": 7, "viewed": false, "cancelled": true}},
             "rolloutDraw": 0.25, "feedVersions": {"https://example.com/feed.plist": 1709370000}}
            """#)
        try session.writeSystemKeyFile("[all]\nMuted=true\n\n[app \(appID)]\nFeedURL=https://mirror.example.com/feed.plist\n")
        let system = session.systemKeyFile.path
        XCTAssertEqual(try session.run(["state", "--app-id", appID, "--json"]), ToolRun(status: 0, output: #"""
            {
              "absentSince" : {
                "gone" : "2024-02-01T00:00:00Z"
              },
              "cachedFeed" : {
                "etag" : "\"abc\"",
                "lastModified" : "Sat, 02 Mar 2024 08:00:00 GMT",
                "url" : "https://example.com/feed.plist"
              },
              "failure" : {
                "count" : 2,
                "lastAttempt" : "2024-03-02T09:00:00Z",
                "reason" : "the server answered 503"
              },
              "feedMirror" : {
                "file" : "\#(system)",
                "url" : "https://mirror.example.com/feed.plist"
              },
              "feedVersions" : {
                "https://example.com/feed.plist" : 1709370000
              },
              "ignored" : [
                "a",
                "b"
              ],
              "lastChecked" : "2024-03-02T08:30:00Z",
              "muted" : {
                "by" : "administrator",
                "file" : "\#(system)",
                "scope" : "all-apps"
              },
              "presenting" : {

              },
              "presentingPrompts" : {
                "p" : {
                  "check" : "c1",
                  "processID" : 42,
                  "until" : "2024-03-02T09:05:00Z"
                }
              },
              "prompts" : {
                "rate" : {
                  "cancelled" : true,
                  "firstUsed" : "2024-01-05T12:00:00Z",
                  "usesCount" : 7,
                  "viewed" : false
                }
              },
              "reminded" : {
                "r" : "2024-03-01T10:00:00Z"
              },
              "rolloutDraw" : 0.25,
              "viewed" : [
                "2024/01/01",
                "x/y"
              ]
            }

            """#))
    }

    func testStateJSONOfAFirstLaunchWritesEmptyListsAsBefore() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        XCTAssertEqual(try session.run(["state", "--app-id", "org.example.Empty", "--json"]), ToolRun(status: 0, output: """
            {
              "absentSince" : {

              },
              "presenting" : {

              },
              "presentingPrompts" : {

              },
              "prompts" : {

              },
              "reminded" : {

              },
              "viewed" : [

              ]
            }

            """))
    }

    func testStateJSONEscapesWhatATerminalMustNotReceiveAsTheEventLinesDo() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let appID = "org.example.Hostile"
        let id = "evil\u{202E}\u{7F}\u{2028}\u{1B}[31m\u{8}\u{C}id"
        try writeState(session, appID: appID, #"""
            {"ignored": [], "viewed": ["evil\u202e\u007f\u2028\u001b[31m\b\fid"],
             "reminded": {"evil\u202e\u007f\u2028\u001b[31m\b\fid": "2024-03-01T10:00:00Z"}}
            """#)
        let run = try session.run(["state", "--app-id", appID, "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(run.output.split(separator: "\n").filter { $0.contains("evil") }, [
            #"    "evil\u202E\u007F\u2028\u001B[31m\u0008\u000Cid" : "2024-03-01T10:00:00Z""#, #"    "evil\u202E\u007F\u2028\u001B[31m\u0008\u000Cid""#,
        ])
        XCTAssertFalse(run.output.unicodeScalars.contains(where: Self.reachesTheTerminalRaw), run.output)
        let state = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        XCTAssertEqual(state["viewed"] as? [String], [id])
        XCTAssertEqual(state["reminded"] as? [String: String], [id: "2024-03-01T10:00:00Z"])
    }

    func testValidateJSONIsThePrettyPrintedReport() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.json", #"""
            {"2024/03/01": {"Title": "Newest", "ActionURL": "javascript:alert(1)", "Tags": [],
                            "Extra": {"n": 1.5, "ok": true, "none": null, "list": [1, "two"]}},
             "2024/02/01": {"Title": "Middle", "MinVersion": "2.0", "MaxVersion": "1.0", "Languages": ["de"]},
             "2024/01/01": {"Title": "Old", "Message": "a/b \"quoted\" é"}}
            """#)
        XCTAssertEqual(try session.run(["validate", "--json", server.url("feed.json")]), ToolRun(status: 65, output: #"""
            {
              "entries" : [
                {
                  "ActionURL" : "javascript:alert(1)",
                  "Extra" : {
                    "list" : [
                      1,
                      "two"
                    ],
                    "n" : 1.5,
                    "none" : null,
                    "ok" : true
                  },
                  "Tags" : [

                  ],
                  "Title" : "Newest",
                  "key" : "2024/03/01"
                },
                {
                  "Languages" : [
                    "de"
                  ],
                  "MaxVersion" : "1.0",
                  "MinVersion" : "2.0",
                  "Title" : "Middle",
                  "key" : "2024/02/01"
                },
                {
                  "Message" : "a/b \"quoted\" é",
                  "Title" : "Old",
                  "key" : "2024/01/01"
                }
              ],
              "format" : "json",
              "notShown" : [
                {
                  "key" : "2024/03/01",
                  "reason" : "ActionURL refused: the javascript: scheme is never opened"
                },
                {
                  "key" : "2024/02/01",
                  "reason" : "MinVersion 2.0 is above MaxVersion 1.0: no version can match"
                }
              ],
              "notes" : [

              ],
              "problems" : [
                {
                  "field" : "ActionURL",
                  "key" : "2024/03/01",
                  "kind" : "unsafe-link",
                  "reason" : "ActionURL will be refused: the javascript: scheme is never opened",
                  "severity" : "error"
                },
                {
                  "field" : "MinVersion",
                  "key" : "2024/02/01",
                  "kind" : "range-never-matches",
                  "reason" : "MinVersion 2.0 is above MaxVersion 1.0: no version can match",
                  "severity" : "error"
                }
              ],
              "targeting" : [
                {
                  "key" : "2024/02/01",
                  "note" : "[de]"
                }
              ],
              "usable" : true
            }

            """#))
    }

    func testValidateJSONOfAnUnusableFeedIsThePrettyPrintedError() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.json", "{\"a\": \n")
        let url = server.url("feed.json")
        XCTAssertEqual(try session.run(["validate", "--json", url]), ToolRun(status: 65, output: """
            {
              "column" : 1,
              "error" : "\(url):2:1: the document ends early: a value is missing (JSON)",
              "format" : "json",
              "line" : 2,
              "reason" : "the document ends early: a value is missing",
              "usable" : false
            }

            """))
    }

    func testValidateJSONEscapesWhatATerminalMustNotReceiveAsTheEventLinesDo() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let server = try FeedServer(directory: session.directory)
        let hostile = "evil\u{202E}\u{7F}\u{2028}\u{1B}[31m\u{8}\u{C}"
        // An id with control characters is an error (its entry is not read); the title is another entry's.
        try server.publish("feed.json", #"{"evil\u202e\u007f\u2028\u001b[31m\b\fid": {"Title": "t"}, "plain": {"Title": "evil\u202e\u007f\u2028\u001b[31m\b\ftitle"}}"#)
        let run = try session.run(["validate", "--json", server.url("feed.json")])
        XCTAssertEqual(run.status, 65, run.errorOutput)
        let title: String = #"      "Title" : "evil\u202E\u007F\u2028\u001B[31m\u0008\u000Ctitle","#
        let key: String = #"      "key" : "evil\u202E\u007F\u2028\u001B[31m\u0008\u000Cid""#
        let lines: [String] = run.output.split(separator: "\n").map(String.init).filter { $0.contains("evil") }
        XCTAssertEqual(lines, [title, key, key + ",", key + ","], "the entries, the message not shown and the problem")
        XCTAssertFalse(run.output.unicodeScalars.contains(where: Self.reachesTheTerminalRaw), run.output)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        XCTAssertEqual(report["entries"] as? [[String: String]], [["Title": hostile + "title", "key": "plain"], ["key": hostile + "id"]])
    }
}
