import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// `herald check` when the state cannot be trusted: a file this user may not read, something
/// that is not a regular file in its place, a full disk. Each is exit 73 with one sentence, the
/// state left exactly as it was, and nothing shown (DESIGN.md D16).
final class StateFaultTests: XCTestCase {
    let feed = Fixtures.xmlFeed(["2026/01/01": ["Title": "Would show on a first launch"]])

    /// The state file of `appID` in `session`.
    func stateFile(_ session: DesktopSession, _ appID: String) -> String {
        session.environment["XDG_STATE_HOME"]! + "/herald/\(appID).json"
    }

    /// Runs a check that would show the feed's message if it took the state for a first launch.
    func check(_ session: DesktopSession, _ server: FeedServer, _ appID: String, as user: [String] = []) throws -> ChildProcess {
        try herald(session, ["check", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch", "--wait", "5"], as: user)
    }

    /// Starts `herald` with `arguments`, as another user when `user` is a `setpriv` command.
    func herald(_ session: DesktopSession, _ arguments: [String], as user: [String] = []) throws -> ChildProcess {
        let command = user.isEmpty ? [TestPaths.herald] + arguments : user + ["--", TestPaths.herald] + arguments
        return try ChildProcess(command[0], Array(command.dropFirst()), environment: session.environment,
                                directory: session.directory, name: "herald-\(UUID().uuidString.prefix(8))")
    }

    func testStateFileThisUserCannotReadFailsWithExit73AndIsNotReplaced() throws {
        // As left by `sudo herald`: the state file root's, mode 0600, in the user's own folder.
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let appID = "org.example.Unreadable"
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"{"viewed":["kept"]}"#.utf8).write(to: URL(fileURLWithPath: stateFile(session, appID)))
        XCTAssertEqual(chmod(stateFile(session, appID), 0o600), 0)
        var user: [String] = []
        if getuid() == 0 {
            // Root reads every file, so the check runs as nobody, who owns the folders.
            for owned in [folder, session.environment["XDG_CACHE_HOME"]!] { XCTAssertEqual(chown(owned, 65534, 65534), 0) }
            user = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        } else {
            XCTAssertEqual(chmod(stateFile(session, appID), 0), 0)
        }
        defer { chmod(stateFile(session, appID), 0o600) }
        let run = try check(session, server, appID, as: user)
        XCTAssertEqual(run.wait(), 73)
        XCTAssertEqual(run.errorOutput, "herald: cannot read \(stateFile(session, appID)): Permission denied\n")
        XCTAssertEqual(try session.notifyCalls().count, 0)
        XCTAssertEqual(server.requests.count, 0, "nothing was fetched either")
        let shown = try herald(session, ["state", "--app-id", appID], as: user)
        XCTAssertEqual(shown.wait(), 73)
        XCTAssertEqual(shown.errorOutput, """
            herald: cannot read \(stateFile(session, appID)): Permission denied
            herald: 'herald state --app-id \(appID) --reset' removes it; the next run is then a first launch

            """)
        chmod(stateFile(session, appID), 0o600)
        XCTAssertEqual(try String(contentsOfFile: stateFile(session, appID), encoding: .utf8), #"{"viewed":["kept"]}"#)
    }

    func testStatePathThatIsNotARegularFileFailsWithExit73AndIsLeftAsItIs() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        let outside = session.directory.appendingPathComponent("outside").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("not Herald's".utf8).write(to: URL(fileURLWithPath: outside + "/target"))
        let big = 50 * 1024 * 1024
        let cases: [(appID: String, make: (String) throws -> Void, error: (String) -> String)] = [
            ("org.example.Link", { try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: outside + "/target") },
             { "cannot read \($0): it is a symbolic link, which Herald does not follow for its own files" }),
            ("org.example.Fifo", { XCTAssertEqual(mkfifo($0, 0o600), 0) }, { "cannot read \($0): it is a FIFO, not a regular file" }),
            ("org.example.Folder", { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) },
             { "cannot read \($0): it is a directory, not a regular file" }),
            ("org.example.Huge", { XCTAssertTrue(FileManager.default.createFile(atPath: $0, contents: nil)); XCTAssertEqual(truncate($0, off_t(big)), 0) },
             { "cannot use \($0): it is 50 MiB, more than the 4 MiB a state file may hold" }),
            ("org.example.LockLink", { try FileManager.default.createSymbolicLink(atPath: String($0.dropLast(".json".count)) + ".lock",
                                                                                  withDestinationPath: outside + "/planted.lock") },
             { "cannot lock \($0.dropLast(".json".count)).lock: it is a symbolic link, which Herald does not follow for its own files" }),
            ("org.example.LockFifo", { XCTAssertEqual(mkfifo(String($0.dropLast(".json".count)) + ".lock", 0o600), 0) },
             { "cannot lock \($0.dropLast(".json".count)).lock: it is a FIFO, not a regular file" }),
        ]
        for item in cases {
            let path = stateFile(session, item.appID)
            try item.make(path)
            // The lock file is Herald's own and may be created; nothing else may appear.
            let expected = Set(try FileManager.default.contentsOfDirectory(atPath: folder) + ["\(item.appID).lock"])
            let run = try check(session, server, item.appID)
            XCTAssertEqual(run.wait(), 73, item.appID)
            XCTAssertEqual(run.errorOutput, "herald: \(item.error(path))\n", item.appID)
            XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder)), expected, "\(item.appID): nothing was added or replaced")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), ["target"])
        XCTAssertEqual(try String(contentsOfFile: outside + "/target", encoding: .utf8), "not Herald's")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: stateFile(session, "org.example.Link")), outside + "/target")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: stateFile(session, "org.example.Huge"))[.size] as? Int, big)
        let shown = try herald(session, ["state", "--app-id", "org.example.Huge"])
        XCTAssertEqual(shown.wait(), 73)
        XCTAssertEqual(shown.errorOutput, """
            herald: cannot use \(stateFile(session, "org.example.Huge")): it is 50 MiB, more than the 4 MiB a state file may hold
            herald: 'herald state --app-id org.example.Huge --reset' removes it; the next run is then a first launch

            """)
        let reset = try herald(session, ["state", "--app-id", "org.example.Huge", "--reset"])
        XCTAssertEqual(reset.wait(), 0, reset.errorOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFile(session, "org.example.Huge")))
        XCTAssertEqual(try session.notifyCalls().count, 0)
        // The lock is taken before the fetch, and the state file read before that: neither a
        // broken lock nor an unreadable state file costs the server a request.
        XCTAssertEqual(server.requests.count, 0, "nothing fetched for a state that cannot be used")
    }

    /// Fills the disk a path is on, so that the next write there fails with ENOSPC.
    func fill(_ mountPoint: String) {
        let filler = open(mountPoint + "/filler", O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0, count: 4096)
        while write(filler, block, block.count) > 0 {}
        close(filler)
    }

    func testAnAnswerTheFullDiskCannotKeepIsNotReportedAsAnswered() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(Fixtures.xmlFeed(["2026/01/01": ["Title": "Answered on a full disk"]]))
        let appID = "org.example.FullLater"
        let mountPoint = session.environment["XDG_STATE_HOME"]!
        guard "size=64k".withCString({ mount("tmpfs", mountPoint, "tmpfs", 0, $0) }) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here: \(String(cString: strerror(errno)))")
        }
        defer { umount(mountPoint) }
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID,
                                      "--show-on-first-launch", "--wait", "10"])
        XCTAssertTrue(eventually { run.events.contains { $0["event"] as? String == "shown" } }, run.output + run.errorOutput)
        let claimed = try String(contentsOfFile: stateFile(session, appID), encoding: .utf8)
        fill(mountPoint)
        try session.invoke("ok", on: run.events.first { $0["event"] as? String == "shown" }?["id"] as? Int ?? 0)
        XCTAssertEqual(run.wait(), 73)
        let names = run.events.compactMap { $0["event"] as? String }
        XCTAssertTrue(names.contains("answer-not-recorded"), "\(names)")
        XCTAssertFalse(names.contains("answered"), "'answered' means the answer is kept")
        XCTAssertEqual(run.events.first { $0["event"] as? String == "answer-not-recorded" }?["key"] as? String, "2026/01/01")
        XCTAssertEqual(run.events.first { $0["event"] as? String == "answer-not-recorded" }?["message"] as? String,
                       "cannot write \(stateFile(session, appID)): No space left on device")
        XCTAssertEqual(try String(contentsOfFile: stateFile(session, appID), encoding: .utf8), claimed, "the claimed state is intact")
    }

    func testADismissalTheFullDiskCannotKeepIsReportedAsNotRecordedWithItsReason() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        for json in [true, false] {
            let session = try DesktopSession()
            try session.useStandardBudget()
            try session.giveEveryNotification(id: 7)
            let server = try session.serveFeed(Fixtures.xmlFeed(["2026/01/01": ["Title": "Dismissed on a full disk"]]))
            let appID = "org.example.FullDismissed"
            let mountPoint = session.environment["XDG_STATE_HOME"]!
            guard "size=64k".withCString({ mount("tmpfs", mountPoint, "tmpfs", 0, $0) }) == 0 else {
                throw XCTSkip("cannot mount a tmpfs here: \(String(cString: strerror(errno)))")
            }
            defer { umount(mountPoint) }
            let run = try session.herald(["check", "--feed", server.url("feed.plist"), "--app-id", appID,
                                          "--show-on-first-launch", "--wait", "10"] + (json ? ["--json"] : []))
            XCTAssertTrue(eventually { run.output.contains("shown") }, run.output + run.errorOutput)
            fill(mountPoint)
            try session.close(7, reason: 2)
            XCTAssertEqual(run.wait(), 73)
            let reason = "cannot write \(stateFile(session, appID)): No space left on device"
            if json {
                let names = run.events.compactMap { $0["event"] as? String }
                XCTAssertFalse(names.contains("closed"), "'closed' means the dismissal is kept: \(names)")
                let notRecorded = run.events.first { $0["event"] as? String == "close-not-recorded" }
                XCTAssertEqual(notRecorded?["key"] as? String, "2026/01/01", "\(names)")
                XCTAssertEqual(notRecorded?["reason"] as? String, "dismissed")
                XCTAssertEqual(notRecorded?["message"] as? String, reason)
            } else {
                XCTAssertEqual(run.output.split(separator: "\n").last.map(String.init), "2026/01/01: closed (dismissed), not recorded: \(reason)")
            }
        }
    }

    func testFullDiskFailsTheCheckWithExit73AndKeepsThePreviousState() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(Fixtures.xmlFeed(["kept": ["Title": "Answered"], "new": ["Title": "New"]]))
        let appID = "org.example.FullDisk"
        let mountPoint = session.environment["XDG_STATE_HOME"]!
        guard "size=64k".withCString({ mount("tmpfs", mountPoint, "tmpfs", 0, $0) }) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here: \(String(cString: strerror(errno)))")
        }
        defer { umount(mountPoint) }
        try FileManager.default.createDirectory(atPath: mountPoint + "/herald", withIntermediateDirectories: true)
        let previous = #"{"ignored":[],"viewed":["kept"]}"#
        try Data(previous.utf8).write(to: URL(fileURLWithPath: stateFile(session, appID)))
        fill(mountPoint)
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--wait", "5"])
        XCTAssertEqual(run.wait(), 73)
        XCTAssertEqual(run.events.map { $0["event"] as? String }, ["fetched", "budget-not-kept", "failed"])
        // The claim and the room it takes in the person's attention ledger are one step: the
        // ledger's write comes first, and a ledger the full disk refuses is the budget's problem
        // alone; the state's write, refused as well, fails the check.
        let ledger = mountPoint + "/herald/attention/ledger.json"
        XCTAssertEqual(run.events[1]["message"] as? String,
                       "the attention budget is not kept at this check, which shows as if none were set: cannot write \(ledger): No space left on device")
        XCTAssertEqual(run.events.last?["message"] as? String, "cannot write \(stateFile(session, appID)): No space left on device")
        XCTAssertEqual(try session.notifyCalls().count, 0, "what could not be claimed is not shown")
        XCTAssertEqual(try String(contentsOfFile: stateFile(session, appID), encoding: .utf8), previous)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/herald").sorted(),
                       ["attention", "\(appID).json", "\(appID).lock"], "no temporary file is left on the full disk")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/herald/attention"), ["ledger.lock"])
    }
}

