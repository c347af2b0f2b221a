import Foundation
@testable import HeraldFleet
import HeraldCore
import XCTest

/// The attention budget across a person's five apps, proved on a small population with a
/// fixed seed: every check through Herald's own policy, without the budget and with it.
final class AttentionFleetTests: XCTestCase {
    /// 300 people, one week of warm-up and two counted: shared by the tests that read it.
    static let setup = AttentionSetup(people: 300, weeks: 2, warmUpWeeks: 1, seed: 7)
    /// The report of `setup`, made once.
    static let smallPopulation = Task { await AttentionSimulation.run(setup) }

    func testWithTheBudgetNoPersonSeesMoreThanItAllowsInAny24HoursOrAny7Days() async {
        let report = await Self.smallPopulation.value
        XCTAssertEqual(report.after.counts.peopleOverDayBudget, 0)
        XCTAssertEqual(report.after.counts.peopleOverWeekBudget, 0)
        XCTAssertLessThanOrEqual(report.after.counts.mostInAnyDay, AttentionBudget.standard.perDay)
        XCTAssertLessThanOrEqual(report.after.counts.mostInAnyWeek, AttentionBudget.standard.perWeek)
        XCTAssertGreaterThan(report.after.seenPerWeek.median, 0)
        // A person's own, smaller budget holds too.
        let budget = AttentionBudget(perDay: 1, perWeek: 4)
        var setup = Self.setup
        setup.people = 100
        setup.budget = budget
        let smaller = await AttentionSimulation.run(setup)
        XCTAssertLessThanOrEqual(smaller.after.counts.mostInAnyDay, budget.perDay)
        XCTAssertLessThanOrEqual(smaller.after.counts.mostInAnyWeek, budget.perWeek)
        XCTAssertGreaterThan(smaller.after.counts.fates.shown, 0)
    }

    func testWithoutTheBudgetSomePeopleSeeMore() async {
        let report = await Self.smallPopulation.value
        XCTAssertGreaterThan(report.before.counts.peopleOverDayBudget, 0)
        XCTAssertGreaterThan(report.before.counts.peopleOverWeekBudget, 0)
        XCTAssertGreaterThan(report.before.counts.mostInAnyDay, AttentionBudget.standard.perDay)
        XCTAssertGreaterThan(report.before.seenPerWeek.median, report.after.seenPerWeek.median)
        XCTAssertEqual(report.before.waited, 0, "without the budget nothing waits for room")
    }

    func testNoMessageIsLost() async {
        let report = await Self.smallPopulation.value
        for outcome in [report.before, report.after, report.oneCheck] {
            XCTAssertEqual(outcome.counts.fates.lost, 0)
            XCTAssertGreaterThan(outcome.counts.fates.shown, 0)
            XCTAssertEqual(outcome.counts.fates.total, report.before.counts.fates.total, "every run sees the same feeds")
        }
        XCTAssertGreaterThan(report.after.waited, 0)
        XCTAssertGreaterThan(report.after.counts.fates.waiting, report.before.counts.fates.waiting)
    }

    func testTheWindowsCountAsTheBudgetDoes() {
        // A showing exactly 24 hours before another is out of that one's day, as in
        // AttentionPolicy.used; a promotion weighs 2.
        let day = 86_400.0
        let showings = [(0.0, 1), (3600, 2), (day, 1), (day + 3599, 1), (day + 3600, 1)].map { time, weight in
            PersonWeeks.Showing(time: time, weight: weight, again: false, passesBudget: false, slot: 0, priority: 0)
        }
        XCTAssertEqual(AttentionTally.mostWithin(day, showings), 4)
        XCTAssertEqual(AttentionTally.mostWithin(7 * day, showings), 6)
        XCTAssertEqual(AttentionTally.mostWithin(day, []), 0)
    }

    func testOneCheckForEveryAppGivesTheDaysRoomToTheHighestPrioritiesWaitingAcrossApps() {
        // Five apps publish on day 0; on day 1 the person logs in at 8:30. Checking on its own,
        // App0 (at login) fills the day's room of 3 with its three tips of Priority 0 before
        // the others (opened later) check. Checked together, each app's candidates wait in the
        // ledger first, so the room goes to the three highest Priorities, whichever app has them.
        let day = 86_400.0, published = 10 * 3600.0
        let priorities = [[0, 0, 0], [1], [2], [5], [10]]
        let catalog = priorities.enumerated().map { number, priorities in
            AppPublisher(id: "org.example.App\(number)", configuration: CheckConfiguration(), trigger: .appStart(chance: 1),
                         messages: priorities.enumerated().map { position, priority in
                             let category: MessageCategory = priority == 10 ? .security : priority == 0 ? .tip : .announcement
                             let entry = FeedEntry(key: "000/\(number)\(position)", title: "A \(category.rawValue)", message: "Something to tell.", details: [
                                 TargetingKey.category: .string(category.rawValue), TargetingKey.priority: .integer(priority),
                             ])
                             return PublishedMessage(entry: entry, published: published, ends: nil)
                         })
        }
        let login = day + 8.5 * 3600
        let person = PersonDays(apps: Array(catalog.indices), checks: catalog.indices.map { .init(time: login + Double($0) * 1800, slot: $0) },
                                logins: [login], answerSeed: 1)
        let setup = AttentionSetup(people: 1, weeks: 1, warmUpWeeks: 0, seed: 1)
        func shownOnDayOne(_ way: AttentionWay) -> Set<MessageID> {
            Set(AttentionSimulation.live(person, way: way, setup: setup, catalog: catalog).firstShown.filter { (day..<2 * day).contains($0.value) }.keys)
        }
        let highest: Set = [MessageID(slot: 2, position: 0), MessageID(slot: 3, position: 0), MessageID(slot: 4, position: 0)]
        XCTAssertEqual(shownOnDayOne(.oneCheck), highest)
        XCTAssertEqual(shownOnDayOne(.after), [MessageID(slot: 0, position: 0), MessageID(slot: 0, position: 1), MessageID(slot: 0, position: 2)])
        XCTAssertEqual(shownOnDayOne(.before).count, 7, "without the budget every app shows all it has")
    }

