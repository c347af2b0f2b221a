import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// `herald check --registered`: one process checks every app registered in
/// `$XDG_DATA_HOME/herald/apps/`, hands its messages to the Herald agent (started by the private
/// session bus, as the package installs it) and exits; the day's room goes to the highest
/// priorities across the apps; a registration with a mistake leaves out that app alone; an
/// app's own check at the same instant never shows a message twice; a run killed mid-way loses
/// nothing.
final class RegisteredCheckEndToEndTests: XCTestCase {
    /// How many checks a run starts at once (`RegisteredCheck.fetchesAtOnce`).
    static let fetchesAtOnce = 6

    /// A session whose bus starts the agent, with a stand-in notification server, a private
    /// data folder (no app of the machine's registered) and the standard budget.
    func agentSession() throws -> DesktopSession {
        let session = try DesktopSession(server: .none, bus: false, display: false)
        addTeardownBlock { session.stop() }
        try session.startBus(activating: "org.herald.Agent", command: TestPaths.agent + " --idle-exit 5")
        try session.startMockServer(capabilities: "actions body body-markup")
        try session.useStandardBudget()
        return session
    }

    /// The environment of a run: the session's, with a data folder of the packages' own first
    /// (the machine's after it, for GLib's schemas; no package of the machine registers an app).
    ///
    /// - Parameter person: a folder of the person's own state and registrations, for a test
    ///   that starts over each round.
    func environment(_ session: DesktopSession, person: String? = nil) throws -> [String: String] {
        var environment = session.environment
        let system = session.directory.appendingPathComponent("system-data").path
        try FileManager.default.createDirectory(atPath: system, withIntermediateDirectories: true)
        environment["XDG_DATA_DIRS"] = system + ":/usr/local/share:/usr/share"
        if let person {
            environment["XDG_STATE_HOME"] = person + "/state"
            environment["XDG_DATA_HOME"] = person + "/data"
        }
        return environment
    }

    /// Writes `<app-id>.conf` in the user's registrations with `Feed` and the other `keys`.
    func register(_ appID: String, feed: String, _ keys: [String] = ["Version=1", "ShowOnFirstLaunch=true"],
                  in environment: [String: String]) throws {
        let folder = environment["XDG_DATA_HOME"]! + "/herald/apps"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (["[Herald]", "Feed=\(feed)"] + keys).joined(separator: "\n").appending("\n")
            .write(toFile: folder + "/\(appID).conf", atomically: true, encoding: .utf8)
    }

    /// A session whose bus starts the agent, the environment of a run in it, and a feed server.
    func setUpRun() throws -> (session: DesktopSession, environment: [String: String], server: FeedServer) {
        let session = try agentSession()
        let server = try FeedServer(directory: session.directory, tls: nil)
        addTeardownBlock { server.stop() }
        return (session, try environment(session), server)
    }

    /// Publishes `app`'s feed of one message and registers the app with it (at `path`, a
    /// special path of the server, when given).
    func publishAndRegister(_ app: String, key: String, title: String, priority: Int = 0, path: String? = nil,
                            server: FeedServer, environment: [String: String]) throws {
        try server.publish("\(app).plist", feed(key, title: title, priority: priority))
        try register(app, feed: server.url(path ?? "\(app).plist"), in: environment)
    }

    func feed(_ key: String, title: String, priority: Int = 0) -> String {
        Fixtures.xmlFeed([key: ["Title": title, "Message": "From \(title)", "Priority": String(priority)]])
    }

    /// The `--json` lines of a run's output.
    func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// "APP KEY" for each message a run showed or handed over.
    func shown(_ output: String) -> [String] {
        events(output).filter { $0["event"] as? String == "shown" }.map { "\($0["app"] as? String ?? "?") \($0["key"] as? String ?? "?")" }
    }

