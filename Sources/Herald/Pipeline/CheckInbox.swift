import FoundationEssentials
import HeraldCore

extension Check {
    /// Adds to the person's inbox what the plan kept for them from the step's feed (none when
    /// the check fetched none) and from Herald's own messages (`local`, What's new), and marks what a
    /// fetched feed no longer has as withdrawn (`InboxPolicy.recording`). The inbox is read first
    /// without its lock: a check that finds nothing new takes no lock and writes nothing. An
    /// inbox that cannot be written costs the check nothing else; the next check adds the
    /// messages again. A plan that shows something records once its first notice is out
    /// (`recordPendingInbox`): the notification does not wait on the inbox file.
    func recordInInbox(_ plan: CheckPlan, from step: FeedStep, local: [FeedEntry]) {
        let feed = step.feed
        guard feed != nil || !local.isEmpty else { return }
        var feedChanged = true
        if case .fetched(let loaded, _) = step { feedChanged = !loaded.notModified }
        let reached = InboxPolicy.reached(by: plan)
        let (app, languages, now) = (configuration.appID, configuration.check.audience?.languages ?? [], inputs.clock.now)
        func recorded(_ inbox: Inbox) -> Inbox {
            InboxPolicy.recording(reached, from: feed, local: local, feedChanged: feedChanged, app: app, languages: languages, now: now, in: inbox)
        }
        if let snapshot = try? inputs.inbox.snapshot(), recorded(snapshot) == snapshot { return }
        _ = try? inputs.inbox.update { inbox in inbox = recorded(inbox) }
    }

    /// Records in the inbox what the presentation's plan kept, if it is not recorded yet: called
    /// once a notice is out, before the delegate hears of it (so an app reading its inbox in
    /// `didShow` finds the message there), and when the presentation ends.
    func recordPendingInbox() {
        guard case .presenting(let presenting) = phase, let pending = presenting.pendingInbox else { return }
        self.presenting.pendingInbox = nil
        recordInInbox(pending.plan, from: pending.step, local: pending.local)
    }
}
