/// Seconds in one of the configuration's days.
let secondsPerDay = 86_400.0

extension Duration {
    /// The duration in seconds, fractions included.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in days of 86,400 seconds, fractions included: the unit of the CLI's
    /// `--check-period` and `--remind-period` and of a prompts file's periods.
    package var days: Double { seconds / secondsPerDay }

    /// A duration of `days` days of 86,400 seconds, fractions included.
    package static func days(_ days: Double) -> Duration { .seconds(days * secondsPerDay) }
}
