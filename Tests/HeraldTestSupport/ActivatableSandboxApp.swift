import Foundation

/// A D-Bus-activatable app that uses Herald (`herald-portal-app`), installed on a real desktop
/// reached through the portal as Flatpak installs one: it runs in the bubblewrap sandbox with a
/// `/.flatpak-info` naming the desktop's app id, its desktop entry (`DBusActivatable=true`) is at
/// `/app/share/applications` inside and exported to the session's `XDG_DATA_HOME/applications`,
/// and a session service file lets the bus start it, `--gapplication-service`, when something
/// calls its name (the portal's backend, for a click on an `app.*` button).
public final class ActivatableSandboxApp {
    /// The desktop it is installed on.
    public let desktop: RealDesktop
    /// Its app id: its bus name and the sandbox's.
    public var appID: String { desktop.appID }
    /// Its folder on the host: the launcher, the service file, the exported entry's source.
    public let folder: URL
    private let launcher: URL
    private var launches: [ChildProcess] = []

    /// Installs the app, its feed `feedURL`, and tells the desktop's bus to read its service file.
    ///
    /// The bus is the desktop's own (RealDesktop starts it without service folders): its
    /// configuration file is written again with one folder holding this app's service file, and
    /// the bus is asked to reload it (`org.freedesktop.DBus.ReloadConfig`).
    public init(on desktop: RealDesktop, feedURL: String) throws {
        guard desktop.server.throughPortal else { throw TestSetupError("the app needs a desktop reached through the portal") }
        self.desktop = desktop
        folder = desktop.directory.appendingPathComponent("activatable-app")
        launcher = folder.appendingPathComponent("run-app")
        let appID = desktop.appID
        let applications = folder.appendingPathComponent("share/applications")
        let exported = URL(fileURLWithPath: desktop.environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        for path in [applications, exported, folder.appendingPathComponent("services")] {
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        }
        let entry = "[Desktop Entry]\nType=Application\nName=Example App\nExec=herald-portal-app\nIcon=org.herald.Herald\nDBusActivatable=true\n"
        try entry.write(to: applications.appendingPathComponent(appID + ".desktop"), atomically: true, encoding: .utf8)
        try entry.write(to: exported.appendingPathComponent(appID + ".desktop"), atomically: true, encoding: .utf8)
        try Self.script(launcher, "exec /usr/bin/bwrap \(try sandboxArguments(feedURL: feedURL).map(Self.quoted).joined(separator: " ")) \"$@\"")
        // What the bus runs: each start counted, its output kept. The shell stays as bwrap's
        // parent: with `--die-with-parent` an app exec'd straight from the bus's service launcher
        // is killed when that launcher ends, as soon as the app has taken its name.
        let activate = folder.appendingPathComponent("activate-app")
        try Self.script(activate, """
            echo started >> \(Self.quoted(activationsLog.path))
            \(Self.quoted(launcher.path)) --gapplication-service >> \(Self.quoted(activatedOutput.path)) 2>> \(Self.quoted(activatedErrorsLog.path))
            echo "exit status $?" >> \(Self.quoted(activatedErrorsLog.path))
            """)
        try "[D-BUS Service]\nName=\(appID)\nExec=\(activate.path)\n"
            .write(to: folder.appendingPathComponent("services/\(appID).service"), atomically: true, encoding: .utf8)
        let socket = String(desktop.busAddress.dropFirst("unix:path=".count))
        try DesktopSession.writeBusConfiguration(to: desktop.directory.appendingPathComponent("bus.conf"), socket: socket,
                                                 services: folder.appendingPathComponent("services").path)
        _ = try busCall("org.freedesktop.DBus.ReloadConfig")
        guard try busCall("org.freedesktop.DBus.ListActivatableNames").contains("'\(appID)'") else {
            throw TestSetupError("the bus does not offer to start \(appID) after reloading its configuration")
        }
    }

    deinit { stop() }

    /// Stops the launches it made that still run.
    public func stop() {
        for launch in launches { launch.stop() }
        launches = []
    }

    /// Launches the app in its sandbox, as a user does from the menu, with `arguments` after the
    /// feed URL (`--stay`).
    public func launch(_ arguments: [String] = [], name: String) throws -> ChildProcess {
        let child = try ChildProcess(launcher.path, arguments, environment: desktop.environment, directory: folder, name: name)
        launches.append(child)
        return child
    }

    /// One line per process the bus started for the app's name.
    public var activations: Int {
        ((try? String(contentsOf: activationsLog, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// What the processes the bus started printed, in order.
    public var activatedLines: [String] {
        ((try? String(contentsOf: activatedOutput, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// What the processes the bus started wrote on standard error, and how each ended.
    public var activatedErrors: String {
        (try? String(contentsOf: activatedErrorsLog, encoding: .utf8)) ?? ""
    }

    /// The host's process id of the owner of the app's bus name, or nil when it has none.
    public func ownerProcessID() -> Int32? {
        guard let reply = try? busCall("org.freedesktop.DBus.GetConnectionUnixProcessID", appID),
              let number = reply.split(whereSeparator: { !$0.isNumber }).last else { return nil }
        return Int32(number)
    }

    /// The app's state file in the sandbox's home, where Flatpak keeps it on the host.
    public var stateFile: URL {
        URL(fileURLWithPath: desktop.stateHome).appendingPathComponent("herald/\(appID).json")
    }

    private var activationsLog: URL { folder.appendingPathComponent("activations") }
    private var activatedOutput: URL { folder.appendingPathComponent("activated.out") }
    private var activatedErrorsLog: URL { folder.appendingPathComponent("activated.err") }

    /// `bwrap`'s arguments: the sandbox as RealDesktop runs Herald in it, plus the app's entry at
    /// `/app/share/applications` and `XDG_DATA_DIRS` naming it, and the app as the command.
    private func sandboxArguments(feedURL: String) throws -> [String] {
        let info = folder.appendingPathComponent("flatpak-info")
        try "[Application]\nname=\(appID)\n\n[Context]\nshared=network;ipc;\n".write(to: info, atomically: true, encoding: .utf8)
        let home = URL(fileURLWithPath: desktop.environment["HOME"]!).appendingPathComponent(".var/app/\(appID)")
        let inside = "/root/.var/app/\(appID)"
        for part in ["config", "data", "cache", ".local/state"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(part), withIntermediateDirectories: true)
        }
        let program = TestPaths.product("herald-portal-app")
        let programFolder = URL(fileURLWithPath: program).deletingLastPathComponent().path
        var arguments = ["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                         "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
                         "--ro-bind", info.path, "/.flatpak-info",
                         "--bind", String(desktop.busAddress.dropFirst("unix:path=".count)), "/run/flatpak/bus",
                         "--bind", home.path, inside,
                         "--ro-bind", folder.appendingPathComponent("share").path, "/app/share",
                         "--ro-bind", programFolder, programFolder]
        for runtime in RealDesktop.swiftRuntimeFolders where !runtime.hasPrefix("/usr/") { arguments += ["--ro-bind", runtime, runtime] }
        let variables = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/flatpak/bus", "HOME": "/root", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                         "XDG_CONFIG_HOME": inside + "/config", "XDG_DATA_HOME": inside + "/data", "XDG_CACHE_HOME": inside + "/cache",
                         "XDG_STATE_HOME": inside + "/.local/state", "XDG_DATA_DIRS": "/app/share:/usr/share"]
        arguments += ["--unshare-pid", "--die-with-parent", "--clearenv"]
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) { arguments += ["--setenv", name, value] }
        return arguments + ["--", program, appID, feedURL]
    }

    /// A method of the bus itself, called with `gdbus`; its reply as gdbus prints it.
    private func busCall(_ method: String, _ arguments: String...) throws -> String {
        let result = try runToCompletion("/usr/bin/gdbus", ["call", "--address", desktop.busAddress, "--dest", "org.freedesktop.DBus",
                                                            "--object-path", "/org/freedesktop/DBus", "--method", method] + arguments,
                                         environment: desktop.environment)
        guard result.status == 0 else { throw TestSetupError("\(method) failed") }
        return result.output
    }

    /// Writes an executable shell script.
    private static func script(_ file: URL, _ body: String) throws {
        try "#!/bin/sh\n\(body)\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }

    /// A word quoted for the shell.
    private static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
}
