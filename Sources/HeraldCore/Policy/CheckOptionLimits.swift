/// The ranges of the numbers `herald check` accepts, and so writes into an autostart entry.
///
/// A number outside them is a mistake, never a wish: an infinite or huge timeout crashed the
/// fetcher (it converts seconds to a 32-bit count), an infinite start delay crashed the random
/// draw, and `autostart enable` wrote such values into the login entry, so the crash came back
/// at every login. Each limit is far above any sensible setting.
public enum CheckOptionLimits {
    /// The longest fetch timeout, in seconds: one hour.
    public static let timeout = 3_600.0
    /// The longest wait for answers, in seconds: seven days.
    public static let wait = 7 * secondsPerDay
    /// The longest wait for a notification server, in seconds: ten minutes.
    public static let serverWait = 600.0
    /// The longest random start delay, in seconds: one day.
    public static let startDelay = secondsPerDay
    /// The longest check or remind period, in days: ten years.
    public static let period = 3_650.0

    /// Why a `--timeout` is refused, or `nil`: more than 0, at most `timeout` seconds.
    public static func timeoutRefusal(_ seconds: Double) -> String? {
        refusal("--timeout", seconds, through: timeout, unit: "seconds", zeroAllowed: false)
    }

    /// Why a `--wait` is refused, or `nil`: more than 0, at most `wait` seconds.
    public static func waitRefusal(_ seconds: Double) -> String? {
        refusal("--wait", seconds, through: wait, unit: "seconds", zeroAllowed: false)
    }

    /// Why a `--server-wait` is refused, or `nil`: 0 to `serverWait` seconds.
    public static func serverWaitRefusal(_ seconds: Double) -> String? {
        refusal("--server-wait", seconds, through: serverWait, unit: "seconds", zeroAllowed: true)
    }

    /// Why a `--start-delay` is refused, or `nil`: 0 to `startDelay` seconds.
    public static func startDelayRefusal(_ seconds: Double) -> String? {
        refusal("--start-delay", seconds, through: startDelay, unit: "seconds", zeroAllowed: true)
    }

    /// Why a `--check-period` or `--remind-period` (named by `option`) is refused, or `nil`:
    /// 0 to `period` days.
    public static func periodRefusal(_ option: String, _ days: Double) -> String? {
        refusal(option, days, through: period, unit: "days", zeroAllowed: true)
    }

    /// Comparisons with NaN are false, so NaN is refused with everything out of range.
    private static func refusal(_ option: String, _ value: Double, through upper: Double, unit: String, zeroAllowed: Bool) -> String? {
        let inRange = (zeroAllowed ? value >= 0 : value > 0) && value <= upper
        if inRange { return nil }
        let range = zeroAllowed ? "from 0 to \(NumberText.plain(upper)) \(unit)" : "more than 0 and at most \(NumberText.plain(upper)) \(unit)"
        return "\(option) must be \(range), not \(NumberText.plain(value))"
    }
}
