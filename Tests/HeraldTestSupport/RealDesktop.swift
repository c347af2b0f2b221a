import Foundation

/// A real desktop's notification server, as the desktop matrix runs it (DESKTOPS.md).
public enum RealServer: String, CaseIterable, Sendable {
    case notificationDaemon = "notification-daemon"
    case dunst
    case xfce4Notifyd = "xfce4-notifyd"
    case gnomeShell = "GNOME Shell"
    case plasma = "Plasma"
    /// Herald inside a Flatpak-like sandbox, through xdg-desktop-portal and its gtk backend, to GNOME Shell.
    case portalToGnomeShell = "portal to GNOME Shell"
    /// The same, to xfce4-notifyd.
    case portalToXfce4Notifyd = "portal to xfce4-notifyd"

    static let xfconfd = "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"
    static let xfce4NotifydProgram = "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"
    static let gnomeShellPrograms = ["/usr/bin/gnome-shell", "/usr/bin/gjs", "/usr/share/gnome-shell/org.gnome.Shell.Notifications"]
    static let portalPrograms = ["/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-desktop-portal-gtk", "/usr/libexec/xdg-permission-store", "/usr/bin/bwrap"]

    /// The programs it needs; the matrix skips a server when one is missing.
    public var programs: [String] {
        switch self {
        case .notificationDaemon: return ["/usr/lib/notification-daemon/notification-daemon"]
        case .dunst: return ["/usr/bin/dunst", "/usr/bin/dunstctl"]
        case .xfce4Notifyd: return [Self.xfconfd, Self.xfce4NotifydProgram, "/usr/bin/xfconf-query"]
        case .gnomeShell: return Self.gnomeShellPrograms + ["/usr/bin/gsettings"]
        case .plasma: return ["/usr/bin/plasmashell", "/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd"]
        case .portalToGnomeShell: return Self.gnomeShellPrograms + Self.portalPrograms
        case .portalToXfce4Notifyd: return [Self.xfconfd, Self.xfce4NotifydProgram, "/usr/bin/xfconf-query"] + Self.portalPrograms
        }
    }

    /// The programs of `programs` that are not installed.
    public var missingPrograms: [String] { programs.filter { !FileManager.default.isExecutableFile(atPath: $0) && !FileManager.default.fileExists(atPath: $0) } }

    /// Whether Herald runs in the sandbox and reaches the server through the portal.
    public var throughPortal: Bool { self == .portalToGnomeShell || self == .portalToXfce4Notifyd }

    /// Whether GNOME Shell is the one that draws.
    public var isGnomeShell: Bool { self == .gnomeShell || self == .portalToGnomeShell }
}

/// An X display (Xvfb with GLX, 1280x800) shared by every server of the matrix.
public final class SharedDisplay: @unchecked Sendable {
    /// `:N`.
    public let name: String
    private let xvfb: ChildProcess
    private let directory: URL

    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: SharedDisplay?

    /// The display, started at the first call.
    public static func start() throws -> SharedDisplay {
        lock.lock()
        defer { lock.unlock() }
        if let shared { return shared }
        let display = try SharedDisplay()
        shared = display
        return display
    }

    /// Stops the display if it was started (at the end of the test run).
    public static func stop() {
        lock.lock()
        defer { lock.unlock() }
        shared?.xvfb.stop()
        if let folder = shared?.directory { try? FileManager.default.removeItem(at: folder) }
        shared = nil
    }

    private init() throws {
        directory = try Fixtures.temporaryDirectory("herald-xvfb")
        let xvfb = try ChildProcess("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "+extension", "GLX"],
                                    environment: ProcessInfo.processInfo.environment, directory: directory, name: "xvfb")
        guard eventually({ xvfb.output.hasSuffix("\n") }) else {
            xvfb.stop()
            throw TestSetupError("Xvfb did not start: \(xvfb.errorOutput)")
        }
        self.xvfb = xvfb
        name = ":" + xvfb.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A rectangle of the screen.
public struct ScreenRegion: Equatable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }
    /// ImageMagick's geometry, `WxH+X+Y`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// What tesseract read in a region: the text, and each word with its box on the screen.
public struct ScreenText {
    public struct Word { public var text: String; public var x: Int; public var y: Int; public var width: Int; public var height: Int }
    /// The lines as tesseract read them.
    public var text: String
    /// The words, in reading order.
    public var words: [Word]

    /// The text with typographic quotes made straight and all runs of white space one space:
    /// what a comparison with the expected text needs.
    public var normalized: String { ScreenText.normalize(text) }

