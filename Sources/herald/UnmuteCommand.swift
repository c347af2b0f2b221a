import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// `herald unmute`: an app's messages (or every app's) again, unless the administrator muted it.
struct UnmuteCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "unmute",
        abstract: "Let an app's messages (or every app's) through again for this user.",
        discussion: """
            Undoes 'herald mute' in $XDG_CONFIG_HOME/herald/herald.conf. Unmuting one app while \
            all apps are muted makes it an exception. A mute in the administrator's key file \
            ($XDG_CONFIG_DIRS/herald/herald.conf) cannot be undone here. Exit codes: 0 done, \
            64 usage, 73 the file cannot be written, 77 muted by the administrator, 78 a key \
            file cannot be read.
            """
    )

    static let example = "herald unmute --app-id org.example.App"

    @OptionGroup var target: MuteTargetOptions

    func run() throws {
        let file = MuteTargetOptions.userFile
        let stillMuted: [String]? = try MuteTargetOptions.change { switches in
            switch switches.unmuting(target.target) {
            case .failure(let refusal):
                EventReporter.complain("cannot unmute \(target.name): \(refusal.mute)")
                throw ExitCode(77)
            case .success(let edit):
                return (edit, edit.map { _ in switches.appsMutedByUser })
            }
        }
        guard let stillMuted else { return say("\(target.name) \(target.isAll ? "were" : "was") not muted") }
        say("unmuted \(target.name) (\(file))")
        if target.isAll, !stillMuted.isEmpty { say("still muted one by one: \(stillMuted.joined(separator: ", "))") }
    }
}
