import FoundationEssentials
import HeraldCore

extension Herald {
    /// The app's own messages that reached the person in the last 180 days, newest first, each
    /// with where it stands: for the app's own "What's new" page. The same list as
    /// `herald inbox --app-id` prints: every message a check kept for this person (their app
    /// version, language, desktop and rollout), whatever happened next (shown, answered, held
    /// back by the attention budget or quiet, its category muted, withdrawn by its publisher).
    /// An answer given on such a page is recorded with `record(_:forMessage:)`.
    ///
    /// Reads without taking a lock and writes nothing. The texts are those the notification
    /// showed, in the person's language. A key file that cannot be read counts as no mutes.
    ///
    /// - Throws: `HeraldError.state` when the app's state, the attention ledger or the inbox
    ///   cannot be read.
    public func inbox() throws(HeraldError) -> [InboxMessage] {
        let decision = (try? offSwitches()) ?? .none
        do {
            let standing = InboxPolicy.Standing(state: try store.inspect() ?? HeraldState(), ledger: try ledger.snapshot(),
                                                switches: decision, remindPeriod: configuration.check.remindPeriod.seconds)
            return InboxPolicy.messages(of: configuration.appID, in: try inboxStore.snapshot(), standing: standing, now: now(),
                                        isLive: running.isLive)
        } catch {
            throw HeraldError.state(failing: error)
        }
    }
}
