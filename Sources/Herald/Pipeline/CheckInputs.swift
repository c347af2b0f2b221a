import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// What a check works with, made by its `Herald` once per check: the settings, where the state
/// is kept, the route its messages take, the time, and the readers it asks as it goes.
@MainContext
struct CheckInputs {
    /// The settings the `Herald` was made with.
    let configuration: Herald.Configuration
    /// Where the answers, claims and the cached copy's record are kept.
    let store: any StateStore
    /// How what the check shows reaches the person: on this process's screen, or handed over.
    let route: PresentationRoute
    /// What tells whether a link can be opened, and opens it.
    let linkOpener: any LinkOpening
    /// The time, and the wait limit's timer.
    let clock: any HeraldClock
    /// The checks of the `Herald` still running, which the check joins as it starts.
    let running: RunningChecks
    /// Whether the person at the desktop asks for quiet.
    let quietReason: @MainContext () -> QuietReason?
    /// The mutes and the administrator's mirror.
    let offSwitches: @MainContext () throws(OffSwitchFileError) -> OffSwitchDecision
    /// The prompts registered when asked.
    let prompts: @MainContext () -> [Prompt]
    /// The source of the feed at a URL (the app's own, or the administrator's mirror).
    let feedSource: @MainContext (String) -> FeedSource
    /// Takes a withdrawn message, by key, back from where its handover says.
    let withdraw: @MainContext (String, Handover) -> Void
    /// The person's attention ledger, shared by every app.
    let ledger: any AttentionLedgerStore
    /// The person's inbox, shared by every app.
    let inbox: any InboxStore
    /// Where the check waits for the other apps' checks of its run before it plans
    /// (`herald check --registered`); `nil` for an app's own check.
    let rendezvous: CheckRendezvous?
}
