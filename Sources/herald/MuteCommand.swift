import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// `herald mute`: no more messages from an app, or from every app, for this user.
struct MuteCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "mute",
        abstract: "Stop an app's messages and prompts (or every app's) for this user.",
        discussion: """
            Written to the user's key file, $XDG_CONFIG_HOME/herald/herald.conf. A muted app's \
            checks fetch and show nothing; 'herald unmute' undoes it. Exit codes: 0 done, \
            64 usage, 73 the file cannot be written, 78 a key file cannot be read.
            """
    )

    static let example = "herald mute --app-id org.example.App"

    @OptionGroup var target: MuteTargetOptions

    func run() throws {
        let file = MuteTargetOptions.userFile
        let muted = try MuteTargetOptions.change { switches in
            let edit = switches.muting(target.target)
            return (edit, edit != nil)
        }
        say(muted ? "muted \(target.name) (\(file))" : "\(target.name) \(target.isAll ? "are" : "is") muted already (\(file))")
    }
}

/// What `herald mute` and `herald unmute` act on: one app, or every app.
struct MuteTargetOptions: ParsableArguments {
    @Option(help: "The app's id, e.g. org.example.App.")
    var appID: String?

    @Flag(help: "Every app that uses Herald.")
    var all = false

    func validate() throws {
        guard (appID == nil) != !all else { throw ValidationError("give one app with --app-id ID, or --all") }
        if let appID { try AppOptions.requireUsable(appID: appID) }
    }

    var isAll: Bool { appID == nil }

    /// The app or every app.
    var target: MuteTarget { appID.map(MuteTarget.app) ?? .allApps }

    /// The app's id, or "all apps", in sentences.
    var name: String { appID ?? "all apps" }

    /// The user's key file, for messages.
    static var userFile: String { OffSwitchFiles.userFile(environment: ProcessEnvironment.read()) }

    /// Reads the key files and makes the change `decide` chooses, as one locked step
    /// (`OffSwitchFiles.change`); exits 78 (EX_CONFIG) naming a file that cannot be read, 73
    /// (EX_CANTCREAT) naming what cannot be written.
    static func change<Outcome>(_ decide: (OffSwitches) throws -> (edit: OffSwitchEdit?, outcome: Outcome)) throws -> Outcome {
        do {
            return try OffSwitchFiles.change(environment: ProcessEnvironment.read(), decide)
        } catch let error as OffSwitchEditError {
            EventReporter.complain(error.description)
            if case .reading = error { throw ExitCode(78) }
            throw ExitCode(73)
        }
    }
}
