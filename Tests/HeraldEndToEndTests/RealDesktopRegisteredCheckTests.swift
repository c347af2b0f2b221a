import Foundation
import HeraldTestSupport
import XCTest

/// `herald check --registered` on the real servers (../shared/DESKTOPS.md), on a private session
/// bus that starts the Herald agent from the package's own service file: one process checks
/// three registered apps, hands each app's message over where the desktop keeps it (GNOME
/// Shell's list; the agent on Plasma) and exits at once, leaving no Herald process but the agent.
final class RealDesktopRegisteredCheckTests: XCTestCase {
    let apps = ["org.example.RegisteredA", "org.example.RegisteredB", "org.example.RegisteredC"]
    let agentName = "org.herald.Agent"

    /// The key of `app`'s one message.
    func key(of app: String) -> String { "2026/11/2\(apps.firstIndex(of: app)! + 1)" }

    /// The server on a desktop of its own whose bus can start the agent, with the three apps
    /// registered in the person's data folder, each with a feed of one message on a loopback
    /// server; skipped when a program is missing.
    func registeredDesktop(_ server: RealServer) throws -> RealDesktop {
        let desktop = try startRealDesktop(server, agent: true)
        let feeds = try FeedServer(directory: desktop.directory.appendingPathComponent("feeds"))
        addTeardownBlock { feeds.stop() }
        let folder = desktop.environment["XDG_DATA_HOME"]! + "/herald/apps"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for app in apps {
            try feeds.publish("\(app).plist", Fixtures.xmlFeed([key(of: app): ["Title": "News of \(app.dropFirst(12))", "Message": "One message."]]))
            try "[Herald]\nFeed=\(feeds.url("\(app).plist"))\nVersion=1\nShowOnFirstLaunch=true\n"
                .write(toFile: folder + "/\(app).conf", atomically: true, encoding: .utf8)
        }
        return desktop
    }

    /// Runs `herald check --registered --json --start-delay 0` to its end (at most 60 s) and
    /// asserts that it exited 0 within 10 s, having handed each app's message over to `place`.
    func runRegistered(on desktop: RealDesktop, handedOverTo place: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let started = Date()
        let run = try desktop.herald(["check", "--registered", "--json", "--start-delay", "0"], name: "herald-registered")
        run.wait(seconds: 60)
        XCTAssertEqual(run.process.terminationStatus, 0, run.errorOutput, file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the run waits for nothing it handed over", file: file, line: line)
        let shown = run.events.filter { $0["event"] as? String == "shown" }
            .map { "\($0["app"] as? String ?? "?") \($0["key"] as? String ?? "?") \($0["handedOver"] as? String ?? "-")" }
        XCTAssertEqual(shown.sorted(), apps.map { "\($0) \(key(of: $0)) \(place)" }, run.output, file: file, line: line)
    }

    func testOnGnomeShellOneRunHandsEveryRegisteredAppsMessageToTheShellsListAndExits() throws {
        let desktop = try registeredDesktop(.gnomeShell)
        let mark = desktop.mark()
        try runRegistered(on: desktop, handedOverTo: "desktop-list")
        XCTAssertEqual(desktop.calls("org.gtk.Notifications", "AddNotification", since: mark).count, 3)
        XCTAssertEqual(desktop.notifyCalls(since: mark).count, 0, "nothing went to the freedesktop server")
        XCTAssertEqual(try desktop.storedShellNotifications().map { "\($0["app"] ?? "?") \($0["id"] ?? "?")" }.sorted(),
                       apps.map { "\(agentName) \($0) \(key(of: $0))" }, "the shell stored each as the agent's")
        XCTAssertEqual(desktop.heraldProcesses(), [], "no herald process is left after the run")
        XCTAssertNil(desktop.ownerProcessID(of: agentName), "no agent runs before a click")
    }

    func testOnPlasmaOneRunHandsEveryRegisteredAppsMessageToTheAgentWhichShowsThemAfterTheRunExits() throws {
        let desktop = try registeredDesktop(.plasma)
        let mark = desktop.mark()
        try runRegistered(on: desktop, handedOverTo: "agent")
        let agent = try XCTUnwrap(desktop.ownerProcessID(of: agentName), "the agent runs")
        XCTAssertTrue(startedBySessionBus(agent), "the bus started the agent")
        XCTAssertTrue(eventually(within: 10) { desktop.notifyCalls(since: mark).count == 3 }, "the agent shows the three")
        let senders = desktop.calls("org.freedesktop.Notifications", "Notify", since: mark)
            .map { ($0["sender"] as? String).flatMap { processIDOwning($0, environment: desktop.environment) } }
        XCTAssertEqual(senders, [agent, agent, agent], "the agent, not the run, asked the server to show them")
        XCTAssertEqual(desktop.heraldProcesses().filter { $0 != agent }, [], "the run has gone: no herald process but the agent")
        // What Plasma draws of a popup the agent holds is read off the screen by
        // RealDesktopHandoverTests; of three stacked at once, tesseract reads two reliably.
        let drawn = try desktop.drawnText(within: 15) { $0.normalized.contains("News of RegisteredA") }
        XCTAssertTrue(drawn?.text.normalized.contains("News of RegisteredA") ?? false, "Plasma draws them: \(drawn?.text.normalized ?? "nothing")")
    }
}
