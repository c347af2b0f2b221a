import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// One check, from the off switches to the last answer: the pipeline of DESIGN.md, "How a
/// check flows", as a sequence of phases with one exit.
///
/// Its state is one value, `phase`: gating → fetching → presenting → waiting → ended, each
/// carrying what it has. The stages before the plan go in `CheckStages`' order. Every way a
/// check ends goes through `finish`, which writes the outcome `CheckPolicy.finished` computes,
/// once, and the attention ledger's change with it; then the answers of what is on screen are
/// recorded one update each, and the last one ends the check (`end`).
///
/// Everything it works with comes in one value, `CheckInputs`, the presentation's route and
/// the registry of running checks included; its `Herald` is only whom the delegate's events
/// are about (and whose delegate hears them), and whom it tells that it ended.
///
/// While anything is on screen, the notification callbacks hold the check and the check holds
/// its `Herald`, so neither goes away before the answers are in; the last answer or close
/// ends that.
@MainContext
final class Check {
    /// Whose claims this check makes.
    let claimant: Claimant
    /// The `Herald` the events are about; held, so that it outlives the answers.
    let herald: Herald
    /// What the check works with.
    let inputs: CheckInputs
    /// A launch: the prompts' uses are counted, and due prompts shown.
    let launch: Bool
    /// A manual check: no gate and no `heraldShouldCheck`.
    let force: Bool
    /// Where the check is, and what it has there.
    var phase = Phase.gating
    /// What the check has on screen, awaiting answers: filled while presenting, emptied by the
    /// answers, and empty once the check has ended.
    var onScreen = OnScreen()
    /// What the check said already, so that each is said once.
    var saidOnce: Set<SaidOnce> = []
    /// The install's draw for `Rollout`, made once per check, so the plan on a snapshot, the
    /// plan that claims and the candidates told to a rendezvous agree, and only by a check that
    /// plans (a draw is a system call a check that is not due never needs).
    lazy var rolloutDraw = Double.random(in: 0..<1)
    /// The app's AppStream metainfo, read once, by a check of an app that shows What's new.
    lazy var metainfo: String? = readMetainfo()

    /// The phases of a check, each with what it has.
    enum Phase {
        /// Reading the off switches and asking the gate.
        case gating
        /// The feed is on its way from the URL the off switches chose (the fetch's completion
        /// holds what the plan needs).
        case fetching
        /// At its run's rendezvous (`CheckInputs.rendezvous`) with the feed step, until every
        /// check of the run has come or the run's deadline has passed; then it plans.
        case meeting
        /// Told to stop (`closeAll`) before presenting: nothing more is planned or shown.
        case stopped
        /// Showing what the plan claimed.
        case presenting(Presenting)
        /// Everything is presented and the outcome recorded; what is on screen awaits its answers.
        case waiting
        /// Over: the delegate heard `.checkFinished`.
        case ended
    }

    /// The feed the off switches let the check fetch, and their word on categories and budget.
    struct FeedToFetch {
        /// The app's own feed URL, or the administrator's mirror of it.
        var url: String?
        /// The administrator's mirror, told to the delegate when the check fetches from it.
        var mirror: FeedMirror?
        /// The categories muted for the app and the person's attention budget.
        var offSwitches = OffSwitchDecision()
    }

    /// What the presentation phase has.
    struct Presenting {
        var target: FeedToFetch
        /// The server's capabilities, which the content is built for.
        var capabilities: Set<String>
        /// When the check planned: the time its outcome is recorded at.
        var plannedAt: Date
        /// What was shown, refused and left, for the outcome.
        var record = CheckEnding.Presentation()
        /// What the plan kept for the person's inbox, until it is recorded: once the first
        /// notice is out, before the delegate hears of it, so that the notification does not
        /// wait on the inbox file (`recordPendingInbox`).
        var pendingInbox: InboxRecording?
    }

    /// What a check adds to the person's inbox (`recordInInbox`).
    struct InboxRecording {
        let plan: CheckPlan
        let step: FeedStep
        /// Herald's own messages the plan weighed (What's new).
        let local: [FeedEntry]
    }

    /// What a check has on screen, awaiting answers.
    struct OnScreen {
        var shown: [Notice.Subject: Shown] = [:]
        /// How many notices were shown: closing goes in the order of showing.
        var count = 0
        /// The wait limit's timer, counted from the first show; 0 for none.
        var waitTimer: UInt32 = 0
    }

    /// A notice on screen.
    struct Shown {
        let item: Notice
        let handle: PresentedMessage
        /// Shown as the check's n-th item.
        let sequence: Int
    }

    /// What a check says once, however often it happens.
    enum SaidOnce: Hashable {
        /// A failure of this kind (`HeraldError.kind`).
        case failure(kind: String)
        /// The person's attention budget is not kept (`HeraldEvent.budgetNotKept`).
        case budgetNotKept
    }

