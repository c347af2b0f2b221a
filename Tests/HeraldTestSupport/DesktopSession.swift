import Foundation

/// A private desktop for one test: its own session bus (dbus-daemon), optionally
/// python3-dbusmock's notification server with chosen capabilities, XDG folders in a
/// temporary directory, and a default https handler that records the links it is asked to open.
public final class DesktopSession {
    /// The temporary folder holding everything.
    public let directory: URL
    /// The environment to run `herald` in.
    public private(set) var environment: [String: String]
    private var bus: ChildProcess?
    private var server: ChildProcess?
    private var xvfb: ChildProcess?
    private var children: [ChildProcess] = []

    /// Starts the session.
    ///
    /// - Parameters:
    ///   - capabilities: the notification server's capabilities; `nil` starts no server.
    ///   - bus: whether to start a session bus at all.
    public convenience init(capabilities: String? = "actions body body-markup", bus startBus: Bool = true) throws {
        try self.init(server: capabilities.map(NotificationServerKind.mock) ?? NotificationServerKind.none, bus: startBus, display: false)
    }

    /// Starts the session with a chosen notification server, and an X display (Xvfb) when asked.
    public init(server kind: NotificationServerKind, bus startBus: Bool = true, display: Bool) throws {
        directory = try Fixtures.temporaryDirectory("herald-e2e")
        var environment = ProcessInfo.processInfo.environment
        for (name, folder) in [("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("HOME", "home")] {
            let path = directory.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            environment[name] = path.path
        }
        environment["XDG_DATA_DIRS"] = "/usr/local/share:/usr/share"
        // The administrator's key files of this machine are not the test's.
        environment["XDG_CONFIG_DIRS"] = directory.appendingPathComponent("system-config").path
        environment["LANG"] = "C.UTF-8"
        environment["LANGUAGE"] = nil
        environment["LC_ALL"] = nil
        environment["LC_MESSAGES"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + directory.appendingPathComponent("no-bus").path
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["NOTIFY_IGNORE_PORTAL"] = "1"
        self.environment = environment
        try setBudgetOutOfTheWay()
        try installLinkRecorder()
        try FileManager.default.createDirectory(atPath: environment["XDG_DATA_HOME"]! + "/icons", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: environment["XDG_DATA_HOME"]! + "/icons/hicolor",
                                                   withDestinationPath: TestPaths.packageRoot.appendingPathComponent("icons/hicolor").path)
        if display {
            let xvfb = try ChildProcess("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                        environment: environment, directory: directory, name: "xvfb")
            self.xvfb = xvfb
            guard eventually({ xvfb.output.hasSuffix("\n") }) else { throw TestSetupError("Xvfb did not start: \(xvfb.errorOutput)") }
            self.environment["DISPLAY"] = ":" + xvfb.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if startBus { try self.startBus(["--session"]) }
        try startServer(kind)
    }

    private func startBus(_ configuration: [String], environment extra: [String: String] = [:]) throws {
        let daemon = try ChildProcess("/usr/bin/dbus-daemon", configuration + ["--nofork", "--print-address=1"],
                                      environment: environment.merging(extra) { _, new in new }, directory: directory, name: "dbus-daemon")
        bus = daemon
        guard eventually({ daemon.output.contains("\n") }) else { throw TestSetupError("dbus-daemon did not start: \(daemon.errorOutput)") }
        environment["DBUS_SESSION_BUS_ADDRESS"] = daemon.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts the session bus with one service the bus starts on demand, `name` running
    /// `command`, and no other (the machine's own service files are not read).
    ///
    /// - Parameter extra: variables set (or replaced) in the bus's environment, and so in the
    ///   environment of every service it starts, but not in `environment`.
    public func startBus(activating name: String, command: String, environment extra: [String: String] = [:]) throws {
        let services = directory.appendingPathComponent("bus-services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try "[D-BUS Service]\nName=\(name)\nExec=\(command)\n".write(to: services.appendingPathComponent(name + ".service"), atomically: true, encoding: .utf8)
        let configuration = directory.appendingPathComponent("bus.conf")
        try Self.writeBusConfiguration(to: configuration, socket: directory.appendingPathComponent("bus").path, services: services.path)
        try startBus(["--config-file=" + configuration.path], environment: extra)
    }

    /// What the session bus and the services it started wrote on standard error so far: a
    /// D-Bus-activated service's standard error is the bus's (the user's journal, in a real session).
    public var busErrorOutput: String { bus?.errorOutput ?? "" }

    /// Writes a minimal session bus configuration: listening on `socket`, everyone may own and
    /// send, monitors may watch; services are started only from `services` (none without it).
    public static func writeBusConfiguration(to file: URL, socket: String, services: String? = nil) throws {
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
            \(services.map { "  <servicedir>\($0)</servicedir>\n" } ?? "")  <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: file, atomically: true, encoding: .utf8)
    }

    /// Starts python3-dbusmock's notification server on the session's bus, after the session began.
    public func startMockServer(capabilities: String) throws {
        try startServer(.mock(capabilities))
    }

    private func startServer(_ kind: NotificationServerKind) throws {
        let command: [String]
        switch kind {
        case .none: return
        case .mock(let capabilities):
            command = ["/usr/bin/python3", "-m", "dbusmock", "--template", "notification_daemon", "-p", "{\"capabilities\": \"\(capabilities)\"}",
                       "--logfile", directory.appendingPathComponent("notification-server.log").path]
        case .notificationDaemon: command = ["/usr/lib/notification-daemon/notification-daemon"]
        case .dunst: command = ["/usr/bin/dunst"]
        }
        do {
            server = try ChildProcess(command[0], Array(command.dropFirst()), environment: self.environment, directory: directory, name: "notification-server")
            let ready = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_server.py"), "wait"], environment: self.environment)
            guard ready.status == 0 else { throw TestSetupError("the notification server did not start: \(server!.errorOutput)") }
        }
    }

    deinit { stop() }

    /// Stops every process of the session and removes its folder.
    public func stop() {
        for child in children { child.stop() }
        server?.stop()
        bus?.stop()
        xvfb?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The administrator's key file of the off switches in this session,
    /// `$XDG_CONFIG_DIRS/herald/herald.conf`; not there unless a test writes it.
    public var systemKeyFile: URL {
        URL(fileURLWithPath: environment["XDG_CONFIG_DIRS"]!).appendingPathComponent("herald/herald.conf")
    }

    /// The user's key file, `$XDG_CONFIG_HOME/herald/herald.conf`.
    public var userKeyFile: URL {
        URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!).appendingPathComponent("herald/herald.conf")
    }

    /// The person's attention budget in this session's user key file: 1000 a day and 1000 a
    /// week, so that tests about something else may show as many messages as they need. A test
    /// of the budget itself removes the file (`useStandardBudget()`) or writes its own.
    public static let budgetOutOfTheWay = "[budget]\nPerDay=1000\nPerWeek=1000\n"

    /// Writes `budgetOutOfTheWay` as the user's key file.
    public func setBudgetOutOfTheWay() throws {
        try Self.writeBudgetOutOfTheWay(to: userKeyFile)
    }

    /// Writes `budgetOutOfTheWay` to `file`, making its folder as Herald makes it (mode 0700).
    public static func writeBudgetOutOfTheWay(to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data(budgetOutOfTheWay.utf8).write(to: file)
    }

    /// Removes the user's key file, and its folder when nothing else is in it: the person has
    /// the standard budget and nothing muted, as on a fresh machine.
    public func useStandardBudget() throws {
        try? FileManager.default.removeItem(at: userKeyFile)
        let folder = userKeyFile.deletingLastPathComponent()
        if (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            try FileManager.default.removeItem(at: folder)
        }
    }

    /// Writes the administrator's key file, making its folder.
    public func writeSystemKeyFile(_ text: String) throws {
        try FileManager.default.createDirectory(at: systemKeyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: systemKeyFile)
    }

    /// Starts a loopback feed server for this session, serving `contents` as "feed.plist".
    public func serveFeed(_ contents: String) throws -> FeedServer {
        let server = try FeedServer(directory: directory)
        try server.publish("feed.plist", contents)
        return server
    }

    /// Starts `herald` with arguments; `--json` output is read with `events`.
    ///
    /// - Parameters:
    ///   - standardInput: a file it reads as its standard input; `/dev/null` unless given.
    ///   - workingDirectory: where it runs; the test's own unless given.
    public func herald(_ arguments: [String], environment extra: [String: String] = [:], standardInput: URL? = nil,
                       workingDirectory: URL? = nil) throws -> ChildProcess {
        let input = try standardInput.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        let child = try ChildProcess(TestPaths.herald, arguments, environment: environment.merging(extra) { _, new in new },
                                     directory: directory, name: "herald-\(children.count)", standardInput: input,
                                     workingDirectory: workingDirectory)
        children.append(child)
        return child
    }

    /// Runs `herald` to the end and returns how it ended and everything it printed.
    ///
    /// - Parameter extra: variables set (or replaced) in the session's environment for this run.
    public func run(_ arguments: [String], environment extra: [String: String] = [:], standardInput: URL? = nil,
                    workingDirectory: URL? = nil) throws -> ToolRun {
        let child = try herald(arguments, environment: extra, standardInput: standardInput, workingDirectory: workingDirectory)
        let status = child.wait(seconds: 60)
        return ToolRun(status: status, output: child.output, errorOutput: child.errorOutput)
    }

    /// Runs `herald` to the end, or for at most `seconds` (then it is killed), and returns how it
    /// ended, everything it printed and how long it took.
    public func timedRun(_ arguments: [String], environment extra: [String: String] = [:], within seconds: Double) throws -> (run: ToolRun, seconds: Double) {
        let started = Date()
        let child = try herald(arguments, environment: extra)
        let status = child.wait(seconds: seconds)
        return (ToolRun(status: status, output: child.output, errorOutput: child.errorOutput), Date().timeIntervalSince(started))
    }

    /// Runs `herald` to the end and returns its status and output.
    public func heraldToCompletion(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try runToCompletion(TestPaths.herald, arguments, environment: environment.merging(extra) { _, new in new })
    }

    /// The app's state as `herald state --json` prints it.
    public func state(appID: String) throws -> [String: Any] {
        let result = try heraldToCompletion(["state", "--app-id", appID, "--json"])
        return (try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]) ?? [:]
    }

    /// The calls the notification server received, method and arguments.
    public func serverCalls() throws -> [(method: String, args: [Any])] {
        let result = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_server.py"), "calls"], environment: environment)
        let calls = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]) ?? []
        return calls.map { ($0["method"] as? String ?? "", $0["args"] as? [Any] ?? []) }
    }

    /// The `Notify` calls received so far.
    public func notifyCalls() throws -> [NotifyCall] {
        try serverCalls().filter { $0.method == "Notify" }.map(NotifyCall.init)
    }

    /// Emits `ActionInvoked(id, action)`, as a click does.
    public func invoke(_ action: String, on id: Int) throws {
        _ = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_server.py"), "action", String(id), action], environment: environment)
    }

    /// Emits `ActionInvoked(id, action)` for each click, in order, from one run of the helper:
    /// many answers without paying a Python start-up for each.
    public func invoke(_ clicks: [(action: String, id: Int)]) throws {
        guard !clicks.isEmpty else { return }
        let pairs = clicks.flatMap { [String($0.id), $0.action] }
        _ = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_server.py"), "action"] + pairs, environment: environment)
    }

    /// Emits `NotificationClosed(id, reason)`: 1 expired, 2 dismissed, 3 closed by call.
    public func close(_ id: Int, reason: Int) throws {
        _ = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_server.py"), "close", String(id), String(reason)], environment: environment)
    }

    /// Makes the mock server refuse (`true`) or accept again (`false`) every `Notify` call.
    public func refuseNotifications(_ refuse: Bool) throws {
        let result = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_server.py"), refuse ? "refuse" : "accept"], environment: environment)
        guard result.status == 0 else { throw TestSetupError("the mock server did not take the new Notify") }
    }

    /// Makes the mock server answer every `Notify` with the same id, as a faulty server does.
    public func giveEveryNotification(id: Int) throws {
        let result = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_server.py"), "fixed-id", String(id)], environment: environment)
        guard result.status == 0 else { throw TestSetupError("the mock server did not take the new Notify") }
    }

    /// The mock server's log: a line per method call, written as the call arrives (before the
    /// server answers it).
    public var notificationServerLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("notification-server.log"), encoding: .utf8)) ?? ""
    }

    /// Makes the mock server answer every `Notify` only after `seconds`, as a stuck server does.
    public func answerNotificationsSlowly(after seconds: Double) throws {
        let result = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_server.py"), "slow", String(seconds)], environment: environment)
        guard result.status == 0 else { throw TestSetupError("the mock server did not take the new Notify") }
    }

    /// Takes a screenshot of the whole X display.
    public func screenshot(to path: String) throws {
        let result = try runToCompletion("/usr/bin/import", ["-window", "root", path], environment: environment)
        guard result.status == 0 else { throw TestSetupError("import failed") }
    }

    /// The buttons of the newest notification bubble (or of the lowest button row of the newest
    /// window named `window`), left to right, and a point on its body, found in a screenshot
    /// (`Tests/support/notification_buttons.py`).
    public func notificationBubble(window: String = "^Notification$") throws -> (buttons: [(x: Int, y: Int)], body: (x: Int, y: Int)) {
        let shot = directory.appendingPathComponent("bubble.png").path
        try screenshot(to: shot)
        let result = try runToCompletion("/usr/bin/python3", [TestPaths.support("notification_buttons.py"), shot, window], environment: environment)
        guard let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
              let buttons = object["buttons"] as? [[String: Int]], let body = object["body"] as? [String: Int]
        else { throw TestSetupError("no notification bubble found: \(result.output)") }
        return (buttons.map { ($0["x"]!, $0["y"]!) }, (body["x"]!, body["y"]!))
    }

    /// Clicks with the first mouse button at a point of the screen.
    public func click(x: Int, y: Int) throws {
        _ = try runToCompletion("/usr/bin/xdotool", ["mousemove", String(x), String(y), "click", "1"], environment: environment)
    }

    /// Windows whose name matches a pattern, by id.
    public func windows(named pattern: String) throws -> [String] {
        try runToCompletion("/usr/bin/xdotool", ["search", "--name", pattern], environment: environment).output.split(separator: "\n").map(String.init)
    }

    /// The links the https handler was asked to open.
    public var openedLinks: [String] {
        ((try? String(contentsOf: directory.appendingPathComponent("opened-links"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// The activation the https handler was started with, a line per link: its
    /// `DESKTOP_STARTUP_ID`, a space and its `XDG_ACTIVATION_TOKEN` (empty when not set).
    public var openedLinkTokens: [String] {
        ((try? String(contentsOf: directory.appendingPathComponent("opened-link-tokens"), encoding: .utf8)) ?? "")
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Registers a desktop entry as the default https handler that appends each link to a file.
    private func installLinkRecorder() throws {
        let script = directory.appendingPathComponent("record-link")
        try """
            #!/bin/sh
            printf '%s\\n' "$1" >> '\(directory.path)/opened-links'
            printf '%s\\n' "${DESKTOP_STARTUP_ID-} ${XDG_ACTIVATION_TOKEN-}" >> '\(directory.path)/opened-link-tokens'

            """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let applications = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try """
            [Desktop Entry]
            Type=Application
            Name=Link recorder
            Exec=\(script.path) %u
            MimeType=x-scheme-handler/https;x-scheme-handler/http;
            NoDisplay=true
            """.write(to: applications.appendingPathComponent("link-recorder.desktop"), atomically: true, encoding: .utf8)
        try """
            [Default Applications]
            x-scheme-handler/https=link-recorder.desktop
            x-scheme-handler/http=link-recorder.desktop
            """.write(to: URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!).appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
    }
}

/// How one run of a command ended and everything it printed, compared whole.
public struct ToolRun: Equatable, CustomStringConvertible {
    /// The exit status.
    public var status: Int32
    /// Its standard output.
    public var output: String
    /// Its standard error.
    public var errorOutput: String

    /// Creates the record of a run.
    public init(status: Int32, output: String, errorOutput: String = "") {
        self.status = status
        self.output = output
        self.errorOutput = errorOutput
    }

    /// The three parts, for a failing comparison.
    public var description: String { "exit \(status)\n--- stdout\n\(output)--- stderr\n\(errorOutput)" }

    /// What a `herald check --json` run decided, each message as "key: shown" or
    /// "key: reason" (its `skipped` event's), in key order.
    public var checkDecisions: [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let key = event["key"] as? String else { return nil }
            switch event["event"] as? String {
            case "shown": return "\(key): shown"
            case "skipped": return "\(key): \(event["reason"] as? String ?? "")"
            default: return nil
            }
        }.sorted()
    }
}

/// Which notification server a session runs.
public enum NotificationServerKind {
    /// None: nothing owns org.freedesktop.Notifications.
    case none
    /// python3-dbusmock's template with these capabilities; records calls, emits signals.
    case mock(String)
    /// Debian's notification-daemon: a real GTK server that draws buttons (needs a display).
    case notificationDaemon
    /// dunst: a real server that offers actions through a context menu (needs a display).
    case dunst
}

/// One `Notify` call as the server received it.
public struct NotifyCall {
    /// The app name.
    public var appName: String
    /// The app icon (name or URI), or "" for none.
    public var appIcon: String
    /// The summary.
    public var summary: String
    /// The body.
    public var body: String
    /// Action ids and labels, in order.
    public var actions: [(id: String, label: String)]
    /// The hints.
    public var hints: [String: Any]
    /// The expire timeout in ms.
    public var timeout: Int

    init(_ call: (method: String, args: [Any])) {
        let args = call.args
        appName = args.count > 0 ? args[0] as? String ?? "" : ""
        appIcon = args.count > 2 ? args[2] as? String ?? "" : ""
        summary = args.count > 3 ? args[3] as? String ?? "" : ""
        body = args.count > 4 ? args[4] as? String ?? "" : ""
        let flat = args.count > 5 ? args[5] as? [String] ?? [] : []
        actions = stride(from: 0, to: flat.count - 1, by: 2).map { (flat[$0], flat[$0 + 1]) }
        hints = args.count > 6 ? args[6] as? [String: Any] ?? [:] : [:]
        timeout = args.count > 7 ? args[7] as? Int ?? 0 : 0
    }

    /// The action ids alone.
    public var actionIDs: [String] { actions.map(\.id) }
}
