import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// The presentation phase: what the plan claimed is shown (or handed over), messages first, then
/// prompts, each showing said as what happened (`Presented`); then the check's one exit records
/// what was shown, refused and left (`finish`).
extension Check {
    /// What happened to a notice the check presented.
    enum Presented {
        /// On this process's screen, with its handle; `awaitsAnswer` when it has buttons (without,
        /// showing it is viewing it or acting on it, D11).
        case onScreen(PresentedMessage, awaitsAnswer: Bool)
        /// Handed over to wait for its answer elsewhere (DESIGN.md D23): where, and its id there
        /// (0 in a desktop's list).
        case handedOver(to: Handover.Place, id: UInt32)
    }

    /// The presentation phase's value, while the check is in it.
    var presenting: Presenting {
        get {
            guard case .presenting(let presenting) = phase else { preconditionFailure("the check is not presenting") }
            return presenting
        }
        set {
            if case .presenting = phase { phase = .presenting(newValue) }
        }
    }

    /// Shows what the plan claimed, messages first, then prompts, and ends the presentation
    /// with what it showed, refused and left (DESIGN.md D11).
    func present(_ plan: CheckPlan, after step: FeedStep, _ start: Presenting) {
        phase = .presenting(start)
        // The wait limit counts from the first show, not the last: a server slow to answer
        // each Notify must not stretch it (DESIGN.md D18).
        if let limit = configuration.waitLimit {
            onScreen.waitTimer = inputs.clock.schedule(after: limit) { [self] in
                onScreen.waitTimer = 0
                closeAll()
            }
        }
        var count = 0
        var claimed = Set(plan.claimed.map(\.key))
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
                presenting.record.unopenable += 1
                skip(message, .noHandler(URLRules.scheme(of: url) ?? url))
            } else if delegate?.herald(herald, shouldShow: .message(message)) == false {
                skip(message, .delegateDeclined)
            } else if !claimed.contains(message.key), !claimLater(message, claimed: &claimed) {
                continue
            } else if let presented = show(.message(message)) {
                count += 1
                presenting.record.shownMessages.append(message.key)
                if case .onScreen(_, awaitsAnswer: false) = presented { presenting.record.viewedWithoutButtons.append(message.key) }
            } else {
                presenting.record.notShown.messages.append(message.key)
            }
        }
        for (prompt, decision) in plan.prompts {
            delegate?.herald(herald, didReport: .promptDecided(prompt, decision))
            guard case .show(let preview) = decision else { continue }
            if !preview, delegate?.herald(herald, shouldShow: .prompt(prompt)) == false {
                presenting.record.notShown.prompts.append(prompt.name)
            } else if let presented = show(.prompt(prompt)) {
                presenting.record.shownPrompts += 1
                if case .onScreen(_, awaitsAnswer: false) = presented { presenting.record.actedWithoutButtons.append(prompt) }
            } else {
                presenting.record.notShown.prompts.append(prompt.name)
            }
        }
        recordPendingInbox()
        let presented = presenting
        finish(CheckEnding(feed: step.ending, screen: .presented(presented.record), plannedAt: presented.plannedAt, now: inputs.clock.now))
    }

    /// Reports a message as left out, and counts it as not shown.
    func skip(_ message: FeedEntry, _ reason: MessageSkipReason) {
        delegate?.herald(herald, didReport: .messageSkipped(key: message.key, reason: reason))
        presenting.record.notShown.messages.append(message.key)
    }

    /// Shows one message or prompt, or hands a message over where the route says; keeps and
    /// reports what happened (`keep`) and returns it, or `nil` when it could not be shown.
    private func show(_ item: Notice) -> Presented? {
        if case .message(let entry) = item, case .handingOver(let route) = inputs.route, let handed = handOver(entry, through: route) {
            if handed.place == .portal { herald.postedThroughPortal[entry.key] = entry }
            return keep(.handedOver(to: handed.place, id: handed.id), of: item)
        }
        let presenter = inputs.route.presenter
        let content = item.content(labels: configuration.labels, capabilities: presenting.capabilities, appName: configuration.appName,
                                   allowsCriticalUrgency: configuration.check.allowsCriticalUrgency)
        let handle: PresentedMessage
        // Only what can be answered holds the check: content without buttons is recorded as
        // shown at once (D11), and a presenter that keeps its closure must not keep the check.
        do {
            if content.isInteractive {
                handle = try presenter.present(content, link: item.link) { [self] response in
                    responded(to: item.subject, with: response)
                }
            } else {
                handle = try presenter.present(content, link: item.link) { _ in }
            }
        } catch {
            presenting.record.refused += 1
            delegate?.herald(herald, didReport: .checkFailed(Self.presentationFailure(error)))
            return nil
        }
        if handle.id != 0, let replaced = onScreen.shown.first(where: { $0.value.handle.id == handle.id }) {
            // The server gave this notification the id of one still shown: it replaced that
            // one. Let go of the old handle, so one click cannot answer two messages.
            onScreen.shown[replaced.key] = nil
            Self.retire(replaced.value.handle)
            updateState { state in state = releasing([replaced.value.item], in: state) }
            replaced.value.item.reportClosed(.undefined, herald: herald)
        }
        return keep(.onScreen(handle, awaitsAnswer: content.isInteractive), of: item)
    }

    /// What a presentation leaves: a notice that awaits its answer on screen is kept with its
    /// handle until then, and the delegate hears where each went.
    private func keep(_ presented: Presented, of item: Notice) -> Presented {
        recordPendingInbox()
        switch presented {
        case .handedOver(let place, let id):
            item.reportHandedOver(to: place, notificationID: id, herald: herald)
        case .onScreen(let handle, let awaitsAnswer):
            if awaitsAnswer {
                onScreen.count += 1
                onScreen.shown[item.subject] = Shown(item: item, handle: handle, sequence: onScreen.count)
            }
            item.reportShown(notificationID: handle.id, herald: herald)
        }
        return presented
    }

    /// Reports what the plan left out and, after a fetch, what is pending.
    func report(_ plan: CheckPlan, feedFetched: Bool) {
        for skipped in plan.skipped { delegate?.herald(herald, didReport: .messageSkipped(key: skipped.key, reason: skipped.reason)) }
        guard feedFetched else { return }
        delegate?.herald(herald, didReport: .pending(plan.messages))
    }

    /// What a presenter's refusal is reported as: its `HeraldError`, or for another error a
    /// sentence, with the error's own description when it has one.
    private static func presentationFailure(_ error: any Error) -> HeraldError {
        if let error = error as? HeraldError { return error }
        let refused = "the presenter refused the notification"
        guard let described = error as? CustomStringConvertible else { return .presentation(refused) }
        return .presentation("\(refused): \(described.description)")
    }
}
