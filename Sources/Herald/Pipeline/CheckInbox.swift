import FoundationEssentials
import HeraldCore

extension Check {
    /// Adds to the person's inbox what the plan kept for them from `feed` (`nil` when the check
    /// fetched none) and from Herald's own messages (`local`, What's new), and marks what a
    /// fetched feed no longer has as withdrawn (`InboxPolicy.recording`). The inbox is read first
    /// without its lock: a check that finds nothing new takes no lock and writes nothing. An
    /// inbox that cannot be written costs the check nothing else; the next check adds the
    /// messages again.
    func recordInInbox(_ plan: CheckPlan, from feed: Feed?, local: [FeedEntry]) {
        guard feed != nil || !local.isEmpty else { return }
        let reached = InboxPolicy.reached(by: plan)
        let (app, languages, now) = (configuration.appID, configuration.check.audience?.languages ?? [], inputs.clock.now)
        func recorded(_ inbox: Inbox) -> Inbox {
            InboxPolicy.recording(reached, from: feed, local: local, app: app, languages: languages, now: now, in: inbox)
        }
        if let snapshot = try? inputs.inbox.snapshot(), recorded(snapshot) == snapshot { return }
        _ = try? inputs.inbox.update { inbox in inbox = recorded(inbox) }
    }
}
