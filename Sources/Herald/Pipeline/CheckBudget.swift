import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// The person's attention budget as a check keeps it: the ledger shared by every app, read
/// without its lock for a plan on a snapshot, and changed under its own lock, taken inside the
/// app's, when the plan takes room, a later claim takes room, or the check ends.
///
/// A ledger that cannot be read or written is a problem of the budget alone
/// (`HeraldEvent.budgetNotKept`): the check plans as if no budget were set.
extension Check {
    /// Whether planning on `state` goes through the attention ledger: only a check that fetched
    /// a feed or has a message of its own (What's new), outside debug mode, and only when one of
    /// them is a message this app has not answered or the ledger has messages of this app
    /// waiting. A check with nothing new never takes the ledger's lock.
    ///
    /// - Parameter read: reads the ledger without its lock; asked only when the feed alone does
    ///   not decide (nothing new in it), so a check that fetched new messages, or none, reads no file.
    func usesLedger(for feed: Feed?, local: [FeedEntry] = [], state: HeraldState, read: () -> AttentionLedger?) -> Bool {
        guard feed != nil || !local.isEmpty, !configuration.check.debug else { return false }
        let ignored = state.ignored ?? []
        let unanswered = { (key: String) in !state.viewed.contains(key) && !ignored.contains(key) }
        if feed?.entries.keys.contains(where: unanswered) == true || local.contains(where: { unanswered($0.key) }) { return true }
        return read()?.waiting[configuration.appID] != nil
    }

    /// The ledger as last written, for a plan on a snapshot: `nil` when it cannot be read.
    var ledgerSnapshot: AttentionLedger? { try? inputs.ledger.snapshot() }

    /// Changes the person's attention ledger in one locked update. A ledger that cannot be
    /// read or written is said once (`budgetNotKept`) and never a failure of the check: the
    /// change is lost, `nil` returned, and the check goes on without the budget.
    @discardableResult
    func updateLedger<Result>(_ change: (inout AttentionLedger) -> Result) -> Result? {
        do {
            return try inputs.ledger.update(change)
        } catch {
            if saidOnce.insert(.budgetNotKept).inserted {
                delegate?.herald(herald, didReport: .budgetNotKept(HeraldError.state(failing: error)))
            }
            return nil
        }
    }

    /// A message as the attention budget weighs it, under this app's settings.
    func candidate(_ entry: FeedEntry) -> AttentionCandidate {
        AttentionCandidate(entry, allowsCriticalUrgency: configuration.check.allowsCriticalUrgency)
    }

    /// Takes room for a message claimed after the plan, giving back the room of the claimed ones
    /// passed over; returns why the budget holds it back, or `nil` when it may show (or the
    /// ledger cannot be written).
    func takeRoom(for message: FeedEntry, givingBack passedOver: [String], until: Date, in context: PolicyContext) -> MessageSkipReason? {
        updateLedger { ledger in
            AttentionPolicy.takeRoom(for: candidate(message), givingBack: passedOver, app: configuration.appID,
                                     claim: claimant.claim(until: until), budget: context.budget, ledger: &ledger,
                                     now: context.now, isLive: context.isLive)
        } ?? nil
    }

    /// Writes the ledger's change at the check's end (`CheckEnding.ledgerChange`); nothing when
    /// the ending does not change it, so the ledger's lock is not taken.
    func changeLedger(as ending: CheckEnding) {
        let claim = claimant.claim(until: ending.now)
        switch ending.ledgerChange {
        case .none:
            return
        case .settle(let shown):
            updateLedger { ledger in
                ledger = AttentionPolicy.settle(shown: shown, app: configuration.appID, claim: claim, ledger: ledger)
            }
        case .deferForQuiet(let waiting):
            updateLedger { ledger in
                ledger = AttentionPolicy.deferForQuiet(waiting, app: configuration.appID, claim: claim, ledger: ledger, now: ending.now)
            }
        }
    }
}