    public static func normalize(_ text: String) -> String {
        let straight = text.replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
            .replacingOccurrences(of: "\u{201C}", with: "\"").replacingOccurrences(of: "\u{201D}", with: "\"")
        return straight.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The centre of the last occurrence of `label`'s words in a row (buttons come after the
    /// body), in any letter case (tesseract reads GNOME's bold "I" as "i").
    public func centre(of label: String) -> (x: Int, y: Int)? {
        let wanted = ScreenText.normalize(label).lowercased().split(separator: " ").map(String.init)
        guard !wanted.isEmpty, words.count >= wanted.count else { return nil }
        for start in stride(from: words.count - wanted.count, through: 0, by: -1) {
            let run = words[start..<start + wanted.count]
            if zip(run, wanted).allSatisfy({ ScreenText.normalize($0.0.text).lowercased() == $0.1 }) {
                let first = run.first!, last = run.last!
                return ((first.x + last.x + last.width) / 2, first.y + first.height / 2)
            }
        }
        return nil
    }
}

/// One real notification server on a private session bus (a bus config without the standard
/// service folders, so no server is D-Bus-activated; the Herald agent alone when asked), under
/// the shared Xvfb, with a monitor recording every message on that bus; and Herald run against
/// it, on the host or inside a Flatpak-like sandbox.
public final class RealDesktop {
    /// The server.
    public let server: RealServer
    /// The session of XDG folders and the link recorder (its own bus and server are not used).
    public let session: DesktopSession
    /// The environment of everything on the host side: servers, tools, Herald outside a sandbox.
    public private(set) var environment: [String: String]
    /// The session bus, `unix:path=…`.
    public let busAddress: String
    /// The app id Herald runs as (the sandbox's too).
    public let appID = "org.example.App"
    private var processes: [ChildProcess] = []
    private var inhibitor: ChildProcess?
    private var sessionBus: ChildProcess?
    /// GNOME Shell and its helper org.gnome.Shell.Notifications, while they run.
    private var gnomeShell: [ChildProcess] = []
    private let monitorLog: URL
    private let sandboxHome: URL

    /// The test's folder.
    public var directory: URL { session.directory }

