import HeraldCore

/// How the installs of a fleet start their checks each day.
package enum SessionPattern: Sendable, Equatable {
    /// One login a day at a time of day drawn from a normal distribution (each install, each
    /// day, its own draw); the login entry then waits `loginDelay(upTo: startDelay)` before it
    /// asks the gate (DESIGN.md D19).
    case login(meanTime: Double, deviation: Double, startDelay: Double)
    /// The app starts a few times a day (each install, each day, a count drawn uniformly from
    /// `perDay`), each start at a uniform time of day within `between`, and calls
    /// `appLaunched()` at once.
    case appLaunches(perDay: ClosedRange<Int>, between: ClosedRange<Double>)

    /// The start-delay limit, or 0 when checks start at once.
    package var startDelay: Double {
        if case .login(_, _, let startDelay) = self { return startDelay }
        return 0
    }

    /// The wait of a login entry before its check, drawn as `herald check --start-delay`
    /// draws it: uniformly in 0...limit, none when the limit is 0.
    package static func loginDelay<Generator: RandomNumberGenerator>(upTo limit: Double, using random: inout Generator) -> Double {
        limit > 0 ? Double.random(in: 0...limit, using: &random) : 0
    }

    /// Writes the times (seconds from the start of the simulated days, in order) at which one
    /// install asks the gate on day `day`.
    ///
    /// - Parameters:
    ///   - times: emptied, then filled; kept by the caller so that no day allocates.
    package func checkTimes(onDay day: Int, into times: inout [Double], using random: inout FleetRandom) {
        times.removeAll(keepingCapacity: true)
        let midnight = Double(day) * secondsPerDay
        switch self {
        case .login(let meanTime, let deviation, let startDelay):
            let login = random.normal(mean: meanTime, deviation: deviation)
            times.append(midnight + login + Self.loginDelay(upTo: startDelay, using: &random))
        case .appLaunches(let perDay, let between):
            let count = Int.random(in: perDay, using: &random)
            for _ in 0..<count { times.append(midnight + Double.random(in: between, using: &random)) }
            times.sort()
        }
    }
}

/// One way a fleet uses Herald: how its checks start, and the configuration they run with.
package struct FleetScenario: Sendable, Equatable {
    /// A short name, for the command line and the report.
    package var name: String
    /// One line for people.
    package var summary: String
    /// How the installs start their checks.
    package var sessions: SessionPattern
    /// The check configuration of every install.
    package var configuration: CheckConfiguration

    /// Creates a scenario.
    ///
    /// - Parameters:
    ///   - configuration: default `CheckConfiguration()`, Herald's defaults.
    package init(name: String, summary: String, sessions: SessionPattern, configuration: CheckConfiguration = CheckConfiguration()) {
        self.name = name
        self.summary = summary
        self.sessions = sessions
        self.configuration = configuration
    }

    /// The start delay that `herald autostart enable` writes into the login entry by default
    /// (its `--start-delay`), in seconds: two minutes, as `StartDelayTests` holds it to the tool's.
    package static let autostartStartDelay = 120.0

    /// An office: one login a day around 9:00 (σ 20 minutes), through the autostart entry.
    package static let spread = FleetScenario(
        name: "spread", summary: "one login a day, N(9:00, σ 20 min), autostart start delay 0…120 s",
        sessions: .login(meanTime: 9 * 3600, deviation: 20 * 60, startDelay: autostartStartDelay))

    /// Lab machines booting together: one login a day around 9:00 (σ 30 s), through the
    /// autostart entry.
    package static let synchronised = FleetScenario(
        name: "synchronised", summary: "one login a day, N(9:00, σ 30 s), autostart start delay 0…120 s",
        sessions: .login(meanTime: 9 * 3600, deviation: 30, startDelay: autostartStartDelay))

    /// An app calling `appLaunched()` 1 to 5 times a day between 8:00 and 18:00, no autostart.
    package static let appLaunches = FleetScenario(
        name: "app-launches", summary: "1…5 app start-ups a day, uniform 8:00–18:00, no start delay",
        sessions: .appLaunches(perDay: 1...5, between: 8 * 3600...18 * 3600))

    /// The scenarios `herald-fleet` runs by default.
    package static let all: [FleetScenario] = [spread, synchronised, appLaunches]
}

/// Seconds in a day.
let secondsPerDay = 86_400.0
