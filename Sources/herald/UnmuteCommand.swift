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
            here. Exit codes: 0 done, 64 usage, 73 the file cannot be written, 77 muted by the \
            administrator, 78 a key file cannot be read.
            """
    )

    static let example = "herald unmute --app-id org.example.App\nherald unmute --category promotion --all"

    @OptionGroup var target: MuteTargetOptions

    func run() throws {
        let file = UserKeyFile.path
        if let categories = target.categories { return try unmute(categories, file: file) }
        let stillMuted: [String]? = try UserKeyFile.change { switches in
            switch switches.unmuting(target.target) {
            case .failure(let refusal):
                EventReporter.complain("cannot unmute \(target.name): \(refusal.mute)")
                throw ExitCode(77)
            case .success(let edit):
                return (edit.map { [$0] } ?? [], edit.map { _ in switches.appsMutedByUser })
            }
        }
        guard let stillMuted else { return say("\(target.name) \(target.isAll ? "were" : "was") not muted") }
        say("unmuted \(target.name) (\(file))")
        if target.isAll, !stillMuted.isEmpty { say("still muted one by one: \(stillMuted.joined(separator: ", "))") }
    }

    /// Unmutes categories for the target, then says which of them the user's file still mutes:
    /// for every app (after an app's unmute) or one app at a time (after `--all`'s).
    private func unmute(_ categories: [MessageCategory], file: String) throws {
        let names = MuteTargetOptions.names(categories)
        let (changed, user) = try UserKeyFile.change { switches in
            switch switches.unmuting(categories, for: target.target) {
            case .failure(let refusal):
                EventReporter.complain("cannot unmute \(names) for \(target.name): \(refusal.mute)")
                throw ExitCode(77)
            case .success(let edit):
                return (edit.map { [$0] } ?? [], (edit != nil, switches.user))
            }
        }
        var lines: [String] = []
        if changed { lines.append("unmuted \(names) for \(target.name) (\(file))") }
        switch target.target {
        case .app:
            let forAll = categories.filter(user.allMutedCategories.contains)
            if !changed, forAll.isEmpty { lines.append("\(names) \(categories.count == 1 ? "was" : "were") not muted for \(target.name)") }
            if !forAll.isEmpty { lines.append("still muted for every app: \(MuteTargetOptions.names(forAll)) (\(file))") }
        case .allApps:
            if !changed { lines.append("\(names) \(categories.count == 1 ? "was" : "were") not muted for all apps") }
            let oneByOne = user.apps.sorted { $0.key < $1.key }.compactMap { app, settings -> String? in
                let muted = categories.filter(settings.mutedCategories.contains)
                return muted.isEmpty ? nil : "\(app) (\(MuteTargetOptions.names(muted)))"
            }
            if !oneByOne.isEmpty { lines.append("still muted one by one: \(oneByOne.joined(separator: ", "))") }
        }
        for line in lines { say(line) }
    }
}
