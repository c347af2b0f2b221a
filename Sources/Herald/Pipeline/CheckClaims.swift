import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// The plan and the claims of a check (DESIGN.md D16): what it chooses to show is claimed in the
/// same locked update, later claims are made one at a time as the presentation passes over a
/// claimed message, and every claim the check gives back goes through `releasing`.
extension Check {
    /// What the feed stage brought: nothing (not due, declined, no feed), a failure, or a feed.
    enum FeedStep {
        case notRun
        case failed(HeraldError)
        case fetched(LoadedFeed, from: String)

        var feed: Feed? {
            if case .fetched(let loaded, _) = self { return loaded.feed }
            return nil
        }

        /// The feed stage as the check's outcome records it (DESIGN.md D4): a fetch, feed or
        /// signature failure is a failure; another one (a missing library) counts as neither.
        var ending: CheckEnding.Feed {
            switch self {
            case .notRun: return .notRun
            case .fetched(let loaded, let url):
                let signature = loaded.signedMetadata.flatMap { metadata in loaded.signature.map { (metadata, $0, url) } }
                return .fetched(.init(cacheRecord: loaded.cacheRecord, signature: signature))
            case .failed(let error):
                switch error {
                case .fetch, .feed, .signature: return .failed(reason: error.description, countsAsFailure: true, retryAfter: error.retryAfter)
                case .noNotificationServer, .configuration, .keyFile, .presentation, .state, .libraryUnavailable:
                    return .failed(reason: error.description, countsAsFailure: false)
                }
            }
        }
    }

    /// Plans what to show and claims it, in one update; then presents it. A check of a run of
    /// several apps first meets the others at the run's rendezvous (`Phase.meeting`), so that one
    /// budget decision weighs every app's messages.
    func plan(after step: FeedStep, _ target: FeedToFetch, snapshot: HeraldState?) {
        guard let rendezvous = inputs.rendezvous else { return claim(after: step, target, snapshot: snapshot) }
        if case .stopped = phase { return claim(after: step, target, snapshot: snapshot) }
        phase = .meeting
        let candidates = rendezvousCandidates(step.feed, target, snapshot: snapshot)
        rendezvous.arrive(app: configuration.appID, candidates: candidates, cap: configuration.check.maxNotificationsPerCheck,
                          budget: target.offSwitches.budget) { [self] in claim(after: step, target, snapshot: snapshot) }
    }

    /// Plans and claims, once the check's run has met at its rendezvous (when it has one).
    ///
    /// The server's capabilities are asked (a synchronous D-Bus call) before the update, and
    /// only when a plan on the snapshot shows something, so the lock is never held across D-Bus
    /// and a check with nothing to show never touches the bus. The desktop's quiet is asked
    /// then too, once.
    private func claim(after step: FeedStep, _ target: FeedToFetch, snapshot: HeraldState?) {
        let now = inputs.clock.now
        func ending(_ screen: CheckEnding.Screen) -> CheckEnding {
            CheckEnding(feed: step.ending, screen: screen, plannedAt: now, now: inputs.clock.now)
        }
        if case .stopped = phase { return finish(ending(.stopped)) }
        if let feed = step.feed, snapshot?.handedOver.isEmpty != true { withdrawHandedOver(from: feed) }
        // Prompts are counted and shown at a launch; a manual check is about the feed alone.
        let prompts = launch ? inputs.prompts() : []
        if case .notRun = step, prompts.isEmpty, !whatsNewChanges(snapshot) { return finish(nil) }
        let draw = rolloutDraw
        var capabilities: Set<String>?
        /// Asks for quiet and the server, once there is something to show: the screen the check
        /// ends on when it cannot show it, or `nil` with the capabilities known.
        func screenUnavailable(releasing claims: CheckEnding.Claims, _ planned: CheckPlan) -> CheckEnding.Screen? {
            if let quiet = inputs.quietReason() {
                delegate?.herald(herald, didReport: .checkDeferred(quiet))
                return .deferredForQuiet(released: claims, waiting: planned.claimed.map(candidate))
            }
            do {
                capabilities = try inputs.route.presenter.capabilities()
                return nil
            } catch {
                report(error as? HeraldError ?? .noNotificationServer)
                return .noServer(released: claims)
            }
        }
        if let snapshot {
            // The ledger as the plan that claims would take it: only when it goes through it, read once.
            var read: AttentionLedger?
            let local = whatsNew(in: snapshot)?.messages ?? []
            let ledger = usesLedger(for: step.feed, local: local, state: snapshot, read: { read = ledgerSnapshot; return read })
                ? read ?? ledgerSnapshot : nil
            let planned = makePlan(step.feed, local, prompts, target, state: snapshot, ledger: ledger, draw: draw)
            if planned.showsAnything, let screen = screenUnavailable(releasing: .init(), planned) {
                // What quiet, or a missing server, keeps off the screen still reached the person.
                recordInInbox(planned, from: step, local: local)
                return finish(ending(screen))
            }
        }
        var local: [FeedEntry] = []
        guard let plan = (updateState { state -> CheckPlan in
            var budgeted: CheckPlan?
            // The version is recorded whether or not its message can be shown now.
            let whatsNew = whatsNew(in: state)
            if let whatsNew { state.seenVersion = whatsNew.seen }
            local = whatsNew?.messages ?? []
            if usesLedger(for: step.feed, local: local, state: state, read: { ledgerSnapshot }) {
                budgeted = updateLedger { ledger -> CheckPlan in
                    let plan = makePlan(step.feed, local, prompts, target, state: state, ledger: ledger, draw: draw)
                    if let changed = plan.ledger { ledger = changed }
                    return plan
                }
            }
            let plan = budgeted ?? makePlan(step.feed, local, prompts, target, state: state, ledger: nil, draw: draw)
            // Nothing to show: the outcome goes in this update, one write.
            state = plan.showsAnything ? plan.state : CheckPolicy.finished(ending(.nothingShown), in: plan.state, claimant: claimant)
            return plan
        }) else { return finish(nil) }
        if !plan.showsAnything {
            recordInInbox(plan, from: step, local: local)
            report(plan, feedFetched: step.feed != nil)
            for (prompt, decision) in plan.prompts { delegate?.herald(herald, didReport: .promptDecided(prompt, decision)) }
            // Its outcome is written already, with the plan.
            return finish(nil)
        }
        // The state changed since the snapshot, or there was none: there is something to show after all.
        if capabilities == nil, let screen = screenUnavailable(releasing: claims(of: plan), plan) { return finish(ending(screen)) }
        report(plan, feedFetched: step.feed != nil)
        var presenting = Presenting(target: target, capabilities: capabilities ?? [], plannedAt: now)
        presenting.record.budgeted = plan.ledger != nil
        presenting.pendingInbox = InboxRecording(plan: plan, step: step, local: local)
        present(plan, after: step, presenting)
    }