    /// Runs `herald check --registered --json` to its end (at most 60 s).
    func runRegistered(_ environment: [String: String], directory: URL, name: String = #function) throws -> (status: Int32, output: String, errorOutput: String) {
        let run = try ChildProcess(TestPaths.herald, ["check", "--registered", "--json"], environment: environment, directory: directory,
                                   name: "registered-\(name.prefix(30))-\(UUID().uuidString.prefix(4))")
        let status = run.wait(seconds: 60)
        return (status, run.output, run.errorOutput)
    }

    func testOneProcessChecksTenAppsAndTheDaysRoomGoesToTheThreeHighestPrioritiesWhereverTheyAreListed() throws {
        let (session, environment, server) = try setUpRun()
        let priorities = [3, -2, 9, 0, 7, 1, 8, -5, 4, 2]
        for (index, priority) in priorities.enumerated() {
            try publishAndRegister("org.example.Registered\(index)", key: "2026/11/\(String(format: "%02d", index + 1))", title: "App \(index)",
                                   priority: priority, server: server, environment: environment)
        }
        let first = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(first.status, 0, first.errorOutput)
        XCTAssertEqual(Set(shown(first.output)), ["org.example.Registered2 2026/11/03", "org.example.Registered6 2026/11/07",
                                                  "org.example.Registered4 2026/11/05"], "priorities 9, 8 and 7\n\(first.output)")
        XCTAssertEqual(Set(events(first.output).compactMap { $0["app"] as? String }).count, 10, "every app's events name it")
        XCTAssertEqual(Set(server.requests.map(\.path)).count, 10, "each feed fetched")
        XCTAssertTrue(eventually(within: 10) { ((try? session.notifyCalls().count) ?? 0) == 3 }, "the agent shows the three")
        let waiting = try FileAttentionLedgerStore(environment: environment).snapshot().waiting
        XCTAssertEqual(Set(waiting.keys), Set(priorities.indices.map { "org.example.Registered\($0)" })
            .subtracting(["org.example.Registered2", "org.example.Registered6", "org.example.Registered4"]), "the seven others wait")

        let again = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(again.status, 0, again.errorOutput)
        XCTAssertEqual(shown(again.output), [], "nothing twice, and no room left today")
    }