    /// Starts the server and all it needs; on failure stops what it started and throws.
    ///
    /// - Parameter agent: whether the session has the Herald agent as the package installs it:
    ///   the bus starts it by its name (the shipped `org.herald.Agent.service`, running the built
    ///   `herald-agent`) and its desktop entry is in `$XDG_DATA_HOME/applications`. Then `herald check`
    ///   hands its messages over (DESIGN.md D23).
    public init(server: RealServer, display: SharedDisplay, agent: Bool = false) throws {
        self.server = server
        session = try DesktopSession(server: .none, bus: false, display: false)
        environment = session.environment
        let directory = session.directory
        monitorLog = directory.appendingPathComponent("bus-messages.jsonl")
        sandboxHome = directory.appendingPathComponent("home/.var/app/\(appID)")
        environment["DISPLAY"] = display.name
        // Every program of a GNOME session is told so, as gnome-session tells them.
        if server == .gnomeShell { environment["XDG_CURRENT_DESKTOP"] = "GNOME" }
        environment["NO_AT_BRIDGE"] = "1"
        // No dconf service on a private bus: GSettings keeps its values in a key file of the test.
        environment["GSETTINGS_BACKEND"] = "keyfile"
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment["XDG_RUNTIME_DIR"] = runtime.path
        busAddress = "unix:path=" + directory.appendingPathComponent("bus").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        do {
            let services = agent ? try installAgent() : nil
            sessionBus = try startBus(named: "bus", at: directory.appendingPathComponent("bus").path, services: services)
            let monitor = try spawn("/usr/bin/python3", [TestPaths.support("desktop_matrix.py"), "monitor", busAddress, monitorLog.path], name: "monitor")
            guard eventually({ (try? String(contentsOf: self.monitorLog, encoding: .utf8))?.contains(#""type": "ready""#) == true })
            else { throw TestSetupError("the bus monitor did not start: \(monitor.errorOutput)") }
            try startServer()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Stops every process it started, newest first, and removes the folder.
    public func stop() {
        inhibitor?.stop()
        inhibitor = nil
        for process in processes.reversed() { process.stop() }
        processes = []
        session.stop()
    }

    /// The processes of the desktop that have ended, with the end of what they wrote on
    /// standard error: for a failure's message (a server that crashed explains a lot).
    public var endedProcesses: String {
        processes.filter { !$0.process.isRunning }.map {
            "\($0.process.executableURL?.lastPathComponent ?? "?") ended (\($0.process.terminationStatus)): \($0.errorOutput.suffix(600))"
        }.joined(separator: "\n")
    }

    // MARK: starting

    @discardableResult
    private func spawn(_ program: String, _ arguments: [String], name: String, environment extra: [String: String] = [:]) throws -> ChildProcess {
        let child = try ChildProcess(program, arguments, environment: environment.merging(extra) { _, new in new }, directory: directory, name: name)
        processes.append(child)
        return child
    }

    /// A dbus-daemon with a minimal session configuration: services started only from
    /// `services` (nothing is activated without it), everyone may own and send, monitors may watch.
    @discardableResult
    private func startBus(named name: String, at socket: String, services: String? = nil) throws -> ChildProcess {
        let config = directory.appendingPathComponent("\(name).conf")
        try DesktopSession.writeBusConfiguration(to: config, socket: socket, services: services)
        let bus = try spawn("/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address=1"], name: name)
        guard eventually({ bus.output.contains("\n") }) else { throw TestSetupError("dbus-daemon \(name) did not start: \(bus.errorOutput)") }
        return bus
    }

    /// Installs the agent as `desktop/install.sh` does, with the built agent's folder for its
    /// libexec folder: the shipped D-Bus service file in a folder of its own, returned for the
    /// bus, and the shipped desktop entry, its `Exec` the agent's full path, where GNOME Shell and
    /// `herald check` look for it. (GLib takes an entry whose `Exec` program is not found for
    /// no app at all, and the shell then refuses AddNotification: the folder is not in `PATH`.)
    private func installAgent() throws -> String {
        let shipped = TestPaths.packageRoot.appendingPathComponent("desktop")
        let services = directory.appendingPathComponent("bus-services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let libexecdir = URL(fileURLWithPath: TestPaths.agent).deletingLastPathComponent().path
        try String(contentsOf: shipped.appendingPathComponent("org.herald.Agent.service"), encoding: .utf8)
            .replacingOccurrences(of: "@LIBEXECDIR@", with: libexecdir)
            .write(to: services.appendingPathComponent("org.herald.Agent.service"), atomically: true, encoding: .utf8)
        let applications = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try String(contentsOf: shipped.appendingPathComponent("org.herald.Agent.desktop"), encoding: .utf8)
            .replacingOccurrences(of: "@LIBEXECDIR@", with: libexecdir)
            .write(to: applications.appendingPathComponent("org.herald.Agent.desktop"), atomically: true, encoding: .utf8)
        return services.path
    }

    /// Each time the session bus started a service, as dbus-daemon logs it: "Activating service
    /// name='NAME' requested by ':1.N' (uid=… pid=… comm="…")".
    public var busActivations: [String] {
        (sessionBus?.errorOutput ?? "").split(separator: "\n").compactMap { line in
            line.range(of: "Activating service name=").map { String(line[$0.lowerBound...]) }
        }
    }

    /// The process that owns `name` on the session bus, or `nil` while nothing owns it.
    public func ownerProcessID(of name: String) -> Int32? { processIDOwning(name, environment: environment) }

    /// The processes of the built `herald` that run on this desktop's bus (others' tests run
    /// `herald` on the same machine, on buses of their own), by process id.
    public func heraldProcesses() -> [Int32] {
        let herald = URL(fileURLWithPath: TestPaths.herald).resolvingSymlinksInPath().path
        let wanted = Data("DBUS_SESSION_BUS_ADDRESS=\(busAddress)".utf8)
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return ids.filter { pid in
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == herald,
                  let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return environ.split(separator: 0).contains { Data($0) == wanted }
        }
    }

    /// Whether a name has an owner on the session bus.
    public func nameHasOwner(_ name: String) -> Bool {
        (try? runToCompletion("/usr/bin/python3", [TestPaths.support("desktop_matrix.py"), "has-owner", busAddress, name], environment: environment).status) == 0
    }

    private func waitForName(_ name: String, seconds: Double = 20, _ child: ChildProcess) throws {
        guard eventually(within: seconds, { nameHasOwner(name) }) else {
            throw TestSetupError("\(name) did not appear on the bus within \(seconds) s: \(child.errorOutput.suffix(2000))")
        }
    }

    /// The server's own process where `clearScreen()` may start it again (notification-daemon,
    /// xfce4-notifyd).
    private var serverProcess: ChildProcess?
    private var portalBackend: ChildProcess?
    /// How each xdg-desktop-portal-gtk that died ended (it is started again, as activation does).
    public private(set) var portalBackendEnds: [String] = []
    /// How many of `portalBackendEnds` `clearScreen()` has cleared the stale banner of.
    private var backendEndsCleared = 0
    /// Whether the portal's gtk backend is down since it was last started: what it was asked to
    /// draw in between was lost by the backend, not by the app.
    public var portalBackendDied: Bool { server.throughPortal && portalBackend.map { !$0.process.isRunning } == true }
    /// How many times the portal's gtk backend died, the one down now included: a count taken
    /// before a step and again after tells whether it died during the step.
    public var portalBackendDeaths: Int { portalBackendEnds.count + (portalBackendDied ? 1 : 0) }

    /// Clears the screen of old bubbles, where the server leaves them: notification-daemon keeps
    /// a bubble up after CloseNotification until its process ends, so old bubbles pile up and
    /// push new ones off the screen. It is restarted; the others need nothing.
    /// dunst keeps a notification up after an action chosen in its menu; they are closed.
    /// And a portal backend that has died is started again, as D-Bus activation does on a real
    /// desktop (xdg-desktop-portal-gtk 1.14 can abort, "free(): invalid pointer", on a click), and
    /// what it left on the screen is taken down.
    public func clearScreen() throws {
        if server.throughPortal, let gtk = portalBackend, !gtk.process.isRunning {
            portalBackendEnds.append("exit \(gtk.process.terminationStatus): \(gtk.errorOutput.suffix(300))")
            processes.removeAll { $0 === gtk }
            try startPortalBackend()
        }
        if portalBackendEnds.count > backendEndsCleared {
            backendEndsCleared = portalBackendEnds.count
            try clearWhatTheDeadBackendLeft()
        }
        if server == .dunst { _ = try runToCompletion("/usr/bin/dunstctl", ["close-all"], environment: environment) }
        if server == .notificationDaemon { try restartServerProcess() }
    }

    /// A portal backend that died leaves what it last posted standing in front of whatever comes
    /// next, its buttons answering nobody: the server sends their `ActionInvoked` to a name no
    /// longer on the bus.
    private func clearWhatTheDeadBackendLeft() throws {
        switch server {
        case .portalToGnomeShell:
            // A click on a banner's body activates it and takes it down (on an empty desktop the
            // click does nothing).
            for _ in 0..<3 {
                try click(x: 640, y: 70)
                Thread.sleep(forTimeInterval: 0.7)
            }
            try pointer(to: 640, 500)
        case .portalToXfce4Notifyd:
            // xfce4-notifyd keeps a bubble up while the pointer is on it, and closes none of a
            // sender that went: started again, it takes them all down.
            try restartServerProcess()
        default:
            break
        }
    }

    /// Stops the server's own process (notification-daemon, xfce4-notifyd) and starts it again,
    /// which takes down every bubble it had up.
    private func restartServerProcess() throws {
        guard let old = serverProcess else { return }
        old.stop()
        processes.removeAll { $0 === old }
        guard eventually({ !self.nameHasOwner("org.freedesktop.Notifications") }) else { throw TestSetupError("\(server.rawValue) did not stop") }
        if server == .notificationDaemon { try startServer() } else { try startXfce4Notifyd(settings: false) }
    }

    private func startServer() throws {
        switch server {
        case .notificationDaemon:
            let child = try spawn("/usr/lib/notification-daemon/notification-daemon", [], name: "notification-daemon-\(processes.count)")
            serverProcess = child
            try waitForName("org.freedesktop.Notifications", child)
        case .dunst:
            let dunstrc = directory.appendingPathComponent("dunstrc")
            // Debian's dunstrc, but the context menu goes to a helper that answers with the line a
            // test asks for. (A dunstrc of that line alone changes more: without `markup = full`
            // dunst does not offer body-markup.)
            let shipped = (try? String(contentsOfFile: "/etc/xdg/dunst/dunstrc", encoding: .utf8)) ?? "[global]\n    markup = full\n"
            let helper = "/usr/bin/python3 \(TestPaths.support("desktop_matrix.py")) dmenu \(directory.path)/dmenu-choice \(directory.path)/dmenu-input"
            try shipped.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("dmenu =") ? "    dmenu = \(helper)" : String($0) }
                .joined(separator: "\n").write(to: dunstrc, atomically: true, encoding: .utf8)
            let child = try spawn("/usr/bin/dunst", ["-config", dunstrc.path], name: "dunst")
            try waitForName("org.freedesktop.Notifications", child)
        case .xfce4Notifyd:
            try startXfce4Notifyd()
        case .gnomeShell:
            try startGnomeShell()
        case .plasma:
            // Qt Quick's software renderer: with GL (llvmpipe) and no compositor the popups often
            // stay unpainted under Xvfb.
            let plasma = ["XDG_CURRENT_DESKTOP": "KDE", "QT_QPA_PLATFORM": "xcb", "QT_QUICK_BACKEND": "software"]
            let activities = try spawn("/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd", [], name: "kactivitymanagerd", environment: plasma)
            try waitForName("org.kde.ActivityManager", activities)
            let child = try spawn("/usr/bin/plasmashell", ["--no-respawn"], name: "plasmashell", environment: plasma)
            try waitForName("org.freedesktop.Notifications", seconds: 40, child)
            // The panel and the wallpaper settle after the name is taken.
            guard try stillScreen(within: 20, environment: environment, folder: directory, name: "plasma-settled") != nil else {
                throw TestSetupError("Plasma's screen kept changing for 20 s after it took org.freedesktop.Notifications")
            }
        case .portalToGnomeShell:
            try installAppEntry()
            try startGnomeShell()
            try startPortal(desktop: "GNOME")
        case .portalToXfce4Notifyd:
            try startXfce4Notifyd()
            try startPortal(desktop: "XFCE")
        }
    }

    /// Starts xfce4-notifyd, and first the settings daemon it reads (xfconfd) unless `settings` is false.
    private func startXfce4Notifyd(settings: Bool = true) throws {
        if settings {
            let xfconf = try spawn(RealServer.xfconfd, [], name: "xfconfd")
            try waitForName("org.xfce.Xfconf", xfconf)
        }
        let child = try spawn(RealServer.xfce4NotifydProgram, [], name: "xfce4-notifyd-\(processes.count)")
        serverProcess = child
        try waitForName("org.freedesktop.Notifications", child)
    }

    private func startGnomeShell() throws {
        // Without a display manager, the shell's idle lock only brings its own banner "Screen
        // Lock disabled", which would stand in front of Herald's.
        for (schema, key, value) in [("org.gnome.desktop.session", "idle-delay", "uint32 0"), ("org.gnome.desktop.screensaver", "lock-enabled", "false"),
                                     ("org.gnome.desktop.lockdown", "disable-lock-screen", "true")] {
            _ = try runToCompletion("/usr/bin/gsettings", ["set", schema, key, value], environment: environment)
        }
        // A second private bus stands for the system bus: the shell's look-ups there fail fast.
        try startBus(named: "system-bus", at: systemBusSocket)
        try startGnomeShellProcesses()
    }

    private var systemBusSocket: String { directory.appendingPathComponent("system-bus").path }

    /// Stops GNOME Shell and its helper org.gnome.Shell.Notifications (SIGTERM to their process
    /// ids, as a logout ends them) and starts them again, as the next login does: what the shell
    /// shows then, it read from its own files.
    public func restartGnomeShell() throws {
        guard server.isGnomeShell else { throw TestSetupError("\(server.rawValue) is not GNOME Shell") }
        for child in gnomeShell.reversed() { child.stop() }
        processes.removeAll { child in gnomeShell.contains { $0 === child } }
        gnomeShell = []
        guard eventually({ !self.nameHasOwner("org.gtk.Notifications") && !self.nameHasOwner("org.freedesktop.Notifications") }) else {
            throw TestSetupError("GNOME Shell's names stayed on the bus after it was stopped")
        }
        try startGnomeShellProcesses()
    }

    /// GNOME Shell's notifications as it stored them on disk (org.gtk.Notifications only), each
    /// as app id, notification id, title and body.
    public func storedShellNotifications() throws -> [[String: String]] {
        let file = environment["XDG_DATA_HOME"]! + "/gnome-shell/notifications"
        let result = try runToCompletion("/usr/bin/python3", [TestPaths.support("desktop_matrix.py"), "stored-notifications", file], environment: environment)
        guard result.status == 0, let stored = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: String]] else {
            throw TestSetupError("GNOME Shell's stored notifications could not be read: \(result.output)")
        }
        return stored
    }

    private func startGnomeShellProcesses() throws {
        let system = systemBusSocket
        let shell = try spawn("/usr/bin/gnome-shell", ["--nested", "--wayland"], name: "gnome-shell-\(processes.count)", environment: [
            "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME", "MUTTER_DEBUG_DUMMY_MODE_SPECS": "1280x800",
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + system,
        ])
        gnomeShell.append(shell)
        try waitForName("org.gtk.Notifications", seconds: 40, shell)
        // GNOME Shell 43 does not own org.freedesktop.Notifications itself: its D-Bus-activated
        // helper org.gnome.Shell.Notifications (gjs) does and hands each call on to the shell.
        let helper = try spawn("/usr/bin/gjs", ["/usr/share/gnome-shell/org.gnome.Shell.Notifications"], name: "gnome-shell-notifications-\(processes.count)",
                               environment: ["XDG_CURRENT_DESKTOP": "GNOME"])
        gnomeShell.append(helper)
        try waitForName("org.freedesktop.Notifications", helper)
        // It opens in the overview; then shows its own banners ("Screen Lock disabled" without a
        // display manager; as root, "privileged user"), which stay while the pointer is on them
        // and would stand in front of Herald's: each is closed with its × (a click there on an
        // empty desktop does nothing).
        _ = try runToCompletion("/usr/bin/xdotool", ["key", "Escape"], environment: environment)
        // Nothing outside the shell tells when its own banners have come, so this waits a while.
        for _ in 0..<3 {
            Thread.sleep(forTimeInterval: 1.5)
            try pointer(to: 640, 500)
            try pointer(to: 640, 75)
            try click(x: 866, y: 59)
        }
        try pointer(to: 640, 500)
    }

    private func startPortal(desktop: String) throws {
        let portal = ["XDG_CURRENT_DESKTOP": desktop]
        let store = try spawn("/usr/libexec/xdg-permission-store", ["--replace"], name: "xdg-permission-store", environment: portal)
        try waitForName("org.freedesktop.impl.portal.PermissionStore", store)
        try startPortalBackend()
        let main = try spawn("/usr/libexec/xdg-desktop-portal", ["--verbose"], name: "xdg-desktop-portal", environment: portal)
        try waitForName("org.freedesktop.portal.Desktop", main)
    }

    /// Starts the portal's gtk backend, as D-Bus activation does on the desktop the server stands for.
    private func startPortalBackend() throws {
        let gtk = try spawn("/usr/libexec/xdg-desktop-portal-gtk", [], name: "xdg-desktop-portal-gtk-\(processes.count)",
                            environment: ["XDG_CURRENT_DESKTOP": server == .portalToGnomeShell ? "GNOME" : "XFCE"])
        portalBackend = gtk
        try waitForName("org.freedesktop.impl.portal.desktop.gtk", gtk)
    }

    /// Whether the portal's gtk backend lost a click since `mark`: the notification server said a
    /// button was pressed (`ActionInvoked` of org.freedesktop.Notifications) more often than the
    /// backend passed it on to the portal (`ActionInvoked` of org.freedesktop.impl.portal.Notification).
    /// xdg-desktop-portal-gtk 1.14 can corrupt its heap ("free(): invalid pointer") and go on
    /// running a while before it aborts; what it loses then never reaches the app.
    public func portalBackendLostAClick(since mark: Int) -> Bool {
        guard server.throughPortal else { return false }
        let invoked = busMessages(since: mark).filter { $0["type"] as? String == "signal" && $0["member"] as? String == "ActionInvoked" }
        func count(_ interface: String) -> Int { invoked.filter { $0["interface"] as? String == interface }.count }
        return count("org.freedesktop.Notifications") > count("org.freedesktop.impl.portal.Notification")
    }

    /// Stops a portal backend that lost a click (`portalBackendLostAClick`) and starts it again,
    /// as one that died is (`clearScreen()`); its end is recorded with `portalBackendEnds`.
    public func restartPortalBackend(because reason: String) throws {
        guard server.throughPortal, let gtk = portalBackend else { return }
        gtk.stop()
        processes.removeAll { $0 === gtk }
        portalBackendEnds.append("stopped: \(reason): \(gtk.errorOutput.suffix(300))")
        guard eventually({ !self.nameHasOwner("org.freedesktop.impl.portal.desktop.gtk") }) else {
            throw TestSetupError("xdg-desktop-portal-gtk did not leave the bus")
        }
        try startPortalBackend()
    }

    /// A Flatpak app's desktop entry is exported to the host; GNOME Shell refuses
    /// org.gtk.Notifications from an app it cannot find.
    private func installAppEntry() throws {
        let applications = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Example App\nExec=true\nIcon=org.herald.Herald\n"
            .write(to: applications.appendingPathComponent("\(appID).desktop"), atomically: true, encoding: .utf8)
    }

    // MARK: Herald

    /// The folder of Herald's state file: the sandbox's when Herald runs through the portal.
    public var stateHome: String { server.throughPortal ? sandboxHome.appendingPathComponent(".local/state").path : environment["XDG_STATE_HOME"]! }

    /// Forgets every answer, so the next check is as a new user's.
    public func resetState() {
        try? FileManager.default.removeItem(atPath: stateHome + "/herald/\(appID).json")
    }

    /// The app's state as `herald state --json` prints it.
    public func state() throws -> [String: Any] {
        var env = environment
        env["XDG_STATE_HOME"] = stateHome
        let result = try runToCompletion(TestPaths.herald, ["state", "--app-id", appID, "--json"], environment: env)
        return (try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]) ?? [:]
    }

    /// Starts `herald ARGUMENTS`: on the host, or inside the sandbox (bubblewrap with a
    /// `/.flatpak-info`, as Flatpak runs an app) when the server is reached through the portal.
    public func herald(_ arguments: [String], name: String) throws -> ChildProcess {
        guard server.throughPortal else { return try spawn(TestPaths.herald, arguments, name: name) }
        let info = directory.appendingPathComponent("flatpak-info")
        try "[Application]\nname=\(appID)\n\n[Context]\nshared=network;ipc;\n".write(to: info, atomically: true, encoding: .utf8)
        let inside = "/root/.var/app/\(appID)"
        for folder in ["config", "data", "cache", ".local/state"] {
            try FileManager.default.createDirectory(at: sandboxHome.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // The sandboxed app keeps its own key file and ledger: its budget is out of the way too.
        try DesktopSession.writeBudgetOutOfTheWay(to: sandboxHome.appendingPathComponent("config/herald/herald.conf"))
        let heraldFolder = URL(fileURLWithPath: TestPaths.herald).deletingLastPathComponent().path
        var arguments0 = ["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                          "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
                          "--ro-bind", info.path, "/.flatpak-info",
                          "--bind", directory.appendingPathComponent("bus").path, "/run/flatpak/bus",
                          "--bind", sandboxHome.path, inside,
                          "--ro-bind", heraldFolder, heraldFolder]
        for folder in Self.swiftRuntimeFolders where !folder.hasPrefix("/usr/") {
            arguments0 += ["--ro-bind", folder, folder]
        }
        arguments0 += ["--unshare-pid", "--die-with-parent", "--clearenv",
                       "--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/flatpak/bus",
                       "--setenv", "HOME", "/root", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8",
                       "--setenv", "XDG_CONFIG_HOME", inside + "/config", "--setenv", "XDG_DATA_HOME", inside + "/data",
                       "--setenv", "XDG_CACHE_HOME", inside + "/cache", "--setenv", "XDG_STATE_HOME", inside + "/.local/state",
                       "--", TestPaths.herald] + arguments
        return try spawn("/usr/bin/bwrap", arguments0, name: name)
    }

    /// The folders of the Swift runtime libraries `herald` loads (outside /usr they are bound
    /// into the sandbox read-only).
    static let swiftRuntimeFolders: [String] = {
        let ldd = (try? runToCompletion("/usr/bin/ldd", [TestPaths.herald], environment: ProcessInfo.processInfo.environment).output) ?? ""
        let paths = ldd.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("libswift") || line.contains("libFoundation") || line.contains("lib_Foundation") || line.contains("libdispatch"),
                  let arrow = line.range(of: "=> ") else { return nil }
            let path = line[arrow.upperBound...].split(separator: " ").first.map(String.init) ?? ""
            return URL(fileURLWithPath: path).deletingLastPathComponent().path
        }
        return Array(Set(paths)).sorted()
    }()

    // MARK: the bus

    /// How many messages the monitor has written so far: a mark to read only later ones.
    public func mark() -> Int { busMessages().count }

    /// Every message seen on the bus since `mark`, as the monitor wrote it.
    public func busMessages(since mark: Int = 0) -> [[String: Any]] {
        let text = (try? String(contentsOf: monitorLog, encoding: .utf8)) ?? ""
        let objects = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["type"] as? String != "ready" }
        return Array(objects.dropFirst(mark))
    }

    /// Method calls since `mark` with this interface and member.
    public func calls(_ interface: String, _ member: String, since mark: Int) -> [[String: Any]] {
        busMessages(since: mark).filter { $0["type"] as? String == "call" && $0["interface"] as? String == interface && $0["member"] as? String == member }
    }

    /// The `Notify` calls the notification server received since `mark`: the first hop only
    /// (GNOME Shell's helper hands each on to the shell unchanged).
    public func notifyCalls(since mark: Int) -> [NotifyCall] {
        let all = calls("org.freedesktop.Notifications", "Notify", since: mark)
        let gnomeHop = Set(busMessages(since: 0).filter { $0["member"] as? String == "NameOwnerChanged" }
            .compactMap { message -> String? in
                let args = message["args"] as? [String] ?? []
                return args.count == 3 && args[0] == "org.freedesktop.Notifications" && !args[2].isEmpty ? args[2] : nil
            })
        // A Notify the owner of org.freedesktop.Notifications sends on is the same one again.
        return all.filter { !gnomeHop.contains($0["sender"] as? String ?? "") }.map { NotifyCall(("Notify", $0["args"] as? [Any] ?? [])) }
    }

    /// The `NotificationClosed(id, reason)` signals since `mark`, as (id, reason).
    public func closedSignals(since mark: Int) -> [[Int]] {
        busMessages(since: mark).filter { $0["type"] as? String == "signal" && $0["member"] as? String == "NotificationClosed" }
            .compactMap { $0["args"] as? [Int] }
    }

    /// The `ActionInvoked(id, action)` signals since `mark`: the action ids.
    public func invokedActions(since mark: Int) -> [String] {
        busMessages(since: mark).filter { $0["type"] as? String == "signal" && $0["member"] as? String == "ActionInvoked" }
            .compactMap { ($0["args"] as? [Any])?.last as? String }
    }

    // MARK: the screen

    /// Takes a screenshot of the whole display; kept under `name` in the test's folder (and in
    /// `$HERALD_SCREENSHOTS` when set).
    public func screenshot(_ name: String) throws -> String {
        let path = directory.appendingPathComponent(name + ".png").path
        let result = try runToCompletion("/usr/bin/import", ["-display", environment["DISPLAY"]!, "-window", "root", path], environment: environment)
        guard result.status == 0 else { throw TestSetupError("import failed") }
        if let keep = ProcessInfo.processInfo.environment["HERALD_SCREENSHOTS"] {
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            let target = keep + "/" + server.rawValue.replacingOccurrences(of: " ", with: "-") + "-" + name + ".png"
            try? FileManager.default.removeItem(atPath: target)
            try? FileManager.default.copyItem(atPath: path, toPath: target)
        }
        return path
    }

    /// Reads a region of a screenshot with tesseract (`desktop_matrix.py ocr`).
    public func read(_ screenshot: String, _ region: ScreenRegion) throws -> ScreenText {
        let result = try runToCompletion("/usr/bin/python3", [TestPaths.support("desktop_matrix.py"), "ocr", screenshot, region.description], environment: environment)
        guard let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] else {
            throw TestSetupError("OCR failed: \(result.output)")
        }
        let words = (object["words"] as? [[String: Any]] ?? []).map {
            ScreenText.Word(text: $0["text"] as? String ?? "", x: $0["x"] as? Int ?? 0, y: $0["y"] as? Int ?? 0, width: $0["w"] as? Int ?? 0, height: $0["h"] as? Int ?? 0)
        }
        return ScreenText(text: object["text"] as? String ?? "", words: words)
    }

