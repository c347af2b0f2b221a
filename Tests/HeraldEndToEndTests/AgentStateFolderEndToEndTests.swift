import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// A handover names its state folder (DESIGN.md D23): the agent, started by a session bus whose
/// `HOME` and `XDG_STATE_HOME` are not those of the `herald check` that handed the message over,
/// records the answer in the check's state; a folder it cannot use is refused (the check then
/// shows the message itself), and an answer it cannot record is said on its standard error (the
/// bus's, the user's journal in a real session) and leaves the message unanswered. Every test
/// runs the built `herald` and `herald-agent` on a private bus and reads the real state files.
final class AgentStateFolderEndToEndTests: XCTestCase {
    let appID = "org.example.Elsewhere"
    let key = "2026/03/01"
    let link = "https://example.com/elsewhere"
    var feed: String {
        Fixtures.xmlFeed([key: ["Title": "Moved", "Message": "Answered where it was handed over", "ActionURL": link, "ActionButton": "Read"]])
    }

    /// A session whose bus (and so the agent it starts, idle after one second) has its own
    /// `HOME` and `XDG_STATE_HOME`, under `bus-home/`, unlike every `herald` the test runs.
    func session(server: Bool = true) throws -> DesktopSession {
        let session = try DesktopSession(capabilities: nil, bus: false)
        addTeardownBlock { session.stop() }
        let busHome = session.directory.appendingPathComponent("bus-home")
        for folder in ["home", "state"] {
            try FileManager.default.createDirectory(at: busHome.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try session.startBus(activating: "org.herald.Agent", command: TestPaths.agent + " --idle-exit 1",
                             environment: ["HOME": busHome.appendingPathComponent("home").path,
                                           "XDG_STATE_HOME": busHome.appendingPathComponent("state").path])
        if server { try session.startMockServer(capabilities: "actions body body-markup") }
        return session
    }

    /// The state folder the agent's own environment gives: the bus's `XDG_STATE_HOME/herald`.
    func busStateFolder(_ session: DesktopSession) -> String {
        session.directory.appendingPathComponent("bus-home/state/herald").path
    }

    /// The check's state, as its environment (the session's) locates it.
    func store(_ session: DesktopSession) throws -> FileStateStore {
        FileStateStore(paths: try HeraldPaths(appID: appID, environment: session.environment))
    }

    /// The check's state folder as its handovers name it, links resolved.
    func stateFolder(_ session: DesktopSession) throws -> String {
        URL(fileURLWithPath: try store(session).paths.stateDirectory).resolvingSymlinksInPath().path
    }

    /// The sentences the agent said on standard error.
    func agentSaid(_ session: DesktopSession) -> [String] {
        session.busErrorOutput.split(separator: "\n").map(String.init).filter { $0.hasPrefix("herald-agent: ") }
    }

    /// Runs `herald check` on the served feed; it hands the message over and exits.
    func handOverByCheck(_ session: DesktopSession, _ url: String) throws -> [[String: Any]] {
        let run = try session.herald(["check", "--json", "--feed", url, "--app-id", appID, "--app-name", "Elsewhere", "--show-on-first-launch",
                                      "--force", "--wait", "600"])
        XCTAssertEqual(run.wait(seconds: 15), 0, run.errorOutput)
        return run.events
    }

    /// `ActivateAction("answer", [<target>])`, as GNOME Shell calls it for a click in its list;
    /// returns the exit status and what `gapplication` said on standard error.
    func click(_ target: String, in session: DesktopSession) throws -> (status: Int32, errorOutput: String) {
        let child = try ChildProcess("/usr/bin/gapplication", ["action", "org.herald.Agent", "answer", target], environment: session.environment,
                                     directory: session.directory, name: "click-\(UUID().uuidString)")
        return (child.wait(seconds: 10), child.errorOutput)
    }

    func testACheckWhoseHomeIsNotTheBussHandsOverAndTheClickOnTheAgentsNotificationIsRecordedInTheChecksState() throws {
        let session = try session()
        let server = try session.serveFeed(feed)
        let events = try handOverByCheck(session, server.url("feed.plist"))
        let shown = try XCTUnwrap(events.last)
        XCTAssertEqual(shown["event"] as? String, "shown")
        XCTAssertEqual(shown["handedOver"] as? String, "agent")
        let id = try XCTUnwrap(shown["id"] as? Int)
        XCTAssertEqual(try store(session).load().handedOver[key]?.place, .agent)

        try session.invoke("view", on: id)
        XCTAssertTrue(eventually(within: 5) { (try? store(session).load().viewed) == [key] }, session.busErrorOutput)
        let state = try store(session).load()
        XCTAssertEqual(state.handedOver, [:])
        XCTAssertEqual(state.answeredAway.mapValues(\.answer), [key: "view"])
        XCTAssertTrue(eventually(within: 5) { session.openedLinks == [link] }, "\(session.openedLinks)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: busStateFolder(session)), "nothing is written where the bus's environment points")
        XCTAssertEqual(agentSaid(session), [])
    }

    func testAClickInTheDesktopListNamesTheChecksStateFolderAndTheAgentWithAnotherHomeRecordsItThere() throws {
        let session = try session()
        try session.installAgentDesktopEntry()
        let log = session.directory.appendingPathComponent("shell-calls.log")
        let shell = try ChildProcess("/usr/bin/python3", [TestPaths.support("handover_mocks.py"), log.path, "--gtk"],
                                     environment: session.environment, directory: session.directory, name: "shell-list")
        addTeardownBlock { shell.stop() }
        XCTAssertTrue(eventually { shell.output == "ready\n" }, shell.errorOutput)
        let server = try session.serveFeed(feed)
        XCTAssertEqual(try handOverByCheck(session, server.url("feed.plist")).last?["handedOver"] as? String, "desktop-list")
        // The target exactly as the check posted it to the list, which the shell sends back on a click.
        let posted = try XCTUnwrap(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").first)
        let call = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(posted.utf8)) as? [String: Any])
        let notification = try XCTUnwrap((call["args"] as? [Any])?.last as? [String: Any])
        let target = try XCTUnwrap(notification["default-action-target"] as? [String])
        let token = try XCTUnwrap(try store(session).load().handedOver[key]?.token)
        XCTAssertEqual(target, [appID, key, "view", try stateFolder(session), token])

        let clicked = try click("('" + target.joined(separator: "', '") + "')", in: session)
        XCTAssertEqual(clicked.status, 0, clicked.errorOutput + session.busErrorOutput)
        let state = try store(session).load()
        XCTAssertEqual(state.viewed, [key])
        XCTAssertEqual(state.handedOver, [:])
        XCTAssertTrue(eventually(within: 5) { session.openedLinks == [link] }, "\(session.openedLinks)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: busStateFolder(session)))
        XCTAssertEqual(agentSaid(session), [])
    }

    func testAClickWithoutAStateFolderGoesToTheAgentsOwnFolderAndWhatItCannotRecordThereIsSaidAndStaysUnanswered() throws {
        let session = try session(server: false)
        // A message in GNOME's list from before handovers named their folder: its target is (app id, key, answer).
        try store(session).update { state in
            state = CheckPolicy.handOver(key, Handover(place: .desktopList, link: link, since: Date()), in: state)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: store(session).paths.stateFile))
        let clicked = try click("('\(appID)', '\(key)', 'view')", in: session)
        let sentence = "cannot use the state folder \(busStateFolder(session)): No such file or directory"
        XCTAssertEqual(clicked.status, 1)
        XCTAssertEqual(clicked.errorOutput, "error sending ActivateAction message to application: "
                       + "GDBus.Error:org.herald.Agent1.Error.StateUnreachable: \(sentence)\n")
        XCTAssertEqual(agentSaid(session), ["herald-agent: cannot record the answer 'view' to message '\(key)' of \(appID): \(sentence); it stays unanswered"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store(session).paths.stateFile)), before, "nothing recorded, nothing dropped")
        XCTAssertFalse(FileManager.default.fileExists(atPath: busStateFolder(session)), "the agent creates no folder")
        XCTAssertEqual(session.openedLinks, [])
    }

    func testAnAnswerWhoseStateFolderVanishedAfterTheHoldIsSaidOnTheAgentsStandardErrorAndStaysUnanswered() throws {
        let session = try session()
        let server = try session.serveFeed(feed)
        let id = try XCTUnwrap(try handOverByCheck(session, server.url("feed.plist")).last?["id"] as? Int)
        let folder = try stateFolder(session)
        let moved = RegularFile.folder(of: folder) + "-moved/herald"
        try FileManager.default.moveItem(atPath: RegularFile.folder(of: folder), toPath: RegularFile.folder(of: moved))

        try session.invoke("view", on: id)
        let said = "herald-agent: cannot record the answer 'view' to message '\(key)' of \(appID): "
            + "cannot use the state folder \(folder): No such file or directory; it stays unanswered"
        XCTAssertTrue(eventually(within: 5) { agentSaid(session) == [said] }, session.busErrorOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "the agent does not make the folder again")
        let kept = FileStateStore(paths: try XCTUnwrap(try HeraldPaths(appID: appID, stateDirectory: moved, environment: session.environment)))
        let state = try kept.load()
        XCTAssertEqual(state.handedOver[key]?.place, .agent, "not answered, not dropped")
        XCTAssertEqual(state.viewed, [])
        XCTAssertEqual(session.openedLinks, [])
    }

    func testAHoldNamingAFolderTheAgentCannotUseIsRefusedWithASentenceAndNothingIsShownOrWritten() throws {
        let session = try session()
        let handover = Handover(place: .agent, link: link, since: Date()).issued(under: URLRules())
        try store(session).update { state in
            state = CheckPolicy.handOver(key, handover, in: state)
        }
        let folder = try stateFolder(session)
        let linked = session.directory.appendingPathComponent("linked/herald").path
        try FileManager.default.createDirectory(atPath: RegularFile.folder(of: linked), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: folder)
        let missing = session.directory.appendingPathComponent("missing/herald").path
        let stateFile = try store(session).paths.stateFile
        let before = try Data(contentsOf: URL(fileURLWithPath: stateFile))

        func hold(_ key: String, in folder: String) throws -> String {
            let child = try ChildProcess("/usr/bin/gdbus", ["call", "--session", "--dest", "org.herald.Agent", "--object-path", "/org/herald/Agent",
                                                            "--method", "org.herald.Agent1.Hold", appID, key, folder, handover.token!,
                                                            "{'summary': <'S'>}"],
                                         environment: session.environment, directory: session.directory, name: "hold-\(UUID().uuidString)")
            XCTAssertEqual(child.wait(seconds: 10), 1, folder)
            return child.errorOutput
        }
        let refusals = [
            (missing, key, "StateUnreachable", "cannot use the state folder \(missing): No such file or directory"),
            (linked, key, "StateUnreachable", "cannot use the state folder \(linked): it is reached through a symbolic link (to \(folder))"),
            ("state/herald", key, "StateUnreachable", "'state/herald' is not a Herald state folder (an absolute path ending in /herald)"),
            (folder, "2026/03/02", "NotHandedOver",
             "\(stateFile) holds no handover of it: it was answered or withdrawn already, or handed over from another state folder"),
        ]
        for (folder, key, name, reason) in refusals {
            XCTAssertEqual(try hold(key, in: folder), "Error: GDBus.Error:org.herald.Agent1.Error.\(name): \(reason)\n")
        }
        XCTAssertEqual(agentSaid(session), refusals.map { _, key, _, reason in
            "herald-agent: refused to hold message '\(key)' of \(appID): \(reason); the check that handed it over shows it itself"
        })
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing was shown")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stateFile)), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "the agent creates no folder")
    }

    func testAStateFolderOfAnotherUserIsRefusedAndTheCheckShowsTheMessageItselfWhereAClickRecordsIt() throws {
        // Only root can give the check's folder to another user and still write in it as the check.
        try XCTSkipUnless(getuid() == 0, "needs root to give the state folder to another user")
        let session = try session()
        let folder = try stateFolder(session)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(chown(folder, 65534, 65534), 0)
        let server = try session.serveFeed(feed)
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--app-name", "Elsewhere",
                                      "--show-on-first-launch", "--force", "--wait", "600"])
        XCTAssertTrue(eventually(within: 15) { run.events.contains { $0["event"] as? String == "shown" } }, run.output + run.errorOutput)
        let shown = try XCTUnwrap(run.events.first { $0["event"] as? String == "shown" })
        XCTAssertNil(shown["handedOver"], "the check holds it itself: \(shown)")
        XCTAssertEqual(agentSaid(session), ["herald-agent: refused to hold message '\(key)' of \(appID): cannot use the state folder \(folder): "
                                            + "it belongs to user 65534, not to this user (0); the check that handed it over shows it itself"])
        XCTAssertEqual(try store(session).load().handedOver, [:], "the refused handover is taken back")
        usleep(300_000)
        XCTAssertTrue(run.process.isRunning, "the check waits for the answer")

        try session.invoke("view", on: try XCTUnwrap(shown["id"] as? Int))
        XCTAssertEqual(run.wait(seconds: 10), 0, run.errorOutput)
        let state = try store(session).load()
        XCTAssertEqual(state.viewed, [key])
        XCTAssertEqual(state.handedOver, [:])
        XCTAssertEqual(state.presenting, [:])
        XCTAssertTrue(eventually(within: 5) { session.openedLinks == [link] }, "\(session.openedLinks)")
    }
}
