@testable import HeraldFleet
import XCTest

/// Herald's targets for a publisher's feed host, proved on a small fleet with a fixed seed.
final class FleetTargetTests: XCTestCase {
    /// Every scenario, 20,000 installs over 7 days: shared by the tests that read it.
    static let smallFleet = Task {
        var reports: [FleetReport] = []
        for scenario in FleetScenario.all { reports.append(await FleetSimulation.run(scenario, setup: FleetSetup(installs: 20_000, seed: 7))) }
        return reports
    }

    func testAnInstallFetchesAtMostTwiceADay() async {
        for report in await Self.smallFleet.value {
            XCTAssertLessThanOrEqual(report.counts.mostFetchesInOneInstallDay, FleetTarget.fetchesPerInstallPerDay, report.scenario)
            XCTAssertLessThanOrEqual(report.fetchesPerInstallPerDay, Double(FleetTarget.fetchesPerInstallPerDay), report.scenario)
            XCTAssertGreaterThan(report.requests, 0, report.scenario)
        }
    }

    func testAnUnchangedFeedCostsNoBodyBytes() async {
        for report in await Self.smallFleet.value {
            XCTAssertEqual(report.unchangedFeedBodyBytes, 0, report.scenario)
            XCTAssertGreaterThan(report.counts.notModified, 0, report.scenario)
        }
        // A week without a change, and no new installs: every request is a 304.
        let setup = FleetSetup(installs: 5_000, seed: 7, newInstallShare: 0, host: FeedHost(changes: []))
        for scenario in FleetScenario.all {
            let report = await FleetSimulation.run(scenario, setup: setup)
            XCTAssertEqual(report.bodyBytes, 0, scenario.name)
            XCTAssertEqual(report.counts.notModified, report.requests, scenario.name)
        }
    }

    func testEachNewVersionIsDownloadedOncePerInstall() async {
        let setup = FleetSetup(installs: 5_000, seed: 7, newInstallShare: 0)
        for scenario in FleetScenario.all {
            let report = await FleetSimulation.run(scenario, setup: setup)
            XCTAssertEqual(report.counts.bodies, setup.installs * setup.host.changes.count, scenario.name)
        }
    }

    func testTheStartDelaySpreadsASynchronisedFleetAlmostEvenly() async {
        // The busiest second of a fleet spread evenly over the start delay averages
        // λ = installs ÷ delay requests at most. A second's count is a sum of independent
        // draws: it varies like a Poisson count, standard deviation √λ. Among the ~500 busy
        // seconds of 2 days, one beyond 4.5 σ above its mean has a chance of about 1 in 600
        // (normal tail 3.4e-6 × 500), so the target gets 4.5 / √λ of room: 0.16 for
        // 100,000 installs, small enough that no start delay (ratio about 1.6) still fails.
        let setup = FleetSetup(installs: 100_000, days: 2, seed: 7)
        let report = await FleetSimulation.run(.synchronised, setup: setup)
        let evenSpread = Double(setup.installs) / FleetScenario.autostartStartDelay
        XCTAssertEqual(report.evenSpreadRate, evenSpread)
        XCTAssertLessThanOrEqual(report.peakRatio ?? .infinity, FleetTarget.peakRatio + 4.5 / evenSpread.squareRoot())
    }

    func testAFirstLaunchFetchesNothing() async {
        // Every install is new on the one day: one login each, or the first of its app starts.
        let setup = FleetSetup(installs: 2_000, days: 1, seed: 7, newInstallShare: 1)
        for scenario in FleetScenario.all {
            let report = await FleetSimulation.run(scenario, setup: setup)
            XCTAssertEqual(report.counts.firstLaunchSkips, setup.installs, scenario.name)
            if case .login = scenario.sessions { XCTAssertEqual(report.requests, 0, scenario.name) }
        }
    }

    func testAFailedCheckWaitsTheBackoffBeforeTheNextRequest() async {
        let setup = FleetSetup(installs: 2_000, seed: 7, failureRate: 1)
        let report = await FleetSimulation.run(.appLaunches, setup: setup)
        XCTAssertEqual(report.counts.failures, report.requests)
        XCTAssertEqual(report.counts.bodies + report.counts.notModified, 0)
        XCTAssertGreaterThan(report.counts.backoffSkips, 0)
        XCTAssertEqual(report.counts.checkPeriodSkips, 0, "a failure is not a check")
    }

    func testTheSameSeedGivesTheSameReportHoweverTheFleetIsSplit() async {
        let setup = FleetSetup(installs: 3_000, seed: 7)
        let whole = FleetSimulation.tally(.spread, setup: setup, installs: 0..<setup.installs)
        let report = await FleetSimulation.run(.spread, setup: setup)
        XCTAssertEqual(report, FleetReport(scenario: .spread, setup: setup, tally: whole))
        let again = await FleetSimulation.run(.spread, setup: setup)
        XCTAssertEqual(again, report)
    }
}
