import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// `herald autostart`: the app's registration (`AppRegistrations`), which the check of every
/// registered app reads at login, and the per-app login entry older versions wrote (`Autostart`),
/// which `enable` moves into a registration.
struct AutostartCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "autostart",
        abstract: "Check an app's feed at every login: register it for the check of every registered app.",
        subcommands: [Enable.self, Disable.self, Status.self]
    )

    static let example = Enable.example

    struct Enable: ParsableCommand, UsageExample {
        static let configuration = CommandConfiguration(
            commandName: "enable",
            abstract: "Write the app's registration, $XDG_DATA_HOME/herald/apps/<app-id>.conf.",
            discussion: """
                The registration keeps the options given (herald apps lists it). An app's login entry from before, \
                $XDG_CONFIG_HOME/autostart/<app-id>.herald.desktop, is moved into it: its options are kept where this \
                command gives none, and the entry is removed.
                """)

        static let example = "herald autostart enable --app-id org.example.App \\\n    --feed https://example.org/feed.plist"

        @OptionGroup var target: FeedCheckArguments

        @Option(help: "Accepted as before and not kept: the check of every registered app spreads its start itself (at most \(NumberText.plain(CheckOptionLimits.startDelay.upper))).")
        var startDelay: Double = StartDelay.loginDefault

        /// A value `herald check` would refuse, and an option a registration does not take, are
        /// refused here, before the registration exists.
        func validate() throws {
            if let refusal = CheckOptionLimits.startDelayRefusal(startDelay) { throw ValidationError(refusal) }
            if FeedArgument(target.feed).isStandardInput { throw ValidationError("a registration has no standard input to read a feed from") }
            if let refusal = Self.refusal(CheckCommandLine(parsed: target)) { throw ValidationError(refusal) }
        }

        /// Why `line` cannot be a registration, or `nil`: it sets an option a registration refuses.
        static func refusal(_ line: CheckCommandLine) -> String? {
            let defaults = CheckCommandLine(feed: line.feed, appID: line.appID)
            for option in CheckCommandLine.options {
                guard let reason = RegistrationKeys.refused[option.name], option.write(line) != option.write(defaults) else { continue }
                return "\(option.name) cannot go into a registration: \(reason)"
            }
            return nil
        }

        func run() throws {
            // The sandbox's data folder is its own, and the host's check never reads it.
            if Sandbox.isFlatpak {
                EventReporter.complain("""
                    inside a Flatpak sandbox a registration written here is never read: the app keeps checking when it \
                    starts, and the Background portal (org.freedesktop.portal.Background, RequestBackground with \
                    autostart) can start it at login
                    """)
                throw ExitCode(.unavailable)
            }
            try FeedArgument(target.feed).requireReadable()
            let environment = ProcessEnvironment.read()
            let given = CheckCommandLine(parsed: target)
            try Self.lockingRegistrations(environment: environment) {
                try Self.register(given, environment: environment)
            }
        }

        /// Runs `edit` holding the lock of the user's data folder (`SharedFile`'s lock of
        /// `$XDG_DATA_HOME/herald`, taken on the folder it is in, so that the lock exists before
        /// Herald's folder does): two `enable`s of an app at once take turns, and the login entry
        /// is read, moved and removed by one of them only. A lock that cannot be taken exits
        /// `.cannotCreate`.
        private static func lockingRegistrations(environment: [String: String], _ edit: () throws -> Void) throws {
            do {
                let herald = RegularFile.folder(of: AppRegistrations.userFolder(environment: environment))
                try SharedFile(herald, creatingFolder: true).withLock(edit)
            } catch let error as FileError {
                EventReporter.complain(error.description)
                throw ExitCode(.cannotCreate)
            }
        }

        /// Writes the registration of `given`, moving the app's login entry from before into it:
        /// everything read here is read under the lock of `lockingRegistrations`.
        private static func register(_ given: CheckCommandLine, environment: [String: String]) throws {
            var line = given
            let entryPath = Autostart.path(appID: line.appID, environment: environment)
            let entry = try AutostartEntryOptions.read(entryPath)
            var entryOptions: String?
            if let entry {
                let arguments = entry["Exec"].map(DesktopEntry.arguments(ofExec:)) ?? []
                if arguments.count > 2, let old = CheckCommandLine(plainArguments: Array(arguments.dropFirst(2))) {
                    line = Self.line(line, keeping: old)
                    entryOptions = "its options are kept where this command gives none"
                } else {
                    entryOptions = "its command could not be read, so only this command's options are kept"
                }
            }
            // An entry's option that `herald check` would refuse now is not carried into the registration.
            if entry != nil, let problem = line.usageProblem {
                EventReporter.complain("the login entry \(entryPath) cannot be moved into a registration: \(problem); give the option anew")
                throw ExitCode(.usage)
            }
            let path = AppRegistrations.userFile(appID: line.appID, environment: environment)
            do throws(FileError) {
                try RegularFile.write(Data(RegistrationKeys.keyFileText(for: line).utf8), to: path, mode: 0o644)
            } catch {
                EventReporter.complain(error.description)
                throw ExitCode(.cannotCreate)
            }
            say("registered: \(path)")
            if let entryOptions {
                _ = try AutostartEntryOptions.remove(entryPath)
                say("moved: removed the login entry \(entryPath); \(entryOptions)")
            }
        }

        /// The values `given` sets, and `old`'s for every option `given` leaves at its default:
        /// an entry's options that the new command does not change are kept.
        static func line(_ given: CheckCommandLine, keeping old: CheckCommandLine) -> CheckCommandLine {
            let defaults = CheckCommandLine(feed: "", appID: "")
            let arguments = CheckCommandLine.options.flatMap { option in
                option.write(given) != option.write(defaults) ? option.write(given) : option.write(old)
            }
            return CheckCommandLine(plainArguments: arguments) ?? given
        }
    }

    struct Disable: ParsableCommand, UsageExample {
        static let configuration = CommandConfiguration(
            commandName: "disable", abstract: "Remove the app's registration, and its login entry from before.")

        static let example = "herald autostart disable --app-id org.example.App"

        @OptionGroup var location: AutostartEntryOptions

        func run() throws {
            let environment = ProcessEnvironment.read()
            let paths = [location.registration, location.path]
            let removed = try paths.filter { try AutostartEntryOptions.remove($0) }
            if removed.isEmpty {
                say("already disabled: no \(paths.joined(separator: " nor "))")
            }
            for path in removed { say("disabled: removed \(path)") }
            // A package's registration is not the user's to remove: a mute silences it.
            if let other = AppRegistrations.list(environment: environment).apps.first(where: { $0.app.appID == location.appID }) {
                say("still registered by \(other.app.file); 'herald mute --app-id \(location.appID)' silences the app")
            }
        }
    }

    struct Status: ParsableCommand, UsageExample {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Say whether the app is registered, or has a login entry from before, and what it runs.")

        static let example = "herald autostart status --app-id org.example.App"

        @OptionGroup var location: AutostartEntryOptions

        func run() throws {
            let appID = location.appID
            let listing = AppRegistrations.list(environment: ProcessEnvironment.read())
            let registered = listing.apps.first { $0.app.appID == appID }
            let problems = listing.problems.filter { AppRegistrations.appID(ofFile: $0.file) == appID }
            if let registered { say("registered: \(registered.app.file)") }
            for problem in problems { say("not registered: " + problem.text) }
            let path = location.path
            if let entry = try AutostartEntryOptions.read(path) {
                let enabled = entry["X-GNOME-Autostart-enabled"] != "false" && entry["Hidden"] != "true"
                say(enabled
                    ? "runs a check of its own at login: \(path); 'herald autostart enable --app-id \(appID)' moves it to a registration"
                    : "has a login entry from before, turned off in it (Hidden=true or X-GNOME-Autostart-enabled=false): \(path)")
                say("runs: \(entry["Exec"] ?? "(no Exec)")")
            } else if registered == nil, problems.isEmpty {
                say("off: not registered (no \(location.registration)), and no login entry (no \(path))")
            }
            if !problems.isEmpty { throw ExitCode(.data) }
        }
    }
}