    func testTwentyAppsAreCheckedByOneProcessEachFeedFetchedOnceAndEachMessageHandedOverOnce() throws {
        let (session, environment, server) = try setUpRun()
        // The budget out of the way: every app's message has room.
        try FileManager.default.createDirectory(at: session.userKeyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[budget]\nPerDay=100\nPerWeek=100\n".write(to: session.userKeyFile, atomically: true, encoding: .utf8)
        let apps = (1...20).map { String(format: "org.example.Many%02d", $0) }
        for (index, app) in apps.enumerated() {
            try publishAndRegister(app, key: "2026/10/\(String(format: "%02d", index + 1))", title: "Many \(index + 1)",
                                   server: server, environment: environment)
        }
        let run = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(shown(run.output).sorted(), apps.enumerated().map { "\($1) 2026/10/\(String(format: "%02d", $0 + 1))" })
        XCTAssertEqual(server.requests.map(\.path).sorted(), apps.map { "/\($0).plist" })
        XCTAssertTrue(eventually(within: 10) { ((try? session.notifyCalls().count) ?? 0) == 20 }, "the agent shows all twenty")
        let again = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(shown(again.output), [], "not due again, and nothing twice")
    }

    /// The server's capabilities and name, and the way messages are handed over, are asked once
    /// for the whole run: five apps cost the server what one check asks of it (libnotify's
    /// `GetServerInformation` as it connects, then `GetCapabilities` and the server's name), and
    /// the agent asks the same once as it shows them.
    func testARunAsksTheNotificationServerOnceForAllItsApps() throws {
        let (session, environment, server) = try setUpRun()
        let apps = (1...5).map { "org.example.Asked\($0)" }
        for (index, app) in apps.enumerated() {
            try publishAndRegister(app, key: "2026/09/0\(index + 1)", title: "Asked \(index + 1)", priority: 9 - index,
                                   server: server, environment: environment)
        }
        let run = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(shown(run.output), ["org.example.Asked1 2026/09/01", "org.example.Asked2 2026/09/02", "org.example.Asked3 2026/09/03"],
                       "the day's room, in app-id order")
        XCTAssertTrue(eventually(within: 10) { ((try? session.notifyCalls().count) ?? 0) == 3 }, "the agent shows the three")
        let connecting = ["GetServerInformation", "GetCapabilities", "GetServerInformation"]
        XCTAssertEqual(try session.serverCalls().map(\.method).filter { $0 != "Notify" }, connecting + connecting, "the run's, then the agent's")
    }

    func testAtTheRunsDeadlineTheAppsWithTheirFeedGoOnAndThoseNotStartedAreLeftToTheNextRun() throws {
        let (session, environment, server) = try setUpRun()
        try FileManager.default.createDirectory(at: session.userKeyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[budget]\nPerDay=100\nPerWeek=100\n".write(to: session.userKeyFile, atomically: true, encoding: .utf8)
        // Eight slow feeds: six are fetched at once, and the deadline passes before they come.
        let apps = (1...8).map { "org.example.Slow\($0)" }
        for (index, app) in apps.enumerated() {
            try publishAndRegister(app, key: "2026/09/0\(index + 1)", title: "Slow \(index + 1)", path: "slow/3/\(app).plist",
                                   server: server, environment: environment)
        }
        let run = try ChildProcess(TestPaths.herald, ["check", "--registered", "--json", "--deadline", "1"], environment: environment,
                                   directory: session.directory, name: "deadline")
        XCTAssertEqual(run.wait(seconds: 30), 75, run.errorOutput)
        XCTAssertEqual(run.errorOutput, apps.suffix(2).map { "herald: \($0): not checked: the run's deadline passed before its turn; the next run checks it\n" }.joined())
        XCTAssertEqual(shown(run.output).sorted(), apps.prefix(6).enumerated().map { "\($1) 2026/09/0\($0 + 1)" },
                       "the six started go on once their feed comes")
        let next = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(next.status, 0, next.errorOutput)
        XCTAssertEqual(shown(next.output).sorted(), apps.suffix(2).enumerated().map { "\($1) 2026/09/0\($0 + 7)" }, "the next run checks them")
    }

    func testAServerThatAnswers429WithRetryAfterIsNotAskedAgainByTheAppsThatStartAfterAndTheNextRunWaits() throws {
        let (session, environment, server) = try setUpRun()
        // Eight apps on one server: six fetch at once; the two that start after them know the
        // server asked to wait, and ask nothing.
        let apps = (1...8).map { "org.example.Busy\($0)" }
        for (index, app) in apps.enumerated() {
            try publishAndRegister(app, key: "2026/08/0\(index + 1)", title: "Busy", server: server, environment: environment)
            try server.publish("\(app).plist.status", "429\nRetry-After: 120\n")
        }
        let run = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(run.status, 75, run.errorOutput)
        XCTAssertEqual(server.requests.count, Self.fetchesAtOnce, "only the checks fetching at once asked")
        let failed = events(run.output).filter { $0["event"] as? String == "failed" }
        XCTAssertEqual(failed.compactMap { $0["app"] as? String }.sorted(), apps, "every app's check failed")
        XCTAssertEqual(Set(failed.compactMap { $0["host"] as? String }), ["127.0.0.1:\(server.port)"])
        let next = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(next.status, 0, next.errorOutput)
        XCTAssertEqual(server.requests.count, Self.fetchesAtOnce, "the next run asks nothing before the time")
    }

    func testWhileTheDesktopAsksForQuietEveryAppsCheckIsDeferredAndTheNextRunShowsThem() throws {
        let (session, base, server) = try setUpRun()
        var environment = base
        environment["GSETTINGS_BACKEND"] = "keyfile"
        try publishAndRegister("org.example.QuietA", key: "2026/07/01", title: "Quiet A", server: server, environment: environment)
        try publishAndRegister("org.example.QuietB", key: "2026/07/02", title: "Quiet B", server: server, environment: environment)
        func setBanners(_ value: Bool) throws {
            let set = try runToCompletion("/usr/bin/gsettings", ["set", "org.gnome.desktop.notifications", "show-banners", String(value)],
                                          environment: environment)
            XCTAssertEqual(set.status, 0, set.output)
        }
        try setBanners(false)
        let quiet = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(quiet.status, 0, quiet.errorOutput)
        XCTAssertEqual(events(quiet.output).filter { $0["event"] as? String == "deferred" }.compactMap { $0["app"] as? String }.sorted(),
                       ["org.example.QuietA", "org.example.QuietB"])
        XCTAssertEqual(shown(quiet.output), [])
        try setBanners(true)
        let after = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(after.status, 0, after.errorOutput)
        XCTAssertEqual(shown(after.output).sorted(), ["org.example.QuietA 2026/07/01", "org.example.QuietB 2026/07/02"])
    }

    func testTheRunsOwnOptionsAreReadByItsOwnParserAndAMistakeIsAUsageError() throws {
        let session = try agentSession()
        let environment = try environment(session)
        let cases: [(arguments: [String], status: Int32, errorOutput: String)] = [
            (["--deadline", "0"], 64, "herald: --deadline must be more than 0 and at most 3600 seconds.\nherald: see 'herald check --help'\n"),
            (["--bogus"], 64, "herald: unknown option '--bogus'\nherald: see 'herald check --help'\n"),
            (["--deadlin", "3"], 64, "herald: unknown option '--deadlin'. Did you mean '--deadline'?\nherald: see 'herald check --help'\n"),
            (["--start-delay", "86401"], 64, "herald: --start-delay must be from 0 to 86400 seconds, not 86401\nherald: see 'herald check --help'\n"),
        ]
        for (arguments, status, errorOutput) in cases {
            let run = try ChildProcess(TestPaths.herald, ["check", "--registered"] + arguments, environment: environment,
                                       directory: session.directory, name: "usage")
            XCTAssertEqual(run.wait(seconds: 20), status, "\(arguments)")
            XCTAssertEqual(run.errorOutput, errorOutput, "\(arguments)")
            XCTAssertEqual(run.output, "", "\(arguments)")
        }
        let help = try ChildProcess(TestPaths.herald, ["check", "--registered", "--help"], environment: environment,
                                    directory: session.directory, name: "help")
        XCTAssertEqual(help.wait(seconds: 20), 0)
        XCTAssertTrue(help.output.hasPrefix("OVERVIEW: Check every registered app at once, in one process.\n"), help.output)
    }

    func testARegistrationWithAMistakeIsNamedByFileAndLineAndTheOthersAreStillChecked() throws {
        let (session, environment, server) = try setUpRun()
        try publishAndRegister("org.example.Good", key: "2026/11/01", title: "Good", server: server, environment: environment)
        try register("org.example.Typo", feed: server.url("org.example.Good.plist"), ["Version=1", "Feeed=x"], in: environment)
        let run = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(run.status, 65, "a registration with a mistake is a data error\n\(run.errorOutput)")
        XCTAssertEqual(run.errorOutput.split(separator: "\n").filter { $0.contains("org.example.Typo.conf:4:") }.count, 1, run.errorOutput)
        XCTAssertEqual(shown(run.output), ["org.example.Good 2026/11/01"])
    }

    func testAnAppTheAdministratorMutedIsNotFetchedAndTheOthersAre() throws {
        let (session, environment, server) = try setUpRun()
        try publishAndRegister("org.example.Open", key: "2026/11/01", title: "Open", server: server, environment: environment)
        try publishAndRegister("org.example.Muted", key: "2026/11/02", title: "Muted", server: server, environment: environment)
        try session.writeSystemKeyFile("[app org.example.Muted]\nMuted=true\n")
        let run = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(shown(run.output), ["org.example.Open 2026/11/01"])
        XCTAssertEqual(server.requests.map(\.path), ["/org.example.Open.plist"], "the muted app's feed is not asked")
        XCTAssertEqual(events(run.output).filter { $0["app"] as? String == "org.example.Muted" }.compactMap { $0["event"] as? String },
                       ["check-skipped"])
    }

    func testAnAppsOwnCheckReleasedTogetherWithTheRegisteredCheckNeverShowsAMessageTwice() throws {
        let session = try agentSession()
        let server = try FeedServer(directory: session.directory, tls: nil)
        addTeardownBlock { server.stop() }
        for round in 1...20 {
            // An app of its own each round: the agent holds at most ten notifications of one app.
            let app = String(format: "org.example.Racing%02d", round)
            let person = session.directory.appendingPathComponent(String(format: "race-%02d", round)).path
            try FileManager.default.createDirectory(atPath: person, withIntermediateDirectories: true)
            let environment = try environment(session, person: person)
            let key = String(format: "2026/11/%02d", round)
            try server.publish("race-\(round).plist", feed(key, title: "Round \(round)"))
            try register(app, feed: server.url("race-\(round).plist"), in: environment)
            let barrier = try ProcessBarrier()
            let runs = [
                try barrier.start(TestPaths.herald, ["check", "--registered", "--json"], environment: environment,
                                  directory: session.directory, name: "registered-\(round)"),
                try barrier.start(TestPaths.herald, ["check", "--json", "--feed", server.url("race-\(round).plist"), "--app-id", app,
                                                     "--app-version", "1", "--show-on-first-launch"],
                                  environment: environment, directory: session.directory, name: "own-\(round)"),
            ]
            XCTAssertTrue(eventually(within: 10) { barrier.everyoneWaits }, "round \(round): both wait at the gate")
            try barrier.release()
            let statuses = runs.map { $0.wait(seconds: 60) }
            XCTAssertEqual(statuses, [0, 0], "round \(round): \(runs.map { $0.output + $0.errorOutput })")
            let shownKeys = runs.flatMap { events($0.output).filter { $0["event"] as? String == "shown" }.compactMap { $0["key"] as? String } }
            XCTAssertEqual(shownKeys, [key], "round \(round): shown once, by one of the two")
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    func testARunKilledWhileItWaitsForASlowFeedLosesNothingAndTheNextRunShowsEachMessageOnce() throws {
        let (session, environment, server) = try setUpRun()
        try publishAndRegister("org.example.Fast", key: "2026/11/01", title: "Fast", server: server, environment: environment)
        try publishAndRegister("org.example.Slow", key: "2026/11/02", title: "Slow", path: "slow/3/org.example.Slow.plist", server: server,
                               environment: environment)
        let killed = try ChildProcess(TestPaths.herald, ["check", "--registered", "--json"], environment: environment,
                                      directory: session.directory, name: "killed")
        XCTAssertTrue(eventually(within: 10) { self.events(killed.output).contains { $0["event"] as? String == "fetched" } },
                      "the fast feed is in: \(killed.output)")
        killed.signal(SIGKILL)
        _ = killed.wait(seconds: 10)
        XCTAssertEqual(shown(killed.output), [], "killed while the fast app waited for the slow one")

        let next = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(next.status, 0, next.errorOutput)
        XCTAssertEqual(shown(next.output).sorted(), ["org.example.Fast 2026/11/01", "org.example.Slow 2026/11/02"])
        let after = try runRegistered(environment, directory: session.directory)
        XCTAssertEqual(shown(after.output), [], "each once")
    }
}