    func testWithOneCheckForEveryAppTheBudgetHoldsAndFewerDaysGoToALowerPriority() async throws {
        let report = await Self.smallPopulation.value
        XCTAssertEqual(report.oneCheck.counts.peopleOverDayBudget, 0)
        XCTAssertEqual(report.oneCheck.counts.peopleOverWeekBudget, 0)
        XCTAssertGreaterThan(report.oneCheck.daysShown, 0)
        XCTAssertLessThan(report.oneCheck.outrankedShare * 2, report.after.outrankedShare,
                          "checked together, the room goes to the highest Priority waiting across apps on far fewer days")
        XCTAssertLessThan(try XCTUnwrap(report.oneCheck.daysToFirstShow[10]).median, try XCTUnwrap(report.after.daysToFirstShow[10]).median,
                          "Priority 10 is shown sooner")
    }

    func testTheSameSeedGivesTheSameFeedsChecksAndAnswers() {
        let setup = AttentionSetup(people: 40, weeks: 1, warmUpWeeks: 1, seed: 7)
        let catalog = AppPublisher.catalog(count: setup.catalogSize, days: setup.days, seed: setup.seed)
        let again = AppPublisher.catalog(count: setup.catalogSize, days: setup.days, seed: setup.seed)
        XCTAssertEqual(catalog.map(\.messages), again.map(\.messages))
        XCTAssertEqual(catalog.map(\.trigger), again.map(\.trigger))
        XCTAssertFalse(catalog.allSatisfy(\.messages.isEmpty))
        for person in 0..<setup.people {
            let days = PersonDays(person: person, setup: setup, catalog: catalog)
            let same = PersonDays(person: person, setup: setup, catalog: again)
            XCTAssertEqual(days.apps, same.apps)
            XCTAssertEqual(Set(days.apps).count, setup.appsPerPerson)
            XCTAssertEqual(days.checks.map(\.time), same.checks.map(\.time))
            XCTAssertEqual(days.checks.map(\.slot), same.checks.map(\.slot))
            XCTAssertEqual(days.logins, same.logins)
            XCTAssertTrue((0..<setup.days).allSatisfy { day in (1...2).contains(days.logins.count { Int($0 / secondsPerDay) == day }) },
                          "one or two logins a day")
            XCTAssertEqual(days.logins, days.logins.sorted())
            XCTAssertEqual(days.response(slot: 1, message: 2, showing: 0), same.response(slot: 1, message: 2, showing: 0))
        }
        // The run without the budget never meets a tie the policy breaks by dictionary order.
        let whole = AttentionSimulation.tally(setup, catalog: catalog, people: 0..<setup.people)
        let halves = [0..<setup.people / 2, setup.people / 2..<setup.people].map {
            AttentionSimulation.tally(setup, catalog: catalog, people: $0)
        }
        var added = halves[0].before
        added.add(halves[1].before)
        XCTAssertEqual(AttentionOutcome(added), AttentionOutcome(whole.before))
    }

    func testTheToolPrintsTheSameReportForTheSameSeed() throws {
        let arguments = ["attention", "--people", "60", "--weeks", "1", "--json"]
        let first = try runTool(arguments + ["--seed", "7"])
        XCTAssertEqual(try runTool(arguments + ["--seed", "7"]), first)
        XCTAssertNotEqual(try runTool(arguments + ["--seed", "8"]), first)
        let report = try JSONDecoder().decode(AttentionReport.self, from: Data(first.utf8))
        XCTAssertEqual(report.setup.people, 60)
        XCTAssertEqual(report.setup.seed, 7)
    }

    func testASmallPopulationRunsInSeconds() async {
        let clock = ContinuousClock()
        let elapsed = await clock.measure { _ = await AttentionSimulation.run(AttentionSetup(people: 100, weeks: 1, warmUpWeeks: 1, seed: 3)) }
        XCTAssertLessThan(elapsed, .seconds(5))
    }

    /// Runs the built `herald-fleet` with `arguments`; its standard output.
    private func runTool(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, arguments.joined(separator: " "))
        return String(decoding: data, as: UTF8.self)
    }

    /// The built `herald-fleet`, beside the test bundle (`swift build --build-tests` builds it).
    private static var tool: String {
        for bundle in Bundle.allBundles {
            let candidate = bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("herald-fleet").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/herald-fleet").path
    }
}
