import FoundationEssentials

/// What a check would do with one message of the feed now (`herald check --explain`).
package enum MessageVerdict: Sendable, Equatable, CustomStringConvertible {
    /// It would be shown.
    case shows
    /// It would be shown, but the desktop asks for quiet: it comes at a check after quiet ends.
    case deferred(QuietReason)
    /// It is left out, for this reason.
    case skipped(MessageSkipReason)
    /// Its `Rollout` (the percentage) decides, and this install has not drawn its place in
    /// rollouts yet: the next check that sees the feed draws it, and keeps it.
    case rolloutNotDrawn(Double)
    /// The entry cannot be used at all (`Feed.problems`), for this reason.
    case unusable(String)

    /// `shows`, `deferred` or `not-shown`.
    package var decision: String {
        switch self {
        case .shows: return "shows"
        case .deferred: return "deferred"
        case .skipped, .rolloutNotDrawn, .unusable: return "not-shown"
        }
    }

    /// A stable name for the reason (`MessageSkipReason.name`, `QuietReason.name`,
    /// `rollout-not-drawn`, `unusable-entry`); `nil` for a message that shows.
    package var reason: String? {
        switch self {
        case .shows: return nil
        case .deferred(let quiet): return quiet.name
        case .skipped(let reason): return reason.name
        case .rolloutNotDrawn: return "rollout-not-drawn"
        case .unusable: return "unusable-entry"
        }
    }

    /// Why, in one sentence; `nil` for a message that shows.
    package var detail: String? {
        switch self {
        case .shows: return nil
        case .deferred(let quiet): return quiet.description
        case .skipped(let reason): return reason.description
        case .rolloutNotDrawn(let share):
            return "Rollout \(FeedValue.real(share).textValue!) %: this install has not drawn its place yet (the next check does)"
        case .unusable(let reason): return reason
        }
    }

    /// `shows`, or the decision, the detail and the reason's name: `not shown: already viewed (viewed)`.
    package var description: String {
        guard let detail, let reason else { return decision }
        return "\(decision.replacing("-", with: " ")): \(detail) (\(reason))"
    }
}

/// One message of the feed with the check's verdict on it.
package struct MessageExplanation: Sendable, Equatable {
    /// The message id.
    package var key: String
    /// Its title in the user's language, if it has one.
    package var title: String?
    /// What a check would do with it now.
    package var verdict: MessageVerdict

    /// Creates an explanation.
    package init(key: String, title: String?, verdict: MessageVerdict) {
        self.key = key
        self.title = title
        self.verdict = verdict
    }
}

extension CheckPolicy {
    /// What a check would do with every message of `feed` now, and why: one verdict per
    /// message in the order a check considers them (priority, then display order), then the
    /// entries that cannot be used. The rules are `select`'s and the cap's; nothing is drawn,
    /// claimed or stored.
    ///
    /// - Parameters:
    ///   - state: the state as it is (read, never changed).
    ///   - quiet: why the desktop asks for quiet now, if it does: what would show is deferred.
    ///   - context: the settings (their `audience` is who the user is), the time, the link
    ///     rules and which checks still run.
    package static func explain(_ feed: Feed, state: HeraldState, quiet: QuietReason?, in context: PolicyContext,
                                attention: (app: String, ledger: AttentionLedger)? = nil) -> [MessageExplanation] {
        let configuration = context.configuration
        let undrawn = state.rolloutDraw == nil
        // A place of 1 is past every rollout short of 100 %: without a draw, such a message is
        // explained as waiting for one rather than as shown or left out by chance.
        var selection = select(feed, state: state, in: context, rolloutDraw: { 1 })
        var verdicts: [String: MessageVerdict] = [:]
        if let attention, !configuration.debug {
            // The room is weighed as a check would take it, under a claim no check holds.
            let budgeted = AttentionPolicy.budgeted(selection.candidates, app: attention.app,
                                                    claim: HeraldState.Claim(processID: 0, check: nil, until: context.now),
                                                    ledger: attention.ledger, in: context)
            selection.candidates = budgeted.messages
            selection.skipped += budgeted.grant.heldBack
        }
        for (key, reason) in selection.skipped {
            if undrawn, case .outsideRollout(let share) = reason, share > 0 {
                verdicts[key] = .rolloutNotDrawn(share)
            } else {
                verdicts[key] = .skipped(reason)
            }
        }
        for (index, entry) in selection.candidates.enumerated() {
            if index >= configuration.maxNotificationsPerCheck {
                verdicts[entry.key] = .skipped(.overCap)
            } else {
                verdicts[entry.key] = quiet.map(MessageVerdict.deferred) ?? .shows
            }
        }
        let languages = configuration.audience?.languages ?? []
        let considered = byPriority(order(Array(feed.entries.values), oldestFirst: configuration.showOldestFirst)).map { entry in
            MessageExplanation(key: entry.key, title: entry.localised(to: languages).title, verdict: verdicts[entry.key]!)
        }
        let unusable = VersionComparison.caseInsensitiveOrder(of: feed.problems.map(\.key)).map { index in
            MessageExplanation(key: feed.problems[index].key, title: nil, verdict: .unusable(feed.problems[index].reason))
        }
        return considered + (configuration.showOldestFirst ? unusable : unusable.reversed())
    }
}

