import Foundation
import HeraldTestSupport
import XCTest

/// Categories a person mutes for one app or for every app, and the administrator's category
/// mutes the person cannot undo (issue 27, item 2), through the built `herald`: `mute` /
/// `unmute --category` write the user's key file, and checks of two apps keep the muted kind
/// back while the rest shows.
final class CategoryMuteEndToEndTests: XCTestCase {
    let app = "org.example.App"
    let other = "org.example.Other"
    let feed = Fixtures.xmlFeed([
        "2027/01/02": ["Title": "Half price this week", "Category": "promotion"],
        "2027/01/01": ["Title": "Version 2 is out"],
    ])

    /// What a check of `appID` decided, each message as "key: shown" or "key: reason".
    func decisions(_ session: DesktopSession, _ server: FeedServer, appID: String) throws -> [String] {
        let run = try session.run(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch",
                                   "--force", "--wait", "1"])
        XCTAssertEqual(run.status, 0, run.description)
        return run.checkDecisions
    }

    func userFileText(_ session: DesktopSession) -> String? { try? String(contentsOf: session.userKeyFile, encoding: .utf8) }

    /// The user's file once `roomyBudget` has set it: the attention budget is not what these
    /// tests are about, and their checks show more than a day's.
    let roomy = "[budget]\nPerDay=1000\nPerWeek=1000\n"

    func roomyBudget(_ session: DesktopSession) throws {
        XCTAssertEqual(try session.run(["budget", "--per-day", "1000", "--per-week", "1000"]).status, 0)
        XCTAssertEqual(userFileText(session), roomy)
    }

    func testACategoryMutedForOneAppIsKeptBackInThatAppAlone() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let file = session.userKeyFile.path
        try roomyBudget(session)
        XCTAssertEqual(try session.run(["mute", "--category", "promotion", "--app-id", app]), ToolRun(status: 0, output: """
            muted promotion for \(app) (\(file))
            herald has not seen \(app) yet; the mute holds from its first check

            """))
        XCTAssertEqual(userFileText(session), roomy + "\n[app \(app)]\nMutedCategories=promotion\n")
        XCTAssertEqual(try session.run(["mute", "--category", "promotion", "--app-id", app]),
                       ToolRun(status: 0, output: "promotion is muted already for \(app) (\(file))\n"))
        XCTAssertEqual(try decisions(session, server, appID: app), ["2027/01/01: shown", "2027/01/02: category-muted"])
        XCTAssertEqual(try decisions(session, server, appID: other), ["2027/01/01: shown", "2027/01/02: shown"])

        XCTAssertEqual(try session.run(["unmute", "--category", "promotion", "--app-id", app]),
                       ToolRun(status: 0, output: "unmuted promotion for \(app) (\(file))\n"))
        XCTAssertEqual(userFileText(session), roomy + "\n", "the group goes with its last key")
        XCTAssertEqual(try decisions(session, server, appID: app), ["2027/01/01: shown", "2027/01/02: shown"])
    }

    func testACategoryMutedForAllAppsIsKeptBackInEveryAppAndTheAppsOwnMuteStays() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let file = session.userKeyFile.path
        try roomyBudget(session)
        XCTAssertEqual(try session.run(["mute", "--category", "promotion", "--category", "survey", "--all"]),
                       ToolRun(status: 0, output: "muted promotion, survey for all apps (\(file))\n"))
        XCTAssertEqual(try session.run(["mute", "--category", "promotion", "--app-id", other]).status, 0)
        XCTAssertEqual(userFileText(session), roomy + "\n[all]\nMutedCategories=promotion;survey\n\n[app \(other)]\nMutedCategories=promotion\n")
        XCTAssertEqual(try decisions(session, server, appID: app), ["2027/01/01: shown", "2027/01/02: category-muted"])
        XCTAssertEqual(try decisions(session, server, appID: other), ["2027/01/01: shown", "2027/01/02: category-muted"])

        XCTAssertEqual(try session.run(["unmute", "--category", "promotion", "--app-id", app]),
                       ToolRun(status: 0, output: "promotion was not muted for \(app)\nstill muted: promotion for every app by the user (\(file))\n"))
        XCTAssertEqual(try session.run(["unmute", "--category", "promotion", "--all"]),
                       ToolRun(status: 0, output: "unmuted promotion for all apps (\(file))\nstill muted: promotion for \(other) by the user (\(file))\n"))
        XCTAssertEqual(userFileText(session), roomy + "\n[all]\nMutedCategories=survey\n\n[app \(other)]\nMutedCategories=promotion\n")
        XCTAssertEqual(try decisions(session, server, appID: app), ["2027/01/01: shown", "2027/01/02: shown"])
        XCTAssertEqual(try decisions(session, server, appID: other), ["2027/01/01: shown", "2027/01/02: category-muted"])
    }

    func testTheUserCannotUnmuteACategoryTheAdministratorMuted() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let system = session.systemKeyFile.path
        try session.writeSystemKeyFile("# No advertising on our desktops\n[all]\nMutedCategories=promotion\n")
        XCTAssertEqual(try session.run(["unmute", "--category", "promotion", "--app-id", app]),
                       ToolRun(status: 77, output: "", errorOutput: "herald: cannot unmute promotion for \(app): muted by the administrator for every app (\(system))\n"))
        XCTAssertEqual(try session.run(["unmute", "--category", "promotion", "--all"]),
                       ToolRun(status: 77, output: "", errorOutput: "herald: cannot unmute promotion for all apps: muted by the administrator for every app (\(system))\n"))
        XCTAssertNil(userFileText(session), "nothing is written")
        XCTAssertEqual(try decisions(session, server, appID: app), ["2027/01/01: shown", "2027/01/02: category-muted"])
    }

    func testACategoryThatIsNoneIsAUsageErrorOnTheCommandLineAndAConfigurationErrorInAFile() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        XCTAssertEqual(try session.run(["mute", "--category", "promotions", "--all"]),
                       ToolRun(status: 64, output: "", errorOutput: "herald: 'promotions' is not a category (did you mean promotion?)\nherald: see 'herald mute --help'\n"))
        try session.writeSystemKeyFile("[all]\nMutedCategories=adverts\n")
        let line = "herald: \(session.systemKeyFile.path): [all] MutedCategories names no category 'adverts' "
            + "(the categories are announcement, tip, promotion, security, survey)\n"
        for arguments in [["mute", "--category", "tip", "--all"], ["unmute", "--app-id", app], ["budget"],
                          ["check", "--feed", "https://example.com/feed.plist", "--app-id", app, "--force"]] {
            let run = try session.run(arguments)
            XCTAssertEqual(run.status, 78, "\(arguments): \(run.description)")
            XCTAssertEqual(run.errorOutput, line, "\(arguments)")
        }
        XCTAssertNil(userFileText(session))
    }
}
