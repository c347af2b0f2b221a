import HeraldCore

/// One change the window's switches make to the person's key file, through the edits
/// `herald mute`, `unmute` and `budget` make (`OffSwitches.muting`, `unmuting`, `settingBudget`).
/// Each is also the window's action (`app.mute`, `app.unmute`, `app.budget`) with a string
/// parameter, which a switch activates and which D-Bus can activate too.
enum SwitchChange: Equatable {
    /// Mutes (`on`) or unmutes an app, or every app; only `categories` when given.
    case mute(MuteTarget, categories: [MessageCategory]?, on: Bool)
    /// Sets a figure of the person's budget (`nil` leaves it as it is).
    case budget(perDay: Int?, perWeek: Int?)

    /// The change an action names: `mute` or `unmute` with "APP-ID" or "APP-ID CATEGORY" (`*`
    /// for every app), `budget` with "per-day N" or "per-week N"; `nil` for any other.
    init?(action: String, parameter: String) {
        let words = parameter.split(separator: " ").map(String.init)
        switch (action, words.count) {
        case ("mute", 1...2), ("unmute", 1...2):
            let target: MuteTarget = words[0] == "*" ? .allApps : .app(words[0])
            var categories: [MessageCategory]?
            if words.count == 2 {
                guard let category = MessageCategory.named(words[1]) else { return nil }
                categories = [category]
            }
            self = .mute(target, categories: categories, on: action == "mute")
        case ("budget", 2):
            guard let figure = Int(words[1]), (0...AttentionBudget.largest).contains(figure) else { return nil }
            switch words[0] {
            case "per-day": self = .budget(perDay: figure, perWeek: nil)
            case "per-week": self = .budget(perDay: nil, perWeek: figure)
            default: return nil
            }
        default: return nil
        }
    }

    /// The action's name and parameter that make this change.
    var action: (name: String, parameter: String) {
        switch self {
        case .mute(let target, let categories, let on):
            let app = if case .app(let id) = target { id } else { "*" }
            return (on ? "mute" : "unmute", ([app] + (categories ?? []).map(\.rawValue)).joined(separator: " "))
        case .budget(let perDay, let perWeek):
            return ("budget", perDay.map { "per-day \($0)" } ?? "per-week \(perWeek ?? 0)")
        }
    }

    /// The edits of the user's key file under `switches`, or the sentence saying why the change
    /// cannot be made (an administrator's mute or ceiling, a day's figure above the week's).
    func edits(under switches: OffSwitches) -> Result<[OffSwitchEdit], SwitchRefusal> {
        switch self {
        case .mute(let target, let categories?, true):
            return .success(switches.muting(categories, for: target).map { [$0] } ?? [])
        case .mute(let target, nil, true):
            return .success(switches.muting(target).map { [$0] } ?? [])
        case .mute(let target, let categories?, false):
            return switches.unmuting(categories, for: target).map { $0.map { [$0] } ?? [] }
                .mapError { SwitchRefusal("cannot unmute \(StandingMute.names(categories)) for \(target.name): \($0.mute)") }
        case .mute(let target, nil, false):
            return switches.unmuting(target).map { $0.map { [$0] } ?? [] }
                .mapError { SwitchRefusal("cannot unmute \(target.name): \($0.mute)") }
        case .budget(let perDay, let perWeek):
            switch switches.settingBudget(perDay: perDay, perWeek: perWeek) {
            case .failure(let refusal): return .failure(SwitchRefusal("cannot set the budget: \(refusal)"))
            case .success(let edits):
                if let contradiction = switches.budgetContradiction(perDay: perDay, perWeek: perWeek) {
                    return .failure(SwitchRefusal("cannot set the budget to \(contradiction)"))
                }
                return .success(edits)
            }
        }
    }
}

/// Why a switch's change is not made, in a sentence.
struct SwitchRefusal: Error, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension MuteTarget {
    /// The app's id, or "all apps", in sentences (as `herald mute` says it).
    var name: String {
        switch self {
        case .app(let appID): return appID
        case .allApps: return "all apps"
        }
    }
}
