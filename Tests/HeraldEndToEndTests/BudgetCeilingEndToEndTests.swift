import Foundation
import HeraldTestSupport
import XCTest

/// The person's attention budget and the administrator's ceiling (issue 27, item 1), through
/// the built `herald`: `herald budget` shows and sets the user's `[budget]`, checks of every
/// app keep to it, and a figure above the administrator's ceiling is refused with exit 77.
final class BudgetCeilingEndToEndTests: XCTestCase {
    let feed = Fixtures.xmlFeed([
        "2027/01/03": ["Title": "Third"],
        "2027/01/02": ["Title": "Second"],
        "2027/01/01": ["Title": "First"],
    ])

    /// The messages a check of `appID` showed.
    func shown(_ session: DesktopSession, _ server: FeedServer, appID: String) throws -> [String] {
        let run = try session.run(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch",
                                   "--force", "--wait", "1"])
        XCTAssertEqual(run.status, 0, run.description)
        return run.output.split(separator: "\n").compactMap { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], event["event"] as? String == "shown" else { return nil }
            return event["key"] as? String
        }
    }

    func lines(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }

    func testWithNothingSetTheStandardBudgetIsInForce() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        XCTAssertEqual(try session.run(["budget"]), ToolRun(status: 0, output: lines([
            "budget: 3 a day, 10 a week (the default)",
            "used: 0 in the last 24 hours, 0 in the last 7 days",
            "room now: 3 (3 left of the day's budget, 10 of the week's)",
        ])))
        let json = try session.run(["budget", "--json"])
        XCTAssertEqual(json.status, 0, json.description)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? NSDictionary)
        XCTAssertEqual(report, ["perDay": 3, "perWeek": 10, "source": "standard", "used": ["day": 0, "week": 0], "room": ["day": 3, "week": 10]])
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.userKeyFile.path), "showing the budget writes nothing")
    }

    func testTheUsersBudgetHoldsTheChecksOfEveryAppTogether() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let file = session.userKeyFile.path
        XCTAssertEqual(try session.run(["budget", "--per-day", "2"]), ToolRun(status: 0, output: lines([
            "budget set (\(file))",
            "budget: 2 a day, 10 a week (set by the user in \(file))",
            "used: 0 in the last 24 hours, 0 in the last 7 days",
            "room now: 2 (2 left of the day's budget, 10 of the week's)",
        ])))
        XCTAssertEqual(try String(contentsOf: session.userKeyFile, encoding: .utf8), "[budget]\nPerDay=2\n")
        XCTAssertEqual(try shown(session, server, appID: "org.example.One"), ["2027/01/03", "2027/01/02"])
        XCTAssertEqual(try shown(session, server, appID: "org.example.Two"), [], "another app spent the day's budget")
        XCTAssertEqual(try session.run(["budget"]), ToolRun(status: 0, output: lines([
            "budget: 2 a day, 10 a week (set by the user in \(file))",
            "used: 2 in the last 24 hours, 2 in the last 7 days",
            "room now: 0 (0 left of the day's budget, 8 of the week's)",
        ])))
        XCTAssertEqual(try session.run(["budget", "--per-day", "2"]).output.split(separator: "\n").first, "the budget is set so already (\(file))")
    }

    func testAFigureAboveTheAdministratorsCeilingIsRefusedAndTheCeilingHoldsTheChecks() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let (file, system) = (session.userKeyFile.path, session.systemKeyFile.path)
        try session.writeSystemKeyFile("# At most one message a day on our desktops\n[budget]\nPerDay=1\n")
        XCTAssertEqual(try session.run(["budget", "--per-day", "5", "--per-week", "20"]), ToolRun(status: 77, output: "", errorOutput:
            "herald: cannot set the budget: 5 a day is above the administrator's ceiling of 1 a day (\(system))\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing is written")
        XCTAssertEqual(try session.run(["budget", "--per-week", "20"]).status, 0, "a figure the ceiling leaves out is the user's")
        XCTAssertEqual(try session.run(["budget"]), ToolRun(status: 0, output: lines([
            "budget: 1 a day, 20 a week (capped by the administrator in \(system))",
            "used: 0 in the last 24 hours, 0 in the last 7 days",
            "room now: 1 (1 left of the day's budget, 20 of the week's)",
        ])))
        let json = try session.run(["budget", "--json"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? NSDictionary)
        XCTAssertEqual(report, ["perDay": 1, "perWeek": 20, "source": "administrator", "file": system, "ceiling": ["perDay": 1, "file": system],
                                "used": ["day": 0, "week": 0], "room": ["day": 1, "week": 20]])

        XCTAssertEqual(try shown(session, server, appID: "org.example.One"), ["2027/01/03"])
        XCTAssertEqual(try shown(session, server, appID: "org.example.Two"), [], "the ceiling holds every app's checks")
    }
}
