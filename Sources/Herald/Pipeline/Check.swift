import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// One check, from the gate to the last answer: the pipeline of DESIGN.md, "How a check flows".
///
/// It owns what the check has on screen, its wait timer and what it has reported, and it is
/// the one place that decides whether the check succeeded. The state is touched in few,
/// whole steps: the gate (with the launch's prompt uses), the plan with its claims, the
/// check's outcome with what the presentation did not show, then one update per answer.
///
/// Everything it works with comes in one value, `CheckInputs`, links it opens included; its
/// `Herald` is only whom the delegate's events are about (and whose delegate hears them), and
/// whom it tells that it ended.
///
/// While anything is on screen, the notification callbacks hold the check and the check holds
/// its `Herald`, so neither goes away before the answers are in; the last answer or close
/// ends that.
@MainContext
final class Check {
    /// Whose claims this check makes.
    let claimant: Claimant
    /// The `Herald` the events are about; held, so that it outlives the answers.
    private let herald: Herald
    private let inputs: CheckInputs
    private let launch: Bool
    private let force: Bool
    private var onScreen: [Notice.Subject: Shown] = [:]
    /// What the presentation step has yet to do before the check can end.
    private var presenting = true
    private var waitTimer: UInt32 = 0
    private var reported: Set<String> = []
    /// The last state write that failed, for the answer it could not record.
    private var lastStateFailure: HeraldError?
    private var capabilities: Set<String>?
    private var serverMissing = false
    private var shownSoFar = 0
    /// Notifications the server refused in this check.
    private var refused = 0
    /// When the check planned: the time its outcome is recorded at.
    private var plannedAt: Date?
    private var ended = false
    /// Told to stop (`closeAll`) before the presentation: nothing more is planned or shown.
    private var stopped = false
    /// Why the desktop asks for quiet, asked once, when the check first has something to show.
    private lazy var quiet: QuietReason? = inputs.quietReason()
    private var deferralReported = false
    /// The install's place in every rollout, should the state have none yet: drawn once per
    /// check, so the plan on a snapshot and the plan that claims agree, and only by a check
    /// that plans (a draw is a system call that a check that is not due never needs).
    private lazy var rolloutDraw = Double.random(in: 0..<1)
    /// The feed this check fetches: the app's own, or the administrator's mirror.
    private var feedURL: String?
    /// The administrator's mirror, told to the delegate when the check fetches from it.
    private var mirror: FeedMirror?
    /// The categories muted for the app and the person's attention budget, from the key files.
    private var attention = OffSwitchDecision()
    /// Whether the plan took room in the attention ledger, which later claims and the end of
    /// the presentation settle.
    private var budgeted = false
    /// The record of the copy the fetch left in the cache (`LoadedFeed.cacheRecord`): its
    /// validators and, for a feed URL with `{lang}`, the URL that answered.
    private var fetchedRecord: HeraldState.CachedFeed?

    private struct Shown {
        let item: Notice
        let handle: PresentedMessage
        /// Shown as the check's n-th item: closing goes in the order of showing.
        let sequence: Int
    }

    /// What the feed step brought: nothing (not due, declined, no feed), a failure, or a feed.
    private enum FeedStep {
        case notRun
        case failed(HeraldError)
        case fetched(LoadedFeed)

        var feed: Feed? {
            if case .fetched(let loaded) = self { return loaded.feed }
            return nil
        }
    }

    init(for herald: Herald, inputs: CheckInputs, launch: Bool, force: Bool) {
        self.herald = herald
        self.inputs = inputs
        self.launch = launch
        self.force = force
        claimant = Self.nextClaimant()
        Self.running.insert(claimant.check)
    }

    private var configuration: Herald.Configuration { inputs.configuration }
    private var delegate: HeraldDelegate? { herald.delegate }
    private var store: any StateStore { inputs.store }

    // MARK: - Gate and feed

