import FoundationEssentials
import HeraldCore

/// The fleet and the feed of one run.
package struct FleetSetup: Sendable, Equatable {
    /// How many installs the fleet has.
    package var installs: Int
    /// How many days are simulated and counted.
    package var days: Int
    /// The seed of every random draw: the same setup and seed give the same report.
    package var seed: UInt64
    /// The share of installs first launched during the simulated days (on a day drawn
    /// uniformly); the others were installed `warmUpDays` before, and have checked since.
    package var newInstallShare: Double
    /// The share of requests that fail (a 5xx or a timeout): the check counts as failed and
    /// the next one waits the backoff (DESIGN.md D4).
    package var failureRate: Double
    /// The publisher's host and its feed.
    package var host: FeedHost

    /// Creates a setup.
    ///
    /// - Parameters:
    ///   - installs: default 1,000,000.
    ///   - days: default 7.
    ///   - seed: default 1.
    ///   - newInstallShare: default 0.05.
    ///   - failureRate: default 0.
    ///   - host: default `FeedHost` with a 20 KiB body, replaced twice (see `twoChanges(days:)`).
    package init(installs: Int = 1_000_000, days: Int = 7, seed: UInt64 = 1, newInstallShare: Double = 0.05,
                failureRate: Double = 0, host: FeedHost? = nil) {
        self.installs = installs
        self.days = days
        self.seed = seed
        self.newInstallShare = newInstallShare
        self.failureRate = failureRate
        self.host = host ?? FeedHost(changes: Self.twoChanges(days: days))
    }

    /// Days the long-standing installs run before the counted days: their first launch (which
    /// only marks itself) and their first fetch, so they start the counted days with a copy.
    package static let warmUpDays = 2

    /// Two replacements of the feed: on the day a third into the run at 9:00, in the middle of
    /// the morning's logins, and on the day two thirds into it at 14:00.
    package static func twoChanges(days: Int) -> [Double] {
        [Double(days / 3) * secondsPerDay + 9 * 3600, Double(2 * days / 3) * secondsPerDay + 14 * 3600]
    }

    /// Seconds counted.
    var span: Double { Double(days) * secondsPerDay }
}

/// Runs a fleet through Herald's own policy: every install keeps a `HeraldState`, asks
/// `CheckPolicy.gate` at each login or app start, sends the state's cached validators to the
/// `FeedHost` when a check is due, and records the outcome with `CheckPolicy.recordSuccess`
/// or `CheckPolicy.recordFailure`, storing the state each returns.
package enum FleetSimulation {
    /// When the simulated days start: a Monday, 00:00 UTC.
    package static let start = Date(timeIntervalSince1970: 1_736_121_600)

    /// Runs one scenario on a setup, the installs split between concurrent tasks.
    package static func run(_ scenario: FleetScenario, setup: FleetSetup) async -> FleetReport {
        let parts = 16
        let total = await withTaskGroup(of: FleetTally.self) { group in
            for part in 0..<parts {
                let installs = (setup.installs * part / parts)..<(setup.installs * (part + 1) / parts)
                group.addTask { tally(scenario, setup: setup, installs: installs) }
            }
            var total = FleetTally(seconds: setup.days * Int(secondsPerDay))
            for await part in group { total.add(part) }
            return total
        }
        return FleetReport(scenario: scenario, setup: setup, tally: total)
    }

    /// Runs installs one after another: installs do not meet, as the host is a static file,
    /// so each one's days can be run through at once, with its state in a local value.
    static func tally(_ scenario: FleetScenario, setup: FleetSetup, installs: Range<Int>) -> FleetTally {
        var tally = FleetTally(seconds: setup.days * Int(secondsPerDay))
        var times: [Double] = []
        times.reserveCapacity(8)
        for install in installs {
            var random = FleetRandom(seed: setup.seed, install: install)
            let isNew = random.unit() < setup.newInstallShare
            let firstDay = isNew ? Int.random(in: 0..<setup.days, using: &random) : -FleetSetup.warmUpDays
            var state = HeraldState()
            // The version of the copy in the install's cache, 0 for none: a body sent for the
            // version it already holds is a byte an unchanged feed should not have cost.
            var held = 0
            for day in firstDay..<setup.days {
                scenario.sessions.checkTimes(onDay: day, into: &times, using: &random)
                var fetchedToday = 0
                for time in times {
                    let counted = time >= 0 && time < setup.span
                    let now = start.addingTimeInterval(time)
                    let gate = CheckPolicy.gate(scenario.configuration, state: state, now: now)
                    state = gate.state
                    if counted { tally.counts.count(gate.skip) }
                    guard gate.skip == nil else { continue }
                    if counted {
                        tally.load.record(at: time)
                        fetchedToday += 1
                    }
                    if random.unit() < setup.failureRate {
                        state = CheckPolicy.recordFailure(state, reason: "HTTP 503", now: now)
                        if counted { tally.counts.failures += 1 }
                        continue
                    }
                    let answer = setup.host.answer(cached: state.cachedFeed, at: time)
                    state = CheckPolicy.recordSuccess(state, now: now)
                    switch answer {
                    case .notModified:
                        if counted { tally.counts.notModified += 1 }
                    case .body(let validators):
                        let version = setup.host.version(at: time)
                        if counted {
                            tally.counts.bodies += 1
                            if version == held { tally.counts.unchangedFeedBodies += 1 }
                        }
                        held = version
                        // As the check does: the new copy's validators go to the state after
                        // the success is recorded.
                        state.cachedFeed = validators
                    }
                }
                tally.counts.mostFetchesInOneInstallDay = max(tally.counts.mostFetchesInOneInstallDay, fetchedToday)
            }
        }
        return tally
    }
}

