import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// The handover of a check's messages (DESIGN.md D23): posted where the route says, to wait for
/// their answers after the check (the Herald agent, GNOME's list, the notification portal), and
/// taken back when the publisher withdraws them.
extension Check {
    /// Hands a message over; returns where it waits and its id there, or `nil` when it is not
    /// handed over (it is shown as today). The handover replaces the check's claim in the state
    /// before the message is posted, so an answer given at once finds it; a post that fails takes
    /// the handover back and gives the claim back. Nothing of a handed-over message stays on this
    /// check's screen: the check does not wait for it.
    func handOver(_ entry: FeedEntry, through route: HandingOverPresenter) -> (place: Handover.Place, id: UInt32)? {
        let item = Notice.message(entry)
        let now = inputs.clock.now
        let capabilities = route.handoverCapabilities ?? (try? route.capabilities()) ?? []
        let content = item.content(labels: configuration.labels, capabilities: capabilities, appName: configuration.appName,
                                   allowsCriticalUrgency: configuration.check.allowsCriticalUrgency)
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
            let id = try route.handOver(content, key: entry.key, as: handover, stateFolder: Handover.stateFolder(of: inputs.store))
            return (handover.place, id)
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
        let messages = onScreen.shown.values.filter { if case .message = $0.item { true } else { false } }.sorted { $0.sequence < $1.sequence }
        guard !messages.isEmpty, (try? route.capabilities()) != nil else { return }
        for shown in messages {
            guard case .message(let entry) = shown.item, handOver(entry, through: route) != nil else { continue }
            onScreen.shown[shown.item.subject] = nil
            shown.handle.close()
            Self.retire(shown.handle)
        }
    }

    /// Takes every handed-over message the publisher withdrew (no longer in `feed`) off where
    /// its handover says, and forgets those handovers, in one update. A withdrawal nobody takes
    /// (the shell or the agent gone, the call refused) is forgotten all the same: the message is
    /// no longer the publisher's, and nothing later could deliver it better.
    func withdrawHandedOver(from feed: Feed) {
        let withdrawn = updateState { state -> [(key: String, handover: Handover)] in
            let keys = CheckPolicy.withdrawn(from: feed, state: state)
            let handovers = keys.compactMap { key in state.handedOver[key].map { (key, $0) } }
            state = CheckPolicy.forgetHandovers(keys, in: state)
            return handovers
        } ?? []
        for (key, handover) in withdrawn { inputs.withdraw(key, handover) }
    }
}