/// Which app's registration and login entry a command is about.
struct AutostartEntryOptions: ParsableArguments {
    @Option(help: "The app's id.")
    var appID: String

    func validate() throws { try AppOptions.requireUsable(appID: appID) }

    /// The login entry from before, under `$XDG_CONFIG_HOME/autostart`.
    var path: String { Autostart.path(appID: appID, environment: ProcessEnvironment.read()) }

    /// The user's registration, under `$XDG_DATA_HOME/herald/apps`.
    var registration: String { AppRegistrations.userFile(appID: appID, environment: ProcessEnvironment.read()) }

    /// A login entry, `nil` when there is none; one that cannot be read exits `.noInput`.
    static func read(_ path: String) throws -> DesktopEntry? {
        do throws(FileError) {
            return try RegularFile.read(path, limit: 65_536, followingLinks: true).map { DesktopEntry.parse(String(decoding: $0, as: UTF8.self)) }
        } catch {
            EventReporter.complain(error.description)
            throw ExitCode(.noInput)
        }
    }

    /// Removes a file: `true` when it was there, `false` when it was not; one that cannot be
    /// removed exits `.cannotCreate`.
    static func remove(_ path: String) throws -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        EventReporter.complain("cannot remove \(path): \(String(cString: strerror(errno)))")
        throw ExitCode(.cannotCreate)
    }
}