    /// Runs the check: counts the launch's prompt uses, asks the gate, fetches when due.
    func start() {
        guard readOffSwitches() else { return presentationEnded() }
        let feedRuns = feedURL != nil && (force || configuration.checkAtLaunch)
        let prompts = inputs.prompts()
        let countUses = launch && !prompts.isEmpty
        let takesAnswersGivenAway = launch && configuration.reportsAnswersGivenAway
        let now = inputs.clock.now
        // Without uses to count, the gate reads a snapshot, without the lock: a check that is
        // not due writes nothing and waits for no other process. It takes the lock only when
        // its decision changes the state (a first launch, a date from a wrong clock) or there
        // are answers given while the app was away to take.
        if feedRuns, !countUses, let snapshot = try? store.snapshot(), !takesAnswersGivenAway || snapshot.answeredAway.isEmpty {
            let gate = CheckPolicy.gate(configuration.check, state: snapshot, now: now, force: force)
            if gate.state == snapshot { return run(gate) }
        }
        var answersGivenAway: [(key: String, answer: Answer, at: Date)] = []
        let gate = updateState { state -> (skip: CheckSkipReason?, state: HeraldState) in
            if takesAnswersGivenAway { answersGivenAway = CheckPolicy.takeAnswersGivenAway(from: &state) }
            if countUses { state.prompts = PromptPolicy.countLaunch(of: prompts, in: state.prompts, now: now) }
            guard feedRuns else { return (nil, state) }
            let gate = CheckPolicy.gate(configuration.check, state: state, now: now, force: force)
            state = gate.state
            return gate
        }
        // Told only once they are taken out of the state file: a write that failed leaves them
        // for the next launch.
        for given in gate == nil ? [] : answersGivenAway {
            delegate?.herald(herald, didReport: .answeredWhileAway(key: given.key, answer: given.answer, at: given.at))
        }
        guard feedRuns, let gate else { return plan(after: .notRun, snapshot: gate?.state) }
        run(gate)
    }

    /// Acts on the gate's decision: skips the check, or fetches the feed and plans.
    private func run(_ gate: (skip: CheckSkipReason?, state: HeraldState)) {
        if let skip = gate.skip { return skipCheck(skip, snapshot: gate.state) }
        if !force, delegate?.heraldShouldCheck(herald) == false { return skipCheck(.delegateDeclined, snapshot: gate.state) }
        // The gate may have read a snapshot without the lock; the lock is taken once here, so a
        // lock file that cannot be used stops the check before the server is asked, not after.
        guard updateState({ _ in }) != nil else { return presentationEnded() }
        if let mirror { delegate?.herald(herald, didReport: .fetchingMirror(mirror)) }
        inputs.feedSource(feedURL!).load(cached: gate.state.cachedFeed, accepted: gate.state.acceptedSignature(from: feedURL!)) { [self] result in
            switch result {
            case .success(let loaded):
                fetchedRecord = loaded.cacheRecord
                delegate?.herald(herald, didReport: .feedFetched(loaded.feed, notModified: loaded.notModified))
                plan(after: .fetched(loaded), snapshot: gate.state)
            case .failure(let error):
                plan(after: .failed(error), snapshot: gate.state)
            }
        }
    }

    /// Reads the off switches, before anything else: a muted app counts, fetches, shows and
    /// writes nothing, and the delegate hears who muted it. A key file that cannot be read
    /// stops the check too, as does a mirror the URL rules refuse: an administrator's word is
    /// not passed over. Returns whether the check goes on.
    private func readOffSwitches() -> Bool {
        let decision: OffSwitchDecision
        do {
            decision = try inputs.offSwitches()
        } catch {
            report(.keyFile(error.description))
            return false
        }
        switch decision.outcome(forFeed: configuration.feedURL, rules: configuration.urlRules) {
        case .muted(let mute):
            delegate?.herald(herald, didReport: .checkSkipped(.muted(mute)))
            return false
        case .refused(let refusal):
            report(.keyFile(refusal))
            return false
        case .fetch(let url, let mirror):
            feedURL = url
            self.mirror = mirror
            attention = decision
            return true
        }
    }

    /// Ends a check that had something to show while the desktop asks for quiet: nothing is
    /// shown (what `plan` claimed is released) and a fetched feed does not count, so the next
    /// check tries again; only a failure is recorded, for the backoff, and the record of the
    /// copy the fetch left in the cache.
    ///
    /// The messages it would have shown wait in the attention ledger, keeping their place
    /// (`AttentionPolicy.deferForQuiet`), and the room the plan took for them is given back.
    private func deferred(after step: FeedStep, releasing plan: CheckPlan? = nil, planned: CheckPlan? = nil) {
        let failed: Bool
        if case .failed = step { failed = true } else { failed = false }
        let waiting = (plan ?? planned).map { planned in planned.messages.prefix(planned.claimedMessages).map(candidate) } ?? []
        if failed || plan != nil || fetchedRecord != nil || !waiting.isEmpty {
            let now = inputs.clock.now
            updateState { state in
                if let plan { state = releasingClaims(of: plan, in: state) }
                state = failed ? record(step, in: state, now: now) : keepingFetchedRecord(in: state)
                if !waiting.isEmpty {
                    updateLedger { ledger in
                        ledger = AttentionPolicy.deferForQuiet(waiting, app: configuration.appID, claim: claimant.claim(until: now),
                                                               ledger: ledger, now: now)
                    }
                }
            }
        }
        presentationEnded()
    }

