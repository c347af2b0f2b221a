import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore

/// `herald autostart`: the XDG autostart entry that runs `herald check` at login.
struct AutostartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autostart",
        abstract: "Run 'herald check' for an app at every login (an XDG autostart entry).",
        subcommands: [Enable.self, Disable.self, Status.self]
    )

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write $XDG_CONFIG_HOME/autostart/<app-id>.herald.desktop.")

        @Option(help: "The feed URL.")
        var feed: String

        @OptionGroup var app: AppOptions
        @OptionGroup var options: CheckOptions

        @Option(help: "Start after a random 0...N seconds, so a fleet logging in at once spreads out.")
        var startDelay: Double = 120

        @Option(help: "A prompts file, counted and shown at each login.")
        var prompts: String?

        func run() throws {
            _ = try options.configuration(feed: feed, app: app)
            guard HeraldPaths.isValid(appID: app.appID) else { throw ValidationError("app id '\(app.appID)' is not usable as a file name") }
            var command = [Self.heraldExecutable, "check", "--feed", feed, "--app-id", app.appID]
            if let version = app.appVersion { command += ["--app-version", version] }
            if let name = app.appName { command += ["--app-name", name] }
            command += ["--start-delay", startDelay.rounded() == startDelay ? String(Int(startDelay)) : String(startDelay)]
            if let prompts { command += ["--prompts", Self.absolute(prompts)] }
            command += options.arguments
            let entry = Autostart.entry(appID: app.appID, appName: app.appName ?? app.appID, command: command)
            let path = Autostart.path(appID: app.appID, environment: ProcessInfo.processInfo.environment)
            do {
                try StateStore.writeFileAtomically(Data(entry.text.utf8), to: path)
                chmod(path, 0o644)
            } catch {
                EventReporter.complain("\(error)")
                throw ExitCode(73)
            }
            print("enabled: \(path)")
        }

        /// This executable, by absolute path, so the session manager finds it without PATH.
        static var heraldExecutable: String {
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "herald"
        }

        static func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove the app's autostart entry.")

        @Option(help: "The app's id.")
        var appID: String

        func run() throws {
            let path = Autostart.path(appID: appID, environment: ProcessInfo.processInfo.environment)
            if unlink(path) == 0 {
                print("disabled: removed \(path)")
            } else if errno == ENOENT {
                print("already disabled: no \(path)")
            } else {
                EventReporter.complain("cannot remove \(path): \(String(cString: strerror(errno)))")
                throw ExitCode(73)
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Say whether the app's autostart entry is on and what it runs.")

        @Option(help: "The app's id.")
        var appID: String

        func run() throws {
            let path = Autostart.path(appID: appID, environment: ProcessInfo.processInfo.environment)
            guard let data = FileManager.default.contents(atPath: path) else {
                print("off: no \(path)")
                return
            }
            let entry = DesktopEntry.parse(String(decoding: data, as: UTF8.self))
            let enabled = entry["X-GNOME-Autostart-enabled"] != "false" && entry["Hidden"] != "true"
            print("\(enabled ? "on" : "off (disabled in the entry)"): \(path)")
            print("runs: \(entry["Exec"] ?? "(no Exec)")")
        }
    }
}
