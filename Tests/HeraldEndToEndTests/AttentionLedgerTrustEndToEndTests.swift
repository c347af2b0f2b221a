import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// The person's attention ledger is shared by every app, so no app and no fault of the ledger
/// may silence the others: one app's share of it is bounded and the apps take turns; a ledger
/// that cannot be read or written leaves checks showing as if no budget were set; and a check
/// run with the clock a year ahead costs the budget one day, not a year (the clock is moved
/// with libfaketime's `faketime`).
final class AttentionLedgerTrustEndToEndTests: XCTestCase {
    let flooding = "org.example.Flood"
    let other = "org.example.Other"
    let otherFeed = Fixtures.xmlFeed(["2027/02/01": ["Title": "Other news", "Message": "From the other app"]])

    /// What a check of `other`'s feed prints when it shows its one message.
    let otherShown = "fetched 1 message\n1 pending: 2027/02/01\nshown 2027/02/01: Other news\n2027/02/01: closed (closed-by-herald)\n"

    /// Writes `contents` as a feed file in the session's folder and returns its path.
    func feedFile(_ session: DesktopSession, _ name: String, _ contents: String) throws -> String {
        let file = session.directory.appendingPathComponent(name)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Runs `herald`, with the clock moved by `offset` when one is given (`faketime -f`'s
    /// form: "+365d", "-25h").
    func run(_ session: DesktopSession, _ arguments: [String], clock offset: String? = nil) throws -> ToolRun {
        guard let offset else { return try session.run(arguments) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime") else {
            throw XCTSkip("faketime is not installed: apt-get install faketime (Tests/scripts/setup.sh --tests)")
        }
        let child = try ChildProcess("/usr/bin/faketime", ["-f", offset, TestPaths.herald] + arguments, environment: session.environment,
                                     directory: session.directory, name: "faketime-\(UUID().uuidString)")
        let status = child.wait(seconds: 60)
        return ToolRun(status: status, output: child.output, errorOutput: child.errorOutput)
    }

    /// A forced check of `appID` on the feed at `path`, answered by nobody for a second.
    func check(_ session: DesktopSession, _ path: String, app appID: String, json: Bool = true, clock offset: String? = nil) throws -> ToolRun {
        try run(session, ["check"] + (json ? ["--json"] : []) + ["--feed", path, "--app-id", appID, "--show-on-first-launch", "--force",
                                                                  "--wait", "1"], clock: offset)
    }

    /// The person's attention ledger in `session`.
    func ledgerFile(_ session: DesktopSession) -> String {
        session.environment["XDG_STATE_HOME"]! + "/herald/attention/ledger.json"
    }

    func testAFloodOfFiveThousandMessagesFromOneAppNeitherFillsTheLedgerNorKeepsAnotherAppsMessageBack() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        // So many short messages that, each waiting in the ledger, they would fill it to just
        // under its 1 MiB: then no other app's check could write it.
        let flood = try feedFile(session, "flood.plist", Fixtures.xmlFeed(Dictionary(uniqueKeysWithValues: (0..<5402).map {
            (String(format: "2027/01/%05d", $0), ["Title": "Flood \($0)"])
        })))
        let news = try feedFile(session, "other.plist", otherFeed)

        // Yesterday: the flood takes the day's budget, and twice over the rest is held back.
        for round in 1...2 {
            let run = try check(session, flood, app: flooding, clock: "-25h")
            XCTAssertEqual(run.status, 0, run.errorOutput)
            let decisions = run.checkDecisions
            XCTAssertEqual(decisions.filter { $0.hasSuffix(": shown") }.count, round == 1 ? 3 : 0, "round \(round)")
            XCTAssertEqual(decisions.filter { $0.hasSuffix(": over-day-budget") }.count, round == 1 ? 5399 : 5402, "round \(round)")
            let ledger = try FileAttentionLedgerStore(environment: session.environment).snapshot()
            XCTAssertEqual(ledger.waiting[flooding]?.count, 10, "round \(round): the week's budget of places, no more")
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: ledgerFile(session))[.size] as? Int)
        XCTAssertLessThan(size, 8192, "the ledger stays small")
        let held = try check(session, news, app: other, clock: "-25h")
        XCTAssertEqual(held.status, 0, held.description)
        XCTAssertEqual(held.checkDecisions, ["2027/02/01: over-day-budget"])

        // Today: the flood's oldest wait has the first turn, the other app's message the next.
        XCTAssertEqual(try check(session, news, app: other, json: false),
                       ToolRun(status: 0, output: otherShown))
    }