/// One registered prompt with a launch check's decision on it (`herald check --explain` with
/// `--prompts`).
package struct PromptExplanation: Sendable, Equatable, CustomStringConvertible {
    /// The prompt's name.
    package var name: String
    /// What the launch check would decide, this launch counted.
    package var decision: PromptDecision
    /// Why the desktop asks for quiet, for a prompt that would show: it comes at a launch after
    /// quiet ends. `nil` when the desktop does not ask, or the prompt would not show anyway.
    package var deferredFor: QuietReason?

    /// Creates an explanation.
    package init(name: String, decision: PromptDecision, deferredFor: QuietReason? = nil) {
        self.name = name
        self.decision = decision
        self.deferredFor = deferredFor
    }

    /// `shows`, `deferred`, `waits` or `done`.
    package var verdict: String {
        if deferredFor != nil { return "deferred" }
        switch decision {
        case .show: return "shows"
        case .cancelled, .viewed: return "done"
        case .waitingForDays, .waitingForUses, .reminded, .shownElsewhere: return "waits"
        }
    }

    /// A stable name for the reason: the decision's (`due`, `uses`, `reminded`…), or the
    /// desktop's reason for quiet (`do-not-disturb`) when deferred.
    package var reason: String { deferredFor?.name ?? decision.name }

    /// Why, in one sentence: the decision's (`waits: 3 of 10 uses`), or the desktop's reason
    /// for quiet when deferred.
    package var detail: String { deferredFor?.description ?? decision.description }

    /// `shows: due`, `waits: 3 of 10 uses`, `is deferred: do not disturb is on (…) (do-not-disturb)`.
    package var description: String { deferredFor == nil ? detail : "is deferred: \(detail) (\(reason))" }
}

extension CheckPolicy {
    /// What a launch check would decide for each prompt now, in name order: the launch is
    /// counted first, as a launch check counts it, then the rules of `PromptPolicy.decide`, a
    /// claim of a live check elsewhere, and the desktop's quiet apply. Nothing is counted,
    /// claimed or stored.
    ///
    /// - Parameters:
    ///   - prompts: the registered prompts, one per name.
    ///   - state: the state as it is (read, never changed).
    ///   - quiet: why the desktop asks for quiet now, if it does: a prompt that would show is deferred.
    ///   - context: the time, and whether the check holding a claim still runs.
    package static func explain(_ prompts: [Prompt], state: HeraldState, quiet: QuietReason?, in context: PolicyContext) -> [PromptExplanation] {
        let now = context.now
        let counted = PromptPolicy.countLaunch(of: prompts, in: state.prompts, now: now)
        return prompts.sorted { $0.name < $1.name }.map { prompt in
            let decision = PromptPolicy.decide(prompt, state: counted[prompt.name] ?? PromptState(), now: now)
            guard case .show = decision else { return PromptExplanation(name: prompt.name, decision: decision) }
            if let claim = state.presentingPrompts[prompt.name], isHeldElsewhere(claim, claimant: nil, in: context) {
                return PromptExplanation(name: prompt.name, decision: .shownElsewhere)
            }
            return PromptExplanation(name: prompt.name, decision: decision, deferredFor: quiet)
        }
    }
}
