import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// Herald in real notification servers on an X display (Xvfb): notification-daemon draws the
/// buttons and xdotool clicks them; dunst shows the notification; a GTK app runs the hook on its
/// own loop. With HERALD_SCREENSHOTS=DIR set, the screenshots are kept there.
final class DesktopIntegrationTests: XCTestCase {
    let appID = "org.example.Desktop"
    let feed = Fixtures.xmlFeed(["2026/11/01": [
        "Title": "Version 2 is out", "Message": "Faster sync and a dark theme.",
        "ActionURL": "https://example.com/v2", "ActionButton": "What's new",
    ]])

    /// Keeps part of the screen (by default the top, where the window and the bubbles are) as a
    /// picture for the docs, once the screen has settled: two screenshots in a row alike.
    func keepScreenshot(_ session: DesktopSession, _ name: String, region: String = "1024x180+0+0") throws {
        guard let folder = ProcessInfo.processInfo.environment["HERALD_SCREENSHOTS"] else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard let whole = try stillScreen(within: 5, environment: session.environment, folder: session.directory, name: "whole-\(name)") else {
            return XCTFail("the screen kept changing for 5 s")
        }
        let crop = try runToCompletion("/usr/bin/convert", [whole, "-crop", region, "+repage", folder + "/" + name], environment: session.environment)
        XCTAssertEqual(crop.status, 0)
    }

    func shown(_ run: ChildProcess) -> Bool {
        eventually { run.output.contains("\"event\":\"shown\"") }
    }

