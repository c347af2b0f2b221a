import FoundationEssentials

/// What one check will show, and the claims that keep every other check from showing it too.
///
/// Made by `CheckPolicy.plan` inside one locked update of the state, so choosing and claiming
/// are one step: two checks, in one process or in two, can never both claim a message
/// (DESIGN.md D16).
package struct CheckPlan: Sendable {
    /// Messages this check may show, in display order. The first ones, as many as the
    /// per-check cap, are claimed; the presentation step claims a later one (`claimLater`)
    /// only when it passes over a claimed one, and drops the claims of what it does not show.
    package var messages: [FeedEntry]
    /// How many of `messages`, from the first, the plan claimed.
    package var claimedMessages: Int
    /// The messages the plan claimed, in display order.
    package var claimed: ArraySlice<FeedEntry> { messages.prefix(claimedMessages) }
    /// Messages left out, with the reason, in display order.
    package var skipped: [(key: String, reason: MessageSkipReason)]
    /// Every registered prompt with its decision, in name order; the due ones are claimed.
    package var prompts: [(prompt: Prompt, decision: PromptDecision)]
    /// The state with the claims applied (and debug mode's reset of the answered lists).
    package var state: HeraldState
    /// The attention ledger with the room the claimed messages take and the messages the
    /// budget holds back; `nil` when the plan was made without one.
    package var ledger: AttentionLedger?

    /// Whether the plan shows anything at all, and so needs a notification server.
    package var showsAnything: Bool { !messages.isEmpty || !duePrompts.isEmpty }

    /// The prompts claimed for this check, in name order.
    package var duePrompts: [Prompt] {
        prompts.compactMap { item in
            if case .show = item.decision { return item.prompt }
            return nil
        }
    }
}

extension CheckPolicy {
    /// Chooses what a check shows and claims it (ORIGINALS.md §1.7–1.8 for messages, §2.4 for
    /// prompts, DESIGN.md D16 for the claims).
    ///
    /// - Parameters:
    ///   - feed: the decoded feed, or `nil` when it was not fetched.
    ///   - local: the messages Herald made itself (What's new), planned as the feed's are.
    ///   - prompts: the registered prompts, decided and, when due, claimed.
    ///   - claimant: the check that will hold the claims.
    ///   - claimUntil: when the claims lapse if nobody releases them.
    ///   - context: the settings, the time, the link rules and which checks still run.
    ///   - rolloutDraw: the install's place in every rollout when the state has none yet. A check
    ///     draws it once and passes the same number to every plan it makes, so that a plan made
    ///     again (on a state changed since) cannot draw a second time.
    ///   - attention: the app's id and the person's attention ledger: the messages claimed take
    ///     room in it, in rank order across apps (`AttentionPolicy.grant`), and those without
    ///     room are skipped and wait. `nil` (and debug mode) plans without the budget.
    package static func plan(
        feed: Feed?, local: [FeedEntry] = [], prompts: [Prompt], state: HeraldState, claimant: Claimant, claimUntil: Date,
        in context: PolicyContext, rolloutDraw: Double = Double.random(in: 0..<1), attention: (app: String, ledger: AttentionLedger)? = nil
    ) -> CheckPlan {
        let (configuration, now) = (context.configuration, context.now)
        var state = state
        var messages: [FeedEntry] = []
        var skipped: [(key: String, reason: MessageSkipReason)] = []
        var claimed = 0
        var ledger = attention?.ledger
        if feed != nil || !local.isEmpty {
            let selection = select(feed, adding: local, state: state, claimant: claimant, in: context, rolloutDraw: { rolloutDraw })
            state = selection.state
            messages = selection.candidates
            skipped = selection.skipped
            claimed = min(messages.count, configuration.maxNotificationsPerCheck)
            if let attention, !configuration.debug {
                let budgeted = AttentionPolicy.budgeted(messages, app: attention.app, claim: claimant.claim(until: claimUntil),
                                                        ledger: attention.ledger, in: context)
                messages = budgeted.messages
                skipped += budgeted.grant.heldBack
                claimed = budgeted.grant.granted.count
                ledger = budgeted.grant.ledger
            }
            // Only what the cap lets this check show is claimed: a feed of thousands of pending
            // messages costs a state of three claims, not thousands.
            for message in messages.prefix(claimed) {
                state.presenting[message.key] = claimant.claim(until: claimUntil)
            }
        }
        let decided = prompts.sorted { $0.name < $1.name }.map { prompt -> (prompt: Prompt, decision: PromptDecision) in
            var decision = PromptPolicy.decide(prompt, state: state.prompts[prompt.name] ?? PromptState(), now: now)
            if case .show = decision {
                if let claim = state.presentingPrompts[prompt.name], isHeldElsewhere(claim, claimant: claimant, in: context) {
                    decision = .shownElsewhere
                } else {
                    state.presentingPrompts[prompt.name] = claimant.claim(until: claimUntil)
                }
            }
            return (prompt, decision)
        }
        return CheckPlan(messages: messages, claimedMessages: claimed, skipped: skipped, prompts: decided, state: state, ledger: ledger)
    }

    /// Claims a message of the plan that it did not claim, because a claimed one before it was
    /// passed over (the app declined it, no application opens its link). Returns why it may no
    /// longer be shown (answered, put off or claimed by another check since the plan), leaving
    /// `state` as it was, or `nil` with the claim added to `state`.
    package static func claimLater(
        _ message: FeedEntry, state: inout HeraldState, claimant: Claimant, claimUntil: Date, in context: PolicyContext
    ) -> MessageSkipReason? {
        if !context.configuration.showAnswered, !context.configuration.debug {
            if state.ignored?.contains(message.key) == true { return .ignored }
            if state.viewed.contains(message.key) { return .viewed }
        }
        if let reason = exclusion(of: message, state: state, claimant: claimant, in: context) {
            return reason
        }
        state.presenting[message.key] = claimant.claim(until: claimUntil)
        return nil
    }

    /// Drops the claims `claimant` holds on these messages and prompts; claims another check
    /// made after this one's lapsed are left alone.
    package static func release(messages: some Sequence<String>, prompts: some Sequence<String> = [String](),
                               heldBy claimant: Claimant, in state: HeraldState) -> HeraldState {
        var state = state
        for key in messages where state.presenting[key]?.isHeld(by: claimant) == true { state.presenting[key] = nil }
        for name in prompts where state.presentingPrompts[name]?.isHeld(by: claimant) == true { state.presentingPrompts[name] = nil }
        return state
    }
}

extension CheckPolicy {
    /// Drops every claim held by any check of one process: what a process that must exit at
    /// once (a signal while its loop is stuck) leaves behind, so its messages show again.
    package static func release(heldByProcess processID: Int32, in state: HeraldState) -> HeraldState {
        var state = state
        state.presenting = state.presenting.filter { $0.value.processID != processID }
        state.presentingPrompts = state.presentingPrompts.filter { $0.value.processID != processID }
        return state
    }
}
