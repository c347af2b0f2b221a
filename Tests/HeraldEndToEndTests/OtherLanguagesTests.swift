import Foundation
import HeraldTestSupport
import XCTest

/// The examples in `desktop/examples` for apps written in Python and C: each starts
/// `herald check --json` as a child process, reads its event lines on the app's GLib main loop
/// and reacts to them, against a private session bus, python3-dbusmock's notification server
/// and a loopback feed with one message.
final class OtherLanguagesTests: XCTestCase {
    let appID = "org.example.OtherLanguage"
    let key = "2024/01/10"
    let feed = Fixtures.xmlFeed(["2024/01/10": ["Title": "A tip", "Message": "Plain text", "ActionURL": "https://example.com/tip"]])
    /// The mock server numbers a session's notifications from 1, and the feed has one message.
    let notificationID = 1

    // MARK: Python (PyGObject)

    func testPythonAppSeesShownWhileHeraldWaitsThenTheAnswerHeraldRecordedAndItsExitStatus() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let app = try startApp(pythonExample(), in: session, feed: server.url("feed.plist"))
        try assertAnswerReachesTheApp(app, action: "view", in: session)
        XCTAssertEqual(try session.state(appID: appID)["viewed"] as? [String], [key])
        XCTAssertEqual(session.openedLinks, ["https://example.com/tip"], "herald opens the link itself")
    }

    func testQuittingThePythonAppStopsHeraldWhichClosesItsNotificationAndRecordsNothing() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let app = try startApp(pythonExample(), in: session, feed: server.url("feed.plist"))
        try assertQuittingClosesTheNotification(app, in: session)
    }

    func testHeraldOutlivesAnAppThatQuitsWithoutStoppingItRecordsTheAnswerAndExits() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let app = try startApp(pythonExample(), in: session, feed: server.url("feed.plist"))
        XCTAssertTrue(eventually { app.output == "shown \(key)\n" }, "\(app.output)\(app.errorOutput)")
        let presenting = try session.state(appID: appID)["presenting"] as? [String: [String: Any]]
        let herald = try XCTUnwrap(presenting?[key]?["processID"] as? Int, "\(String(describing: presenting))")
        app.signal(SIGKILL)
        app.wait()
        XCTAssertFalse(hasEnded(herald), "herald carries on without the app")
        try session.invoke("view", on: notificationID)
        XCTAssertTrue(eventually { (try? session.state(appID: appID)["viewed"] as? [String]) == [key] }, "herald records the answer with no one reading its events")
        XCTAssertTrue(eventually { session.openedLinks == ["https://example.com/tip"] }, "\(session.openedLinks)")
        XCTAssertTrue(eventually { hasEnded(herald) }, "herald exits once nothing is left to answer, its last event line unread")
    }

    func testPythonAppHearsWhyTheCheckFailedAndHeraldsExitStatus() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let app = try startApp(pythonExample(), in: session, feed: server.url("missing.plist"))
        assertFetchFailureReachesTheApp(app)
    }

    // MARK: C (GSubprocess and json-glib)

    func testCAppSeesShownWhileHeraldWaitsThenTheAnswerHeraldRecordedAndItsExitStatus() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let app = try startApp(try cExample(builtIn: session.directory), in: session, feed: server.url("feed.plist"))
        try assertAnswerReachesTheApp(app, action: "ignore", in: session)
        XCTAssertEqual(try session.state(appID: appID)["ignored"] as? [String], [key])
        XCTAssertEqual(session.openedLinks, [], "only view opens the link")
    }

    func testQuittingTheCAppStopsHeraldWhichClosesItsNotificationAndRecordsNothing() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let app = try startApp(try cExample(builtIn: session.directory), in: session, feed: server.url("feed.plist"))
        try assertQuittingClosesTheNotification(app, in: session)
    }

    func testCAppHearsWhyTheCheckFailedAndHeraldsExitStatus() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let app = try startApp(try cExample(builtIn: session.directory), in: session, feed: server.url("missing.plist"))
        assertFetchFailureReachesTheApp(app)
    }

    // MARK: The rules, the same for every language

    /// The app prints "shown" while herald still waits for the answer (its own loop runs), then
    /// the answer clicked in the notification server, then herald's exit status.
    func assertAnswerReachesTheApp(_ app: ChildProcess, action: String, in session: DesktopSession,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(eventually { app.output == "shown \(key)\n" }, "\(app.output)\(app.errorOutput)", file: file, line: line)
        try session.invoke(action, on: notificationID)
        XCTAssertEqual(app.wait(), 0, app.errorOutput, file: file, line: line)
        XCTAssertEqual(app.output, "shown \(key)\nanswered \(key) \(action)\nherald exited with status 0\n", app.errorOutput, file: file, line: line)
    }

    /// SIGTERM to the app (it is quitting) reaches herald, which closes what it shows, releases
    /// the message for the next check, and exits 143 (128 + SIGTERM); the app reads its events to the end.
    func assertQuittingClosesTheNotification(_ app: ChildProcess, in session: DesktopSession,
                                             file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(eventually { app.output == "shown \(key)\n" }, "\(app.output)\(app.errorOutput)", file: file, line: line)
        app.signal(SIGTERM)
        XCTAssertTrue(eventually(within: 5) { !app.process.isRunning }, "herald stops now, not at the end of its wait", file: file, line: line)
        XCTAssertEqual(app.wait(), 0, app.errorOutput, file: file, line: line)
        XCTAssertEqual(app.output, "shown \(key)\nclosed \(key) closed-by-herald\nherald exited with status 143\n", app.errorOutput, file: file, line: line)
        let closed = try session.serverCalls().filter { $0.method == "CloseNotification" }.compactMap { $0.args.first as? Int }
        XCTAssertEqual(closed, [notificationID], "no notification is left with dead buttons", file: file, line: line)
        let state = try session.state(appID: appID)
        XCTAssertEqual(state["viewed"] as? [String], [], file: file, line: line)
        XCTAssertEqual(state["ignored"] as? [String], [], file: file, line: line)
        XCTAssertEqual((state["presenting"] as? [String: Any])?.count, 0, file: file, line: line)
    }

    /// A feed that cannot be fetched: the app hears the failure's kind and exit status 75, and
    /// nothing was shown.
    func assertFetchFailureReachesTheApp(_ app: ChildProcess, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(app.wait(), 0, app.errorOutput, file: file, line: line)
        XCTAssertEqual(app.output, "failed fetch\nherald exited with status 75\n", app.errorOutput, file: file, line: line)
    }

    /// Whether a process that is not this one's child has exited: gone, or a zombie its new
    /// parent has not reaped yet.
    func hasEnded(_ pid: Int) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return true }
        return stat[afterName.upperBound...].hasPrefix("Z")
    }

    // MARK: Starting the examples

    /// Starts an example against `url`, with the built herald, as an app's first launch that
    /// shows what is due at once.
    func startApp(_ command: [String], in session: DesktopSession, feed url: String) throws -> ChildProcess {
        let arguments = Array(command.dropFirst()) + [
            "--herald", TestPaths.herald, "--feed", url, "--app-id", appID, "--app-version", "1.0",
            "--", "--show-on-first-launch", "--wait", "20",
        ]
        let app = try ChildProcess(command[0], arguments, environment: session.environment, directory: session.directory, name: "app")
        // On a failed assertion the app quits like any other: SIGTERM, which it passes to herald.
        addTeardownBlock { app.stop() }
        return app
    }

    func pythonExample() -> [String] {
        ["/usr/bin/python3", TestPaths.packageRoot.appendingPathComponent("desktop/examples/python/herald_at_startup.py").path]
    }

    /// Builds the C example with the command its header gives, warnings as errors.
    func cExample(builtIn directory: URL) throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gcc") else {
            throw XCTSkip("gcc is not installed, so the C example cannot be built (Debian: gcc)")
        }
        let packages = ["gio-2.0", "json-glib-1.0"]
        let environment = ProcessInfo.processInfo.environment
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pkg-config"),
              try runToCompletion("/usr/bin/pkg-config", ["--exists"] + packages, environment: environment).status == 0 else {
            throw XCTSkip("pkg-config does not find gio-2.0 and json-glib-1.0, so the C example cannot be built (Debian: pkg-config, libglib2.0-dev, libjson-glib-dev)")
        }
        let flags = try runToCompletion("/usr/bin/pkg-config", ["--cflags", "--libs"] + packages, environment: environment).output
            .split(whereSeparator: \.isWhitespace).map(String.init)
        let source = TestPaths.packageRoot.appendingPathComponent("desktop/examples/c/herald_at_startup.c").path
        let program = directory.appendingPathComponent("herald_at_startup").path
        let build = try runToCompletion("/usr/bin/gcc", ["-Wall", "-Wextra", "-Werror", "-o", program, source] + flags, environment: environment)
        guard build.status == 0 else { throw TestSetupError("the C example did not build (gcc's messages are above)") }
        return [program]
    }
}