    /// Whether the desktop asks for quiet, asked only once the check has something to show (a
    /// D-Bus call and a settings read that a check with nothing to show never pays); the
    /// delegate hears it once per check.
    private func deferredForQuiet() -> Bool {
        guard let quiet else { return false }
        if !deferralReported {
            deferralReported = true
            delegate?.herald(herald, didReport: .checkDeferred(quiet))
        }
        return true
    }

    private func skipCheck(_ reason: CheckSkipReason, snapshot: HeraldState) {
        delegate?.herald(herald, didReport: .checkSkipped(reason))
        plan(after: .notRun, snapshot: snapshot)
    }

    // MARK: - Plan and claims: one locked update

    /// Plans what to show and claims it, in one update; then presents it.
    ///
    /// The server's capabilities are asked (a synchronous D-Bus call) before the update, and
    /// only when the plan will show something, so the lock is never held across D-Bus and a
    /// check with nothing to show never touches the bus.
    private func plan(after step: FeedStep, snapshot: HeraldState?) {
        var step = step
        if case .failed(let error) = step { report(error) }
        if stopped {
            if fetchedRecord != nil { updateState { state in state = keepingFetchedRecord(in: state) } }
            return presentationEnded()
        }
        if let feed = step.feed, snapshot?.handedOver.isEmpty != true { withdrawHandedOver(from: feed) }
        // Prompts are counted and shown at a launch; a manual check is about the feed alone.
        let prompts = launch ? inputs.prompts() : []
        // Nothing fetched and no prompts: nothing to plan, claim or record.
        if case .notRun = step, prompts.isEmpty { return presentationEnded() }
        var onSnapshot: (state: HeraldState, ledger: AttentionLedger?, plan: CheckPlan)?
        if let snapshot {
            let ledger = ledgerSnapshot
            let planned = makePlan(step.feed, prompts, state: snapshot, ledger: ledger)
            onSnapshot = (snapshot, ledger, planned)
            if planned.showsAnything {
                if deferredForQuiet() { return deferred(after: step, planned: planned) }
                askCapabilities(&step)
            }
        }
        guard let plan = claim(step, prompts, reusing: onSnapshot) else { return presentationEnded() }
        if plan.showsAnything, capabilities == nil, !serverMissing {
            // The state changed since the snapshot: there is something to show after all. What
            // the plan claimed goes again, with the outcome, when nothing is shown.
            if deferredForQuiet() { return deferred(after: step, releasing: plan) }
            askCapabilities(&step)
            if serverMissing { return notShown(plan, after: step) }
        }
        report(plan, feedFetched: step.feed != nil)
        present(plan, after: step)
    }

    /// The one locked update that plans and claims. The feed step's outcome goes in it only
    /// when there is nothing to show; otherwise the presentation records it (`present`), once
    /// it knows whether the server showed anything. Returns the plan, or `nil` when nothing is
    /// planned (no server, or a state that cannot be written).
    ///
    /// - Parameter earlier: a plan made on a snapshot of the state; when the locked state is
    ///   still that snapshot, it is the plan, and a feed of thousands of messages is planned once.
    ///
    /// The person's attention ledger is changed in the same step, under its own lock taken
    /// inside the app's: the room the claimed messages take, and the messages held back. A
    /// ledger that cannot be read or written is a problem of the budget alone: the check plans
    /// as if no budget were set (`HeraldEvent.budgetNotKept`).
    private func claim(_ step: FeedStep, _ prompts: [Prompt],
                       reusing earlier: (state: HeraldState, ledger: AttentionLedger?, plan: CheckPlan)? = nil) -> CheckPlan? {
        let now = inputs.clock.now
        plannedAt = now
        return updateState { state -> CheckPlan? in
            if serverMissing {
                state = record(step, in: state, now: now)
                return nil
            }
            var budgetedPlan: CheckPlan?
            if usesLedger(for: step.feed, state: state, read: earlier.map { $0.ledger } ?? ledgerSnapshot) {
                budgetedPlan = updateLedger { ledger -> CheckPlan in
                    let plan = earlier.flatMap { $0.state == state && $0.ledger == ledger ? $0.plan : nil }
                        ?? makePlan(step.feed, prompts, state: state, ledger: ledger)
                    if let changed = plan.ledger { ledger = changed }
                    return plan
                }
            }
            let plan = budgetedPlan ?? earlier.flatMap { $0.state == state && $0.ledger == nil ? $0.plan : nil }
                ?? makePlan(step.feed, prompts, state: state, ledger: nil)
            budgeted = plan.ledger != nil
            state = plan.showsAnything ? plan.state : record(step, in: plan.state, now: now)
            return plan
        } ?? nil
    }