    func testALedgerThatCannotBeReadLeavesChecksShowingWithoutTheBudgetAndStateAllListingEveryApp() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let news = try feedFile(session, "other.plist", otherFeed)
        let ledger = ledgerFile(session)
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: folder + "/attention", withIntermediateDirectories: true)
        let elsewhere = session.directory.appendingPathComponent("elsewhere.json")
        try Data("{}".utf8).write(to: elsewhere)
        let cases: [(name: String, make: () throws -> Void, reason: String)] = [
            ("fifo", { XCTAssertEqual(mkfifo(ledger, 0o600), 0) }, "cannot read \(ledger): it is a FIFO, not a regular file"),
            ("link", { try FileManager.default.createSymbolicLink(atPath: ledger, withDestinationPath: elsewhere.path) },
             "cannot read \(ledger): it is a symbolic link, which Herald does not follow for its own files"),
            ("large", { try Data(repeating: 0x20, count: 2 << 20).write(to: URL(fileURLWithPath: ledger)) },
             "cannot use \(ledger): it is 2 MiB, more than the 1 MiB a state file may hold"),
        ]
        var apps: [String] = []
        for (name, make, reason) in cases {
            try? FileManager.default.removeItem(atPath: ledger)
            try make()
            let appID = "org.example.Ledger\(name.capitalized)"
            apps.append(appID)
            XCTAssertEqual(try check(session, news, app: appID, json: false), ToolRun(status: 0, output: otherShown, errorOutput: """
                herald: the attention budget is not kept at this check, which shows as if none were set: \(reason)

                """), name)
            // Every app is listed, the budget left out, and the ledger named.
            XCTAssertEqual(try session.run(["state", "--all"]), ToolRun(status: 73, output: apps.sorted().map { app in
                """
                \(app) (\(folder)/\(app).json)
                  muted: no
                  muted categories: none
                  shown: 2027/02/01 once, last at \(shownAt(session, app))
                  waiting: none
                  budget used: 0 in the last 24 hours, 0 in the last 7 days

                """
            }.joined(), errorOutput: "herald: \(reason)\n"), name)
        }
        // A ledger that does not decode is started over.
        try Data("{\"shows\": [tru".utf8).write(to: URL(fileURLWithPath: ledger))
        XCTAssertEqual(try check(session, news, app: "org.example.LedgerGarbage", json: false), ToolRun(status: 0, output: otherShown))
        XCTAssertEqual(try FileAttentionLedgerStore(environment: session.environment).snapshot().shows.map(\.app), ["org.example.LedgerGarbage"])
    }

    /// When `app`'s state says its message was last shown, as `state` prints it.
    func shownAt(_ session: DesktopSession, _ app: String) -> String {
        let shows = (try? session.state(appID: app))?["shows"] as? [String: [String: Any]]
        return shows?["2027/02/01"]?["last"] as? String ?? "?"
    }

    func testACheckWithTheClockAYearAheadCostsTheBudgetAndMinDaysBetweenOneDayNotAYear() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let app = "org.example.Ahead"
        let three = try feedFile(session, "three.plist", Fixtures.xmlFeed(Dictionary(uniqueKeysWithValues: (1...3).map {
            ("2027/04/0\($0)", ["Title": "Ahead \($0)", "MinDaysBetween": "1"])
        })))
        let news = try feedFile(session, "other.plist", otherFeed)
        let ahead = try check(session, three, app: app, clock: "+365d")
        XCTAssertEqual(ahead.checkDecisions, ["2027/04/01: shown", "2027/04/02: shown", "2027/04/03: shown"], ahead.description)

        // Back at the right time: the showings a year ahead count as now, so today is used up…
        XCTAssertEqual(try run(session, ["budget"]), ToolRun(status: 0, output: """
            budget: 3 a day, 10 a week (the default)
            used: 3 in the last 24 hours, 3 in the last 7 days
            room now: 0 (0 left of the day's budget, 7 of the week's)

            """))
        XCTAssertEqual(try check(session, news, app: other).checkDecisions, ["2027/02/01: over-day-budget"])
        XCTAssertEqual(try check(session, three, app: app).checkDecisions,
                       ["2027/04/01: min-days-between", "2027/04/02: min-days-between", "2027/04/03: min-days-between"])

        // …and a day later the room is back, and so are the messages of MinDaysBetween 1.
        XCTAssertEqual(try run(session, ["budget"], clock: "+25h"), ToolRun(status: 0, output: """
            budget: 3 a day, 10 a week (the default)
            used: 0 in the last 24 hours, 3 in the last 7 days
            room now: 3 (3 left of the day's budget, 7 of the week's)

            """))
        XCTAssertEqual(try check(session, news, app: other, clock: "+25h").checkDecisions, ["2027/02/01: shown"])
        XCTAssertEqual(try check(session, three, app: app, clock: "+25h").checkDecisions,
                       ["2027/04/01: over-day-budget", "2027/04/02: shown", "2027/04/03: shown"])
    }
}
