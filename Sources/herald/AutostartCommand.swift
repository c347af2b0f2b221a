import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// `herald autostart`: the XDG autostart entry that runs `herald check` at login.
struct AutostartCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "autostart",
        abstract: "Run 'herald check' for an app at every login (an XDG autostart entry).",
        subcommands: [Enable.self, Disable.self, Status.self]
    )

    static let example = Enable.example

    struct Enable: ParsableCommand, UsageExample {
        static let configuration = CommandConfiguration(
            commandName: "enable",
            abstract: "Write $XDG_CONFIG_HOME/autostart/<app-id>.herald.desktop.")

        static let example = "herald autostart enable --app-id org.example.App \\\n    --feed https://example.org/feed.plist"

        @OptionGroup var target: FeedCheckArguments

        @Option(help: "Start after a random 0...N seconds, so a fleet logging in at once spreads out (at most \(NumberText.plain(CheckOptionLimits.startDelay.upper))).")
        var startDelay: Double = StartDelay.loginDefault

        /// The delay is written into the login entry, so a value `herald check` would refuse
        /// is refused here, before the entry exists.
        func validate() throws {
            if let refusal = CheckOptionLimits.startDelayRefusal(startDelay) { throw ValidationError(refusal) }
            if FeedArgument(target.feed).isStandardInput { throw ValidationError("a login entry has no standard input to read a feed from") }
        }

        func run() throws {
            // The sandbox's autostart folder is its own, and no session reads it.
            if Sandbox.isFlatpak {
                EventReporter.complain("""
                    inside a Flatpak sandbox a login entry written here is never run; the app asks the Background portal \
                    to start it at login (org.freedesktop.portal.Background, RequestBackground with autostart) and calls \
                    Herald at start-up
                    """)
                throw ExitCode(.unavailable)
            }
            try FeedArgument(target.feed).requireReadable()
            let app = target.app
            var line = CheckCommandLine(parsed: target)
            line.startDelay = startDelay
            let command = [Self.heraldExecutable, "check"] + line.checkArguments
            let entry = Autostart.entry(appID: app.appID, appName: app.appName ?? app.appID, command: command)
            let path = Autostart.path(appID: app.appID, environment: ProcessEnvironment.read())
            do {
                try RegularFile.write(Data(entry.text.utf8), to: path, mode: 0o644)
            } catch {
                EventReporter.complain("\(error)")
                throw ExitCode(.cannotCreate)
            }
            say("enabled: \(path)")
        }

        /// This executable, by absolute path, so the session manager finds it without PATH.
        static var heraldExecutable: String {
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "herald"
        }
    }

    struct Disable: ParsableCommand, UsageExample {
        static let configuration = CommandConfiguration(commandName: "disable", abstract: "Remove the app's autostart entry.")

        static let example = "herald autostart disable --app-id org.example.App"

        @OptionGroup var location: AutostartEntryOptions

        func run() throws {
            let path = location.path
            if unlink(path) == 0 {
                say("disabled: removed \(path)")
            } else if errno == ENOENT {
                say("already disabled: no \(path)")
            } else {
                EventReporter.complain("cannot remove \(path): \(String(cString: strerror(errno)))")
                throw ExitCode(.cannotCreate)
            }
        }
    }

    struct Status: ParsableCommand, UsageExample {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Say whether the app's autostart entry is on and what it runs.")

        static let example = "herald autostart status --app-id org.example.App"

        @OptionGroup var location: AutostartEntryOptions

        func run() throws {
            let path = location.path
            let read: Data?
            do throws(FileError) { read = try RegularFile.read(path, limit: 65_536, followingLinks: true) } catch {
                EventReporter.complain("\(error)")
                throw ExitCode(.noInput)
            }
            guard let data = read else {
                say("off: no \(path)")
                return
            }
            let entry = DesktopEntry.parse(String(decoding: data, as: UTF8.self))
            let enabled = entry["X-GNOME-Autostart-enabled"] != "false" && entry["Hidden"] != "true"
            say("\(enabled ? "on" : "off (disabled in the entry)"): \(path)")
            say("runs: \(entry["Exec"] ?? "(no Exec)")")
        }
    }
}

/// Which app's autostart entry a command is about.
struct AutostartEntryOptions: ParsableArguments {
    @Option(help: "The app's id.")
    var appID: String

    func validate() throws { try AppOptions.requireUsable(appID: appID) }

    /// The entry's path under `$XDG_CONFIG_HOME/autostart`.
    var path: String { Autostart.path(appID: appID, environment: ProcessEnvironment.read()) }
}