    /// X windows whose name matches, newest last, with their geometry.
    public func windows(named pattern: String) throws -> [ScreenRegion] {
        let ids = try runToCompletion("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", pattern], environment: environment).output.split(separator: "\n")
        return try ids.compactMap { id in
            let result = try runToCompletion("/usr/bin/python3", [TestPaths.support("desktop_matrix.py"), "window-geometry", String(id)], environment: environment)
            guard let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Int] else { return nil }
            return ScreenRegion(x: object["x"]!, y: object["y"]!, width: object["width"]!, height: object["height"]!)
        }
    }

    /// Where notifications are drawn now, newest last (a server may leave old bubbles up).
    public func notificationRegions() throws -> [ScreenRegion] {
        switch server {
        case .notificationDaemon: return try windows(named: "^Notification$")
        case .dunst: return try windows(named: "^Dunst$")
        case .xfce4Notifyd, .portalToXfce4Notifyd: return try windows(named: "^xfce4-notifyd$").filter { $0.width > 50 }
        // The banner, top centre, with room for its buttons (drawn when the pointer is on it).
        case .gnomeShell, .portalToGnomeShell: return [ScreenRegion(x: 380, y: 30, width: 520, height: 140)]
        // The popups, bottom right, above the panel (their windows have no name to find them by).
        case .plasma: return [ScreenRegion(x: 760, y: 380, width: 500, height: 376)]
        }
    }

