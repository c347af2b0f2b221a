import FoundationEssentials

/// What the user has answered, as iNotify's advanced properties exposed it
/// (`viewedNotifications`, `ignoredNotifications`, `lastChecked`, `lastReminded`;
/// ORIGINALS.md §1.2), with Herald's per-message reminders (DESIGN.md D6).
///
/// It is a view of `HeraldState`: reading and writing it through `Herald` goes through the
/// same locked, atomic update as a click on a notification.
public struct MessageAnswers: Sendable, Equatable {
    /// Ids the user viewed or acknowledged.
    public var viewed: Set<String>
    /// Ids the user ignored.
    public var ignored: Set<String>
    /// When each id was last put off with "remind me later".
    public var reminded: [String: Date]
    /// When the last successful check finished; `nil` before the first.
    public var lastChecked: Date?

    /// Creates a set of answers.
    public init(viewed: Set<String> = [], ignored: Set<String> = [], reminded: [String: Date] = [:], lastChecked: Date? = nil) {
        self.viewed = viewed
        self.ignored = ignored
        self.reminded = reminded
        self.lastChecked = lastChecked
    }

    /// The answers kept in a state. Like iNotify's getters, a missing ignore list reads as empty.
    public init(_ state: HeraldState) {
        self.init(viewed: state.viewed, ignored: state.ignored ?? [], reminded: state.reminded, lastChecked: state.lastChecked)
    }

    /// `state` with these answers in place of its own; everything else is kept.
    ///
    /// The first-launch marker (a missing ignore list, ORIGINALS.md §1.5) survives as long as
    /// the ignore list stays empty, so setting answers does not pass the first launch.
    public func applied(to state: HeraldState) -> HeraldState {
        var state = state
        state.viewed = viewed
        state.ignored = state.ignored == nil && ignored.isEmpty ? nil : ignored
        state.reminded = reminded
        state.lastChecked = lastChecked
        return state
    }
}

extension CheckPolicy {
    /// Whether a message is viewed or ignored, where a check shows no answered message (neither
    /// `showAnswered` nor `debug`): one such a check has on screen was answered elsewhere since
    /// (`herald inbox view`, the app's own page in another process), and a click on its
    /// notification records nothing over that answer.
    package static func isAnswered(_ key: String, in state: HeraldState, _ configuration: CheckConfiguration) -> Bool {
        guard !configuration.showAnswered, !configuration.debug else { return false }
        return state.viewed.contains(key) || state.ignored?.contains(key) == true
    }

    /// Records an answer given in the app's own interface (iNotify's advanced use): the same
    /// change as the notification's button (`apply`), except that a claim another running
    /// check holds on the message stays with that check, which lets go of it when its own
    /// notification goes.
    ///
    /// - Parameters:
    ///   - context: the time of the answer, and whether the check holding a claim still runs
    ///     (see `HeraldState.Claim`).
    package static func applyFromApp(_ answer: Answer, to key: String, state: HeraldState, in context: PolicyContext) -> HeraldState {
        var answered = apply(answer, to: key, state: state, now: context.now)
        if let claim = state.presenting[key], isHeldElsewhere(claim, claimant: nil, in: context) {
            answered.presenting[key] = claim
        }
        return answered
    }
}