    /// Whether planning on `state` goes through the attention ledger: only a check that fetched
    /// a feed, outside debug mode, and only when the feed has a message this app has not
    /// answered or the ledger has messages of this app waiting. A check with nothing new
    /// never takes the ledger's lock.
    ///
    /// - Parameter read: the ledger as this check last read it, without its lock.
    private func usesLedger(for feed: Feed?, state: HeraldState, read: AttentionLedger?) -> Bool {
        guard let feed, !configuration.check.debug else { return false }
        if read?.waiting[configuration.appID] != nil { return true }
        let ignored = state.ignored ?? []
        return feed.entries.keys.contains { !state.viewed.contains($0) && !ignored.contains($0) }
    }

    /// The ledger as last written, for a plan on a snapshot: `nil` when it cannot be read.
    private var ledgerSnapshot: AttentionLedger? { try? inputs.ledger.snapshot() }

    /// Changes the person's attention ledger in one locked update. A ledger that cannot be
    /// read or written is a problem of the budget alone, said once (`budgetNotKept`) and never
    /// a failure of the check: the change is lost, `nil` returned, and the check goes on
    /// without the budget.
    @discardableResult
    private func updateLedger<Result>(_ change: (inout AttentionLedger) -> Result) -> Result? {
        do {
            return try inputs.ledger.update(change)
        } catch {
            if reported.insert("budget-not-kept").inserted {
                delegate?.herald(herald, didReport: .budgetNotKept(HeraldError.state(failing: error)))
            }
            return nil
        }
    }

    /// A message as the attention budget weighs it, under this app's settings.
    private func candidate(_ entry: FeedEntry) -> AttentionCandidate {
        AttentionCandidate(entry, allowsCriticalUrgency: configuration.check.allowsCriticalUrgency)
    }

    /// Ends a check whose plan claimed something it cannot show (no server): the claims go and
    /// the outcome is recorded, in one update.
    private func notShown(_ plan: CheckPlan, after step: FeedStep) {
        let now = plannedAt ?? inputs.clock.now
        updateState { state in
            state = record(step, in: releasingClaims(of: plan, in: state), now: now)
        }
        presentationEnded()
    }

    /// The state without the claims `plan` made for this check.
    private func releasingClaims(of plan: CheckPlan, in state: HeraldState) -> HeraldState {
        CheckPolicy.release(messages: plan.messages.map(\.key), prompts: plan.duePrompts.map(\.name), heldBy: claimant, in: state)
    }

    /// Asks the presenter for its capabilities, once. Without a server nothing is planned, and a
    /// fetched feed's check does not count (DESIGN.md D12), so that the next one tries again.
    private func askCapabilities(_ step: inout FeedStep) {
        guard capabilities == nil, !serverMissing else { return }
        do {
            capabilities = try inputs.presenter.capabilities()
        } catch {
            let failure = error as? HeraldError ?? .noNotificationServer
            serverMissing = true
            report(failure)
            if case .fetched = step { step = .failed(failure) }
        }
    }

    private func makePlan(_ feed: Feed?, _ prompts: [Prompt], state: HeraldState, ledger: AttentionLedger?) -> CheckPlan {
        let now = inputs.clock.now
        return CheckPolicy.plan(feed: feed, prompts: prompts, state: state, claimant: claimant,
                                claimUntil: claimUntil(now), in: policyContext(at: now), rolloutDraw: rolloutDraw,
                                attention: ledger.map { (configuration.appID, $0) })
    }

    /// What this check's messages are decided against at `now`: the app's settings and the
    /// key files' categories and budget.
    private func policyContext(at now: Date) -> PolicyContext {
        configuration.policyContext(at: now, offSwitches: attention)
    }

    /// Until when a claim made at `now` holds: the wait limit, or a day without one.
    private func claimUntil(_ now: Date) -> Date {
        now.addingTimeInterval((configuration.waitLimit ?? .days(1)).seconds)
    }

    /// How the feed step counts (DESIGN.md D4, D12): the one place that decides success.
    /// A fetched and decoded feed is a successful check; a fetch, feed or signature failure is a
    /// failed one, held back by the backoff; no notification server (a check at login before
    /// the desktop's server, D12), a state or presentation problem, or no feed step, is neither,
    /// so the next check tries again at once.
    private func record(_ step: FeedStep, in state: HeraldState, now: Date) -> HeraldState {
        switch step {
        case .notRun:
            return state
        case .fetched(let loaded):
            var state = CheckPolicy.recordSuccess(state, now: now)
            if let record = loaded.cacheRecord { state.cachedFeed = record }
            // The version only rises: a check that read an older state never lowers it.
            if let metadata = loaded.signedMetadata, let bytes = loaded.signature, let url = feedURL {
                state.acceptSignature(metadata, bytes: bytes, from: url)
            }
            return state
        case .failed(let error):
            let state = keepingFetchedRecord(in: state)
            switch error {
            case .fetch, .feed, .signature: return CheckPolicy.recordFailure(state, reason: error.description, now: now)
            case .noNotificationServer, .configuration, .keyFile, .presentation, .state, .libraryUnavailable: return state
            }
        }
    }

