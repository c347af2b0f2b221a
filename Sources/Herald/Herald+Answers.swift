import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// iNotify's advanced API, for apps that show messages in their own interface: the answers,
/// the gate's decision and the display order, on the same state rules as a notification's
/// buttons (one locked, atomic update each; claims of running checks respected).
extension Herald {
    /// The answers as they stand, read without the lock (a whole file, renamed into place, is
    /// never seen half-written).
    ///
    /// - Throws: `HeraldError.state` when the state cannot be read.
    public func answers() throws(HeraldError) -> MessageAnswers {
        MessageAnswers(try readState())
    }

    /// Changes the answers in one locked update: read, `change`, write atomically.
    /// The same lock serialises it with the answers of every other check and process.
    ///
    /// - Returns: what `change` returns.
    /// - Throws: `HeraldError.state` when the state cannot be read or written; the state is
    ///   then unchanged.
    @discardableResult
    public func updateAnswers<Result>(_ change: (inout MessageAnswers) -> Result) throws(HeraldError) -> Result {
        try updateState { state in
            var answers = MessageAnswers(state)
            let result = change(&answers)
            state = answers.applied(to: state)
            return result
        }
    }

    /// Records the user's answer to a message given in the app's own interface, exactly as the
    /// notification's button would record it (ORIGINALS.md §1.9, DESIGN.md D6). When this
    /// Herald has the message on screen as a notification, that notification is taken off the
    /// screen (reported as closed by Herald). Opening the link of a view is the app's to do.
    ///
    /// - Throws: `HeraldError.state` when the answer cannot be written; nothing is recorded.
    public func record(_ answer: Answer, forMessage key: String) throws(HeraldError) {
        check?.withdraw(messageKey: key)
        let now = self.now()
        try updateState { state in
            state = CheckPolicy.applyFromApp(answer, to: key, state: state, in: policyContext(at: now))
        }
    }

    /// The next message of `messages` in display order (iNotify's `nextNotificationInDict:`):
    /// the newest key, or the oldest with `showOldestFirst`; `nil` when there is none.
    public func nextMessage(of messages: [FeedEntry]) -> FeedEntry? {
        guard !messages.isEmpty else { return nil }
        return CheckPolicy.order(messages, oldestFirst: configuration.check.showOldestFirst).first
    }

    /// The messages of `feed` this user would be shown now, in display order: not answered, not
    /// waiting for a reminder, within the app's version range, with a link Herald would offer,
    /// and not on screen in another running check. Reads the state without changing it.
    ///
    /// - Throws: `HeraldError.state` when the state cannot be read.
    public func pendingMessages(in feed: Feed) throws(HeraldError) -> [FeedEntry] {
        CheckPolicy.select(feed, state: try readState(), in: policyContext(at: now()),
                           // Nothing is drawn by asking: an install without a draw yet is outside
                           // every rollout until its first check draws one.
                           rolloutDraw: { 1 }).candidates
    }

    /// What a check would do with each message of `feed` now, and why (`CheckPolicy.explain`):
    /// shown, deferred while the desktop asks for quiet, or left out with the reason, against
    /// `state`, which the caller read (`herald check --explain`). Nothing is shown, drawn,
    /// claimed or written.
    ///
    /// - Parameter offSwitches: the key files' word on categories and the attention budget; the
    ///   budget is kept against the person's ledger as last written.
    package func explain(_ feed: Feed, state: HeraldState, offSwitches: OffSwitchDecision = .none) -> [MessageExplanation] {
        CheckPolicy.explain(feed, state: state, quiet: quietReason(), in: policyContext(at: now(), offSwitches: offSwitches),
                            attention: (try? ledger.snapshot()).map { (configuration.appID, $0) })
    }

    /// What a check would do now, stage by stage in a check's order (`CheckStages`), for
    /// `herald check --explain` to print: the off switches (a stop ends it there), the feed
    /// (`load`s it from the feed source the stages chose, without the cached copy), the gate's
    /// reason not to check now, if any, and what the plan would decide for each message and
    /// prompt. Nothing is shown, drawn, claimed or written.
    ///
    /// - Parameters:
    ///   - state: the app's state, which the caller read.
    ///   - force: a manual check: the gate passes, and no prompt is decided.
    ///   - load: fetches the feed once from the source, refusing a signature older than the
    ///     one accepted.
    package func explainCheck(state: HeraldState, force: Bool,
                              load: (FeedSource, FeedSignature.Accepted?) -> Result<LoadedFeed, HeraldError>) -> ExplainedCheck {
        let prompts = force ? [] : explainPrompts(state: state)
        switch CheckStages.offSwitches(offSwitches, feedURL: configuration.feedURL, rules: configuration.urlRules) {
        case .stop(let stop):
            return .stopped(stop)
        case .go(let url, _, let decision):
            let feedURL = url ?? configuration.feedURL!
            switch load(feedSource(for: feedURL, cache: nil), state.acceptedSignature(from: feedURL)) {
            case .failure(let error):
                // A check that cannot fetch still shows the prompts that are due.
                return .notFetched(error, prompts: prompts)
            case .success(let loaded):
                return .explained(skip: CheckStages.gate(configuration.check, state: state, now: now(), force: force).skip, loaded: loaded,
                                  messages: explain(loaded.feed, state: state, offSwitches: decision), prompts: prompts)
            }
        }
    }

