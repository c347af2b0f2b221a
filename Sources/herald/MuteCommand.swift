import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// `herald mute`: no more messages from an app, or from every app, for this user; with
/// `--category`, no more messages of that kind.
struct MuteCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "mute",
        abstract: "Stop an app's messages and prompts (or every app's) for this user.",
        discussion: """
            Written to the user's key file, $XDG_CONFIG_HOME/herald/herald.conf. A muted app's \
            checks fetch and show nothing; 'herald unmute' undoes it. With --category, only \
            messages of that kind are kept back (MutedCategories). An app id Herald has never \
            seen (no state file, nothing in the attention ledger, no key file naming it) is \
            muted all the same, and herald says so, with the known id probably meant. Exit codes: \(ExitStatus.done.code) done, \
            \(ExitStatus.usage.code) usage, \(ExitStatus.cannotCreate.code) the file cannot be written, \(ExitStatus.configuration.code) a key file cannot be read.
            """
    )

    static let example = "herald mute --app-id org.example.App\nherald mute --category promotion --all"

    @OptionGroup var target: MuteTargetOptions

    func run() throws {
        let file = UserKeyFile.path
        if let categories = target.categories {
            let (muted, unseen) = try UserKeyFile.change { switches in
                let edit = switches.muting(categories, for: target.target)
                return (edit.map { [$0] } ?? [], (edit != nil, target.unseen(among: switches, consequence: Self.consequence)))
            }
            let names = MuteTargetOptions.names(categories)
            say(muted ? "muted \(names) for \(target.name) (\(file))"
                      : "\(names) \(categories.count == 1 ? "is" : "are") muted already for \(target.name) (\(file))")
            if let unseen { say(unseen) }
            return
        }
        let (muted, unseen) = try UserKeyFile.change { switches in
            let edit = switches.muting(target.target)
            return (edit.map { [$0] } ?? [], (edit != nil, target.unseen(among: switches, consequence: Self.consequence)))
        }
        say(muted ? "muted \(target.name) (\(file))" : "\(target.name) \(target.isAll ? "are" : "is") muted already (\(file))")
        if let unseen { say(unseen) }
    }

    /// What a mute of an app Herald has not seen does.
    static let consequence = "the mute holds from its first check"
}

/// What `herald mute` and `herald unmute` act on: one app, or every app, and the categories
/// of message when only those.
struct MuteTargetOptions: ParsableArguments {
    @Option(help: "The app's id, e.g. org.example.App.")
    var appID: String?

    @Flag(help: "Every app that uses Herald.")
    var all = false

    @Option(name: .customLong("category"),
            help: "Only messages of this kind: announcement, tip, promotion, security or survey (repeatable).")
    var categoryNames: [String] = []

    func validate() throws {
        guard (appID == nil) != !all else { throw ValidationError("give one app with --app-id ID, or --all") }
        if let appID { try AppOptions.requireUsable(appID: appID) }
        for name in categoryNames where MessageCategory.named(name) == nil {
            throw ValidationError("'\(name)' is not a category" + MessageCategory.choices(for: name))
        }
    }

    var isAll: Bool { appID == nil }

    /// The app or every app.
    var target: MuteTarget { appID.map(MuteTarget.app) ?? .allApps }

    /// The app's id, or "all apps", in sentences.
    var name: String { appID ?? "all apps" }

    /// The categories named with `--category`, each once in the order given; `nil` without any.
    var categories: [MessageCategory]? {
        let named = categoryNames.compactMap(MessageCategory.named).reduce(into: [MessageCategory]()) { list, category in
            if !list.contains(category) { list.append(category) }
        }
        return named.isEmpty ? nil : named
    }

    /// Categories in sentences: "promotion, survey".
    static func names(_ categories: [MessageCategory]) -> String { StandingMute.names(categories) }

    /// The sentence for an app id Herald has not seen (`KnownApps.unseen`), under the key files
    /// `switches` as they were before the change; `nil` for every app or an app it has seen.
    func unseen(among switches: OffSwitches, consequence: String) -> String? {
        appID.flatMap { KnownApps.read(switches: switches).unseen($0, consequence: consequence) }
    }
}

/// The user's key file, as the commands that change it (`mute`, `unmute`, `budget`) name and
/// edit it.
enum UserKeyFile {
    /// Its path, for messages.
    static var path: String { OffSwitchFiles.userFile(environment: ProcessEnvironment.read()) }

    /// Reads the key files, the administrator's and the user's; exits `.configuration` naming a
    /// file that cannot be read.
    static func read() throws -> OffSwitches {
        do throws(OffSwitchFileError) { return try OffSwitchFiles.read(environment: ProcessEnvironment.read()) } catch {
            EventReporter.complain(error.description)
            throw ExitCode(.configuration)
        }
    }

    /// Reads the key files and makes the changes `decide` chooses, as one locked step
    /// (`OffSwitchFiles.change`); exits `.configuration` naming a file that cannot be read, `.cannotCreate`
    /// (EX_CANTCREAT) naming what cannot be written.
    static func change<Outcome>(_ decide: (OffSwitches) throws -> (edits: [OffSwitchEdit], outcome: Outcome)) throws -> Outcome {
        do {
            return try OffSwitchFiles.change(environment: ProcessEnvironment.read(), decide)
        } catch let error as OffSwitchEditError {
            EventReporter.complain(error.description)
            if case .reading = error { throw ExitCode(.configuration) }
            throw ExitCode(.cannotCreate)
        }
    }
}
