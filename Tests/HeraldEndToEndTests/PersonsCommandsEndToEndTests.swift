import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// The person's commands say what they did and what they did not, through the built `herald`:
/// a mute of an app id Herald has never seen says so with the id probably meant, an unmute names
/// every mute still in force, `budget` refuses a day above the week and goes back to the
/// default with `--reset`, and `state` tells a handover whose agent has gone from one it holds.
final class PersonsCommandsEndToEndTests: XCTestCase {
    let app = "org.example.App"
    let other = "org.example.Other"

    func lines(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }

    func userFileText(_ session: DesktopSession) -> String? { try? String(contentsOf: session.userKeyFile, encoding: .utf8) }

    /// A session without a budget in the user's file, in which `app` has run: its state file.
    func sessionWhereTheAppRan() throws -> DesktopSession {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        try write(HeraldState(), for: app, in: session)
        return session
    }

    /// Writes `state` as the state file of `appID`; returns its path.
    @discardableResult
    func write(_ state: HeraldState, for appID: String, in session: DesktopSession) throws -> String {
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try StateFileFormat.encode(state).write(to: URL(fileURLWithPath: folder + "/\(appID).json"))
        return folder + "/\(appID).json"
    }

    func testAMuteOfAnAppIdHeraldHasNotSeenIsWrittenAndSaysSoWithTheIdProbablyMeant() throws {
        let session = try sessionWhereTheAppRan()
        let file = session.userKeyFile.path
        XCTAssertEqual(try session.run(["mute", "--app-id", "org.exmaple.App"]), ToolRun(status: 0, output: lines([
            "muted org.exmaple.App (\(file))",
            "herald has not seen org.exmaple.App yet; did you mean \(app)?",
        ])))
        XCTAssertEqual(userFileText(session), "[app org.exmaple.App]\nMuted=true\n", "the mute is written all the same")
        XCTAssertEqual(try session.run(["mute", "--category", "promotion", "--app-id", "ORG.EXAMPLE.APP"]), ToolRun(status: 0, output: lines([
            "muted promotion for ORG.EXAMPLE.APP (\(file))",
            "herald has not seen ORG.EXAMPLE.APP yet; did you mean \(app)?",
        ])))
        XCTAssertEqual(try session.run(["mute", "--app-id", "org.gnome.Maps"]), ToolRun(status: 0, output: lines([
            "muted org.gnome.Maps (\(file))",
            "herald has not seen org.gnome.Maps yet; the mute holds from its first check",
        ])), "no id is near: no guess")
        XCTAssertEqual(try session.run(["mute", "--app-id", app]), ToolRun(status: 0, output: "muted \(app) (\(file))\n"), "an app that ran is no news")
    }

    func testAnUnmuteOfAnAppIdHeraldHasNotSeenSaysThereWasNothingToUndo() throws {
        let session = try sessionWhereTheAppRan()
        XCTAssertEqual(try session.run(["unmute", "--app-id", "org.example.Ap"]), ToolRun(status: 0, output: lines([
            "org.example.Ap was not muted",
            "herald has not seen org.example.Ap yet; did you mean \(app)?",
        ])))
        XCTAssertEqual(try session.run(["unmute", "--category", "survey", "--app-id", "org.gnome.Maps"]), ToolRun(status: 0, output: lines([
            "survey was not muted for org.gnome.Maps",
            "herald has not seen org.gnome.Maps yet; there was nothing to undo",
        ])))
        XCTAssertNil(userFileText(session), "nothing is written")
    }