/// SIGKILL at random moments while `herald check` processes claim and answer: the state file
/// always parses, and no answer a process confirmed before it died is lost
/// (`Tests/support/kill_loop.py`; `Tests/scripts/kill-loop.sh` runs more kills).
final class KillLoopTests: XCTestCase {
    func testKilledChecksNeverLoseAConfirmedAnswerOrLeaveAStateThatDoesNotParse() throws {
        let environment = ProcessInfo.processInfo.environment
        // A hundred kills take some 25 s here; HERALD_KILL_LOOP_KILLS asks for more.
        let kills = environment["HERALD_KILL_LOOP_KILLS"].flatMap(Int.init) ?? 100
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(Fixtures.xmlFeed([:]))
        var arguments = [TestPaths.support("kill_loop.py"), "--herald", TestPaths.herald, "--app-id", "org.example.Killed",
                         "--feed-root", server.root.path, "--feed-url", server.url("feed.plist"), "--work", session.directory.path,
                         "--kills", String(kills)]
        if let seed = environment["HERALD_KILL_LOOP_SEED"] { arguments += ["--seed", seed] }
        let result = try runToCompletion("/usr/bin/python3", arguments, environment: session.environment)
        print("kill loop: \(result.output)", terminator: "")
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], result.output)
        XCTAssertGreaterThanOrEqual(summary["kills"] as? Int ?? 0, kills)
        XCTAssertGreaterThan(summary["answersConfirmed"] as? Int ?? 0, 0, "some answers came in before their check was killed")
        XCTAssertEqual(summary["answersLost"] as? Int, 0)
        let problems = try XCTUnwrap(summary["problems"] as? [String: [String]])
        XCTAssertEqual(problems.filter { !$0.value.isEmpty }, [:])
        XCTAssertEqual(result.status, 0)
    }
}