/// What a part of the fleet did during the counted days: its counts and its requests per second.
struct FleetTally: Sendable, Equatable {
    var load: ServerLoad
    var counts = FleetCounts()

    init(seconds: Int) {
        load = ServerLoad(seconds: seconds)
    }

    mutating func add(_ other: FleetTally) {
        load.add(other.load)
        counts.add(other.counts)
    }
}

/// How often each thing happened during the counted days.
package struct FleetCounts: Sendable, Equatable, Codable {
    /// Times the gate was asked (logins after their start delay, app starts).
    package var sessions = 0
    /// Gate answers: a first launch, which only marks itself.
    package var firstLaunchSkips = 0
    /// Gate answers: checked less than a check period ago.
    package var checkPeriodSkips = 0
    /// Gate answers: waiting after a failed check.
    package var backoffSkips = 0
    /// Requests that failed.
    package var failures = 0
    /// 200 answers, each carrying the whole body.
    package var bodies = 0
    /// 200 answers to an install that already held that version of the feed.
    package var unchangedFeedBodies = 0
    /// 304 answers, carrying no body.
    package var notModified = 0
    /// The most requests one install made in one day.
    package var mostFetchesInOneInstallDay = 0

    /// Counts one answer of the gate.
    mutating func count(_ skip: CheckSkipReason?) {
        sessions += 1
        switch skip {
        case .firstLaunch: firstLaunchSkips += 1
        case .checkPeriod: checkPeriodSkips += 1
        case .failureBackoff, .serverAskedToWait: backoffSkips += 1
        case .delegateDeclined, .muted, nil: break
        }
    }

    /// Adds the counts of another part of the fleet.
    mutating func add(_ other: FleetCounts) {
        sessions += other.sessions
        firstLaunchSkips += other.firstLaunchSkips
        checkPeriodSkips += other.checkPeriodSkips
        backoffSkips += other.backoffSkips
        failures += other.failures
        bodies += other.bodies
        unchangedFeedBodies += other.unchangedFeedBodies
        notModified += other.notModified
        mostFetchesInOneInstallDay = max(mostFetchesInOneInstallDay, other.mostFetchesInOneInstallDay)
    }
}