    func testIgnoreClickedInARealNotificationServerIsRememberedAndNeverReturns() throws {
        let session = try DesktopSession(server: .notificationDaemon, display: true)
        let server = try session.serveFeed(feed)
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch", "--wait", "20"])
        XCTAssertTrue(shown(run), run.output + run.errorOutput)
        var bubble = try session.notificationBubble()
        XCTAssertTrue(eventually { (try? session.notificationBubble().buttons.count) == 3 }, "view, remind, ignore drawn as buttons")
        bubble = try session.notificationBubble()
        try keepScreenshot(session, "notification.png", region: "416x140+610+0")
        try session.click(x: bubble.buttons[2].x, y: bubble.buttons[2].y)
        XCTAssertEqual(run.wait(), 0)
        XCTAssertTrue(run.output.contains(#""action":"ignore""#), run.output)
        XCTAssertEqual(try session.state(appID: appID)["ignored"] as? [String], ["2026/11/01"])
        let again = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--force", "--wait", "2"])
        XCTAssertEqual(again.wait(), 0)
        XCTAssertTrue(again.output.contains(#""reason":"ignored""#), again.output)
        XCTAssertFalse(again.output.contains(#""event":"shown""#))
    }

    func testClickOnTheNotificationBodyIsViewAndOpensTheLink() throws {
        let session = try DesktopSession(server: .notificationDaemon, display: true)
        let server = try session.serveFeed(feed)
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch", "--wait", "20"])
        XCTAssertTrue(shown(run), run.output + run.errorOutput)
        XCTAssertTrue(eventually { (try? session.notificationBubble().buttons.count) == 3 })
        let bubble = try session.notificationBubble()
        try session.click(x: bubble.body.x, y: bubble.body.y)
        XCTAssertEqual(run.wait(), 0)
        XCTAssertTrue(run.output.contains(#""action":"view""#), run.output)
        XCTAssertTrue(eventually { session.openedLinks == ["https://example.com/v2"] })
        XCTAssertEqual(try session.state(appID: appID)["viewed"] as? [String], ["2026/11/01"])
    }

    func testDunstShowsTheMessageAndHeraldClosesItOnExit() throws {
        let session = try DesktopSession(server: .dunst, display: true)
        let server = try session.serveFeed(feed)
        func displayed() throws -> Int {
            Int(try runToCompletion("/usr/bin/dunstctl", ["count", "displayed"], environment: session.environment).output
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch", "--wait", "3"])
        XCTAssertTrue(shown(run), run.output + run.errorOutput)
        XCTAssertTrue(eventually { (try? displayed()) == 1 }, "dunst shows it")
        try keepScreenshot(session, "dunst.png")
        XCTAssertEqual(run.wait(), 0)
        XCTAssertTrue(run.output.contains(#""reason":"closed-by-herald""#), run.output)
        XCTAssertTrue(eventually { (try? displayed()) == 0 }, "no dead notification is left behind")
        XCTAssertEqual(try session.state(appID: appID)["viewed"] as? [String], [])
    }

    func testGtkAppRunsTheHookOnItsOwnLoopAndAClickChangesItsWindow() throws {
        let session = try DesktopSession(server: .notificationDaemon, display: true)
        let server = try session.serveFeed(feed)
        let app = try ChildProcess(TestPaths.product("herald-gtk-demo"), ["--feed", server.url("feed.plist"), "--app-id", appID],
                                   environment: session.environment, directory: session.directory, name: "gtk-demo")
        defer { app.stop() }
        XCTAssertTrue(eventually { (try? session.windows(named: "^Herald GTK demo$").isEmpty) == false }, "the window appears")
        XCTAssertTrue(eventually { app.output.contains("Showing: Version 2 is out") }, app.output + app.errorOutput)
        XCTAssertTrue(eventually { (try? session.notificationBubble().buttons.count) == 3 })
        try keepScreenshot(session, "gtk-demo-before.png")
        let bubble = try session.notificationBubble()
        try session.click(x: bubble.buttons[2].x, y: bubble.buttons[2].y)
        XCTAssertTrue(eventually { app.output.contains("You chose ignore: Version 2 is out") }, app.output)
        try keepScreenshot(session, "gtk-demo-after.png")
        XCTAssertEqual(try session.state(appID: appID)["ignored"] as? [String], ["2026/11/01"])
    }

    /// iNotify's custom interfaces, through Herald's presenter seam: the demo shows the message
    /// as a banner in its own window, a real click on its ignore button is recorded as a click
    /// on the notification's would be, and the desktop's notification server is never used.
    func testAMessageShownInTheAppsWindowIsAnsweredByAClickOnItsBanner() throws {
        let session = try DesktopSession(server: .mock("actions body"), display: true)
        let server = try session.serveFeed(feed)
        let app = try ChildProcess(TestPaths.product("herald-gtk-demo"), ["--feed", server.url("feed.plist"), "--app-id", appID, "--in-window"],
                                   environment: session.environment, directory: session.directory, name: "gtk-demo")
        defer { app.stop() }
        XCTAssertTrue(eventually { app.output.contains("Showing: Version 2 is out") }, app.output + app.errorOutput)
        XCTAssertEqual((try session.state(appID: appID)["presenting"] as? [String: Any])?.count, 1, "the banner holds the claim")
        XCTAssertTrue(eventually { (try? session.notificationBubble(window: "^Herald GTK demo$").buttons.count) == 3 },
                      "What's new, remind me later and ignore drawn in the window")
        try keepScreenshot(session, "gtk-demo-banner.png", region: "460x228+0+0")
        let banner = try session.notificationBubble(window: "^Herald GTK demo$")
        try session.click(x: banner.buttons[2].x, y: banner.buttons[2].y)
        XCTAssertTrue(eventually { app.output.contains("You chose ignore: Version 2 is out") }, app.output)
        XCTAssertEqual(try session.state(appID: appID)["ignored"] as? [String], ["2026/11/01"])
        XCTAssertEqual((try session.state(appID: appID)["presenting"] as? [String: Any])?.count, 0, "the claim goes with the answer")
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing went to the notification server")
        XCTAssertFalse(app.errorOutput.contains("CRITICAL"), app.errorOutput)
    }

    /// The demo's own "What's new" page (--whats-new opens it at start) lists the app's messages
    /// from `Herald.inbox()`: none before the first check, and, read again after the answer
    /// clicked in the server, the message the real check showed, with its text and where it
    /// stands now.
    func testTheGtkDemosWhatsNewPageListsTheAppsMessagesAndIsReadAgainAfterEachAnswer() throws {
        let session = try DesktopSession(server: .mock("actions body"), display: true)
        let server = try session.serveFeed(feed)
        let app = try ChildProcess(TestPaths.product("herald-gtk-demo"), ["--feed", server.url("feed.plist"), "--app-id", appID, "--whats-new"],
                                   environment: session.environment, directory: session.directory, name: "gtk-demo")
        defer { app.stop() }
        XCTAssertTrue(eventually { app.output.contains("Showing: Version 2 is out") }, app.output + app.errorOutput)
        XCTAssertTrue(eventually { (try? session.windows(named: "^What's new — Herald GTK demo$").isEmpty) == false }, "the page appears")
        try session.invoke("ignore", on: 1)
        let message = "  Version 2 is out — Faster sync and a dark theme. — "
        XCTAssertTrue(eventually { app.output.hasSuffix(message + "ignored\n") }, app.output + app.errorOutput)
        XCTAssertEqual(app.output, """
            What's new (0):
            Showing: Version 2 is out
            You chose ignore: Version 2 is out
            What's new (1):
            \(message)ignored

            """, app.errorOutput)
        try keepScreenshot(session, "gtk-demo-whats-new.png", region: "1024x400+0+0")
        // The page, on top of the demo's window at the screen's corner, as tesseract reads it.
        let shot = session.directory.appendingPathComponent("whats-new.png").path
        XCTAssertTrue(eventually {
            guard (try? session.screenshot(to: shot)) != nil,
                  let read = try? runToCompletion("/usr/bin/tesseract", [shot, "-", "--psm", "6"], environment: session.environment) else { return false }
            return read.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .starts(with: ["Version 2 is out", "Faster sync and a dark theme.", "ignored"])
        }, "the page draws the message's title, text and state")
        XCTAssertFalse(app.errorOutput.contains("CRITICAL"), app.errorOutput)
    }

    /// Closing the window while the bubble is up quits the app: its `shutdown` handler closes
    /// Herald's notification, and the delegate's line goes to a label that must still be alive
    /// (it once went to a freed GtkLabel: `gtk_label_set_text: assertion 'GTK_IS_LABEL (self)'`).
    /// The window is closed as a window manager closes it (WM_DELETE_WINDOW, see
    /// `Tests/support/close_window.py`); `xdotool windowclose` would destroy it instead.
    func testEveryStopSignalQuitsTheGtkDemoClosingWhatItShowedAndDroppingItsClaims() throws {
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let session = try DesktopSession(server: .mock("actions body"), display: true)
            let server = try session.serveFeed(feed)
            let app = try ChildProcess(TestPaths.product("herald-gtk-demo"), ["--feed", server.url("feed.plist"), "--app-id", appID],
                                       environment: session.environment, directory: session.directory, name: "gtk-demo")
            defer { app.stop() }
            XCTAssertTrue(eventually { app.output.contains("Showing: Version 2 is out") }, app.output + app.errorOutput)
            XCTAssertEqual(try session.notifyCalls().count, 1, "the demo showed its message")
            XCTAssertTrue(eventually { (try? session.state(appID: appID)["presenting"] as? [String: Any])?.count == 1 })
            app.signal(signal)
            XCTAssertEqual(app.wait(seconds: 10), 128 + signal, "signal \(signal): 128 + the signal, after the clean-up\n" + app.errorOutput)
            let closed = try session.serverCalls().filter { $0.method == "CloseNotification" }.compactMap { $0.args.first as? Int }
            XCTAssertEqual(closed.count, 1, "signal \(signal): the one notification it showed is closed, no dead buttons left")
            XCTAssertEqual((try session.state(appID: appID)["presenting"] as? [String: Any])?.count, 0, "signal \(signal): no stale claim")
            XCTAssertFalse(app.errorOutput.contains("CRITICAL"), app.errorOutput)
        }
    }

    func testClosingTheGtkDemoWindowWhileAMessageIsShownTouchesNoFreedWidget() throws {
        let session = try DesktopSession(server: .notificationDaemon, display: true)
        let server = try session.serveFeed(feed)
        // notification-daemon leaves a closed bubble painted on the screen (it does not withdraw
        // bubbles on CloseNotification), so what it says on the bus is the proof it let go.
        let bus = try ChildProcess("/usr/bin/dbus-monitor", ["--session", "interface='org.freedesktop.Notifications'"],
                                   environment: session.environment, directory: session.directory, name: "dbus-monitor")
        defer { bus.stop() }
        XCTAssertTrue(eventually { bus.output.contains("member=NameLost") }, "dbus-monitor is monitoring: \(bus.errorOutput)")
        let app = try ChildProcess(TestPaths.product("herald-gtk-demo"), ["--feed", server.url("feed.plist"), "--app-id", appID],
                                   environment: session.environment, directory: session.directory, name: "gtk-demo")
        defer { app.stop() }
        var windows: [String] = []
        XCTAssertTrue(eventually { windows = (try? session.windows(named: "^Herald GTK demo$")) ?? []; return !windows.isEmpty }, "the window appears")
        XCTAssertTrue(eventually { app.output.contains("Showing: Version 2 is out") }, app.output + app.errorOutput)
        let window = try XCTUnwrap(windows.first)

        let close = try runToCompletion("/usr/bin/python3", [TestPaths.support("close_window.py"), window], environment: session.environment)
        XCTAssertEqual(close.status, 0, close.output)
        XCTAssertEqual(app.wait(seconds: 10), 0, "the app quits by itself once its window is closed\n" + app.errorOutput)

        let lines = app.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.last, "Closed (closed-by-herald): Version 2 is out", app.output)
        XCTAssertFalse(app.errorOutput.contains("CRITICAL"), app.errorOutput)
        XCTAssertFalse(app.errorOutput.contains("WARNING"), app.errorOutput)

        let closed = #/member=CloseNotification\n\s+uint32 (\d+)/#
        let dropped = #/member=NotificationClosed\n\s+uint32 (\d+)\n\s+uint32 3\n/#
        var traffic = bus.output
        XCTAssertTrue(eventually { traffic = bus.output; return traffic.contains(dropped) }, "notification-daemon reports it closed (reason 3, by a call):\n\(traffic)")
        let requested = traffic.matches(of: closed).map { String($0.output.1) }
        let reported = traffic.matches(of: dropped).map { String($0.output.1) }
        XCTAssertFalse(requested.isEmpty, traffic)
        XCTAssertEqual(Set(reported), Set(requested), "the notification the demo closed is the one the daemon dropped")
    }
}

/// The login entry older versions wrote and the launcher entry, as a session manager and a shell
/// use them, and the registration `herald autostart enable` moves a login entry into.
final class DesktopEntryEndToEndTests: XCTestCase {
    let appID = "org.example.Login"

    func testALoginEntryFromBeforeRunsItsCheckUntilEnableMovesItIntoARegistration() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "At login"]]))
        // As `herald autostart enable` wrote it before registrations.
        let path = session.environment["XDG_CONFIG_HOME"]! + "/autostart/\(appID).herald.desktop"
        let exec = [TestPaths.herald, "check", "--feed", server.url("feed.plist"), "--app-id", appID, "--app-name", "Login test",
                    "--start-delay", "1", "--show-on-first-launch", "--wait", "1", "--json"]
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try DesktopEntry(fields: [
            ("Type", "Application"), ("Name", "Login test messages"), ("Exec", DesktopEntry.exec(exec)), ("Icon", "org.herald.Herald"),
            ("Terminal", "false"), ("NoDisplay", "true"), ("X-GNOME-Autostart-enabled", "true"), ("X-Herald-AppID", appID),
        ]).text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try runToCompletion("/usr/bin/desktop-file-validate", [path], environment: session.environment).status, 0)
        XCTAssertEqual(try session.run(["autostart", "status", "--app-id", appID]), ToolRun(status: 0, output: """
            runs a check of its own at login: \(path); 'herald autostart enable --app-id \(appID)' moves it to a registration
            runs: \(DesktopEntry.exec(exec))

            """))

        let command = DesktopEntry.arguments(ofExec: try XCTUnwrap(DesktopEntry.parse(try String(contentsOfFile: path, encoding: .utf8))["Exec"]))
        XCTAssertEqual(command, exec)
        let login = try ChildProcess(command[0], Array(command.dropFirst()), environment: session.environment, directory: session.directory, name: "login")
        XCTAssertEqual(login.wait(seconds: 30), 0, login.errorOutput)
        XCTAssertTrue(login.output.contains(#""event":"shown""#), login.output)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["At login"])

        let registration = session.environment["XDG_DATA_HOME"]! + "/herald/apps/\(appID).conf"
        XCTAssertEqual(try session.run(["autostart", "enable", "--app-id", appID, "--feed", server.url("feed.plist"), "--wait", "5"]), ToolRun(status: 0, output: """
            registered: \(registration)
            moved: removed the login entry \(path); its options are kept where this command gives none

            """))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try String(contentsOfFile: registration, encoding: .utf8), """
            [Herald]
            Feed=\(server.url("feed.plist"))
            Name=Login test
            ShowOnFirstLaunch=true
            Wait=5

            """, "the entry's start delay and --json are a login check's own, not a registration's")
        XCTAssertEqual(try session.run(["autostart", "status", "--app-id", appID]), ToolRun(status: 0, output: "registered: \(registration)\n"))
        XCTAssertEqual(try session.run(["autostart", "disable", "--app-id", appID]), ToolRun(status: 0, output: "disabled: removed \(registration)\n"))
        XCTAssertEqual(try session.run(["autostart", "status", "--app-id", appID]), ToolRun(status: 0, output: """
            off: not registered (no \(registration)), and no login entry (no \(path))

            """))
    }

    func testTheShippedExampleLoginEntryMovesIntoTheShippedExampleRegistration() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let path = session.environment["XDG_CONFIG_HOME"]! + "/autostart/org.herald.GtkDemo.herald.desktop"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.packageRoot.appendingPathComponent("desktop/org.herald.GtkDemo.herald.desktop").path, toPath: path)
        let registration = session.environment["XDG_DATA_HOME"]! + "/herald/apps/org.herald.GtkDemo.conf"
        XCTAssertEqual(try session.run(["autostart", "enable", "--app-id", "org.herald.GtkDemo", "--feed", "https://example.org/herald/feed.plist"]),
                       ToolRun(status: 0, output: """
                        registered: \(registration)
                        moved: removed the login entry \(path); its options are kept where this command gives none

                        """))
        XCTAssertEqual(try String(contentsOfFile: registration, encoding: .utf8),
                       try String(contentsOfFile: TestPaths.packageRoot.appendingPathComponent("desktop/org.herald.GtkDemo.conf").path, encoding: .utf8))
        XCTAssertEqual(try session.run(["apps", "--json"], environment: ["XDG_DATA_DIRS": session.directory.path + "/no-packages"]), ToolRun(status: 0, output: """
            {"app":"org.herald.GtkDemo","feed":"https://example.org/herald/feed.plist","file":"\(registration)","kind":"app","version":null,"versionFrom":null}

            """))
    }

    func testDesktopEntriesPassValidation() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("desktop")
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".desktop") }.map { folder.appendingPathComponent($0).path }
        XCTAssertEqual(entries.map { ($0 as NSString).lastPathComponent }.sorted(),
                       ["org.herald.Agent.desktop", "org.herald.GtkDemo.desktop", "org.herald.GtkDemo.herald.desktop", "org.herald.Inbox.desktop"])
        let result = try runToCompletion("/usr/bin/desktop-file-validate", entries, environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testLauncherActionsRunTheMatchingHeraldCommands() throws {
        let session = try DesktopSession()
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("desktop/org.herald.GtkDemo.desktop"), encoding: .utf8)
        let actions = text.components(separatedBy: "[Desktop Action ").dropFirst().map { DesktopEntry.parse("[Desktop Entry]\n" + $0.drop { $0 != "\n" }) }
        XCTAssertEqual(actions.compactMap { $0["Name"] }, ["Check for messages now", "Show all messages"])
        var shownCounts: [Int] = []
        for action in actions {
            let command = DesktopEntry.arguments(ofExec: try XCTUnwrap(action["Exec"]))
            XCTAssertEqual(command.first, "herald")
            let run = try session.herald(Array(command.dropFirst()) + ["--json", "--wait", "0.5"])
            XCTAssertEqual(run.wait(), 0, run.errorOutput)
            shownCounts.append(run.events.filter { $0["event"] as? String == "shown" }.count)
        }
        XCTAssertEqual(shownCounts, [3, 3])
    }
}

/// `desktop/install.sh` and `desktop/uninstall.sh`, into a temporary prefix.
final class InstallTests: XCTestCase {
    func testInstallPutsSelfContainedProgramsEntriesAndIconsInThePrefixAndUninstallRemovesThem() throws {
        let prefix = try Fixtures.temporaryDirectory("herald-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_BUILD_DIR"] = TestPaths.packageRoot.appendingPathComponent(".build-release").path
        let install = try runToCompletion("/bin/bash", [TestPaths.packageRoot.appendingPathComponent("desktop/install.sh").path, "--prefix", prefix.path],
                                          environment: environment)
        XCTAssertEqual(install.status, 0, install.output)
        let manifest = try String(contentsOfFile: prefix.path + "/share/herald/installed-files", encoding: .utf8).split(separator: "\n").map(String.init)
        for relative in ["bin/herald", "bin/herald-gtk-demo", "share/applications/org.herald.GtkDemo.desktop",
                         "bin/herald-inbox", "share/applications/org.herald.Inbox.desktop", "share/icons/hicolor/scalable/apps/org.herald.Inbox.svg",
                         "share/metainfo/org.herald.Inbox.metainfo.xml",
                         "share/icons/hicolor/scalable/apps/org.herald.Herald.svg", "share/icons/hicolor/48x48/apps/org.herald.Herald.png"] {
            XCTAssertTrue(manifest.contains(prefix.path + "/" + relative), relative)
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.path + "/" + relative), relative)
        }
        let libraries = try runToCompletion("/usr/bin/ldd", [prefix.path + "/bin/herald"], environment: environment).output
        XCTAssertFalse(libraries.contains("libswift"), "runs without a Swift toolchain:\n\(libraries)")
        XCTAssertFalse(libraries.contains("libFoundation"), libraries)
        XCTAssertEqual(try runToCompletion(prefix.path + "/bin/herald", ["--help"], environment: ["PATH": "/usr/bin:/bin"]).status, 0)
        let entry = prefix.path + "/share/applications/org.herald.GtkDemo.desktop"
        XCTAssertEqual(try runToCompletion("/usr/bin/desktop-file-validate", [entry], environment: environment).status, 0)
        XCTAssertTrue(try String(contentsOfFile: entry, encoding: .utf8).contains("Exec=\(prefix.path)/bin/herald demo --app-id org.herald.GtkDemo\n"))
        let inboxEntry = prefix.path + "/share/applications/org.herald.Inbox.desktop"
        let inboxValidation = try runToCompletion("/usr/bin/desktop-file-validate", [inboxEntry], environment: environment)
        XCTAssertEqual(inboxValidation.output, "")
        XCTAssertEqual(inboxValidation.status, 0)
        XCTAssertTrue(try String(contentsOfFile: inboxEntry, encoding: .utf8).contains("\nExec=\(prefix.path)/bin/herald-inbox\n"))

        let uninstall = try runToCompletion("/bin/bash", [TestPaths.packageRoot.appendingPathComponent("desktop/uninstall.sh").path, "--prefix", prefix.path],
                                            environment: environment)
        XCTAssertEqual(uninstall.status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: prefix.path), [], "nothing is left behind")
    }
}
