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
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output, """
            \(feed.path): json, 4 messages (3 not shown), newest first:
            ! broken  (no title)  (not shown: the entry is a string, not a dictionary)
            ! 2024/03/01  Newest  -> javascript:alert(1)  (not shown: ActionURL refused: the javascript: scheme is never opened)
            ! 2024/02/01  Middle  [2.0...1.0]  (not shown: MinVersion 2.0 is above MaxVersion 1.0: no version can match)
              2024/01/01  Old
            4 problems:
              'broken': the entry is a string, not a dictionary: an iNotify client crashes on it, and Herald skips it
              'broken': the message id is not a date as the others are (such as 2024/03/01), so it sorts after every date and shows first, as the newest
              '2024/03/01': ActionURL will be refused: the javascript: scheme is never opened
              '2024/02/01': MinVersion 2.0 is above MaxVersion 1.0: no version can match

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