    /// What a launch check would decide now for each registered prompt, in name order, and why
    /// (`CheckPolicy.explain(_:state:now:quiet:isLive:)`), against `state`, which the caller read
    /// (`herald check --explain`): this launch counted, as `appLaunched()` counts it, then due,
    /// waiting or done, and deferred while the desktop asks for quiet. Nothing is counted, shown,
    /// claimed or written. The off switches and the delegate are not asked: a muted app shows
    /// nothing at all (`reasonNotToCheck()` says so), and `herald(_:shouldDisplay:)` may still
    /// decline a prompt that is due.
    package func explainPrompts(state: HeraldState) -> [PromptExplanation] {
        CheckPolicy.explain(registeredPrompts, state: state, quiet: quietReason(), in: policyContext(at: now()))
    }

    /// Why a launch check would not run now, as the gate sees it (iNotify's
    /// `shouldCheckForNotifications`, with Herald's backoff and the off switches): `nil` when it
    /// is due. A mute comes first; the delegate's `heraldShouldCheck` is asked last, as a launch
    /// check does. Reads the state without changing it, so asking does not pass the first launch.
    ///
    /// The stages are a check's own (`CheckStages`), asked in a check's order.
    ///
    /// - Throws: `HeraldError.keyFile` when a key file of the off switches cannot be read or
    ///   the administrator's mirror is refused (a check stops on either), `HeraldError.state`
    ///   when the state cannot be read.
    public func reasonNotToCheck() throws(HeraldError) -> CheckSkipReason? {
        let decision = try CheckStages.decide(
            offSwitches: offSwitches, feedURL: configuration.feedURL, rules: configuration.urlRules, configuration: configuration.check,
            state: readState, now: now(), force: false, shouldCheck: { delegate?.heraldShouldCheck(self) })
        switch decision {
        case .stop(.muted(let mute)): return .muted(mute)
        case .stop(.keyFile(let problem)): throw HeraldError.keyFile(problem)
        case .skip(let reason): return reason
        case .fetch: return nil
        }
    }

    /// Whether a launch check would run now: `reasonNotToCheck()` is `nil`. A state that
    /// cannot be read counts as due, as the launch check itself would try; a key file that
    /// cannot be read does not, since a check stops on it.
    public var shouldCheck: Bool {
        do {
            return try reasonNotToCheck() == nil
        } catch .keyFile {
            return false
        } catch {
            return true
        }
    }

    /// The app's state, read without changing it.
    private func readState() throws(HeraldError) -> HeraldState {
        do {
            // A question changes nothing: a damaged file is read as the empty state a check
            // would start over from, and left where it is.
            return try store.inspect() ?? HeraldState()
        } catch {
            throw HeraldError.state(failing: error)
        }
    }

    private func updateState<Result>(_ change: (inout HeraldState) -> Result) throws(HeraldError) -> Result {
        do {
            return try store.update(change)
        } catch {
            throw HeraldError.state(failing: error)
        }
    }
}

extension Herald {
    /// An answer to a message this app posted through the notification portal: a click that
    /// activated `app.herald-answer` with the target (app id, key, answer, token), in this process
    /// or in one the bus started for it. Any process on the bus can activate the action, so only
    /// the handover's own token (`Handover.admits`), which the portal carries back from the post,
    /// is taken. Recorded once (`CheckPolicy.applyHandedOver`): a
    /// second click finds nothing to answer. When this process posted the message, the delegate
    /// hears the answer now (`herald(_:didReceive:)`); otherwise at the next launch, as
    /// `.answeredWhileAway`. A view opens the link the check allowed, never one a click carries,
    /// when the URL rules still allow it.
    func answeredThroughPortal(_ target: DBusValue) {
        guard case .tuple(let parts) = target, parts.count == 4, parts[0].string == configuration.appID, let key = parts[1].string,
              let answer = parts[2].string.flatMap(Answer.init(rawValue:)), let token = parts[3].string else { return }
        let entry = postedThroughPortal[key]
        let now = self.now()
        let handover: Handover?
        do throws(HeraldError) {
            handover = try updateState { state -> Handover? in
                guard state.handedOver[key]?.admits(token) == true,
                      let result = CheckPolicy.applyHandedOver(answer, to: key, state: state, now: now) else { return nil }
                state = result.state
                // Told now, so not again at the next launch.
                if entry != nil { state.answeredAway[key] = nil }
                return result.handover
            }
        } catch {
            delegate?.herald(self, didReport: .answerNotRecorded(key: key, error: error))
            return
        }
        guard let handover else { return }
        postedThroughPortal[key] = nil
        if let entry { delegate?.herald(self, didReceive: .message(entry, answer)) }
        guard answer == .view, let link = handover.link else { return }
        // Judged again at the click, as the agent judges the links it opens.
        if let refusal = handover.linkRefusal {
            delegate?.herald(self, didReport: .linkNotOpened(url: link, reason: refusal))
            return
        }
        Notice.open(link, with: linkOpener, herald: self)
    }
}

/// What `Herald.explainCheck` found, stage by stage.
package enum ExplainedCheck {
    /// The off switches stop the check: nothing is fetched or shown.
    case stopped(CheckStages.Stop)
    /// The feed could not be fetched; the prompts a launch check would still decide.
    case notFetched(HeraldError, prompts: [PromptExplanation])
    /// The feed as fetched; the gate's reason not to check now (`nil` when due); what a due
    /// check would decide for each message, and for each prompt.
    case explained(skip: CheckSkipReason?, loaded: LoadedFeed, messages: [MessageExplanation], prompts: [PromptExplanation])
}