    /// The state with the record of the copy the fetch left in the cache, which is kept
    /// whatever the check makes of the feed: the bytes are on disk, so the next check asks for
    /// them conditionally (and a `{lang}` feed asks the URL that answered first).
    private func keepingFetchedRecord(in state: HeraldState) -> HeraldState {
        guard let fetchedRecord else { return state }
        var state = state
        state.cachedFeed = fetchedRecord
        return state
    }

    private func report(_ plan: CheckPlan, feedFetched: Bool) {
        for skipped in plan.skipped { delegate?.herald(herald, didReport: .messageSkipped(key: skipped.key, reason: skipped.reason)) }
        guard feedFetched else { return }
        delegate?.herald(herald, didReport: .pending(plan.messages))
    }

    // MARK: - Presentation

    /// Shows what the plan claimed, messages first, then prompts; releases in one update what
    /// it did not show and records what was shown without buttons (DESIGN.md D11).
    private func present(_ plan: CheckPlan, after step: FeedStep) {
        // The wait limit counts from the first show, not the last: a server slow to answer
        // each Notify must not stretch it (DESIGN.md D18).
        if let limit = configuration.waitLimit {
            waitTimer = inputs.clock.schedule(after: limit) { [self] in
                waitTimer = 0
                closeAll()
            }
        }
        var unshownMessages: [String] = []
        var unopenableLinks = 0
        var unshownPrompts: [String] = []
        var shownWithoutButtons: [Notice] = []
        var shownMessages: [String] = []
        var count = 0
        var claimed = Set(plan.messages.prefix(plan.claimedMessages).map(\.key))
        for index in plan.messages.indices {
            // Past the cap only the key is needed: a feed of thousands is not copied entry by entry.
            // Nor is it released: the plan claims no more than the cap, and a later claim is made
            // only below it, so no message skipped here was claimed.
            if count >= configuration.check.maxNotificationsPerCheck {
                delegate?.herald(herald, didReport: .messageSkipped(key: plan.messages[index].key, reason: .overCap))
                continue
            }
            let message = plan.messages[index]
            if let url = message.actionURL, !inputs.linkOpener.canOpen(url) {
                unopenableLinks += 1
                skip(message, .noHandler(URLRules.scheme(of: url) ?? url), &unshownMessages)
            } else if delegate?.herald(herald, shouldShow: .message(message)) == false {
                skip(message, .delegateDeclined, &unshownMessages)
            } else if !claimed.contains(message.key), !claimLater(message, releasing: &unshownMessages, claimed: &claimed) {
                continue
            } else if let interactive = show(.message(message)) {
                count += 1
                shownMessages.append(message.key)
                if !interactive { shownWithoutButtons.append(.message(message)) }
            } else {
                unshownMessages.append(message.key)
            }
        }
        for (prompt, decision) in plan.prompts {
            delegate?.herald(herald, didReport: .promptDecided(prompt, decision))
            guard case .show(let preview) = decision else { continue }
            if !preview, delegate?.herald(herald, shouldShow: .prompt(prompt)) == false {
                unshownPrompts.append(prompt.name)
            } else if let interactive = show(.prompt(prompt)) {
                if !interactive { shownWithoutButtons.append(.prompt(prompt)) }
            } else {
                unshownPrompts.append(prompt.name)
            }
        }
        // The check's outcome, once. A server that refused everything it was given showed
        // nothing: like a missing server (D12), the check does not count, and is tried again
        // after the backoff. Nor does a check that showed nothing because no application here
        // opens its messages' links: once a browser is set up, the next launch checks again,
        // instead of hiding the messages for a check period.
        let allRefused = refused > 0 && shownSoFar == 0
        let onlyUnopenable = unopenableLinks > 0 && shownSoFar == 0
        let now = inputs.clock.now
        let plannedAt = plannedAt ?? now
        // A plan with nothing to show recorded the outcome with its claims.
        if plan.showsAnything { updateState { state in
            state = CheckPolicy.release(messages: unshownMessages, prompts: unshownPrompts, heldBy: claimant, in: state)
            state = CheckPolicy.recordShown(shownMessages, in: state, now: plannedAt)
            if budgeted {
                updateLedger { ledger in
                    ledger = AttentionPolicy.settle(shown: Set(shownMessages), app: configuration.appID, claim: claimant.claim(until: now),
                                                    ledger: ledger)
                }
            }
            for item in shownWithoutButtons { state = item.recordShownWithoutButtons(in: state, now: now) }
            let (lastChecked, failure) = (state.lastChecked, state.failure)
            state = record(step, in: state, now: plannedAt)
            if allRefused {
                // The fetch's record (cached copy, versions) stands; the check counts as failed,
                // on top of the failures before it, so the backoff keeps growing.
                state.lastChecked = lastChecked
                state.failure = failure
                state = CheckPolicy.recordFailure(state, reason: "the notification server refused every message", now: now)
            } else if onlyUnopenable {
                state.lastChecked = lastChecked
                state.failure = failure
            }
        } }
        presentationEnded()
    }

