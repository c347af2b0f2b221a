import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// The check of every registered app as `desktop/install.sh` installs it: the systemd user units
/// `herald-check.timer` and `herald-check.service`, and the one login entry that runs the same
/// check in sessions without a systemd user manager.
final class RegisteredCheckTimerTests: XCTestCase {
    /// One installation into a temporary prefix, shared by the tests that only read it.
    private nonisolated(unsafe) static var installed: Result<Installation, Error>?

    /// A prefix install.sh installed into, and what it printed.
    private struct Installation {
        /// The prefix.
        let prefix: URL
        /// install.sh's standard output.
        let output: String

        /// The installed herald.
        var herald: String { prefix.path + "/bin/herald" }
        /// Where install.sh put the user units (a prefix other than /usr, /usr/local: share/systemd/user).
        var units: String { prefix.path + "/share/systemd/user" }
        /// Where it put the login entry (a prefix other than /usr, /usr/local and ~/.local: etc/xdg/autostart).
        var autostartEntry: String { prefix.path + "/etc/xdg/autostart/org.herald.CheckRegistered.desktop" }
    }

    /// The user's own install (`--prefix ~/.local`, the default): the units go where systemd
    /// looks for a user's units, the timer is enabled for the user (with no manager running, as
    /// at a first install over ssh), the login entry goes into the user's autostart folder; the
    /// uninstall disables the timer and takes all three away.
    func testInstallForTheUserEnablesTheTimerAndPutsTheLoginEntryInTheirAutostartFolderAndUninstallTakesThemAway() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemctl") else { throw XCTSkip("systemctl is not installed") }
        let home = try Fixtures.temporaryDirectory("herald-home")
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = Self.scriptEnvironment
        environment["HOME"] = home.path
        for name in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"] { environment[name] = nil }
        let prefix = home.path + "/.local"
        let install = try runToEnd("/bin/bash", [Self.script("install.sh"), "--prefix", prefix], environment: environment)
        XCTAssertEqual(install.status, 0, install.errors)
        XCTAssertFalse(install.output.contains("systemd does not look"), install.output)