    /// The text drawn in the newest notification for which `ready` holds (polled, at most
    /// `seconds`); else the last one read.
    public func drawnText(within seconds: Double = 10, hover: Bool = false, until ready: (ScreenText) -> Bool) throws -> (text: ScreenText, region: ScreenRegion)? {
        var last: (ScreenText, ScreenRegion)?
        let deadline = Date().addingTimeInterval(seconds)
        var attempt = 0
        repeat {
            let regions = try notificationRegions()
            // GNOME Shell draws a banner's buttons when the pointer enters it: leave, then enter.
            if let newest = regions.last, hover {
                try pointer(to: newest.x + newest.width / 2, 500)
                try pointer(to: newest.x + newest.width / 2, newest.y + 30)
            }
            if !regions.isEmpty {
                attempt += 1
                let shot = try screenshot("notification-\(attempt % 2)")
                for region in regions.reversed() {
                    let text = try read(shot, region)
                    if last == nil || ready(text) { last = (text, region) }
                    if ready(text) { return last }
                }
            }
            Thread.sleep(forTimeInterval: 0.3)
        } while Date() < deadline
        return last
    }

    /// Opens GNOME Shell's list of notifications (a click on the clock in the top bar) and
    /// returns its text once `ready` holds (polled, at most `seconds`); else the last one read.
    public func gnomeShellList(within seconds: Double = 10, until ready: (ScreenText) -> Bool) throws -> ScreenText? {
        try click(x: 640, y: 12)
        // The list is the left half of the menu under the clock, above "Do Not Disturb".
        let list = ScreenRegion(x: 290, y: 45, width: 420, height: 320)
        var last: ScreenText?
        _ = try eventually(within: seconds) {
            let text = try read(try screenshot("shell-list"), list)
            last = text
            return ready(text)
        }
        return last
    }