    /// Claims a message the plan left unclaimed, in one update with the release of the claimed
    /// ones passed over so far. Returns whether it is claimed; when it is not, it is reported
    /// as skipped (or the state failure is) and counted as not shown.
    private func claimLater(_ message: FeedEntry, releasing unshown: inout [String], claimed: inout Set<String>) -> Bool {
        let now = inputs.clock.now
        let passedOver = unshown.filter { claimed.contains($0) }
        let until = claimUntil(now)
        let context = policyContext(at: now)
        let outcome = updateState { state -> MessageSkipReason? in
            state = CheckPolicy.release(messages: passedOver, heldBy: claimant, in: state)
            var claimedLater = state
            if let reason = CheckPolicy.claimLater(message, state: &claimedLater, claimant: claimant, claimUntil: until, in: context) {
                return reason
            }
            // A ledger that cannot be written leaves the message to show without the budget.
            if budgeted, let reason = updateLedger({ ledger in
                AttentionPolicy.takeRoom(for: candidate(message), givingBack: passedOver, app: configuration.appID,
                                         claim: claimant.claim(until: until), budget: context.budget, ledger: &ledger,
                                         now: now, isLive: context.isLive)
            }) ?? nil {
                return reason
            }
            state = claimedLater
            return nil
        }
        guard let outcome else {
            unshown.append(message.key)
            return false
        }
        claimed.subtract(passedOver)
        if let reason = outcome {
            skip(message, reason, &unshown)
            return false
        }
        claimed.insert(message.key)
        return true
    }

    private func skip(_ message: FeedEntry, _ reason: MessageSkipReason, _ unshown: inout [String]) {
        delegate?.herald(herald, didReport: .messageSkipped(key: message.key, reason: reason))
        unshown.append(message.key)
    }

    /// Shows one message or prompt; returns whether it awaits an answer, or `nil` when it
    /// could not be shown.
    private func show(_ item: Notice) -> Bool? {
        if case .message(let entry) = item, let route = inputs.presenter as? HandingOverPresenter, let handle = handOver(entry, through: route) {
            shownSoFar += 1
            if handle.handover.place == .portal { herald.postedThroughPortal[entry.key] = entry }
            item.reportHandedOver(to: handle.handover.place, notificationID: handle.id, herald: herald)
            return true
        }
        let content = item.content(labels: configuration.labels, capabilities: capabilities ?? [], appName: configuration.appName,
                                   allowsCriticalUrgency: configuration.check.allowsCriticalUrgency)
        let handle: PresentedMessage
        // Only what can be answered holds the check: content without buttons is recorded as
        // shown at once (D11), and a presenter that keeps its closure must not keep the check.
        do {
            if content.isInteractive {
                handle = try inputs.presenter.present(content, link: item.link) { [self] response in
                    responded(to: item.subject, with: response)
                }
            } else {
                handle = try inputs.presenter.present(content, link: item.link) { _ in }
            }
        } catch {
            refused += 1
            delegate?.herald(herald, didReport: .checkFailed(Self.presentationFailure(error)))
            return nil
        }
        shownSoFar += 1
        if handle.id != 0, let replaced = onScreen.first(where: { $0.value.handle.id == handle.id }) {
            // The server gave this notification the id of one still shown: it replaced that
            // one. Let go of the old handle, so one click cannot answer two messages.
            onScreen[replaced.key] = nil
            (replaced.value.handle as? AbandonablePresentedMessage)?.abandon()
            Self.retire(replaced.value.handle)
            updateState { state in
                state = CheckPolicy.release(messages: replaced.value.item.messageKeys, prompts: replaced.value.item.promptNames,
                                            heldBy: claimant, in: state)
            }
            replaced.value.item.reportClosed(.undefined, herald: herald)
        }
        if content.isInteractive { onScreen[item.subject] = Shown(item: item, handle: handle, sequence: shownSoFar) }
        item.reportShown(notificationID: handle.id, herald: herald)
        return content.isInteractive
    }