    init(for herald: Herald, inputs: CheckInputs, launch: Bool, force: Bool) {
        self.herald = herald
        self.inputs = inputs
        self.launch = launch
        self.force = force
        claimant = inputs.running.start()
    }

    var configuration: Herald.Configuration { inputs.configuration }
    var delegate: HeraldDelegate? { herald.delegate }
    var store: any StateStore { inputs.store }

    // MARK: - Off switches, gate and feed

    /// Runs the check: the off switches, then the gate (with the launch's prompt uses), then the
    /// feed when due, then the plan.
    func start() {
        let target: FeedToFetch
        switch CheckStages.offSwitches({ () throws(OffSwitchFileError) in try inputs.offSwitches() }, feedURL: configuration.feedURL,
                                       rules: configuration.urlRules) {
        case .stop(.muted(let mute)):
            delegate?.herald(herald, didReport: .checkSkipped(.muted(mute)))
            return finish(nil)
        case .stop(.keyFile(let problem)):
            report(.keyFile(problem))
            return finish(nil)
        case .go(let url, let mirror, let decision):
            target = FeedToFetch(url: url, mirror: mirror, offSwitches: decision)
        }
        let feedRuns = target.url != nil && (force || configuration.checkAtLaunch)
        let prompts = inputs.prompts()
        let countUses = launch && !prompts.isEmpty
        let takesAnswersGivenAway = launch && configuration.reportsAnswersGivenAway
        let now = inputs.clock.now
        // Without uses to count, the gate reads a snapshot, without the lock: a check that is
        // not due writes nothing and waits for no other process. It takes the lock only when
        // its decision changes the state (a first launch, a date from a wrong clock) or there
        // are answers given while the app was away to take.
        if feedRuns, !countUses, let snapshot = try? store.snapshot(), !takesAnswersGivenAway || snapshot.answeredAway.isEmpty {
            let gate = CheckStages.gate(configuration.check, state: snapshot, now: now, force: force)
            if gate.state == snapshot { return run(gate, target, lockTaken: false) }
        }
        var answersGivenAway: [(key: String, answer: Answer, at: Date)] = []
        let gate = updateState { state -> (skip: CheckSkipReason?, state: HeraldState) in
            if takesAnswersGivenAway { answersGivenAway = CheckPolicy.takeAnswersGivenAway(from: &state) }
            if countUses { state.prompts = PromptPolicy.countLaunch(of: prompts, in: state.prompts, now: now) }
            guard feedRuns else { return (nil, state) }
            let gate = CheckStages.gate(configuration.check, state: state, now: now, force: force)
            state = gate.state
            return gate
        }
        // Told only once they are taken out of the state file: a write that failed leaves them
        // for the next launch.
        for given in gate == nil ? [] : answersGivenAway {
            delegate?.herald(herald, didReport: .answeredWhileAway(key: given.key, answer: given.answer, at: given.at))
        }
        guard feedRuns, let gate else { return plan(after: .notRun, target, snapshot: gate?.state) }
        run(gate, target, lockTaken: true)
    }

    /// Acts on the gate's decision: skips the fetch, or fetches the feed and plans.
    ///
    /// - Parameter lockTaken: the gate decided in a locked update, which showed the lock usable.
    private func run(_ gate: (skip: CheckSkipReason?, state: HeraldState), _ target: FeedToFetch, lockTaken: Bool) {
        if let skip = gate.skip ?? CheckStages.delegate(force: force, shouldCheck: { delegate?.heraldShouldCheck(herald) }) {
            delegate?.herald(herald, didReport: .checkSkipped(skip))
            return plan(after: .notRun, target, snapshot: gate.state)
        }
        // A gate that read a snapshot took no lock; the lock is taken once here, so a lock file
        // that cannot be used stops the check before the server is asked, not after.
        if !lockTaken, updateState({ _ in }) == nil { return finish(nil) }
        if let mirror = target.mirror { delegate?.herald(herald, didReport: .fetchingMirror(mirror)) }
        let url = target.url!
        // A delegate that closed everything while it was asked has stopped the check already.
        guard case .gating = phase else { return finish(nil) }
        phase = .fetching
        inputs.feedSource(url).load(cached: gate.state.cachedFeed, accepted: gate.state.acceptedSignature(from: url)) { [self] result in
            switch result {
            case .success(let loaded):
                delegate?.herald(herald, didReport: .feedFetched(loaded.feed, notModified: loaded.notModified))
                plan(after: .fetched(loaded, from: url), target, snapshot: gate.state)
            case .failure(let error):
                report(error)
                plan(after: .failed(error), target, snapshot: gate.state)
            }
        }
    }

    // MARK: - The one exit

