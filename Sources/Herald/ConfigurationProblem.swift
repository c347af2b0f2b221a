import HeraldCore
import HeraldDesktop

extension Herald.Configuration {
    /// A field of the configuration set out of its range, named as the configuration names it.
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The fields whose numbers the configuration checks.
        package enum Field: String, Sendable, CaseIterable {
            /// `timeout`, in seconds.
            case timeout
            /// `waitLimit`, in seconds.
            case waitLimit
        }

        /// The field out of its range.
        package let field: Field
        /// What the field must be: "must be more than 0 and at most 3600 seconds, not 0".
        package let requirement: String

        /// "timeout must be more than 0 and at most 3600 seconds, not 0".
        package var description: String { "\(field.rawValue) \(requirement)" }
    }

    /// The seconds each checked field takes: a timeout of more than 0 up to the fetcher's
    /// longest (an hour), a wait limit of more than 0 up to seven days.
    package static func range(of field: Problem.Field) -> AllowedRange {
        switch field {
        case .timeout: AllowedRange(upTo: FeedFetcher.longestTimeout, "seconds", zeroAllowed: false)
        case .waitLimit: AllowedRange(upTo: Duration.days(7).seconds, "seconds", zeroAllowed: false)
        }
    }

    /// The problem of `field` set to `seconds`, or `nil` when the number is in its range.
    package static func problem(_ field: Problem.Field, seconds: Double) -> Problem? {
        range(of: field).requirement(refusing: seconds).map { Problem(field: field, requirement: $0) }
    }

    /// Every field of this configuration set out of its range, in the order of `Problem.Field`.
    package var problems: [Problem] {
        [Self.problem(.timeout, seconds: timeout.seconds), waitLimit.flatMap { Self.problem(.waitLimit, seconds: $0.seconds) }].compactMap { $0 }
    }

    /// Checks the numbers this configuration holds: `Herald` refuses a configuration that
    /// does not pass, before it reads or fetches anything.
    ///
    /// - Throws: `HeraldError.configuration`, naming the first field out of its range and what
    ///   it must be: "timeout must be more than 0 and at most 3600 seconds, not 0".
    public func validate() throws(HeraldError) {
        if let problem = problems.first { throw HeraldError.configuration(problem.description) }
    }
}
