import Foundation
import Herald
import HeraldCore
import HeraldTestSupport
import XCTest

/// No lock is waited on forever: a process that holds an app's state lock or the attention
/// ledger's (python3's `fcntl.flock`, started here, standing in for a stuck check) costs a
/// check its `--timeout` at most, never its stop signal, and never the agent's other apps.
final class StuckLockEndToEndTests: XCTestCase {
    let appID = "org.example.App"
    let key = "2026/01/01"

    /// A process holding `flock`'s lock on `path` (created, with its folders) until it is
    /// stopped; it has the lock when this returns.
    func holdLock(_ path: String, in session: DesktopSession) throws -> ChildProcess {
        try FileManager.default.createDirectory(atPath: RegularFile.folder(of: path), withIntermediateDirectories: true)
        let script = "import fcntl, sys, time\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(3600)\n"
        let holder = try ChildProcess("/usr/bin/python3", ["-c", script, path], environment: session.environment,
                                      directory: session.directory, name: "lock-holder-\(UUID().uuidString.prefix(8))")
        addTeardownBlock { holder.stop() }
        guard eventually(within: 10, { holder.output == "locked\n" }) else { throw TestSetupError("the lock holder did not start: \(holder.errorOutput)") }
        return holder
    }

    func paths(_ session: DesktopSession, appID: String? = nil) throws -> HeraldPaths {
        try HeraldPaths(appID: appID ?? self.appID, environment: session.environment)
    }

    /// A feed file of one message without a link.
    func feed(in session: DesktopSession) throws -> String {
        let feed = session.directory.appendingPathComponent("feed.plist")
        try Fixtures.xmlFeed([key: ["Title": "Hello", "Message": "A message."]]).write(to: feed, atomically: true, encoding: .utf8)
        return feed.path
    }

    func checkArguments(_ feed: String, timeout: Double) -> [String] {
        ["check", "--feed", feed, "--app-id", appID, "--force", "--no-handover", "--timeout", NumberText.plain(timeout)]
    }

    func lockedSentence(_ what: String, holder: ChildProcess, seconds: Int, lockFile: String) -> String {
        "\(what) is locked by another process (pid \(holder.process.processIdentifier)) for more than \(seconds) s "
            + "(lock file \(lockFile)); try again once that process has finished, or end it"
    }

    func testChecksOfAnAppWhoseStateIsLockedByAStuckProcessEndAfterTheirTimeoutWithASentenceAndExit75() throws {
        let session = try DesktopSession()
        defer { session.stop() }
        let feed = try feed(in: session)
        let lockFile = try paths(session).lockFile
        let holder = try holdLock(lockFile, in: session)
        // Two checks that come to the lock at the same instant.
        let barrier = try ProcessBarrier()
        for index in 0..<2 {
            try barrier.start(TestPaths.herald, checkArguments(feed, timeout: 2), environment: session.environment,
                              directory: session.directory, name: "check-\(index)")
        }
        let released = try barrier.release()
        for check in barrier.participants {
            XCTAssertEqual(check.wait(seconds: 20), 75, check.errorOutput)
            XCTAssertEqual(check.output, "")
            XCTAssertEqual(check.errorOutput, "herald: " + lockedSentence("the state of \(appID)", holder: holder, seconds: 2, lockFile: lockFile) + "\n")
        }
        let seconds = Date().timeIntervalSince(released)
        XCTAssertGreaterThanOrEqual(seconds, 2, "each waited its timeout")
        XCTAssertLessThan(seconds, 8, "and not much more")
        XCTAssertEqual(try FileStateStore(paths: paths(session)).inspect(), HeraldState(), "nothing was written")
    }

