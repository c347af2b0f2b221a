import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// `herald unmute`: an app's messages (or every app's, or a category's) again, unless the
/// administrator muted them.
struct UnmuteCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "unmute",
        abstract: "Let an app's messages (or every app's) through again for this user.",
        discussion: """
            Undoes 'herald mute' in $XDG_CONFIG_HOME/herald/herald.conf. Unmuting one app while \
            all apps are muted makes it an exception. A mute in the administrator's key file \
            ($XDG_CONFIG_DIRS/herald/herald.conf), of an app or of a category, cannot be undone \
            here. Afterwards, each mute that still keeps something back is named with its \
            file: after --all, the apps muted one by one, the categories muted and the \
            administrator's mutes; for one app, its muted categories. Of an app id Herald has never \
            seen, herald says so. Exit codes: \(ExitStatus.done.code) done, \(ExitStatus.usage.code) usage, \(ExitStatus.cannotCreate.code) the file cannot be written, \(ExitStatus.permission.code) muted by the \
            administrator, \(ExitStatus.configuration.code) a key file cannot be read.
            """
    )

    static let example = "herald unmute --app-id org.example.App\nherald unmute --category promotion --all"

    @OptionGroup var target: MuteTargetOptions

    func run() throws {
        let file = UserKeyFile.path
        if let categories = target.categories { return try unmute(categories, file: file) }
        let (changed, unseen) = try UserKeyFile.change { switches in
            switch switches.unmuting(target.target) {
            case .failure(let refusal):
                EventReporter.complain("cannot unmute \(target.name): \(refusal.mute)")
                throw ExitCode(.permission)
            case .success(let edit):
                return (edit.map { [$0] } ?? [], (edit != nil, target.unseen(among: switches, consequence: Self.consequence(undoing: edit != nil))))
            }
        }
        say(changed ? "unmuted \(target.name) (\(file))" : "\(target.name) \(target.isAll ? "were" : "was") not muted")
        try sayWhatStays(unseen: unseen)
    }

    /// What an unmute of an app Herald has not seen does: nothing, or (an exception to a mute of
    /// every app) what its checks will do.
    static func consequence(undoing: Bool) -> String {
        undoing ? "the unmute holds from its first check" : "there was nothing to undo"
    }

    /// Unmutes categories for the target, then says what still keeps them back.
    private func unmute(_ categories: [MessageCategory], file: String) throws {
        let names = MuteTargetOptions.names(categories)
        let (changed, unseen) = try UserKeyFile.change { switches in
            switch switches.unmuting(categories, for: target.target) {
            case .failure(let refusal):
                EventReporter.complain("cannot unmute \(names) for \(target.name): \(refusal.mute)")
                throw ExitCode(.permission)
            case .success(let edit):
                return (edit.map { [$0] } ?? [], (edit != nil, target.unseen(among: switches, consequence: Self.consequence(undoing: edit != nil))))
            }
        }
        say(changed ? "unmuted \(names) for \(target.name) (\(file))"
                    : "\(names) \(categories.count == 1 ? "was" : "were") not muted for \(target.name)")
        try sayWhatStays(categories, unseen: unseen)
    }

    /// Says that the app is one Herald has not seen, when it is, then each mute that still keeps
    /// back what was unmuted (`OffSwitches.standingMutes`), read again from the files as they are now.
    private func sayWhatStays(_ categories: [MessageCategory]? = nil, unseen: String?) throws {
        if let unseen { say(unseen) }
        for mute in try UserKeyFile.read().standingMutes(of: target.target, categories: categories) { say(mute.description) }
    }
}