    /// The messages this check would weigh against the budget, for its run's rendezvous: those
    /// a plan on the snapshot would claim, before the budget; none when the check does not go
    /// through the ledger.
    private func rendezvousCandidates(_ feed: Feed?, _ target: FeedToFetch, snapshot: HeraldState?) -> [AttentionCandidate] {
        guard feed != nil || configuration.whatsNew, let state = snapshot ?? (try? store.snapshot()) else { return [] }
        let local = whatsNew(in: state)?.messages ?? []
        guard usesLedger(for: feed, local: local, state: state, read: { ledgerSnapshot }) else { return [] }
        let planned = makePlan(feed, local, [], target, state: state, ledger: nil, draw: rolloutDraw)
        return planned.claimed.map(candidate)
    }

    private func makePlan(_ feed: Feed?, _ local: [FeedEntry], _ prompts: [Prompt], _ target: FeedToFetch, state: HeraldState,
                          ledger: AttentionLedger?, draw: Double) -> CheckPlan {
        let now = inputs.clock.now
        return CheckPolicy.plan(feed: feed, local: local, prompts: prompts, state: state, claimant: claimant, claimUntil: claimUntil(now),
                                in: herald.policyContext(at: now, offSwitches: target.offSwitches), rolloutDraw: draw,
                                attention: ledger.map { (configuration.appID, $0) })
    }

    /// The claims `plan` made for this check.
    private func claims(of plan: CheckPlan) -> CheckEnding.Claims {
        CheckEnding.Claims(messages: plan.claimed.map(\.key), prompts: plan.duePrompts.map(\.name))
    }

    /// Until when a claim made at `now` holds: the wait limit, or a day without one.
    func claimUntil(_ now: Date) -> Date {
        now.addingTimeInterval((configuration.waitLimit ?? .days(1)).seconds)
    }

    /// Claims a message the plan left unclaimed, in one update with the release of the claimed
    /// ones passed over so far. Returns whether it is claimed; when it is not, it is reported
    /// as skipped (or the state failure is) and counted as not shown.
    func claimLater(_ message: FeedEntry, claimed: inout Set<String>) -> Bool {
        let now = inputs.clock.now
        let passedOver = presenting.record.notShown.messages.filter { claimed.contains($0) }
        let until = claimUntil(now)
        let context = herald.policyContext(at: now, offSwitches: presenting.target.offSwitches)
        let budgeted = presenting.record.budgeted
        let outcome = updateState { state -> MessageSkipReason? in
            state = CheckPolicy.release(messages: passedOver, heldBy: claimant, in: state)
            var claimedLater = state
            if let reason = CheckPolicy.claimLater(message, state: &claimedLater, claimant: claimant, claimUntil: until, in: context) {
                return reason
            }
            // A ledger that cannot be written leaves the message to show without the budget.
            if budgeted, let reason = takeRoom(for: message, givingBack: passedOver, until: until, in: context) {
                return reason
            }
            state = claimedLater
            return nil
        }
        guard let outcome else {
            presenting.record.notShown.messages.append(message.key)
            return false
        }
        claimed.subtract(passedOver)
        if let reason = outcome {
            skip(message, reason)
            return false
        }
        claimed.insert(message.key)
        return true
    }

    /// The state without the claims this check holds on `items`.
    func releasing(_ items: [Notice], in state: HeraldState) -> HeraldState {
        CheckPolicy.release(messages: items.flatMap(\.messageKeys), prompts: items.flatMap(\.promptNames), heldBy: claimant, in: state)
    }
}
