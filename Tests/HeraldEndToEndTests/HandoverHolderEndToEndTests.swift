import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// A message handed over to the agent waits only while the agent itself runs: the process with
/// the PID and start time its handover recorded. A process that took the PID since, or a zombie,
/// does not keep it from the next check.
final class HandoverHolderEndToEndTests: XCTestCase {
    let appID = "org.example.App"
    let key = "2026/01/01"

    /// Writes the agent's handover of the message, naming `processID` started at `startTime`,
    /// then runs a check of a feed that holds the message; returns each event's name, key and
    /// reason (those it has).
    func checkAfterHandover(to processID: Int32, startTime: UInt64?, in session: DesktopSession) throws -> [[String]] {
        try FileStateStore(paths: HeraldPaths(appID: appID, environment: session.environment)).update { state in
            state = CheckPolicy.handOver(key, Handover(place: .agent, agentProcessID: processID, agentStartTime: startTime, link: nil,
                                                       since: Date().addingTimeInterval(-60)), in: state)
        }
        let feed = session.directory.appendingPathComponent("feed.plist")
        try Fixtures.xmlFeed([key: ["Title": "Hello", "Message": "A message."]]).write(to: feed, atomically: true, encoding: .utf8)
        let (run, _) = try session.timedRun(["check", "--json", "--feed", feed.path, "--app-id", appID, "--force", "--no-handover", "--wait", "1"],
                                            within: 20)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        return run.output.split(separator: "\n").compactMap { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return [event["event"], event["key"], event["reason"]].compactMap { $0 as? String }
        }
    }

    func testAMessageWhoseAgentsPIDAnotherProcessHasNowIsShownAgainAndTheRealAgentKeepsIt() throws {
        let session = try DesktopSession()
        defer { session.stop() }
        let other = try ChildProcess("/bin/sleep", ["60"], environment: session.environment, directory: session.directory, name: "other")
        defer { other.stop() }
        let pid = other.process.processIdentifier
        let startTime = try XCTUnwrap(RunningProcess.find(pid)?.startTime)
        XCTAssertEqual(try checkAfterHandover(to: pid, startTime: startTime, in: session),
                       [["fetched"], ["skipped", key, "handed-over"], ["not-detected"]],
                       "the process it was handed to still runs: it waits")
        XCTAssertEqual(try checkAfterHandover(to: pid, startTime: startTime + 1, in: session),
                       [["fetched"], ["detected"], ["shown", key], ["closed", key, "closed-by-herald"]],
                       "a process with its PID but another start time is not the agent: shown again")
    }

    func testAMessageHeldByAZombieIsShownAgainThoughItsHandoverIsOfTheOldFormWithoutAStartTime() throws {
        let session = try DesktopSession()
        defer { session.stop() }
        var zombie: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { arguments.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&zombie, "/bin/true", nil, nil, arguments, environ), 0)
        defer { var status: Int32 = 0; waitpid(zombie, &status, 0) }
        XCTAssertTrue(eventually(within: 5) { !processIsRunning(zombie) && FileManager.default.fileExists(atPath: "/proc/\(zombie)") },
                      "it has ended, and is not reaped")
        XCTAssertEqual(try checkAfterHandover(to: zombie, startTime: nil, in: session),
                       [["fetched"], ["detected"], ["shown", key], ["closed", key, "closed-by-herald"]])
    }
}