    func testAnUnmuteOfAllNamesEveryMuteThatStaysTheUsersAndTheAdministrators() throws {
        let session = try sessionWhereTheAppRan()
        let (file, system) = (session.userKeyFile.path, session.systemKeyFile.path)
        try write(HeraldState(), for: other, in: session)
        try session.writeSystemKeyFile("[all]\nMutedCategories=promotion\n\n[app org.example.Blocked]\nMuted=true\nMutedCategories=survey\n")
        for arguments in [["mute", "--all"], ["mute", "--app-id", other], ["mute", "--category", "tip", "--all"],
                          ["mute", "--category", "survey", "--app-id", app]] {
            XCTAssertEqual(try session.run(arguments).status, 0, "\(arguments)")
        }
        XCTAssertEqual(try session.run(["unmute", "--all"]), ToolRun(status: 0, output: lines([
            "unmuted all apps (\(file))",
            "still muted: \(other) by the user (\(file))",
            "still muted: tip for every app by the user (\(file))",
            "still muted: survey for \(app) by the user (\(file))",
            "still muted: org.example.Blocked by the administrator (\(system))",
            "still muted: promotion for every app by the administrator (\(system))",
            "still muted: survey for org.example.Blocked by the administrator (\(system))",
        ])))
        XCTAssertEqual(try session.run(["unmute", "--all"]).output.split(separator: "\n").first, "all apps were not muted",
                       "what stays is named even when there was nothing to undo")
        XCTAssertEqual(try session.run(["unmute", "--app-id", app]), ToolRun(status: 0, output: lines([
            "\(app) was not muted",
            "still muted: tip for every app by the user (\(file))",
            "still muted: promotion for every app by the administrator (\(system))",
            "still muted: survey for \(app) by the user (\(file))",
        ])), "the categories muted for the app, the user's and the administrator's")
        XCTAssertEqual(try session.run(["unmute", "--app-id", other]), ToolRun(status: 0, output: lines([
            "unmuted \(other) (\(file))",
            "still muted: tip for every app by the user (\(file))",
            "still muted: promotion for every app by the administrator (\(system))",
        ])))
        XCTAssertEqual(try session.run(["unmute", "--category", "survey", "--all"]), ToolRun(status: 0, output: lines([
            "survey was not muted for all apps",
            "still muted: survey for \(app) by the user (\(file))",
            "still muted: survey for org.example.Blocked by the administrator (\(system))",
        ])))
    }

