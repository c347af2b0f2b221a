import Foundation
import HeraldTestSupport
import XCTest

/// The inbox window, herald-inbox (org.herald.Inbox), built and run on a private X display
/// (Xvfb) and session bus: it shows every app's messages with where each stands, in text that
/// tesseract reads off the screen; a view given in it is recorded in the app's state and opens
/// the link; its switches write the person's key file as `herald mute` does, and what the
/// administrator set is greyed. The window's answers and switches are its application's
/// actions, activated here over D-Bus (org.gtk.Actions), which is what its buttons and switches
/// activate.
final class InboxWindowTests: XCTestCase {
    let editor = "org.example.Editor"
    let maps = "org.example.Maps"

    /// Moments `days` ago, whole seconds, and as the inbox writes them.
    func moment(daysAgo days: Double) -> (date: Date, text: String) {
        let date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - days * 86_400).rounded(.down))
        let formatter = ISO8601DateFormatter()
        return (date, formatter.string(from: date))
    }

    /// An inbox of two apps: a message with a link not shown yet, a survey (muted below), a
    /// withdrawn promotion and, for the other app, a tip.
    func writeInbox(_ session: DesktopSession) throws {
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald/inbox"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let inbox = """
            {"apps": {
              "\(editor)": {
                "2026/11/20": {"title": "Version 3 is out", "message": "Tabs, a dark theme & faster search.", "link": "https://example.com/v3",
                               "button": "Read more", "category": "announcement", "reached": "\(moment(daysAgo: 1).text)"},
                "2026/11/10": {"title": "Tell us what you think", "message": "A two-minute survey.", "category": "survey",
                               "reached": "\(moment(daysAgo: 3).text)"},
                "2026/10/01": {"title": "Old sale", "message": "Half price <b>today</b>.", "category": "promotion",
                               "reached": "\(moment(daysAgo: 9).text)", "withdrawn": "\(withdrawn.text)"}
              },
              "\(maps)": {
                "2026/11/25": {"title": "Offline maps", "message": "Download a region before you travel.", "category": "tip",
                               "reached": "\(moment(daysAgo: 2).text)"}
              }}}
            """
        try Data(inbox.utf8).write(to: URL(fileURLWithPath: folder + "/inbox.json"))
    }

    lazy var withdrawn = moment(daysAgo: 5)

    /// Activates the running window's action `name` with a string parameter, over D-Bus.
    func activate(_ session: DesktopSession, _ name: String, _ parameter: String) throws {
        let call = try runToCompletion("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.herald.Inbox", "--object-path", "/org/herald/Inbox",
            "--method", "org.gtk.Actions.Activate", name, "[<'\(parameter)'>]", "{}",
        ], environment: session.environment)
        XCTAssertEqual(call.output, "()\n", "\(name) \(parameter)")
        XCTAssertEqual(call.status, 0, "\(name) \(parameter)")
    }

    /// Starts the window as a person does from a terminal, `herald inbox --window` (which
    /// becomes the herald-inbox beside it), and waits until it is on the screen and registered
    /// on the bus.
    func startWindow(_ session: DesktopSession) throws -> ChildProcess {
        let window = try ChildProcess(TestPaths.herald, ["inbox", "--window"], environment: session.environment,
                                      directory: session.directory, name: "inbox")
        XCTAssertTrue(eventually(within: 20) { (try? session.windows(named: "^Messages from Apps$").isEmpty) == false },
                      "the window appears: " + window.errorOutput)
        XCTAssertTrue(eventually(within: 20) {
            (try? runToCompletion("/usr/bin/gdbus", ["introspect", "--session", "--dest", "org.herald.Inbox", "--object-path", "/org/herald/Inbox"],
                                  environment: session.environment).status) == 0
        }, "the window's application is on the bus")
        return window
    }

    /// The window's text as tesseract reads it, once the screen is still: the window's part of
    /// the screen in black and white, four times larger, read as one block (libadwaita's grey
    /// subtitles are lost in desktop_matrix.py's greyscale reading of a whole screen).
    func screenText(_ session: DesktopSession, _ name: String) throws -> String {
        // Still screens come before GTK's first frame too (a black screen is still): read until
        // the window's title is there.
        var text = ""
        _ = try eventually(within: 30) {
            text = try readScreen(session, name)
            return text.contains("Messages from Apps")
        }
        return text
    }

    private func readScreen(_ session: DesktopSession, _ name: String) throws -> String {
        let shot = try XCTUnwrap(try stillScreen(within: 15, environment: session.environment, folder: session.directory, name: name),
                                 "the screen settles")
        let window = "720x768+0+0"
        if let folder = ProcessInfo.processInfo.environment["HERALD_SCREENSHOTS"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let crop = try runToCompletion("/usr/bin/convert", [shot, "-crop", window, "+repage", folder + "/\(name).png"],
                                           environment: session.environment)
            XCTAssertEqual(crop.status, 0)
        }
        let big = session.directory.appendingPathComponent("\(name)-big.png").path
        let convert = try runToCompletion("/usr/bin/convert", [shot, "-crop", window, "+repage", "-colorspace", "Gray", "-resize", "400%",
                                                               "-threshold", "80%", big], environment: session.environment)
        XCTAssertEqual(convert.status, 0)
        let read = try runToCompletion("/usr/bin/tesseract", [big, "-", "--psm", "6"], environment: session.environment)
        XCTAssertEqual(read.status, 0)
        return ScreenText.normalize(read.output)
    }

    func testTheWindowShowsEachAppsMessagesWithTheirStateAndRecordsAView() throws {
        let session = try DesktopSession(server: .none, display: true)
        defer { session.stop() }
        try writeInbox(session)
        XCTAssertEqual(try session.run(["mute", "--category", "survey", "--app-id", editor]).status, 0)
        let window = try startWindow(session)
        defer { window.stop() }

        let before = try screenText(session, "inbox-window")
        for text in ["Messages from Apps", editor, "Version 3 is out", "a dark theme & faster search", "Read more",
                     "Tell us what you think", "Its category is muted by the person", "Old sale", "Withdrawn by its publisher",
                     maps, "Offline maps", "Not shown yet"] {
            XCTAssertTrue(before.contains(ScreenText.normalize(text)), "“\(text)” is on the screen:\n\(before)")
        }

        try activate(session, "view", "\(editor) 2026/11/20")
        XCTAssertTrue(eventually { session.openedLinks == ["https://example.com/v3"] }, "the link is opened: \(session.openedLinks)")
        XCTAssertEqual(try session.state(appID: editor)["viewed"] as? [String], ["2026/11/20"])
        var after = ""
        XCTAssertTrue(try eventually(within: 30) {
            after = try screenText(session, "inbox-window-viewed")
            return after.contains("Viewed")
        }, "the window shows it viewed:\n\(after)")
        XCTAssertFalse(after.contains(ScreenText.normalize("Read more")), "a viewed message has no buttons:\n\(after)")

        // Viewed again (a second click, or the notification's button after the window's): recorded once.
        try activate(session, "view", "\(editor) 2026/11/20")
        XCTAssertEqual(try session.run(["inbox", "view", "2026/11/20", "--app-id", editor]).output,
                       "\(editor) 2026/11/20 was answered already: viewed; nothing recorded\n")
        XCTAssertEqual(session.openedLinks, ["https://example.com/v3"], "the link is opened once")
    }

    func testMutingACategoryInTheWindowWritesWhatHeraldMuteWrites() throws {
        let session = try DesktopSession(server: .none, display: true)
        defer { session.stop() }
        try writeInbox(session)
        let window = try startWindow(session)
        defer { window.stop() }
        let keyFile = session.userKeyFile
        try activate(session, "mute", "\(editor) promotion")
        try activate(session, "mute", "* survey")
        try activate(session, "budget", "per-day 2")
        XCTAssertTrue(eventually { ((try? String(contentsOf: keyFile, encoding: .utf8)) ?? "").contains("PerDay=2") })
        let byWindow = try String(contentsOf: keyFile, encoding: .utf8)

        try session.setBudgetOutOfTheWay()
        for command in [["mute", "--category", "promotion", "--app-id", editor], ["mute", "--category", "survey", "--all"],
                        ["budget", "--per-day", "2"]] {
            XCTAssertEqual(try session.run(command).status, 0, command.joined(separator: " "))
        }
        XCTAssertEqual(byWindow, try String(contentsOf: keyFile, encoding: .utf8), "the window and herald write the same file")

        // Unmuted in the window: the file is as herald unmute leaves the same file.
        let muted = try Data(contentsOf: keyFile)
        try activate(session, "unmute", "\(editor) promotion")
        let unmutedByWindow = try String(contentsOf: keyFile, encoding: .utf8)
        XCTAssertFalse(unmutedByWindow.contains("promotion"), unmutedByWindow)
        try muted.write(to: keyFile)
        XCTAssertEqual(try session.run(["unmute", "--category", "promotion", "--app-id", editor]).status, 0)
        XCTAssertEqual(unmutedByWindow, try String(contentsOf: keyFile, encoding: .utf8))
    }

    /// A real click (xdotool) on the switch of the row tesseract finds under an app's title.
    func testARealClickOnAnAppsMuteSwitchMutesIt() throws {
        let session = try DesktopSession(server: .none, display: true)
        defer { session.stop() }
        try writeInbox(session)
        let window = try startWindow(session)
        defer { window.stop() }
        var words: [[String: Any]] = []
        XCTAssertTrue(try eventually(within: 30) {
            let shot = try XCTUnwrap(try stillScreen(within: 15, environment: session.environment, folder: session.directory, name: "switch"))
            let read = try runToCompletion("/usr/bin/python3", [TestPaths.support("desktop_matrix.py"), "ocr", shot], environment: session.environment)
            words = (try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: Any])?["words"] as? [[String: Any]] ?? []
            return words.contains { $0["text"] as? String == maps }
        }, "tesseract finds \(maps)")
        // The first "Mute" under the app's title is its "Mute this app" row; its switch is at the
        // row's right end, where the window's 720-pixel column of rows ends.
        let title = try XCTUnwrap(words.first { $0["text"] as? String == maps })
        let row = try XCTUnwrap(words.first { $0["text"] as? String == "Mute" && ($0["y"] as? Int ?? 0) > (title["y"] as? Int ?? 0) })
        let y = (row["y"] as? Int ?? 0) + (row["h"] as? Int ?? 0) / 2
        try session.click(x: 598, y: y)
        XCTAssertTrue(eventually { ((try? String(contentsOf: session.userKeyFile, encoding: .utf8)) ?? "").contains("[app \(maps)]\nMuted=true") },
                      (try? String(contentsOf: session.userKeyFile, encoding: .utf8)) ?? "no key file")
    }

    func testAStopSignalClosesTheWindowWith128PlusTheSignal() throws {
        let session = try DesktopSession(server: .none, display: true)
        defer { session.stop() }
        let window = try startWindow(session)
        defer { window.stop() }
        kill(window.process.processIdentifier, SIGTERM)
        XCTAssertEqual(window.wait(seconds: 10), 128 + SIGTERM)
    }

    /// What the administrator set is greyed, with the file named; moments are written in the
    /// person's time zone, to the minute.
    func testWhatTheAdministratorSetIsGreyedWithItsFile() throws {
        let session = try DesktopSession(capabilities: nil)
        defer { session.stop() }
        try writeInbox(session)
        try session.useStandardBudget()
        try session.writeSystemKeyFile("[all]\nMutedCategories=promotion\n\n[budget]\nPerDay=0\nPerWeek=6\n")
        let system = session.systemKeyFile.path
        // In a time zone half an hour off UTC's hours, where the person reads the window.
        var environment = session.environment
        environment["TZ"] = "Asia/Kolkata"
        let dump = try runToCompletion(TestPaths.product("herald-inbox"), ["--dump"], environment: environment)
        XCTAssertEqual(dump.status, 0)
        let local = DateFormatter()
        (local.locale, local.timeZone, local.dateFormat) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "Asia/Kolkata"), "d MMM yyyy, HH:mm")
        func categories(muted: [String: String], prefix: String = "    ") -> String {
            ["announcements", "tips", "promotions", "security messages", "surveys"].map { name in
                guard let subtitle = muted[name] else { return "\(prefix)[ ] Mute \(name)\n" }
                return "\(prefix)[x] Mute \(name) (greyed): \(subtitle)\n"
            }.joined()
        }
        let lock = "Set by the administrator in \(system)"
        XCTAssertEqual(dump.output, """
            # \(editor)
              2026/11/20: Version 3 is out [Read more] [Ignore]
                Tabs, a dark theme & faster search.
                Announcement · Not shown yet: a coming check shows it
              2026/11/10: Tell us what you think [OK] [Ignore]
                A two-minute survey.
                Survey · Not shown yet: a coming check shows it
              2026/10/01: Old sale
                Half price <b>today</b>.
                Promotion · Withdrawn by its publisher \(local.string(from: withdrawn.date))
              [ ] Mute this app
              Mute a kind of message: 1 muted

            """ + categories(muted: ["promotions": lock]) + """
            # \(maps)
              2026/11/25: Offline maps [OK] [Ignore]
                Download a region before you travel.
                Tip · Not shown yet: a coming check shows it
              [ ] Mute this app
              Mute a kind of message: 1 muted

            """ + categories(muted: ["promotions": lock]) + """
            # Every app: Your switches for all the apps that use Herald
              Messages a day: 0 (0 to 0) (greyed): Every app together: capped by the administrator's file (\(system)); at most 0, set by the administrator in \(system)
              Messages a week: 6 (0 to 6): Every app together: capped by the administrator's file (\(system)); at most 6, set by the administrator in \(system)
              [ ] Mute every app
              Mute a kind of message: For every app

            """ + categories(muted: ["promotions": lock]))
    }

    /// Herald's own entry (the agent's, DBusActivatable) clicked where the desktop's list shows
    /// it: D-Bus starts the agent with `org.freedesktop.Application.Activate`, and the agent opens
    /// the inbox window.
    func testActivatingHeraldsAgentOpensTheInboxWindow() throws {
        let session = try DesktopSession(server: .none, bus: false, display: true)
        defer { session.stop() }
        try session.startBus(activating: "org.herald.Agent", command: TestPaths.agent + " --idle-exit 1")
        try writeInbox(session)
        let activate = try runToCompletion("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.herald.Agent", "--object-path", "/org/herald/Agent",
            "--method", "org.freedesktop.Application.Activate", "{}",
        ], environment: session.environment)
        XCTAssertEqual(activate.output, "()\n")
        XCTAssertEqual(activate.status, 0)
        XCTAssertTrue(eventually(within: 20) { (try? session.windows(named: "^Messages from Apps$").isEmpty) == false },
                      "the inbox window appears: " + session.busErrorOutput)
        XCTAssertEqual(try runToCompletion("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.herald.Inbox", "--object-path", "/org/herald/Inbox",
            "--method", "org.gtk.Actions.Activate", "ignore", "[<'\(maps) 2026/11/25'>]", "{}",
        ], environment: session.environment).status, 0)
        XCTAssertTrue(eventually { (try? session.state(appID: maps)["ignored"] as? [String]) == ["2026/11/25"] })
        // The window closes as a stop signal closes it.
        let window = try XCTUnwrap(processIDOwning("org.herald.Inbox", environment: session.environment))
        kill(window, SIGTERM)
        XCTAssertTrue(eventually { !processIsRunning(window) })
    }

    func testInboxWindowWithoutTheWindowInstalledSaysWhatToInstall() throws {
        let session = try DesktopSession(capabilities: nil)
        defer { session.stop() }
        let lone = session.directory.appendingPathComponent("lone")
        try FileManager.default.createDirectory(at: lone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.herald, toPath: lone.path + "/herald")
        let run = try runToEnd(lone.path + "/herald", ["inbox", "--window"], environment: session.environment)
        XCTAssertEqual(run.status, 69)
        XCTAssertEqual(run.output, "")
        XCTAssertEqual(run.errors, "herald: the inbox window is not installed (no \(lone.path)/herald-inbox or \(lone.path)/../bin/herald-inbox): "
                       + "install the herald-inbox package, or run desktop/install.sh\n")
        let both = try runToEnd(TestPaths.herald, ["inbox", "list", "--window", "--json"], environment: session.environment)
        XCTAssertEqual(both.status, 64)
        XCTAssertEqual(both.errors, "herald: --window opens the whole inbox: give it alone\nherald: see 'herald inbox list --help'\n")
    }

    func testTheMetainfoIsValidAndNamesTheDesktopEntry() throws {
        let metainfo = TestPaths.packageRoot.appendingPathComponent("desktop/org.herald.Inbox.metainfo.xml").path
        let validation = try runToEnd("/usr/bin/appstreamcli", ["validate", "--no-net", "--no-color", metainfo])
        XCTAssertEqual(validation.status, 0, validation.output + validation.errors)
        XCTAssertTrue(validation.output.hasSuffix("Validation was successful: pedantic: 1\n"), validation.output)
        XCTAssertTrue(try String(contentsOfFile: metainfo, encoding: .utf8).contains(
            "<launchable type=\"desktop-id\">org.herald.Inbox.desktop</launchable>"))
    }

    func testTheDesktopEntryIsValid() throws {
        let entry = TestPaths.packageRoot.appendingPathComponent("desktop/org.herald.Inbox.desktop").path
        let validation = try runToCompletion("/usr/bin/desktop-file-validate", [entry], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(validation.output, "")
        XCTAssertEqual(validation.status, 0)
    }
}
