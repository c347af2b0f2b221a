import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// Where the checks of several apps run together (`herald check --registered`, DESIGN.md D27)
/// meet before they plan, so that one budget decision weighs every app's messages.
///
/// Each check comes once its feed is in (or it knows it has none) and waits. When every app of
/// the run has come, or has ended without coming (muted, not due, its lock unusable), or the
/// run's deadline has passed, every app's candidates are put in the attention ledger at once
/// (`AttentionPolicy.announce`, one locked update) and the checks plan one after another, in
/// app-id order: each app's grant then ranks the others' messages with its own and leaves their
/// room to those that rank higher, whichever app's feed came first. A check that comes after
/// the release plans at once, against the ledger as it is.
///
/// Nothing is held while checks wait: no state lock, no ledger lock; an app's own check at the
/// same moment claims and takes room under the same locks as ever.
@MainContext
package final class CheckRendezvous {
    /// A check that came, waiting to plan.
    private struct Arrival {
        let announcement: AttentionPolicy.Announcement
        let proceed: @MainContext () -> Void
    }

    /// The apps whose checks have neither come nor ended.
    private var awaited: Set<String>
    private var arrivals: [Arrival] = []
    private var released = false
    private let ledger: any AttentionLedgerStore
    private let clock: any HeraldClock
    private var deadlineTimer: UInt32 = 0

    /// A rendezvous for the checks of `apps`.
    ///
    /// - Parameters:
    ///   - ledger: the person's attention ledger, where the candidates are announced.
    ///   - clock: the time the candidates wait from, and the deadline's timer.
    ///   - deadline: how long the first checks wait for the last; `nil` for as long as it takes
    ///     (each fetch has its own time limit).
    package init(apps: some Sequence<String>, ledger: any AttentionLedgerStore, clock: any HeraldClock, deadline: Duration?) {
        awaited = Set(apps)
        self.ledger = ledger
        self.clock = clock
        if let deadline { deadlineTimer = clock.schedule(after: deadline) { [weak self] in self?.release() } }
        if awaited.isEmpty { release() }
    }

    /// Whether the checks were let go to plan.
    package var isReleased: Bool { released }
    /// Told, with the app, each time a check comes or ends without having come: a run that
    /// fetches a few feeds at a time starts the next check then.
    package var onCome: (@MainContext (String) -> Void)?

    /// A check of `app` has its feed: `candidates` are the messages it would weigh against the
    /// budget, in its order. `proceed` plans it, at the release, or at once after it.
    func arrive(app: String, candidates: [AttentionCandidate], cap: Int, budget: AttentionBudget,
                proceed: @escaping @MainContext () -> Void) {
        let came = awaited.remove(app) != nil
        if released {
            proceed()
        } else {
            arrivals.append(Arrival(announcement: .init(app: app, candidates: candidates, cap: cap, budget: budget), proceed: proceed))
            if awaited.isEmpty { release() }
        }
        if came { onCome?(app) }
    }

    /// A check of `app` ended: if it never came, the others no longer wait for it.
    func leave(app: String) {
        guard awaited.remove(app) != nil else { return }
        if awaited.isEmpty { release() }
        onCome?(app)
    }

    /// Announces every candidate in one ledger update, then lets the checks plan, in app-id
    /// order. A ledger that cannot be written announces nothing: each check then plans against
    /// the ledger as it is, and says for itself that the budget is not kept.
    private func release() {
        guard !released else { return }
        released = true
        clock.cancel(deadlineTimer)
        let waiting = arrivals.sorted { $0.announcement.app < $1.announcement.app }
        arrivals = []
        let now = clock.now
        if waiting.contains(where: { !$0.announcement.candidates.isEmpty }) {
            _ = try? ledger.update { ledger in ledger = AttentionPolicy.announce(waiting.map(\.announcement), ledger: ledger, now: now) }
        }
        for arrival in waiting { arrival.proceed() }
    }
}
