import Herald
import HeraldCore

/// The ranges of the numbers `herald check` accepts, and so writes into an autostart entry;
/// `prompts`, `demo` and `feed preview` take its `--wait` and `--max` within the same.
///
/// `--timeout` and `--wait` set fields of `Herald.Configuration`, whose own ranges they take
/// (`Herald.Configuration.range(of:)`): its problems are said here as the options' refusals.
/// The other limits are the tool's: each is far above any sensible setting, and an infinite
/// start delay crashed the random draw at every login of an entry that held one.
enum CheckOptionLimits {
    /// `--start-delay`: 0 to one day.
    static let startDelay = AllowedRange(upTo: Duration.days(1).seconds, "seconds", zeroAllowed: true)
    /// `--server-wait`: 0 to ten minutes.
    static let serverWait = AllowedRange(upTo: 600, "seconds", zeroAllowed: true)
    /// `--check-period` and `--remind-period`: 0 to ten years.
    static let period = AllowedRange(upTo: 3_650, "days", zeroAllowed: true)
    /// `--max`: a check shows at least one message.
    static let fewestMessages = 1

    /// The option that sets each field `Herald.Configuration` checks.
    static func option(for field: Herald.Configuration.Problem.Field) -> String {
        switch field {
        case .timeout: "--timeout"
        case .waitLimit: "--wait"
        }
    }

    /// A problem of the configuration, said of the option that set the field:
    /// "--timeout must be more than 0 and at most 3600 seconds, not 0".
    static func refusal(_ problem: Herald.Configuration.Problem) -> String {
        "\(option(for: problem.field)) \(problem.requirement)"
    }

    /// Why `value` given to `option` is refused, or `nil` when `range` takes it.
    static func refusal(_ option: String, _ value: Double, in range: AllowedRange) -> String? {
        range.requirement(refusing: value).map { "\(option) \($0)" }
    }

    /// Why a `--timeout` is refused, or `nil`: the configuration's range of its timeout.
    static func timeoutRefusal(_ seconds: Double) -> String? {
        Herald.Configuration.problem(.timeout, seconds: seconds).map(refusal)
    }

    /// Why a `--wait` is refused, or `nil`: the configuration's range of its wait limit.
    static func waitRefusal(_ seconds: Double) -> String? {
        Herald.Configuration.problem(.waitLimit, seconds: seconds).map(refusal)
    }

    /// Why a `--server-wait` is refused, or `nil`.
    static func serverWaitRefusal(_ seconds: Double) -> String? {
        refusal("--server-wait", seconds, in: serverWait)
    }

    /// Why a `--start-delay` is refused, or `nil`.
    static func startDelayRefusal(_ seconds: Double) -> String? {
        refusal("--start-delay", seconds, in: startDelay)
    }

    /// Why a `--check-period` or `--remind-period` (named by `option`) is refused, or `nil`.
    static func periodRefusal(_ option: String, _ days: Double) -> String? {
        refusal(option, days, in: period)
    }

    /// Why a `--max` is refused, or `nil`.
    static func maxRefusal(_ max: Int) -> String? {
        max >= fewestMessages ? nil : "--max must be at least \(fewestMessages)"
    }
}