        let timer = prefix + "/share/systemd/user/herald-check.timer"
        let service = prefix + "/share/systemd/user/herald-check.service"
        let entry = home.path + "/.config/autostart/org.herald.CheckRegistered.desktop"
        let link = home.path + "/.config/systemd/user/timers.target.wants/herald-check.timer"
        XCTAssertEqual(try Self.keys(ofSection: "Service", in: service)["ExecStart"], ["\(prefix)/bin/herald check --registered"])
        XCTAssertEqual(DesktopEntry.parse(try String(contentsOfFile: entry, encoding: .utf8))["Exec"],
                       "\(prefix)/bin/herald check --registered --start-delay 120 --unless-timer")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), timer, "enabled for the user")
        let manifest = try String(contentsOfFile: prefix + "/share/herald/installed-files", encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(manifest.filter { $0.contains("herald-check") || $0.contains("CheckRegistered") }, [timer, service, entry])

        let uninstall = try runToEnd("/bin/bash", [Self.script("uninstall.sh"), "--prefix", prefix], environment: environment)
        XCTAssertEqual(uninstall.status, 0, uninstall.errors)
        for path in [timer, service, entry] { XCTAssertFalse(FileManager.default.fileExists(atPath: path), path) }
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link), "the timer is disabled")
        // Folders only: the build that install.sh runs under this HOME makes one of its own there (share/bin).
        let left = try FileManager.default.subpathsOfDirectory(atPath: prefix).filter { path in
            var folder: ObjCBool = false
            return !FileManager.default.fileExists(atPath: prefix + "/" + path, isDirectory: &folder) || !folder.boolValue
        }
        XCTAssertEqual(left, [], "no file is left under the prefix")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.path + "/.config/autostart"), [],
                       "the user's autostart folder stays, without the entry")
    }

    /// A prefix systemd does not search: install.sh enables nothing and says how to link the
    /// units and where the login entry is.
    func testInstallIntoAPrefixSystemdDoesNotSearchSaysHowToLinkTheUnits() throws {
        let installation = try Self.installation()
        let advice = """

            systemd does not look for user units in \(installation.units): to have herald-check.timer check
            the registered apps at login and twice a day, link them for your user:
                systemctl --user link \(installation.units)/herald-check.timer \(installation.units)/herald-check.service
                systemctl --user enable herald-check.timer
            Sessions without systemd read the login entry in \(installation.prefix.path)/etc/xdg/autostart once
            XDG_CONFIG_DIRS names \(installation.prefix.path)/etc/xdg.

            """
        XCTAssertTrue(installation.output.contains(advice), installation.output)
    }

    /// `systemd-analyze --user verify` finds nothing to say of the installed units; the check can
    /// fail: a key misspelt in a copy is reported, and a service whose program is missing fails it.
    func testInstalledUnitsPassSystemdAnalyzeVerifyAndAMisspeltOrBrokenCopyDoesNot() throws {
        let installation = try Self.installation()
        let timer = installation.units + "/herald-check.timer", service = installation.units + "/herald-check.service"
        let verified = try Self.verify([timer, service])
        XCTAssertEqual(verified.status, 0, verified.errors)
        XCTAssertEqual(verified.output + verified.errors, "")

        let broken = try Fixtures.temporaryDirectory("herald-units")
        defer { try? FileManager.default.removeItem(at: broken) }
        let timerText = try String(contentsOfFile: timer, encoding: .utf8)
        let line = try XCTUnwrap(timerText.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("OnCalendar=") }) + 1
        try timerText.replacingOccurrences(of: "OnCalendar=", with: "OnCalender=")
            .write(to: broken.appendingPathComponent("herald-check.timer"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: service, toPath: broken.path + "/herald-check.service")
        let misspelt = try Self.verify([broken.path + "/herald-check.timer", broken.path + "/herald-check.service"])
        XCTAssertEqual(misspelt.output + misspelt.errors,
                       "\(broken.path)/herald-check.timer:\(line): Unknown key 'OnCalender' in section [Timer], ignoring.\n")

        let serviceText = try String(contentsOfFile: service, encoding: .utf8)
        try serviceText.replacingOccurrences(of: installation.herald, with: installation.prefix.path + "/bin/heral")
            .write(to: broken.appendingPathComponent("herald-check.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: timer, toPath: broken.path + "/herald-check.timer.good")
        try FileManager.default.removeItem(atPath: broken.path + "/herald-check.timer")
        try FileManager.default.moveItem(atPath: broken.path + "/herald-check.timer.good", toPath: broken.path + "/herald-check.timer")
        let missing = try Self.verify([broken.path + "/herald-check.timer", broken.path + "/herald-check.service"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.output + missing.errors,
                       "herald-check.service: Command \(installation.prefix.path)/bin/heral is not executable: No such file or directory\n")
    }

    /// The timer as documented (desktop/docs/administrators.md): two minutes after the user's
    /// manager starts, at 10:00 and 16:00 (two elapses a day, as `systemd-analyze calendar`
    /// reads the schedule), each run up to half an hour later at random, runs missed while the
    /// manager was not running made up, enabled by timers.target; the service is a one-shot run
    /// of the installed herald in the graphical session, in the background's priorities.
    func testTheTimerRunsTwoMinutesAfterLoginAndTwiceADaySpreadOverHalfAnHour() throws {
        let installation = try Self.installation()
        let timer = installation.units + "/herald-check.timer", service = installation.units + "/herald-check.service"
        XCTAssertEqual(try Self.keys(ofSection: "Timer", in: timer), [
            "OnStartupSec": ["2min"], "OnCalendar": ["*-*-* 10,16:00"], "RandomizedDelaySec": ["30min"], "Persistent": ["true"],
        ])
        XCTAssertEqual(try Self.keys(ofSection: "Install", in: timer), ["WantedBy": ["timers.target"]])
        XCTAssertEqual(try Self.keys(ofSection: "Unit", in: service), [
            "Description": ["Herald: check the feeds of the apps registered with Herald"], "Documentation": ["man:herald(1)"],
            "After": ["graphical-session.target"], "PartOf": ["graphical-session.target"],
        ])
        XCTAssertEqual(try Self.keys(ofSection: "Service", in: service), [
            "Type": ["oneshot"], "ExecCondition": [#"/bin/sh -c 'test -n "$${WAYLAND_DISPLAY}$${DISPLAY}"'"#], "ExecStart": ["\(installation.herald) check --registered"], "TimeoutStartSec": ["30min"],
            "Nice": ["10"], "IOSchedulingClass": ["idle"],
        ])

        let calendar = try runToEnd("/usr/bin/systemd-analyze", ["calendar", "--iterations", "5", "--base-time", "2026-11-29 08:00 UTC", "*-*-* 10,16:00"],
                                    environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"])
        XCTAssertEqual(calendar.status, 0, calendar.errors)
        let elapses = calendar.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("Next elapse:") || $0.hasPrefix("Iter. #") }.map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") }
        XCTAssertEqual(elapses, ["Sun 2026-11-29 10:00:00 UTC", "Sun 2026-11-29 16:00:00 UTC", "Mon 2026-11-30 10:00:00 UTC",
                                 "Mon 2026-11-30 16:00:00 UTC", "Tue 2026-12-01 10:00:00 UTC"], calendar.output)
    }

    /// The login entry, as installed: valid, skipped by systemd's xdg-autostart generator (the
    /// timer runs the check there), and running the installed herald's check of every
    /// registered app after a random start delay.
    func testTheLoginEntryIsValidLeftToTheTimerUnderSystemdAndRunsTheCheckOfEveryRegisteredApp() throws {
        let installation = try Self.installation()
        let validated = try runToEnd("/usr/bin/desktop-file-validate", [installation.autostartEntry], environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(validated.status, 0, validated.output)
        XCTAssertEqual(validated.output + validated.errors, "")
        let entry = DesktopEntry.parse(try String(contentsOfFile: installation.autostartEntry, encoding: .utf8))
        XCTAssertEqual(entry["X-systemd-skip"], "true")
        XCTAssertEqual(entry["NoDisplay"], "true")
        XCTAssertEqual(DesktopEntry.arguments(ofExec: try XCTUnwrap(entry["Exec"])),
                       [installation.herald, "check", "--registered", "--start-delay", "120", "--unless-timer"])

        // systemd's own generator, run on the folder as a session's XDG_CONFIG_DIRS: no unit for this entry.
        let generated = try Fixtures.temporaryDirectory("herald-generated")
        defer { try? FileManager.default.removeItem(at: generated) }
        let generator = try runToEnd("/usr/lib/systemd/user-generators/systemd-xdg-autostart-generator",
                                     [generated.path, generated.path, generated.path],
                                     environment: ["PATH": "/usr/bin:/bin", "HOME": generated.path, "XDG_CONFIG_HOME": generated.path + "/config",
                                                   "XDG_CONFIG_DIRS": installation.prefix.path + "/etc/xdg"])
        XCTAssertEqual(generator.status, 0, generator.errors)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: generated.path), [], "no unit, no link to one")

        // Its command at a login, with the start delay cut to a second: both registered apps' messages.
        let session = try DesktopSession()
        defer { session.stop() }
        let feeds = try registerTwoApps(in: session)
        var command = DesktopEntry.arguments(ofExec: try XCTUnwrap(entry["Exec"]))
        command[try XCTUnwrap(command.firstIndex(of: "--start-delay")) + 1] = "1"
        let login = try ChildProcess(command[0], Array(command.dropFirst()), environment: session.environment,
                                     directory: session.directory, name: "login")
        XCTAssertEqual(login.wait(seconds: 60), 0, login.errorOutput)
        XCTAssertEqual(try session.notifyCalls().map(\.summary).sorted(), ["Alpha news", "Beta news"], login.output + login.errorOutput)
        withExtendedLifetime(feeds) {}
    }

    /// herald-check.service started by a systemd user manager (its own, in a private mount
    /// namespace) as the timer starts it, in a graphical session whose bus has the installed
    /// agent: it checks both registered apps and succeeds, their messages handed over to the
    /// agent, which shows them; a second start finds nothing due and shows nothing new; without
    /// a display in the environment the manager gives its services the run is skipped, not failed.
    func testTheServiceStartedBySystemdChecksEveryRegisteredAppOnceAndASecondRunShowsNothingNew() throws {
        let installation = try Self.installation()
        let session = try DesktopSession(server: .none, bus: false, display: true)
        defer { session.stop() }
        try session.startBus(activating: "org.herald.Agent", command: installation.prefix.path + "/libexec/herald-agent --idle-exit 1")
        try session.startMockServer(capabilities: "actions body body-markup")
        let feeds = try registerTwoApps(in: session)
        let manager = try UserServiceManager(session: session)
        defer { manager.stop() }
        let units = [installation.units + "/herald-check.timer", installation.units + "/herald-check.service"]
        XCTAssertEqual(try manager.systemctl(["link"] + units).status, 0)
        // What a graphical session gives the manager as it starts (dbus-update-activation-environment --systemd).
        XCTAssertEqual(try manager.systemctl(["set-environment", "DBUS_SESSION_BUS_ADDRESS=" + session.environment["DBUS_SESSION_BUS_ADDRESS"]!,
                                              "DISPLAY=" + session.environment["DISPLAY"]!]).status, 0)

        // Started, as at login: it keeps the service loaded, with what its last run left (systemd
        // forgets a unit nothing refers to once it has run). It elapses 2 minutes after the
        // manager started at the earliest, after this test.
        XCTAssertEqual(try manager.systemctl(["start", "herald-check.timer"]).status, 0)
        let timer = try manager.systemctl(["show", "herald-check.timer", "--property", "Unit,RandomizedDelayUSec,Persistent"])
        XCTAssertEqual(timer.output.split(separator: "\n").sorted(), ["Persistent=yes", "RandomizedDelayUSec=30min", "Unit=herald-check.service"],
                       "as systemd reads the timer")

        let first = try manager.systemctl(["start", "herald-check.service"])
        XCTAssertEqual(first.status, 0, first.errors)
        let firstRun = try manager.lastRun(of: "herald-check.service")
        XCTAssertEqual(firstRun.result, "success")
        XCTAssertEqual(firstRun.condition?.status, "exited 0", "a graphical session: \(firstRun)")
        XCTAssertEqual(firstRun.main?.status, "exited 0")
        XCTAssertTrue(eventually { (try? session.notifyCalls().count) == 2 }, session.notificationServerLog)
        XCTAssertEqual(try session.notifyCalls().map(\.summary).sorted(), ["Alpha news", "Beta news"])

        let second = try manager.systemctl(["start", "herald-check.service"])
        XCTAssertEqual(second.status, 0, second.errors)
        let secondRun = try manager.lastRun(of: "herald-check.service")
        XCTAssertEqual(secondRun.result, "success")
        XCTAssertEqual(secondRun.main?.status, "exited 0")
        XCTAssertNotEqual(secondRun.main?.pid, firstRun.main?.pid, "herald ran again")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(try session.notifyCalls().count, 2, "nothing new")

        XCTAssertEqual(try manager.systemctl(["unset-environment", "DISPLAY"]).status, 0, "as at the session's end")
        XCTAssertEqual(try manager.systemctl(["start", "herald-check.service"]).status, 0, "outside a graphical session the run is skipped, not failed")
        let skipped = try manager.lastRun(of: "herald-check.service")
        XCTAssertEqual(skipped.result, "exec-condition", "skipped by its condition, not failed")
        XCTAssertEqual(skipped.condition?.status, "exited 1", "no display")
        XCTAssertEqual(skipped.main?.pid, "0", "herald did not run")
        XCTAssertEqual(manager.stop(), [], "the manager's exit ends every process it started, within its 20 seconds")
        withExtendedLifetime(feeds) {}
    }

    /// A session manager that runs login entries itself beside a systemd user manager (Xfce)
    /// runs the login entry too. Where the session's bus is the user's (dbus-user-session's
    /// `$XDG_RUNTIME_DIR/bus`, on which the manager is), the entry's run checks nothing while the
    /// manager has herald-check.timer active, so a login runs one check; on a bus of the session
    /// alone, or once the timer is stopped, the entry's run checks every registered app.
    func testTheLoginEntrysRunChecksNothingWhileTheUserManagerHasTheTimerActive() throws {
        let installation = try Self.installation()
        let session = try DesktopSession()
        defer { session.stop() }
        let feeds = try registerTwoApps(in: session)
        let manager = try UserServiceManager(session: session)
        defer { manager.stop() }
        XCTAssertEqual(try manager.systemctl(["link", installation.units + "/herald-check.timer", installation.units + "/herald-check.service"]).status, 0)
        XCTAssertEqual(try manager.systemctl(["start", "herald-check.timer"]).status, 0)
        // The user's bus, as dbus-user-session gives it: the manager joins it once its dbus.service runs.
        XCTAssertEqual(try manager.systemctl(["start", "dbus.socket", "dbus.service"]).status, 0)
        var onTheUsersBus = session.environment
        onTheUsersBus["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + manager.environment["XDG_RUNTIME_DIR"]! + "/bus"
        XCTAssertTrue(eventually(within: 20) {
            let owner = try? runToEnd("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                         "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.systemd1"],
                                      environment: onTheUsersBus, within: 10)
            return owner?.output == "(true,)\n"
        }, "the manager is on the user's bus")
        let entry = DesktopEntry.parse(try String(contentsOfFile: installation.autostartEntry, encoding: .utf8))
        var command = DesktopEntry.arguments(ofExec: try XCTUnwrap(entry["Exec"]))
        command[try XCTUnwrap(command.firstIndex(of: "--start-delay")) + 1] = "0"
        func login(_ extra: [String] = [], environment: [String: String]) throws -> (status: Int32, output: String, errors: String) {
            try runToEnd(command[0], Array(command.dropFirst()) + extra, environment: environment, within: 60)
        }

        let leftToTimer = try login(environment: onTheUsersBus)
        XCTAssertEqual(leftToTimer.status, 0, leftToTimer.errors)
        XCTAssertEqual(leftToTimer.output + leftToTimer.errors, "herald-check.timer is active: it checks the registered apps, so this run checks nothing\n")
        let leftToTimerJSON = try login(["--json"], environment: onTheUsersBus)
        XCTAssertEqual(leftToTimerJSON.output + leftToTimerJSON.errors, #"{"event":"left-to-timer","timer":"herald-check.timer"}"# + "\n")

        // The session's own bus, where no manager is: the entry's run checks both apps.
        let checked = try login(environment: session.environment)
        XCTAssertEqual(checked.status, 0, checked.errors)
        XCTAssertEqual(try session.notifyCalls().map(\.summary).sorted(), ["Alpha news", "Beta news"], checked.output + checked.errors)

        // The timer stopped: the entry's run on the user's bus checks the apps (checked already, so not due).
        XCTAssertEqual(try manager.systemctl(["stop", "herald-check.timer"]).status, 0)
        let notLeft = try login(["--json"], environment: onTheUsersBus)
        XCTAssertEqual(notLeft.status, 0, notLeft.errors)
        XCTAssertEqual(notLeft.output.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return [object["app"], object["event"], object["reason"]].map { ($0 as? String) ?? "-" }.joined(separator: " ")
        }, ["org.example.Alpha check-skipped check-period", "org.example.Beta check-skipped check-period"], notLeft.output + notLeft.errors)
        withExtendedLifetime(feeds) {}
    }

    /// Registers two apps in the session (`$XDG_DATA_HOME/herald/apps/<app-id>.conf`), each
    /// with a feed of one message on a loopback server, shown at the first check; where no agent
    /// takes the messages over, the check waits two seconds for the answers. Returns the server,
    /// which serves while it is kept.
    private func registerTwoApps(in session: DesktopSession) throws -> FeedServer {
        let apps = session.environment["XDG_DATA_HOME"]! + "/herald/apps"
        try FileManager.default.createDirectory(atPath: apps, withIntermediateDirectories: true)
        let server = try FeedServer(directory: session.directory)
        for (appID, title) in [("org.example.Alpha", "Alpha news"), ("org.example.Beta", "Beta news")] {
            try server.publish("\(appID).plist", Fixtures.xmlFeed(["2026/11/29": ["Title": title, "Message": "Something new."]]))
            try "[Herald]\nFeed=\(server.url("\(appID).plist"))\nVersion=1.0\nShowOnFirstLaunch=true\nWait=2\n"
                .write(toFile: apps + "/\(appID).conf", atomically: true, encoding: .utf8)
        }
        return server
    }

    /// Runs `systemd-analyze --user verify` on unit files, without the manual pages (`--man=no`)
    /// and with a runtime folder of its own, as it needs one but no running manager.
    private static func verify(_ units: [String]) throws -> (status: Int32, output: String, errors: String) {
        let runtime = try Fixtures.temporaryDirectory("herald-runtime")
        defer { try? FileManager.default.removeItem(at: runtime) }
        return try runToEnd("/usr/bin/systemd-analyze", ["--user", "verify", "--man=no"] + units,
                            environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime.path, "LANG": "C.UTF-8"])
    }

    /// A unit file's section, each key with its values in order (a key may be given more than once).
    private static func keys(ofSection section: String, in file: String) throws -> [String: [String]] {
        var current = "", keys: [String: [String]] = [:]
        for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") { current = String(line.dropFirst().dropLast()); continue }
            guard current == section, let equals = line.firstIndex(of: "=") else { continue }
            keys[String(line[..<equals]), default: []].append(String(line[line.index(after: equals)...]))
        }
        return keys
    }

    /// The environment install.sh and uninstall.sh run in: the release build the other tests use.
    private static var scriptEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_BUILD_DIR"] = TestPaths.packageRoot.appendingPathComponent(".build-release").path
        return environment
    }

    /// A script of desktop/.
    private static func script(_ name: String) -> String { TestPaths.packageRoot.appendingPathComponent("desktop/\(name)").path }

    /// Installs into a temporary prefix once for all tests.
    private static func installation() throws -> Installation {
        if installed == nil {
            installed = Result {
                let prefix = try Fixtures.temporaryDirectory("herald-prefix")
                let install = try runToEnd("/bin/bash", [script("install.sh"), "--prefix", prefix.path], environment: scriptEnvironment)
                guard install.status == 0 else { throw TestSetupError("install.sh exited \(install.status):\n\(install.errors)") }
                return Installation(prefix: prefix, output: install.output)
            }
        }
        return try installed!.get()
    }

    override class func tearDown() {
        if case .success(let installation)? = installed { try? FileManager.default.removeItem(at: installation.prefix) }
        installed = nil
        super.tearDown()
    }
}

