import FoundationEssentials
import Herald
import HeraldDesktop

/// A clock a test sets and moves by hand, with the timers Herald sets on it: a check's wait
/// limit fires when the clock is moved past it, not after real seconds (on the model of
/// swift-nio's `EmbeddedEventLoop.advanceTime(by:)`).
///
/// ```swift
/// let desktop = TestDesktop()
/// let herald = try desktop.herald(feedURL: feedURL, appID: "org.example.App", appVersion: "1.4")
/// desktop.clock.advance(by: .seconds(86_400))   // the next check is due, and a wait of a day is over
/// ```
public final class ManualClock: HeraldClock {
    /// A timer set on the clock, waiting for its time.
    private struct Timer {
        let id: UInt32
        let deadline: Date
        let body: @MainContext () -> Void
    }

    /// The time now; setting it jumps without firing timers (`advance(by:)` fires them).
    public var now: Date
    private var timers: [Timer] = []
    private var lastID: UInt32 = 0

    /// Starts at `start` (by default 14 November 2023, 22:13:20 UTC).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        now = start
    }

    /// The timers set and not yet fired or cancelled.
    public var pendingTimers: Int { timers.count }

    /// Sets a timer that fires when the clock is moved to `now + delay` or later.
    @discardableResult
    public func schedule(after delay: Duration, _ body: @escaping @MainContext () -> Void) -> UInt32 {
        lastID += 1
        timers.append(Timer(id: lastID, deadline: now.addingTimeInterval(delay.seconds), body: body))
        return lastID
    }

    /// Cancels a timer that has not fired.
    public func cancel(_ timer: UInt32) {
        timers.removeAll { $0.id == timer }
    }

    /// Moves the clock on by `duration`, firing, in the order of their deadlines, the timers
    /// that come due on the way (each with the clock at its deadline). Call it on the main context.
    @MainContext
    public func advance(by duration: Duration) {
        let end = now.addingTimeInterval(duration.seconds)
        while let next = timers.filter({ $0.deadline <= end }).min(by: { $0.deadline < $1.deadline }) {
            timers.removeAll { $0.id == next.id }
            now = max(now, next.deadline)
            next.body()
        }
        now = end
    }
}
