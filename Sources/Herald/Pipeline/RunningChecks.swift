import Glibc
import HeraldCore
import HeraldDesktop

/// The checks of one `Herald` that are still running, by name: what tells a claim this process
/// made from one an earlier process with the same id left behind (DESIGN.md D16).
///
/// Owned by its `Herald` and handed to each check it starts; the check names itself here as
/// it starts and leaves as it ends.
@MainContext
package final class RunningChecks {
    private var running: Set<String> = []
    private var made = 0
    /// Names this registry's checks apart from another `Herald`'s in this process.
    private let token = String(UInt64.random(in: 1...UInt64.max), radix: 36)
    /// Names this process's checks apart from those of an earlier process that had the same id.
    private nonisolated static let processToken = String(UInt64.random(in: 1...UInt64.max), radix: 36)

    /// An empty registry.
    package init() {}

    /// Names a new check and counts it as running until `ended(_:)`.
    package func start() -> Claimant {
        made += 1
        let claimant = Claimant(processID: getpid(), check: "\(Self.processToken).\(token).\(made)")
        running.insert(claimant.check)
        return claimant
    }

    /// The check is over: its claims no longer hold anything back.
    package func ended(_ claimant: Claimant) {
        running.remove(claimant.check)
    }

    /// Whether the check holding a claim may still run: one of these running checks, one of
    /// another `Herald` of this process (which releases its claims as it ends, or lets them
    /// lapse), or any check of another live process.
    package func isLive(_ claim: HeraldState.Claim) -> Bool {
        guard claim.processID == getpid() else { return claim.processRuns }
        guard let check = claim.check, check.hasPrefix(Self.processToken + ".") else { return false }
        guard check.hasPrefix("\(Self.processToken).\(token).") else { return true }
        return running.contains(check)
    }
}