/// A systemd user manager of a test's own: `systemd --user` in a private mount namespace whose
/// `/run/systemd/system` tells it the machine runs systemd (in a container it does not), with
/// the session's environment and a runtime folder in the session's folder. Needs root (for the
/// namespace); the test is skipped otherwise.
private final class UserServiceManager {
    /// The environment `systemctl --user` reaches this manager in.
    let environment: [String: String]
    private let process: ChildProcess

    /// Starts the manager with the session's folders and language (not its bus nor its display,
    /// which the session gives the manager once it runs), and waits until it answers.
    init(session: DesktopSession) throws {
        guard geteuid() == 0 else { throw XCTSkip("a systemd user manager of the test's own needs root, for its mount namespace") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/lib/systemd/systemd") else { throw XCTSkip("systemd is not installed") }
        let runtime = session.directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime.path]
        for name in ["HOME", "LANG", "NOTIFY_IGNORE_PORTAL", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
                     "XDG_DATA_DIRS", "XDG_CONFIG_DIRS"] {
            environment[name] = session.environment[name]
        }
        self.environment = environment
        // Under a shell that waits for it and passes SIGTERM on: Foundation's Process takes the
        // closing of a socket its child inherits for the child's exit and then blocks waiting
        // for it, and systemd closes every descriptor it inherits as it starts; the shell keeps
        // the socket open until the manager has exited.
        process = try ChildProcess("/bin/sh", ["-c", """
            unshare --mount /bin/sh -c 'mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system && exec /usr/lib/systemd/systemd --user' &
            manager=$!
            trap 'kill -TERM $manager; wait $manager' TERM
            wait $manager
            """], environment: environment, directory: session.directory, name: "systemd-user")
        let answers = eventually(within: 20) {
            let state = try? runToEnd("/usr/bin/systemctl", ["--user", "show", "--property", "SystemState", "--value"], environment: environment,
                                      within: 10)
            return ["running", "degraded"].contains(state?.output.trimmingCharacters(in: .newlines))
        }
        guard answers else {
            stop()
            throw XCTSkip("systemd --user did not start here: \(process.output)\(process.errorOutput)")
        }
    }