    func testSIGTERMEndsACheckWaitingForALockAtOnce() throws {
        let session = try DesktopSession()
        defer { session.stop() }
        let lockFile = try paths(session).lockFile
        let holder = try holdLock(lockFile, in: session)
        let check = try session.herald(checkArguments(try feed(in: session), timeout: 60))
        // The check takes the lock first thing; unheld, it would have ended well within this.
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertTrue(check.process.isRunning, "it waits for the lock")
        let signalled = Date()
        check.signal(SIGTERM)
        XCTAssertEqual(check.wait(seconds: 20), 143)
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 0.9, "at once, not when the loop's guard gives up a second later")
        XCTAssertEqual(check.errorOutput, "herald: cannot lock \(lockFile): the process stopped waiting for it as it ends, while another process "
                       + "(pid \(holder.process.processIdentifier)) held it\n")
    }

    /// The ledger's lock held past the check's timeout is a problem of the budget alone: the
    /// check says so and shows its message as if no budget were set.
    func testACheckWhoseAttentionLedgerIsLockedByAStuckProcessShowsWithoutTheBudgetAfterItsTimeout() throws {
        let session = try DesktopSession()
        defer { session.stop() }
        let ledger = FileAttentionLedgerStore(environment: session.environment).lockFile
        let holder = try holdLock(ledger, in: session)
        let started = Date()
        let check = try session.herald(checkArguments(try feed(in: session), timeout: 2) + ["--json"])
        XCTAssertTrue(eventually(within: 8) { check.events.contains { $0["event"] as? String == "shown" } }, check.output + check.errorOutput)
        XCTAssertLessThan(Date().timeIntervalSince(started), 8)
        check.signal(SIGTERM)
        XCTAssertEqual(check.wait(seconds: 20), 143)
        let events = check.events
        XCTAssertEqual(events.prefix(2).map { $0["event"] as? String }, ["fetched", "budget-not-kept"])
        let message = "the attention budget is not kept at this check, which shows as if none were set: "
            + lockedSentence("the attention ledger", holder: holder, seconds: 2, lockFile: ledger)
        XCTAssertEqual(events.dropFirst().first?["message"] as? String, message)
    }

    func testTheAgentRecordsAClickForOneAppWhileAnotherAppsStateIsLockedAndGivesThatOneUpWithASentence() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        defer { session.stop() }
        try session.startBus(activating: "org.herald.Agent", command: TestPaths.agent + " --idle-exit 1")
        let stuck = "org.example.Stuck"
        // Each handed over as a check does, with the token a click must carry.
        var tokens: [String: String] = [:]
        for app in [appID, stuck] {
            let handover = Handover(place: .desktopList, link: nil, since: Date()).issued(under: URLRules())
            tokens[app] = try XCTUnwrap(handover.token)
            try FileStateStore(paths: paths(session, appID: app)).update { state in
                state = CheckPolicy.handOver(key, handover, in: state)
            }
        }
        let stuckLock = try paths(session, appID: stuck).lockFile
        let holder = try holdLock(stuckLock, in: session)
        let folder = URL(fileURLWithPath: try paths(session).stateDirectory).resolvingSymlinksInPath().path
        // Both clicks reach the agent together, the stuck app's first in line.
        let barrier = try ProcessBarrier()
        for app in [stuck, appID] {
            try barrier.start("/usr/bin/gapplication", ["action", "org.herald.Agent", "answer", "('\(app)', '\(key)', 'ignore', '\(folder)', '\(tokens[app]!)')"],
                              environment: session.environment, directory: session.directory, name: "click-\(app)")
        }
        let released = try barrier.release()
        let (stuckClick, click) = (barrier.participants[0], barrier.participants[1])
        XCTAssertEqual(click.wait(seconds: 20), 0, click.errorOutput)
        XCTAssertLessThan(Date().timeIntervalSince(released), 4, "the other app's click is answered while the stuck one waits")
        XCTAssertEqual(try FileStateStore(paths: paths(session)).load().ignored, [key])
        XCTAssertEqual(stuckClick.wait(seconds: 20), 1)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(released), 5, "the stuck app's click was asked again for 5 s")
        let said = session.busErrorOutput.split(separator: "\n").map(String.init).filter { $0.hasPrefix("herald-agent: ") }
        XCTAssertEqual(said, ["herald-agent: cannot record the answer 'ignore' to message '\(key)' of \(stuck): "
                              + lockedSentence("the state of \(stuck)", holder: holder, seconds: 5, lockFile: stuckLock) + "; it stays unanswered"])
        holder.stop()
        XCTAssertEqual(try FileStateStore(paths: paths(session, appID: stuck)).load().handedOver.keys.sorted(), [key], "the message still waits")
    }
}
