import HeraldCore
import XCTest

private let etc = "/etc/xdg/herald/herald.conf"
private let site = "/usr/local/etc/xdg/herald/herald.conf"
private let home = "/home/ada/.config/herald/herald.conf"

/// A file's `[budget]` group.
private func file(_ path: String, perDay: Int? = nil, perWeek: Int? = nil) -> OffSwitchSettings {
    OffSwitchSettings(file: path, budget: .init(perDay: perDay, perWeek: perWeek))
}

private func switches(system: [OffSwitchSettings] = [], user: OffSwitchSettings = file(home)) -> OffSwitches {
    OffSwitches(system: system, user: user)
}

/// The person's attention budget and the administrator's ceiling (issue 27, item 1): the
/// budget a check keeps to is the person's, or the standard, held under the ceiling; the
/// person's file cannot go above it.
final class BudgetCeilingTests: XCTestCase {
    func testWithoutABudgetGroupTheStandardBudgetHolds() {
        XCTAssertEqual(switches(system: [file(etc)]).budget, BudgetInForce(budget: AttentionBudget(perDay: 3, perWeek: 10), source: .standard))
        XCTAssertEqual(switches().decision(for: "org.example.App").budget, .standard)
    }

    func testTheUsersFileSetsTheBudgetAFigureItLeavesOutStandard() {
        let files = switches(user: file(home, perDay: 1))
        XCTAssertEqual(files.budget, BudgetInForce(budget: AttentionBudget(perDay: 1, perWeek: 10), source: .user(file: home)))
        XCTAssertEqual(files.decision(for: "org.example.App").budget, AttentionBudget(perDay: 1, perWeek: 10))
        XCTAssertEqual(switches(user: file(home, perDay: 20, perWeek: 50)).decision(for: "org.example.App").budget,
                       AttentionBudget(perDay: 20, perWeek: 50), "the person may raise their own budget")
    }

    func testTheAdministratorsCeilingHoldsTheBudgetDownAndSaysSo() {
        let ceiling = BudgetCeiling(perDay: 2, perWeek: nil, file: etc)
        let files = switches(system: [file(etc, perDay: 2)], user: file(home, perDay: 5, perWeek: 30))
        XCTAssertEqual(files.budgetCeiling, ceiling)
        XCTAssertEqual(files.budget, BudgetInForce(budget: AttentionBudget(perDay: 2, perWeek: 30), source: .ceiling(ceiling)))
        XCTAssertEqual(files.decision(for: "org.example.App").budget, AttentionBudget(perDay: 2, perWeek: 30))
        XCTAssertEqual(switches(system: [file(etc, perDay: 2)]).budget.budget, AttentionBudget(perDay: 2, perWeek: 10), "the standard too")
        XCTAssertEqual(switches(system: [file(etc, perDay: 5)], user: file(home, perDay: 1)).budget,
                       BudgetInForce(budget: AttentionBudget(perDay: 1, perWeek: 10), source: .user(file: home)),
                       "a ceiling above the person's budget leaves it theirs")
    }

    func testTheMostImportantSystemFileWithABudgetGroupSetsTheCeiling() {
        let files = switches(system: [file(site), file(etc, perWeek: 4), file("/usr/share/herald.conf", perDay: 1)])
        XCTAssertEqual(files.budgetCeiling, BudgetCeiling(perDay: nil, perWeek: 4, file: etc))
        XCTAssertEqual(files.budget.budget, AttentionBudget(perDay: 3, perWeek: 4), "a package's default in a later folder is passed over")
    }

    func testSettingTheBudgetWritesOnlyTheFiguresGivenThatChange() {
        XCTAssertEqual(switches().settingBudget(perDay: 2, perWeek: nil), .success([.setNumber(group: "budget", key: "PerDay", value: 2)]))
        XCTAssertEqual(switches(user: file(home, perDay: 2)).settingBudget(perDay: 2, perWeek: 8),
                       .success([.setNumber(group: "budget", key: "PerWeek", value: 8)]))
        XCTAssertEqual(switches(user: file(home, perDay: 2, perWeek: 8)).settingBudget(perDay: 2, perWeek: 8), .success([]))
    }

    func testAFigureAboveTheCeilingIsRefusedNamingTheCeilingAndItsFile() {
        let files = switches(system: [file(etc, perDay: 2, perWeek: 6)])
        let refusal = BudgetAboveCeiling(ceiling: BudgetCeiling(perDay: 2, perWeek: 6, file: etc), perDay: nil, perWeek: 7)
        XCTAssertEqual(files.settingBudget(perDay: 2, perWeek: 7), .failure(refusal))
        XCTAssertEqual(refusal.description, "7 a week is above the administrator's ceiling of 6 a week (\(etc))")
        guard case .failure(let both) = files.settingBudget(perDay: 3, perWeek: 7) else { return XCTFail("both figures are above it") }
        XCTAssertEqual(both.description, "3 a day, 7 a week are above the administrator's ceiling of 2 a day, 6 a week (\(etc))")
        XCTAssertEqual(files.settingBudget(perDay: 1, perWeek: 6), .success([.setNumber(group: "budget", key: "PerDay", value: 1),
                                                                            .setNumber(group: "budget", key: "PerWeek", value: 6)]))
        XCTAssertEqual(switches(system: [file(etc, perDay: 2)]).settingBudget(perDay: nil, perWeek: 900),
                       .success([.setNumber(group: "budget", key: "PerWeek", value: 900)]), "a figure the ceiling leaves out is the person's")
    }
}