    /// Ends the presentation: writes the outcome once (with the attention ledger's change), then
    /// waits for the answers of what is on screen, or ends the check. `nil` writes nothing and
    /// takes no lock: a muted check, a state that cannot be written, or a plan with nothing to
    /// show, whose outcome went in the plan's own update (one write).
    func finish(_ ending: CheckEnding?) {
        if let ending, !ending.recordsNothing {
            updateState { state in
                state = CheckPolicy.finished(ending, in: state, claimant: claimant)
                changeLedger(as: ending)
            }
        }
        if case .ended = phase { return }
        if onScreen.shown.isEmpty { return end() }
        phase = .waiting
    }

    /// Over: the wait timer goes, the registry and the `Herald` let go of the check, and the
    /// delegate hears `.checkFinished`, once.
    func end() {
        if case .ended = phase { return }
        inputs.clock.cancel(onScreen.waitTimer)
        onScreen = OnScreen()
        phase = .ended
        inputs.rendezvous?.leave(app: configuration.appID)
        inputs.running.ended(claimant)
        herald.checkEnded(self)
        delegate?.herald(herald, didReport: .checkFinished)
    }

    // MARK: - Answers

    func responded(to subject: Notice.Subject, with response: NotificationResponse) {
        guard let shown = onScreen.shown.removeValue(forKey: subject) else { return }
        Self.retire(shown.handle)
        let now = inputs.clock.now
        let answer = shown.item.answer(for: response)
        do {
            try updateStateReporting { state in
                // A message answered elsewhere while on screen (`herald inbox`, the app's own page
                // in another process) keeps that answer: the click records nothing twice.
                let answeredElsewhere = shown.item.messageKeys.contains { CheckPolicy.isAnswered($0, in: state, configuration.check) }
                state = answer.map { answeredElsewhere ? releasing([shown.item], in: state) : shown.item.record($0, in: state, now: now) }
                    ?? releasing([shown.item], in: state)
            }
        } catch {
            if answer != nil { shown.item.reportUnrecorded(error, herald: herald) }
        }
        shown.item.act(on: answer, response: response, herald: herald, opener: inputs.linkOpener)
        endIfAnswered()
    }

    /// Takes a message off the screen because the user answered it in the app's own interface:
    /// its claim goes, it is reported as closed by Herald, and no answer comes from it.
    func withdraw(messageKey key: String) {
        guard let shown = onScreen.shown.removeValue(forKey: .message(key)) else { return }
        updateState { state in state = releasing([shown.item], in: state) }
        shown.item.reportClosed(.closedByHerald, herald: herald)
        shown.handle.close()
        Self.retire(shown.handle)
        endIfAnswered()
    }

    /// Takes everything still shown off the screen, unanswered (DESIGN.md D7, D18): its claims
    /// go in one update, and it comes back at the next due check. Before the presentation, the
    /// check stops: nothing more is planned or shown.
    func closeAll() {
        switch phase {
        case .gating, .fetching, .meeting: phase = .stopped
        default: break
        }
        let open = onScreen.shown.values.sorted { $0.sequence < $1.sequence }
        onScreen.shown = [:]
        if !open.isEmpty { updateState { state in state = releasing(open.map(\.item), in: state) } }
        for shown in open {
            shown.item.reportClosed(.closedByHerald, herald: herald)
            shown.handle.close()
            Self.retire(shown.handle)
        }
        endIfAnswered()
    }

    /// Ends the check once the presentation is over and nothing on screen awaits an answer.
    private func endIfAnswered() {
        if case .waiting = phase, onScreen.shown.isEmpty { end() }
    }

    /// Lets go of a handle once the current callback has returned: the object it owns may be
    /// the one emitting the signal being handled.
    static func retire(_ handle: PresentedMessage) {
        MainContext.idle { withExtendedLifetime(handle) {} }
    }

    // MARK: - State and reports

    /// Changes the state in one locked update. A state that cannot be written is reported
    /// (once per check) rather than thrown: that change is lost, nothing else is.
    @discardableResult
    func updateState<Result>(_ change: (inout HeraldState) -> Result) -> Result? {
        try? updateStateReporting(change)
    }

    /// Changes the state in one locked update; a state that cannot be written is reported (once
    /// per check) and thrown, for a caller that says what the lost change was.
    @discardableResult
    func updateStateReporting<Result>(_ change: (inout HeraldState) -> Result) throws(HeraldError) -> Result {
        do {
            return try store.update(change)
        } catch {
            let failure = HeraldError.state(failing: error)
            report(failure)
            throw failure
        }
    }

    /// Reports a failure unless this check already reported one of the same kind.
    func report(_ error: HeraldError) {
        guard saidOnce.insert(.failure(kind: error.kind)).inserted else { return }
        delegate?.herald(herald, didReport: .checkFailed(error))
    }
}