    /// Moves the pointer, and waits for the screen to be still.
    public func pointer(to x: Int, _ y: Int) throws {
        // `--sync` waits until the pointer has moved, so never when it is already there.
        let location = try runToCompletion("/usr/bin/xdotool", ["getmouselocation", "--shell"], environment: environment).output
        if location.hasPrefix("X=\(x)\nY=\(y)\n") { return }
        _ = try runToCompletion("/usr/bin/xdotool", ["mousemove", "--sync", String(x), String(y)], environment: environment)
        // The server redraws what the pointer entered or left (GNOME Shell shows or hides a
        // banner's buttons): wait for that to end.
        _ = try stillScreen(within: 3, environment: environment, folder: directory, name: "pointer")
    }

    /// Clicks a mouse button (1 left, 2 middle) at a point. The pause between the move and the
    /// click lets the server's toolkit take the pointer's entry before the press (without it,
    /// clicks on xfce4-notifyd's buttons behind the portal are lost); nothing outside the server
    /// shows when it has. `times` 2 makes a double click.
    public func click(x: Int, y: Int, button: Int = 1, times: Int = 1) throws {
        let repeated = times > 1 ? ["--repeat", String(times), "--delay", "120"] : []
        _ = try runToCompletion("/usr/bin/xdotool", ["mousemove", String(x), String(y), "sleep", "0.2", "click"] + repeated + [String(button)],
                                environment: environment)
    }