    /// Runs `systemctl --user` against this manager, for two minutes at most: `start` of the
    /// one-shot service waits for its run, which the unit would let last half an hour.
    func systemctl(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        try runToEnd("/usr/bin/systemctl", ["--user"] + arguments, environment: environment, within: 120)
    }

    /// A unit's last run: its result, and the last process of its `ExecCondition=` and its
    /// `ExecStart=` (a start skipped by the condition leaves the latter as it was).
    func lastRun(of unit: String) throws -> (result: String, condition: (pid: String, status: String)?, main: (pid: String, status: String)?) {
        let shown = try systemctl(["show", unit, "--property", "Result,ExecCondition,ExecStart"]).output
        // "ExecStart={ path=… ; argv[]=… ; start_time=[…] ; stop_time=[…] ; pid=4242 ; code=exited ; status=0 }"
        func process(_ property: String) -> (pid: String, status: String)? {
            let line = shown.split(separator: "\n").first { $0.hasPrefix(property + "=") }.map(String.init) ?? ""
            return line.firstMatch(of: #/ pid=(\d+) ; code=([^ ]+) ; status=([^ ]+)/#).map { (String($0.output.1), "\($0.output.2) \($0.output.3)") }
        }
        let result = shown.split(separator: "\n").first { $0.hasPrefix("Result=") }.map { String($0.dropFirst("Result=".count)) } ?? ""
        return (result, process("ExecCondition"), process("ExecStart"))
    }

    /// Stops the manager and every unit it runs: SIGTERM, on which a user manager stops its
    /// units and exits, then SIGKILL after 20 seconds for whatever of the manager's processes
    /// (the shell, the manager, the units' processes) still runs. Returns those it had to kill;
    /// none once it has stopped.
    @discardableResult
    func stop() -> [Int32] {
        // Stopped already: its id may be another process's by now.
        guard process.process.isRunning else { return [] }
        let started = Self.processTree(from: process.process.processIdentifier)
        process.signal(SIGTERM)
        var killed: [Int32] = []
        if !eventually(within: 20, { started.allSatisfy { !processIsRunning($0) } }) {
            killed = started.filter(processIsRunning)
            for pid in killed { kill(pid, SIGKILL) }
        }
        process.wait(seconds: 5)
        return killed
    }

    /// `root` and every process descended from it, as /proc names them now.
    private static func processTree(from root: Int32) -> [Int32] {
        guard processIsRunning(root) else { return [] }
        // "pid (comm) state ppid …": the parent is the second field after the name's ")".
        let parents: [(pid: Int32, parent: Int32)] = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 ? Int32(fields[1]).map { (pid, $0) } : nil
        }
        var tree = [root]
        var index = 0
        while index < tree.count {
            tree += parents.filter { $0.parent == tree[index] }.map(\.pid)
            index += 1
        }
        return tree
    }
}
