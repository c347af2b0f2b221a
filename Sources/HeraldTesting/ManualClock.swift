import FoundationEssentials

/// A clock a test sets and moves by hand, for `Herald(configuration:store:presenter:now:)`.
///
/// ```swift
/// let clock = ManualClock()
/// let herald = try Herald(configuration: configuration, store: store, now: clock.read)
/// clock.advance(days: 1)   // the next check is due
/// ```
public final class ManualClock {
    /// The time now; set it to jump.
    public var now: Date

    /// Starts at `start` (by default 14 November 2023, 22:13:20 UTC).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        now = start
    }

    /// Reads the time: pass `clock.read` where Herald takes a clock.
    public func read() -> Date { now }

    /// Moves the clock on by `days` (fractional).
    public func advance(days: Double) {
        now = now.addingTimeInterval(days * 86_400)
    }
}
