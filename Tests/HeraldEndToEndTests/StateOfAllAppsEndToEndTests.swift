import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// `herald state --all` (issue 27, item 4): for every app with a state, what was shown when,
/// what waits and why, and the budget each used, with the budget in force and the muted
/// categories; `--json` too. It only reads: no lock, no file.
final class StateOfAllAppsEndToEndTests: XCTestCase {
    let app = "org.example.App"
    let other = "org.example.Other"
    /// Now, to the second, as the files' dates are written.
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))

    func ago(_ seconds: TimeInterval) -> Date { now.addingTimeInterval(-seconds) }
    func text(_ date: Date) -> String { ISO8601Moment.text(date) }

    /// Two apps' state files, the ledger of what every app showed and what waits, the user's
    /// category mutes and budget, and files in the state folder that are no app's.
    func writeFiles(_ session: DesktopSession) throws -> String {
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: folder + "/attention", withIntermediateDirectories: true)
        var first = HeraldState()
        first.ignored = []
        first.shows = ["2027/01/01": .init(count: 2, last: ago(2 * 3600))]
        first.reminded = ["2027/01/01": ago(2 * 3600)]
        first.handedOver = ["2027/01/03": Handover(place: .agent, agentProcessID: getpid(), link: nil, since: ago(3600))]
        var second = HeraldState()
        second.ignored = []
        second.shows = ["2027/02/01": .init(count: 1, last: ago(3 * 86_400))]
        try StateFileFormat.encode(first).write(to: URL(fileURLWithPath: folder + "/\(app).json"))
        try StateFileFormat.encode(second).write(to: URL(fileURLWithPath: folder + "/\(other).json"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/.hidden.json"))
        let live = HeraldState.Claim(processID: getpid(), check: "running", until: now.addingTimeInterval(3600))
        let gone = HeraldState.Claim(processID: Int32.max, check: "ended", until: now.addingTimeInterval(3600))
        let ledger = AttentionLedger(shows: [
            .init(app: app, key: "2027/01/01", at: ago(3 * 86_400), weight: 1),
            .init(app: other, key: "2027/02/01", at: ago(3 * 86_400), weight: 2),
            .init(app: app, key: "2027/01/01", at: ago(2 * 3600), weight: 1),
            .init(app: other, key: "2027/02/02", at: ago(60), weight: 1, claim: live),
            .init(app: app, key: "2027/01/04", at: ago(60), weight: 1, claim: gone),
        ], waiting: [
            other: ["2027/02/03": .init(since: ago(5 * 3600), seen: ago(3600), priority: 5, weight: 1, reason: .budget)],
            app: ["2027/01/05": .init(since: ago(1800), seen: ago(1800), priority: 0, weight: 1, reason: .quiet)],
            "org.example.Gone": ["2026/12/01": .init(since: ago(9 * 86_400), seen: ago(3 * 86_400), priority: 9, weight: 1, reason: .budget)],
        ])
        try ledger.encoded.write(to: URL(fileURLWithPath: folder + "/attention/ledger.json"))
        try FileManager.default.createDirectory(at: session.userKeyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[all]\nMutedCategories=survey\n\n[app \(other)]\nMutedCategories=promotion\n\n[budget]\nPerDay=4\n".utf8).write(to: session.userKeyFile)
        return folder
    }

    /// The lines `writeFiles` makes `state --all` print before the first app's: the user's
    /// budget and what every app used (a claim whose process is gone takes no room; one of a
    /// live process does).
    func budgetLines(_ session: DesktopSession) -> String {
        """
        budget: 4 a day, 10 a week (set by the user in \(session.userKeyFile.path))
        used: 2 in the last 24 hours, 5 in the last 7 days
        room now: 2 (2 left of the day's budget, 5 of the week's)
        """
    }

    /// The lines of the second app `writeFiles` writes.
    func otherAppLines(_ session: DesktopSession, folder: String) -> String {
        let conf = session.userKeyFile.path
        return """
            \(other) (\(folder)/\(other).json)
              muted: no
              muted categories: promotion by the user for this app (\(conf)), survey by the user for every app (\(conf))
              shown: 2027/02/01 once, last at \(text(ago(3 * 86_400)))
              waiting: 2027/02/03 for room in the budget since \(text(ago(5 * 3600))), priority 5
              budget used: 1 in the last 24 hours, 3 in the last 7 days
            """
    }

    /// Every file under `folder`, so that a run can be shown to have made none.
    func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    func testEveryAppsShowingsWaitsAndShareOfTheBudgetAreListed() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let folder = try writeFiles(session)
        let before = files(under: folder)
        let conf = session.userKeyFile.path
        XCTAssertEqual(try session.run(["state", "--all"]), ToolRun(status: 0, output: """
            \(budgetLines(session))
            \(app) (\(folder)/\(app).json)
              muted: no
              muted categories: survey by the user for every app (\(conf))
              shown: 2027/01/01 2 times, last at \(text(ago(2 * 3600)))
              waiting: 2027/01/01 reminded at \(text(ago(2 * 3600)))
              waiting: 2027/01/03 handed over, held by the Herald agent, since \(text(ago(3600)))
              waiting: 2027/01/05 for quiet to end since \(text(ago(1800))), priority 0
              budget used: 1 in the last 24 hours, 2 in the last 7 days
            \(otherAppLines(session, folder: folder))

            """))
        XCTAssertEqual(files(under: folder), before, "it only reads: no lock, no file")
    }

    func testTheJSONHasTheBudgetAndEachAppsPartByID() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let folder = try writeFiles(session)
        let run = try session.run(["state", "--all", "--json"])
        XCTAssertEqual(run.status, 0, run.description)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let conf = session.userKeyFile.path
        XCTAssertEqual(report["budget"] as? NSDictionary, ["perDay": 4, "perWeek": 10, "source": "user", "file": conf,
                                                          "used": ["day": 2, "week": 5], "room": ["day": 2, "week": 5]])
        let apps = try XCTUnwrap(report["apps"] as? [String: [String: Any]])
        XCTAssertEqual(apps.keys.sorted(), [app, other])
        let first = try XCTUnwrap(apps[app])
        XCTAssertEqual(first.keys.sorted(), ["handedOver", "mutedCategories", "reminded", "shows", "stateFile", "used", "waiting"])
        XCTAssertEqual(first["stateFile"] as? String, folder + "/\(app).json")
        XCTAssertEqual(first["shows"] as? NSDictionary, ["2027/01/01": ["count": 2, "last": text(ago(2 * 3600))]])
        XCTAssertEqual(first["waiting"] as? NSDictionary, ["2027/01/05": ["since": text(ago(1800)), "seen": text(ago(1800)), "priority": 0,
                                                                          "weight": 1, "reason": "quiet"]])
        XCTAssertEqual(first["reminded"] as? NSDictionary, ["2027/01/01": text(ago(2 * 3600))])
        XCTAssertEqual((first["handedOver"] as? [String: [String: Any]])?["2027/01/03"]?["place"] as? String, "agent")
        XCTAssertEqual(first["used"] as? NSDictionary, ["day": 1, "week": 2])
        XCTAssertEqual(first["mutedCategories"] as? NSDictionary, ["survey": ["by": "user", "scope": "all-apps", "file": conf]])
        let second = try XCTUnwrap(apps[other])
        XCTAssertEqual(second["waiting"] as? NSDictionary, ["2027/02/03": ["since": text(ago(5 * 3600)), "seen": text(ago(3600)), "priority": 5,
                                                                           "weight": 1, "reason": "budget"]])
        XCTAssertEqual(second["used"] as? NSDictionary, ["day": 1, "week": 3])
    }

    func testAllOrOneAppIsGivenAndADamagedStateIsNamedWhileTheOthersShow() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        for arguments in [["state"], ["state", "--all", "--app-id", app], ["state", "--all", "--reset"]] {
            XCTAssertEqual(try session.run(arguments).status, 64, "\(arguments)")
        }
        XCTAssertEqual(try session.run(["state", "--all"]), ToolRun(status: 0, output: """
            budget: 3 a day, 10 a week (the default)
            used: 0 in the last 24 hours, 0 in the last 7 days
            room now: 3 (3 left of the day's budget, 10 of the week's)
            no app has a state yet (\(session.environment["XDG_STATE_HOME"]!)/herald)

            """))
        let folder = try writeFiles(session)
        try Data("{\"viewed\": [tru".utf8).write(to: URL(fileURLWithPath: folder + "/\(app).json"))
        let damaged = "damaged: it does not decode; the next check moves it aside and starts over"
        let conf = session.userKeyFile.path
        XCTAssertEqual(try session.run(["state", "--all"]), ToolRun(status: 73, output: """
            \(budgetLines(session))
            \(app) (\(folder)/\(app).json)
              state: \(damaged)
              muted: no
              muted categories: survey by the user for every app (\(conf))
              waiting: 2027/01/05 for quiet to end since \(text(ago(1800))), priority 0
              budget used: 1 in the last 24 hours, 2 in the last 7 days
            \(otherAppLines(session, folder: folder))

            """, errorOutput: "herald: \(app): \(damaged)\n"))
    }
}