    // MARK: dunst's context menu

    /// Opens dunst's context menu (its way to choose an action) and picks the entry whose text
    /// contains `choice` (`,view]` picks action id view); returns the menu's lines as dunst offered them.
    public func chooseInDunstMenu(_ choice: String) throws -> [String] {
        let input = directory.appendingPathComponent("dmenu-input")
        try? FileManager.default.removeItem(at: input)
        try choice.write(to: directory.appendingPathComponent("dmenu-choice"), atomically: true, encoding: .utf8)
        _ = try runToCompletion("/usr/bin/dunstctl", ["context"], environment: environment)
        // The stand-in renames the menu into place once it is whole.
        guard eventually({ FileManager.default.fileExists(atPath: input.path) }) else { return [] }
        return ((try? String(contentsOf: input, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    // MARK: do not disturb

    /// Turns the server's do-not-disturb on or off, the way its own settings do.
    public func setDoNotDisturb(_ on: Bool) throws {
        func run(_ program: String, _ arguments: [String]) throws {
            let result = try runToCompletion(program, arguments, environment: environment)
            guard result.status == 0 else { throw TestSetupError("\(program) \(arguments) failed: \(result.output)") }
        }
        switch server {
        case .notificationDaemon: return
        case .dunst: try run("/usr/bin/dunstctl", ["set-paused", on ? "true" : "false"])
        case .xfce4Notifyd, .portalToXfce4Notifyd:
            try run("/usr/bin/xfconf-query", ["-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-n", "-t", "bool", "-s", on ? "true" : "false"])
        case .gnomeShell, .portalToGnomeShell:
            try run("/usr/bin/gsettings", ["set", "org.gnome.desktop.notifications", "show-banners", on ? "false" : "true"])
        case .plasma:
            // Plasma's inhibition lasts while the client that asked for it stays on the bus.
            if on {
                inhibitor = try ChildProcess("/usr/bin/python3", [TestPaths.support("desktop_matrix.py"), "inhibit", busAddress],
                                             environment: environment, directory: directory, name: "inhibitor")
                guard eventually({ self.inhibitor?.output.contains("inhibited") == true }) else { throw TestSetupError("Inhibit failed: \(inhibitor?.errorOutput ?? "")") }
            } else {
                inhibitor?.stop()
                inhibitor = nil
            }
        }
    }
}