    func testBudgetResetGoesBackToTheDefaultOrTheAdministratorsCeiling() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let (file, system) = (session.userKeyFile.path, session.systemKeyFile.path)
        XCTAssertEqual(try session.run(["budget", "--per-day", "2", "--per-week", "5"]).status, 0)
        XCTAssertEqual(try session.run(["budget", "--reset"]), ToolRun(status: 0, output: lines([
            "budget reset (\(file))",
            "budget: 3 a day, 10 a week (the default)",
            "used: 0 in the last 24 hours, 0 in the last 7 days",
            "room now: 3 (3 left of the day's budget, 10 of the week's)",
        ])))
        XCTAssertEqual(userFileText(session), "", "the group goes with its last key")
        try session.writeSystemKeyFile("[budget]\nPerDay=2\n")
        XCTAssertEqual(try session.run(["budget", "--reset"]), ToolRun(status: 0, output: lines([
            "the budget was not set (\(file))",
            "budget: 2 a day, 10 a week (capped by the administrator in \(system))",
            "used: 0 in the last 24 hours, 0 in the last 7 days",
            "room now: 2 (2 left of the day's budget, 10 of the week's)",
        ])))
        XCTAssertEqual(try session.run(["budget", "--reset", "--per-day", "2"]), ToolRun(status: 64, output: "", errorOutput: lines([
            "herald: --reset takes the figures out: give it alone, or --per-day / --per-week",
            "herald: see 'herald budget --help'",
        ])))
    }

    func testADayAboveTheWeekInForceIsRefusedAndNothingIsWritten() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let (file, system) = (session.userKeyFile.path, session.systemKeyFile.path)
        let rule = "a day's figure cannot be above the week's"
        XCTAssertEqual(try session.run(["budget", "--per-day", "5", "--per-week", "3"]),
                       ToolRun(status: 64, output: "", errorOutput: "herald: cannot set the budget to 5 a day, 3 a week: \(rule)\n"))
        XCTAssertEqual(try session.run(["budget", "--per-week", "2"]), ToolRun(status: 64, output: "", errorOutput:
            "herald: cannot set the budget to 2 a week: the day's figure in force is 3 (the default), and \(rule)\n"))
        XCTAssertNil(userFileText(session), "nothing is written")
        XCTAssertEqual(try session.run(["budget", "--per-week", "3"]).status, 0)
        XCTAssertEqual(try session.run(["budget", "--per-day", "5"]), ToolRun(status: 64, output: "", errorOutput:
            "herald: cannot set the budget to 5 a day: the week's figure in force is 3 (set by the user in \(file)), and \(rule)\n"))
        XCTAssertEqual(userFileText(session), "[budget]\nPerWeek=3\n")
        try session.useStandardBudget()
        try session.writeSystemKeyFile("[budget]\nPerWeek=4\n")
        XCTAssertEqual(try session.run(["budget", "--per-day", "5"]), ToolRun(status: 64, output: "", errorOutput:
            "herald: cannot set the budget to 5 a day: the week's figure in force is 4 (capped by the administrator in \(system)), and \(rule)\n"))
        XCTAssertNil(userFileText(session))
    }

    func testABudgetOfZeroIsTakenAndShownAsNoRemoteMessages() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let file = session.userKeyFile.path
        XCTAssertEqual(try session.run(["budget", "--per-day", "0"]), ToolRun(status: 0, output: lines([
            "budget set (\(file))",
            "budget: 0 a day, 10 a week: no remote messages but critical security ones (set by the user in \(file))",
            "used: 0 in the last 24 hours, 0 in the last 7 days",
            "room now: 0 (0 left of the day's budget, 10 of the week's)",
        ])))
        XCTAssertEqual(userFileText(session), "[budget]\nPerDay=0\n")
    }

    func testStateSaysAHandoverWhoseAgentHasGoneIsShownAgainAtTheNextCheck() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let since = now.addingTimeInterval(-3600), longAgo = now.addingTimeInterval(-3 * 86_400)
        var state = HeraldState()
        state.ignored = []
        state.handedOver = [
            "2027/01/01": Handover(place: .agent, agentProcessID: getpid(), link: nil, since: since),
            "2027/01/02": Handover(place: .agent, agentProcessID: Int32.max, link: nil, since: since),
            "2027/01/03": Handover(place: .portal, link: nil, since: longAgo),
            "2027/01/04": Handover(place: .desktopList, link: nil, since: longAgo),
        ]
        let stateFile = try write(state, for: app, in: session)
        let (at, longAt) = (ISO8601Moment.text(since), ISO8601Moment.text(longAgo))
        let handovers = [
            "2027/01/01 handed over, held by the Herald agent, since \(at)",
            "2027/01/02 handed over to the Herald agent since \(at), which has gone: the next check shows it again",
            "2027/01/03 handed over through the notification portal since \(longAt), longer than the remind period: the next check shows it again",
            "2027/01/04 handed over, in the desktop's list, since \(longAt)",
        ]
        XCTAssertEqual(try session.run(["state", "--app-id", app]), ToolRun(status: 0, output: lines([
            "state file: \(stateFile)", "muted: no", "first launch: passed", "last check: never", "viewed: none", "ignored: none", "reminded: none",
        ] + handovers.map { "waiting: " + $0 })))
        XCTAssertEqual(try session.run(["state", "--all"]), ToolRun(status: 0, output: lines([
            "budget: 3 a day, 10 a week (the default)",
            "used: 0 in the last 24 hours, 0 in the last 7 days",
            "room now: 3 (3 left of the day's budget, 10 of the week's)",
            "\(app) (\(stateFile))",
            "  muted: no",
            "  muted categories: none",
            "  shown: none",
        ] + handovers.map { "  waiting: " + $0 } + [
            "  budget used: 0 in the last 24 hours, 0 in the last 7 days",
        ])))
        let json = try session.run(["state", "--all", "--json"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let handedOver = try XCTUnwrap(((report["apps"] as? [String: Any])?[app] as? [String: Any])?["handedOver"] as? [String: [String: Any]])
        XCTAssertEqual(handedOver.mapValues { $0["waiting"] as? Bool }, ["2027/01/01": true, "2027/01/02": false, "2027/01/03": false, "2027/01/04": true])
    }
}
