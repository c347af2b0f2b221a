import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// Receives Herald's events, on the GLib main context (ORIGINALS.md §1.10, Swift-named).
///
/// Every method has a default that does nothing (or says yes), so an app implements only what
/// it needs. Messages of the feed and local prompts go through the same methods, as a `Notice`.
/// The order of one check: `heraldShouldCheck` → events (fetched or failed, then `.pending`)
/// → per notice `shouldShow` → `didShow` → `didReceive` an answer, or `didClose` → the event
/// `.checkFinished`.
@MainContext
public protocol HeraldDelegate: AnyObject {
    /// Whether a due check may run. Not asked for forced checks. Default: true.
    func heraldShouldCheck(_ herald: Herald) -> Bool
    /// Whether a message or a due prompt may be shown. A "no" leaves it unmarked and the next one
    /// is tried; not asked for prompts in preview mode. Default: true.
    func herald(_ herald: Herald, shouldShow notice: Notice) -> Bool
    /// Whether the action button may open the prompt's link (iPrompt's). Default: true.
    func herald(_ herald: Herald, shouldOpenActionURLFor prompt: Prompt) -> Bool
    /// A message or prompt is on screen; `notificationID` is the server's id (0 for the terminal).
    func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32)
    /// The user answered a message (view, remind, ignore, OK) or pressed a prompt's button
    /// (iPrompt's action, remind, cancel); the state is already updated. A view's link, or a
    /// prompt action's, opens after this call.
    func herald(_ herald: Herald, didReceive answer: NoticeAnswer)
    /// A message or prompt closed without an answer (DESIGN.md D7 says what that means).
    func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason)
    /// Something happened in a check: skipped, deferred, fetched, failed, what is pending, a
    /// message left out, a prompt's decision, a link or an answer that failed, the end.
    func herald(_ herald: Herald, didReport event: HeraldEvent)
}

/// What a check reports to `HeraldDelegate.herald(_:didReport:)`, in the order it happens.
public enum HeraldEvent {
    /// A check did not run, and why (first launch, check period, backoff, declined, muted).
    case checkSkipped(CheckSkipReason)
    /// A check had something to show, but the person at the desktop asked for quiet: nothing is
    /// shown or claimed, the check does not count as done, and a later check tries again.
    case checkDeferred(QuietReason)
    /// The check fetches the administrator's mirror instead of the app's feed URL (a system key
    /// file's `FeedURL`); said before the request.
    case fetchingMirror(FeedMirror)
    /// The feed arrived; `notModified` when a 304 reused the cached copy.
    case feedFetched(Feed, notModified: Bool)
    /// The check failed: network, HTTP status, bad feed, no notification server, state I/O.
    case checkFailed(HeraldError)
    /// The person's attention ledger, shared by every app, cannot be read or written (not a
    /// regular file, larger than it may be, its lock cannot be taken): a problem of the budget
    /// alone. The check goes on as if no budget were set (its own cap, `MaxShows` and
    /// `MinDaysBetween` still hold) and does not fail for it. Said once per check.
    case budgetNotKept(HeraldError)
    /// The feed is fetched and planned: the messages pending for this user, in display order;
    /// empty when nothing is pending (iNotify declared that event but never sent it). Sent
    /// before they are shown: a server that then refuses every one still fails the check.
    case pending([FeedEntry])
    /// A message was left out at this check, and why.
    case messageSkipped(key: String, reason: MessageSkipReason)
    /// A prompt's decision at this launch: due, or why it waits (for logs and `--verbose`).
    case promptDecided(Prompt, PromptDecision)
    /// A view link could not be opened (no application started for it).
    case linkNotOpened(url: String, reason: String)
    /// The user answered, but the answer could not be written to the state: it is not
    /// remembered, and the message (by key) or prompt (by name) comes back at a later check.
    /// Sent before the answer itself, which still follows (a view still opens its link).
    case answerNotRecorded(key: String, error: HeraldError)
    /// Every shown message and prompt is answered or closed: the check is over.
    case checkFinished
    /// A message handed over when the app quit (`Herald.appWillQuit()`), or by `herald check`,
    /// was answered in the desktop's list or on the Herald agent's notification while the app
    /// was not running: the answer is already recorded (and a view's link opened). Reported at
    /// the next launch, before the check, once per answer, oldest first.
    case answeredWhileAway(key: String, answer: Answer, at: Date)
}

/// The user's answer to what Herald showed.
public enum NoticeAnswer: Equatable {
    /// A message's answer: view (or a click on the body), remind, ignore, or OK for a message
    /// without a link.
    case message(FeedEntry, Answer)
    /// A prompt's button.
    case prompt(Prompt, PromptButton)
}

@MainContext
extension HeraldDelegate {
    /// Default: yes.
    public func heraldShouldCheck(_ herald: Herald) -> Bool { true }
    /// Default: yes.
    public func herald(_ herald: Herald, shouldShow notice: Notice) -> Bool { true }
    /// Default: yes.
    public func herald(_ herald: Herald, shouldOpenActionURLFor prompt: Prompt) -> Bool { true }
    /// Default: nothing.
    public func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didReceive answer: NoticeAnswer) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didReport event: HeraldEvent) {}
}
