import FoundationEssentials

/// What Herald remembers of one prompt (ORIGINALS.md §2.7).
package struct PromptState: Codable, Sendable, Equatable {
    /// When the prompt was first counted.
    package var firstUsed: Date?
    /// When the user last chose remind (or the action of a recurring prompt).
    package var lastReminded: Date?
    /// Launches counted since the prompt was first registered.
    package var usesCount: Int
    /// The action was chosen (non-recurring): done.
    package var viewed: Bool
    /// Cancel was chosen: never again, even when recurring.
    package var cancelled: Bool

    /// A prompt never counted.
    package init(firstUsed: Date? = nil, lastReminded: Date? = nil, usesCount: Int = 0, viewed: Bool = false, cancelled: Bool = false) {
        self.firstUsed = firstUsed
        self.lastReminded = lastReminded
        self.usesCount = usesCount
        self.viewed = viewed
        self.cancelled = cancelled
    }
}

/// Whether a prompt shows now, and why.
public enum PromptDecision: Sendable, Equatable, CustomStringConvertible {
    /// It is due (or in preview mode).
    case show(preview: Bool)
    /// Cancelled: never again.
    case cancelled
    /// Its action was chosen and it does not recur.
    case viewed
    /// Not enough time since the first use.
    case waitingForDays(elapsed: Duration, needed: Duration)
    /// Not enough uses.
    case waitingForUses(count: Int, needed: Int)
    /// Reminded too recently: `hoursAgo` hours ago, within the prompt's remind period.
    case reminded(hoursAgo: Double, remindPeriod: Duration)
    /// Due, but another running check is showing it (DESIGN.md D16).
    case shownElsewhere

    /// A short machine-readable name.
    public var name: String {
        switch self {
        case .show(let preview): return preview ? "preview" : "due"
        case .cancelled: return "cancelled"
        case .viewed: return "viewed"
        case .waitingForDays: return "days"
        case .waitingForUses: return "uses"
        case .reminded: return "reminded"
        case .shownElsewhere: return "shown-elsewhere"
        }
    }

    /// The explanation after "'name' …", e.g. "waits: 3 of 10 uses".
    public var description: String {
        switch self {
        case .show(let preview): return preview ? "shows: preview mode" : "shows: due"
        case .cancelled: return "is done: cancelled"
        case .viewed: return "is done: viewed"
        case .waitingForDays(let elapsed, let needed): return "waits: used for \(Self.days(elapsed.days)) of \(Self.days(needed.days))"
        case .waitingForUses(let count, let needed): return "waits: \(count) of \(needed) uses"
        case .reminded(let hours, let period):
            return "waits: reminded \(NumberText.oneDecimal(hours)) h ago, remind period \(Self.days(period.days))"
        case .shownElsewhere: return "waits: another process is showing it"
        }
    }

    private static func days(_ value: Double) -> String { "\(NumberText.oneDecimal(value)) day" + (value == 1 ? "" : "s") }
}

/// iPrompt's rules as pure functions of prompt, state and time (ORIGINALS.md §2.3–2.5).
package enum PromptPolicy {
    /// Counts one use for each prompt at a launch: once per name, however often registered.
    package static func countLaunch(of prompts: [Prompt], in states: [String: PromptState], now: Date) -> [String: PromptState] {
        var states = states
        for name in Set(prompts.map(\.name)) {
            var state = states[name] ?? PromptState()
            // A first use dated in the future (a clock that was wrong) is stored as now.
            if state.firstUsed.map({ $0 > now }) ?? true { state.firstUsed = now }
            if let reminded = state.lastReminded, reminded > now { state.lastReminded = now }
            state.usesCount += 1
            states[name] = state
        }
        return states
    }

    /// Decides whether a prompt shows now; the first rule that applies wins (§2.4). The
    /// delegate is asked afterwards, except in preview mode.
    package static func decide(_ prompt: Prompt, state: PromptState, now: Date) -> PromptDecision {
        if prompt.previewMode { return .show(preview: true) }
        if state.cancelled { return .cancelled }
        if state.viewed { return .viewed }
        // A date in the future (a run with the clock ahead) counts as now, as in the gate.
        let elapsed = Duration.seconds(now.timeIntervalSince(min(state.firstUsed ?? now, now)))
        if elapsed < prompt.daysUntilPrompt { return .waitingForDays(elapsed: elapsed, needed: prompt.daysUntilPrompt) }
        if state.usesCount < prompt.usesUntilPrompt { return .waitingForUses(count: state.usesCount, needed: prompt.usesUntilPrompt) }
        if let reminded = state.lastReminded.map({ min($0, now) }), now.timeIntervalSince(reminded) < prompt.remindPeriod.seconds {
            return .reminded(hoursAgo: now.timeIntervalSince(reminded) / 3600, remindPeriod: prompt.remindPeriod)
        }
        return .show(preview: false)
    }

    /// Applies a button (§2.5, by identity): cancel is never again, remind waits, the action
    /// is done unless the prompt recurs, in which case it waits like a reminder.
    package static func apply(_ button: PromptButton, to prompt: Prompt, state: PromptState, now: Date) -> PromptState {
        var state = state
        switch button {
        case .cancel: state.cancelled = true
        case .remind: state.lastReminded = now
        case .action:
            if prompt.recurring { state.lastReminded = now } else { state.viewed = true }
        }
        return state
    }

    /// Records a button in the app's state and drops the prompt's claim.
    package static func apply(_ button: PromptButton, to prompt: Prompt, in state: HeraldState, now: Date) -> HeraldState {
        var state = state
        state.prompts[prompt.name] = apply(button, to: prompt, state: state.prompts[prompt.name] ?? PromptState(), now: now)
        state.presentingPrompts[prompt.name] = nil
        return state
    }

    /// The content of a prompt's notification: action (with the body click, D24), remind unless its label
    /// is empty, cancel only when labelled.
    package static func content(of prompt: Prompt, labels: Labels, capabilities: Set<String>) -> NotificationContent {
        let markup = capabilities.contains("body-markup")
        var actions: [NotificationAction] = []
        if capabilities.contains("actions") {
            let action = nonEmpty(prompt.actionButton) ?? labels.ok
            actions = NotificationAction.primary(NotificationAction(id: PromptButton.action.rawValue, label: action), capabilities: capabilities)
            let remind = prompt.remindButton ?? labels.remind
            if !remind.isEmpty { actions.append(NotificationAction(id: PromptButton.remind.rawValue, label: NotificationText.summary(remind))) }
            if let cancel = nonEmpty(prompt.cancelButton) { actions.append(NotificationAction(id: PromptButton.cancel.rawValue, label: cancel)) }
        }
        return NotificationContent(summary: NotificationText.summary(prompt.title), body: NotificationText.body(prompt.message, markup: markup), actions: actions)
    }

    /// The button an action id stands for; "default" (a click on the body) is the action.
    package static func button(forActionID id: String) -> PromptButton? {
        id == NotificationAction.defaultID ? .action : PromptButton(rawValue: id)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text.map(NotificationText.summary), !text.isEmpty else { return nil }
        return text
    }
}