    /// Hands a message over to outlive the check (DESIGN.md D23); returns it handed over, or
    /// `nil`. The handover replaces the check's claim in the state before the message is
    /// posted, so an answer given at once finds it; a post that fails takes the handover back
    /// and gives the claim back, and the message is shown (or stays) as today. Nothing of a
    /// handed-over message stays on this check's screen: the check does not wait for it.
    private func handOver(_ entry: FeedEntry, through route: HandingOverPresenter) -> HandedOverMessage? {
        let item = Notice.message(entry)
        let now = inputs.clock.now
        let content = item.content(labels: configuration.labels, capabilities: route.handoverCapabilities ?? capabilities ?? [],
                                   appName: configuration.appName, allowsCriticalUrgency: configuration.check.allowsCriticalUrgency)
        // Without buttons there is nothing to answer later: showing it is viewing it (D11).
        guard content.isInteractive, let handover = route.handover(link: item.link, now: now)?.issued(under: configuration.urlRules) else { return nil }
        // Only this check's own claim becomes the handover: a claim that lapsed, or that another
        // check took since, is not this check's to hand over.
        guard let claim = updateState({ state -> HeraldState.Claim? in
            guard let claim = state.presenting[entry.key], claim.isHeld(by: claimant) else { return nil }
            state = CheckPolicy.handOver(entry.key, handover, in: state)
            return claim
        }) ?? nil else { return nil }
        do {
            return try route.handOver(content, key: entry.key, as: handover, stateFolder: Handover.stateFolder(of: inputs.store))
        } catch {
            updateState { state in
                state = CheckPolicy.forgetHandovers([entry.key], in: state)
                state.presenting[entry.key] = claim
            }
            return nil
        }
    }

    /// Hands the messages still on screen over through `route` (`Herald.appWillQuit()`), in the
    /// order they were shown, and takes this process's notifications of them down: each waits
    /// for its answer where its handover says. What cannot be handed over stays on screen.
    func handOverShown(through route: HandingOverPresenter) {
        let messages = onScreen.values.filter { if case .message = $0.item { true } else { false } }.sorted { $0.sequence < $1.sequence }
        guard !messages.isEmpty, (try? route.capabilities()) != nil else { return }
        for shown in messages {
            guard case .message(let entry) = shown.item, handOver(entry, through: route) != nil else { continue }
            onScreen[shown.item.subject] = nil
            shown.handle.close()
            Self.retire(shown.handle)
        }
    }

    /// Takes every handed-over message the publisher withdrew (no longer in `feed`) off where
    /// its handover says, and forgets those handovers, in one update. A withdrawal nobody takes
    /// (the shell or the agent gone, the call refused) is forgotten all the same: the message is
    /// no longer the publisher's, and nothing later could deliver it better.
    private func withdrawHandedOver(from feed: Feed) {
        let withdrawn = updateState { state -> [(key: String, handover: Handover)] in
            let keys = CheckPolicy.withdrawn(from: feed, state: state)
            let handovers = keys.compactMap { key in state.handedOver[key].map { (key, $0) } }
            state = CheckPolicy.forgetHandovers(keys, in: state)
            return handovers
        } ?? []
        for (key, handover) in withdrawn { inputs.withdraw(key, handover) }
    }

    /// What a presenter's refusal is reported as: its `HeraldError`, or for another error a
    /// sentence, with the error's own description when it has one.
    private static func presentationFailure(_ error: any Error) -> HeraldError {
        if let error = error as? HeraldError { return error }
        let refused = "the presenter refused the notification"
        guard let described = error as? CustomStringConvertible else { return .presentation(refused) }
        return .presentation("\(refused): \(described.description)")
    }

    private func presentationEnded() {
        presenting = false
        if onScreen.isEmpty { return end() }
    }

    // MARK: - Answers

    private func responded(to subject: Notice.Subject, with response: NotificationResponse) {
        guard let shown = onScreen.removeValue(forKey: subject) else { return }
        Self.retire(shown.handle)
        let now = inputs.clock.now
        let answer = shown.item.answer(for: response)
        let recorded = updateState { state in
            state = answer.map { shown.item.record($0, in: state, now: now) }
                ?? CheckPolicy.release(messages: shown.item.messageKeys, prompts: shown.item.promptNames, heldBy: claimant, in: state)
        } != nil
        if answer != nil, !recorded, let failure = lastStateFailure {
            shown.item.reportUnrecorded(failure, herald: herald)
        }
        shown.item.act(on: answer, response: response, herald: herald, opener: inputs.linkOpener)
        if !presenting, onScreen.isEmpty { end() }
    }

    /// Takes a message off the screen because the user answered it in the app's own interface:
    /// its claim goes, it is reported as closed by Herald, and no answer comes from it.
    func withdraw(messageKey key: String) {
        guard let shown = onScreen.removeValue(forKey: .message(key)) else { return }
        updateState { state in
            state = CheckPolicy.release(messages: [key], heldBy: claimant, in: state)
        }
        shown.item.reportClosed(.closedByHerald, herald: herald)
        shown.handle.close()
        Self.retire(shown.handle)
        if !presenting, onScreen.isEmpty { end() }
    }

