import HeraldCore
import HeraldDesktop

/// Receives Herald's events, on the GLib main context (ORIGINALS.md §1.10, Swift-named).
///
/// Every method has a default that does nothing (or says yes), so an app implements only what
/// it needs. The order of one check: `shouldCheck` → fetched/failed → `didDetect` or
/// `didNotDetect` → per message `shouldDisplay` → `didShow` → one of `didView`,
/// `didRequestReminder`, `didIgnore`, `didAcknowledge`, or `didClose`.
@MainContext
public protocol HeraldDelegate: AnyObject {
    /// Whether a due check may run. Not asked for forced checks. Default: true.
    func heraldShouldCheck(_ herald: Herald) -> Bool
    /// A check did not run, and why (first launch, check period, backoff, declined, muted).
    func herald(_ herald: Herald, didSkipCheck reason: CheckSkipReason)
    /// A check had something to show, but the person at the desktop asked for quiet: nothing is
    /// shown or claimed, the check does not count as done, and a later check tries again.
    func herald(_ herald: Herald, didDeferCheckFor reason: QuietReason)
    /// The check fetches the administrator's mirror instead of the app's feed URL (a system key
    /// file's `FeedURL`); said before the request.
    func herald(_ herald: Herald, willFetchFeedFrom mirror: FeedMirror)
    /// The feed arrived; `notModified` when a 304 reused the cached copy.
    func herald(_ herald: Herald, didFetchFeed feed: Feed, notModified: Bool)
    /// The check failed: network, HTTP status, bad feed, no notification server, state I/O.
    func herald(_ herald: Herald, didFailWithError error: HeraldError)
    /// Messages are pending for this user, in display order (never called with none).
    func herald(_ herald: Herald, didDetectMessages messages: [FeedEntry])
    /// The check succeeded and nothing is pending (iNotify declared this but never sent it).
    func heraldDidNotDetectMessages(_ herald: Herald)
    /// A message was left out at this check, and why.
    func herald(_ herald: Herald, didSkipMessage key: String, reason: MessageSkipReason)
    /// Whether a message may be shown. A "no" leaves it unmarked and the next one is tried.
    func herald(_ herald: Herald, shouldDisplay message: FeedEntry) -> Bool
    /// A message is on screen; `notificationID` is the server's id (0 for the terminal).
    func herald(_ herald: Herald, didShow message: FeedEntry, notificationID: UInt32)
    /// The user chose view (or clicked the body); its link opens after this call.
    func herald(_ herald: Herald, didView message: FeedEntry)
    /// A view link could not be opened (no application started for it).
    func herald(_ herald: Herald, didFailToOpen url: String, reason: String)
    /// The user chose remind me later.
    func herald(_ herald: Herald, didRequestReminder message: FeedEntry)
    /// The user chose ignore.
    func herald(_ herald: Herald, didIgnore message: FeedEntry)
    /// The user acknowledged a message without link (OK).
    func herald(_ herald: Herald, didAcknowledge message: FeedEntry)
    /// The notification closed without an answer (DESIGN.md D7 says what that means).
    func herald(_ herald: Herald, didClose message: FeedEntry, reason: CloseReason)
    /// The user answered, but the answer could not be written to the state: it is not
    /// remembered, and the message (or prompt, by name) comes back at a later check. Sent before
    /// the answer's own event, which still follows (a view still opens its link).
    func herald(_ herald: Herald, didFailToRecordAnswerTo key: String, error: HeraldError)
    /// Every shown message and prompt is answered or closed: the check is over.
    func heraldDidFinishCheck(_ herald: Herald)

    /// A prompt's decision at this launch: due, or why it waits (for logs and `--verbose`).
    func herald(_ herald: Herald, didDecide decision: PromptDecision, for prompt: Prompt)
    /// Whether a due prompt may be shown (iPrompt's `iPromptShouldDisplayPrompt:`); not asked in
    /// preview mode. Default: true.
    func herald(_ herald: Herald, shouldDisplay prompt: Prompt) -> Bool
    /// A prompt is on screen.
    func herald(_ herald: Herald, didShow prompt: Prompt, notificationID: UInt32)
    /// The user pressed a prompt's button (iPrompt's action / remind / cancel callbacks); the
    /// state is already updated.
    func herald(_ herald: Herald, prompt: Prompt, didPress button: PromptButton)
    /// Whether the action button may open the prompt's link. Default: true.
    func herald(_ herald: Herald, shouldOpenActionURLFor prompt: Prompt) -> Bool
    /// A prompt closed without an answer (DESIGN.md D7).
    func herald(_ herald: Herald, didClose prompt: Prompt, reason: CloseReason)
}

@MainContext
extension HeraldDelegate {
    /// Default: yes.
    public func heraldShouldCheck(_ herald: Herald) -> Bool { true }
    /// Default: nothing.
    public func herald(_ herald: Herald, didSkipCheck reason: CheckSkipReason) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didDeferCheckFor reason: QuietReason) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, willFetchFeedFrom mirror: FeedMirror) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didFetchFeed feed: Feed, notModified: Bool) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didFailWithError error: HeraldError) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didDetectMessages messages: [FeedEntry]) {}
    /// Default: nothing.
    public func heraldDidNotDetectMessages(_ herald: Herald) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didSkipMessage key: String, reason: MessageSkipReason) {}
    /// Default: yes.
    public func herald(_ herald: Herald, shouldDisplay message: FeedEntry) -> Bool { true }
    /// Default: nothing.
    public func herald(_ herald: Herald, didShow message: FeedEntry, notificationID: UInt32) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didView message: FeedEntry) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didFailToOpen url: String, reason: String) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didRequestReminder message: FeedEntry) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didIgnore message: FeedEntry) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didAcknowledge message: FeedEntry) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didClose message: FeedEntry, reason: CloseReason) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didFailToRecordAnswerTo key: String, error: HeraldError) {}
    /// Default: nothing.
    public func heraldDidFinishCheck(_ herald: Herald) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, didDecide decision: PromptDecision, for prompt: Prompt) {}
    /// Default: yes.
    public func herald(_ herald: Herald, shouldDisplay prompt: Prompt) -> Bool { true }
    /// Default: nothing.
    public func herald(_ herald: Herald, didShow prompt: Prompt, notificationID: UInt32) {}
    /// Default: nothing.
    public func herald(_ herald: Herald, prompt: Prompt, didPress button: PromptButton) {}
    /// Default: yes.
    public func herald(_ herald: Herald, shouldOpenActionURLFor prompt: Prompt) -> Bool { true }
    /// Default: nothing.
    public func herald(_ herald: Herald, didClose prompt: Prompt, reason: CloseReason) {}
}
