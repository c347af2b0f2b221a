/// What a publisher's host carries for one scenario, and whether Herald's targets hold.
package struct FleetReport: Sendable, Equatable, Codable {
    /// The scenario's name.
    package var scenario: String
    /// The scenario in one line.
    package var summary: String
    /// Installs in the fleet.
    package var installs: Int
    /// Days counted.
    package var days: Int
    /// The seed of the run.
    package var seed: UInt64
    /// The share of installs first launched during the counted days.
    package var newInstallShare: Double
    /// The share of requests that failed.
    package var failureRate: Double
    /// The check period of every install, in days.
    package var checkPeriodDays: Double
    /// Bytes in the feed's body.
    package var bodySize: Int
    /// When the feed was replaced, as "day D HH:MM:SS".
    package var feedChanges: [String]
    /// How often each thing happened.
    package var counts: FleetCounts
    /// Requests the host received.
    package var requests: Int
    /// Body bytes sent.
    package var bodyBytes: Int
    /// Body bytes sent to installs that already held that version of the feed.
    package var unchangedFeedBodyBytes: Int
    /// Requests per install per day, on average.
    package var fetchesPerInstallPerDay: Double
    /// Requests in the busiest second.
    package var peakPerSecond: Int
    /// When the busiest second began, as "day D HH:MM:SS".
    package var peakSecondAt: String
    /// Requests per second over the busiest minute (sliding by one second).
    package var peakPerMinute: Double
    /// When the busiest minute began, as "day D HH:MM:SS".
    package var peakMinuteAt: String
    /// The start-delay limit of the login entry, in seconds; 0 when checks start at once.
    package var startDelay: Double
    /// The rate of the whole fleet spread evenly over the start delay (installs ÷ start delay),
    /// in requests per second; `nil` without a start delay.
    package var evenSpreadRate: Double?
    /// The busiest second over `evenSpreadRate`; `nil` without a start delay.
    package var peakRatio: Double?
    /// Herald's targets for the host's load, each with its outcome.
    package var targets: [FleetTarget]

    init(scenario: FleetScenario, setup: FleetSetup, tally: FleetTally) {
        self.scenario = scenario.name
        summary = scenario.summary
        installs = setup.installs
        days = setup.days
        seed = setup.seed
        newInstallShare = setup.newInstallShare
        failureRate = setup.failureRate
        checkPeriodDays = scenario.configuration.checkPeriod.days
        bodySize = setup.host.bodySize
        feedChanges = setup.host.changes.map(Self.moment)
        counts = tally.counts
        requests = tally.load.total
        bodyBytes = tally.counts.bodies * setup.host.bodySize
        unchangedFeedBodyBytes = tally.counts.unchangedFeedBodies * setup.host.bodySize
        fetchesPerInstallPerDay = Double(requests) / Double(max(1, setup.installs * setup.days))
        let second = tally.load.busiestWindow(width: 1)
        peakPerSecond = second.requests
        peakSecondAt = Self.moment(Double(second.start))
        let minute = tally.load.busiestWindow(width: 60)
        peakPerMinute = Double(minute.requests) / 60
        peakMinuteAt = Self.moment(Double(minute.start))
        startDelay = scenario.sessions.startDelay
        let evenSpreadRate = startDelay > 0 ? Double(setup.installs) / startDelay : nil
        self.evenSpreadRate = evenSpreadRate
        peakRatio = evenSpreadRate.map { Double(second.requests) / $0 }
        targets = []
        targets = FleetTarget.evaluate(self)
    }

    /// A time of the simulated days as "day D HH:MM:SS", day 0 first.
    static func moment(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let day = whole / 86_400, hour = whole % 86_400 / 3600, minute = whole % 3600 / 60, second = whole % 60
        return "day \(day) " + [hour, minute, second].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }
}

/// One of Herald's targets for what a feed host must carry, and how a run fared.
package struct FleetTarget: Sendable, Equatable, Codable {
    /// The target, in words.
    package var rule: String
    /// What the run measured, in words.
    package var measured: String
    /// Whether the run met it.
    package var met: Bool

    /// At most this many requests per install per day.
    package static let fetchesPerInstallPerDay = 2
    /// The busiest second at most this many times the fleet spread evenly over the start delay.
    package static let peakRatio = 1.2

    /// The targets that apply to a report: requests per install per day and body bytes of an
    /// unchanged feed always; the busiest second against an even spread when there is a start delay.
    static func evaluate(_ report: FleetReport) -> [FleetTarget] {
        var targets = [
            FleetTarget(
                rule: "at most \(fetchesPerInstallPerDay) fetches per install per day",
                measured: "mean \(FleetTable.decimal(report.fetchesPerInstallPerDay, digits: 3)), "
                    + "most by one install in one day \(report.counts.mostFetchesInOneInstallDay)",
                met: report.counts.mostFetchesInOneInstallDay <= fetchesPerInstallPerDay),
            FleetTarget(
                rule: "an unchanged feed costs 0 body bytes",
                measured: "\(report.unchangedFeedBodyBytes) bytes",
                met: report.unchangedFeedBodyBytes == 0),
        ]
        if let ratio = report.peakRatio {
            targets.append(FleetTarget(
                rule: "busiest second ≤ \(peakRatio) × installs ÷ start delay",
                measured: FleetTable.decimal(ratio, digits: 3),
                met: ratio <= peakRatio))
        }
        return targets
    }
}