    /// Takes everything still shown off the screen, unanswered (DESIGN.md D7, D18): its claims
    /// go in one update, and it comes back at the next due check.
    func closeAll() {
        if presenting { stopped = true }
        let open = onScreen.values.sorted { $0.sequence < $1.sequence }
        onScreen = [:]
        if !open.isEmpty {
            updateState { state in
                state = CheckPolicy.release(messages: open.flatMap(\.item.messageKeys), prompts: open.flatMap(\.item.promptNames),
                                            heldBy: claimant, in: state)
            }
        }
        for shown in open {
            shown.item.reportClosed(.closedByHerald, herald: herald)
            shown.handle.close()
            Self.retire(shown.handle)
        }
        if !presenting { end() }
    }

    private func end() {
        guard !ended else { return }
        ended = true
        inputs.clock.cancel(waitTimer)
        waitTimer = 0
        Self.running.remove(claimant.check)
        herald.checkEnded(self)
        delegate?.herald(herald, didReport: .checkFinished)
    }

    // MARK: - State and reports

    /// Changes the state in one locked update. A state that cannot be written is reported
    /// (once per check) rather than thrown: that change is lost, nothing else is.
    @discardableResult
    private func updateState<Result>(_ change: (inout HeraldState) -> Result) -> Result? {
        do {
            return try store.update(change)
        } catch {
            let failure = HeraldError.state(failing: error)
            lastStateFailure = failure
            report(failure)
            return nil
        }
    }

    /// Reports a failure unless this check already reported one of the same kind.
    private func report(_ error: HeraldError) {
        guard reported.insert(error.kind).inserted else { return }
        delegate?.herald(herald, didReport: .checkFailed(error))
    }

    // MARK: - Claims across checks and processes

    /// The checks of this process that are still running, by name.
    private static var running: Set<String> = []
    private static var made = 0
    /// Names checks apart from those of an earlier process that had the same id.
    private static let processToken = String(UInt64.random(in: 1...UInt64.max), radix: 36)

    private static func nextClaimant() -> Claimant {
        made += 1
        return Claimant(processID: getpid(), check: "\(processToken).\(made)")
    }

    /// Whether the check holding a claim still runs: one of this process's running checks, or
    /// any check of another live process.
    static func isLive(_ claim: HeraldState.Claim) -> Bool {
        if claim.processID == getpid() { return claim.check.map(running.contains) ?? false }
        return kill(claim.processID, 0) == 0 || errno == EPERM
    }

    /// Lets go of a handle once the current callback has returned: the object it owns may be
    /// the one emitting the signal being handled.
    private static func retire(_ handle: PresentedMessage) {
        MainContext.idle { withExtendedLifetime(handle) {} }
    }
}

extension Herald.Configuration {
    /// What the policy decides this app's messages against at `now`: the check settings, the
    /// URL rules, which checks of this machine still run, and what the key files say of
    /// categories and the attention budget.
    @MainContext
    func policyContext(at now: Date, offSwitches: OffSwitchDecision = .none) -> PolicyContext {
        PolicyContext(configuration: check, now: now, urlRules: urlRules, isLive: Check.isLive, runningProcess: RunningProcess.find,
                      mutedCategories: offSwitches.mutedCategories, budget: offSwitches.budget)
    }
}

/// What a check works with, made by its `Herald` once per check: the settings, where the state
/// is kept, what shows and opens, the time, and the readers it asks as it goes.
@MainContext
struct CheckInputs {
    /// The settings the `Herald` was made with.
    let configuration: Herald.Configuration
    /// Where the answers, claims and the cached copy's record are kept.
    let store: any StateStore
    /// What shows the messages and prompts.
    let presenter: MessagePresenter
    /// What tells whether a link can be opened, and opens it.
    let linkOpener: any LinkOpening
    /// The time, and the wait limit's timer.
    let clock: any HeraldClock
    /// Whether the person at the desktop asks for quiet.
    let quietReason: @MainContext () -> QuietReason?
    /// The mutes and the administrator's mirror.
    let offSwitches: @MainContext () throws(OffSwitchFileError) -> OffSwitchDecision
    /// The prompts registered when asked.
    let prompts: @MainContext () -> [Prompt]
    /// The source of the feed at a URL (the app's own, or the administrator's mirror).
    let feedSource: @MainContext (String) -> FeedSource
    /// Takes a withdrawn message, by key, back from where its handover says.
    let withdraw: @MainContext (String, Handover) -> Void
    /// The person's attention ledger, shared by every app.
    let ledger: any AttentionLedgerStore
}
