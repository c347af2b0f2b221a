import FoundationEssentials
import HeraldCore
import XCTest

private let app = "org.example.App"
private let other = "org.example.Other"
private let etc = "/etc/xdg/herald/herald.conf"
private let site = "/usr/local/etc/xdg/herald/herald.conf"
private let home = "/home/ada/.config/herald/herald.conf"

private func switches(system: [OffSwitchSettings] = [], user: OffSwitchSettings = OffSwitchSettings(file: home)) -> OffSwitches {
    OffSwitches(system: system, user: user)
}

/// The apps Herald has seen, as `herald mute` and `unmute` tell a typed app id that is no app's
/// from one that is, with the id probably meant.
final class KnownAppsTests: XCTestCase {
    func testAnAppIsKnownByItsStateFileTheLedgerOrAKeyFileGroup() {
        let ledger = AttentionLedger(shows: [.init(app: "org.example.Shown", key: "1", at: Date(), weight: 1)],
                                     waiting: ["org.example.Waiting": [:]])
        let files = switches(system: [OffSwitchSettings(file: etc, apps: ["org.example.Admin": .init(muted: true)])],
                             user: OffSwitchSettings(file: home, apps: ["org.example.Own": .init(mutedCategories: [.tip])]))
        let known = KnownApps(stateFiles: ["\(app).json", "attention", ".hidden.json", "notes.txt"], ledger: ledger, switches: files)
        XCTAssertEqual(known.ids, [app, "org.example.Shown", "org.example.Waiting", "org.example.Admin", "org.example.Own"],
                       "the apps that ran first, then those a key file names; no file that is no app's state")
        XCTAssertEqual(KnownApps.stateFileApps(["b.App.json", "attention", "a.App.json", ".json"]), ["a.App", "b.App"])
    }

    func testAnUnseenAppIdSaysSoWithTheKnownIdATypoOrACaseAway() {
        let known = KnownApps(stateFiles: ["\(app).json", "\(other).json"], ledger: AttentionLedger(), switches: switches())
        XCTAssertNil(known.unseen(app, consequence: "x"), "a known app is no news")
        XCTAssertEqual(known.unseen("org.exmaple.App", consequence: "x"), "herald has not seen org.exmaple.App yet; did you mean org.example.App?")
        XCTAssertEqual(known.unseen("ORG.EXAMPLE.OTHER", consequence: "x"), "herald has not seen ORG.EXAMPLE.OTHER yet; did you mean org.example.Other?")
        XCTAssertEqual(known.unseen("org.gnome.Maps", consequence: "the mute holds from its first check"),
                       "herald has not seen org.gnome.Maps yet; the mute holds from its first check", "nothing near: no guess")
    }

    func testASuggestionPrefersAnAppThatRanToAnIdOnlyAKeyFileNames() {
        let typo = OffSwitchSettings(file: home, apps: ["org.exmaple.App": .init(muted: true)])
        let known = KnownApps(stateFiles: ["\(app).json"], ledger: AttentionLedger(), switches: switches(user: typo))
        XCTAssertEqual(known.unseen("org.exampel.App", consequence: "x"), "herald has not seen org.exampel.App yet; did you mean org.example.App?")
    }
}

/// What `herald unmute` names as still muted: the mutes that keep back what was unmuted.
final class StandingMutesTests: XCTestCase {
    func testAfterAnUnmuteOfAllEveryMuteLeftIsNamedOneLineEachWithItsFile() {
        let user = OffSwitchSettings(file: home, allMutedCategories: [.survey, .promotion],
                                     apps: [other: .init(muted: true, mutedCategories: [.tip]), app: .init(muted: false)])
        let system = [OffSwitchSettings(file: site, apps: ["org.example.Admin": .init(muted: true, mutedCategories: [.survey])]),
                      OffSwitchSettings(file: etc, allMutedCategories: [.promotion], apps: [app: .init(mutedCategories: [.tip])])]
        XCTAssertEqual(switches(system: system, user: user).standingMutes(of: .allApps).map(\.description), [
            "still muted: \(other) by the user (\(home))",
            "still muted: promotion, survey for every app by the user (\(home))",
            "still muted: tip for \(other) by the user (\(home))",
            "still muted: org.example.Admin by the administrator (\(site))",
            "still muted: promotion for every app by the administrator (\(etc))",
            "still muted: survey for org.example.Admin by the administrator (\(site))",
            "still muted: tip for \(app) by the administrator (\(etc))",
        ])
        XCTAssertEqual(switches(system: system, user: user).standingMutes(of: .allApps, categories: [.tip]).map(\.description), [
            "still muted: tip for \(other) by the user (\(home))",
            "still muted: tip for \(app) by the administrator (\(etc))",
        ], "after an unmute of categories, only those categories, and no app's own mute")
        XCTAssertEqual(switches().standingMutes(of: .allApps), [])
    }

    func testAfterAnUnmuteOfOneAppTheCategoriesMutedForItAreNamedByWhomAndWhere() {
        let files = switches(system: [OffSwitchSettings(file: etc, allMutedCategories: [.security])],
                             user: OffSwitchSettings(file: home, allMutedCategories: [.promotion], apps: [app: .init(mutedCategories: [.survey, .tip])]))
        XCTAssertEqual(files.standingMutes(of: .app(app)).map(\.description), [
            "still muted: tip, survey for \(app) by the user (\(home))",
            "still muted: promotion for every app by the user (\(home))",
            "still muted: security for every app by the administrator (\(etc))",
        ])
        XCTAssertEqual(files.standingMutes(of: .app(app), categories: [.promotion]).map(\.description),
                       ["still muted: promotion for every app by the user (\(home))"])
        XCTAssertEqual(files.standingMutes(of: .app(other), categories: [.survey]), [])
    }
}

/// The budget's figures `herald budget` writes: a day's at most the week's in force, and a reset.
final class BudgetSettingTests: XCTestCase {
    func testADayAboveTheWeekInForceIsRefusedNamingWhatSetTheOtherFigure() {
        XCTAssertEqual(switches().budgetContradiction(perDay: 5, perWeek: 3)?.description, "5 a day, 3 a week: a day's figure cannot be above the week's")
        XCTAssertNil(switches().budgetContradiction(perDay: 3, perWeek: 3))
        XCTAssertEqual(switches().budgetContradiction(perDay: nil, perWeek: 2)?.description,
                       "2 a week: the day's figure in force is 3 (the default), and a day's figure cannot be above the week's")
        let own = OffSwitchSettings(file: home, budget: .init(perWeek: 4))
        XCTAssertEqual(switches(user: own).budgetContradiction(perDay: 5, perWeek: nil)?.description,
                       "5 a day: the week's figure in force is 4 (set by the user in \(home)), and a day's figure cannot be above the week's")
        let ceiling = [OffSwitchSettings(file: etc, budget: .init(perWeek: 3))]
        XCTAssertEqual(switches(system: ceiling).budgetContradiction(perDay: 4, perWeek: nil)?.description,
                       "4 a day: the week's figure in force is 3 (capped by the administrator in \(etc)), and a day's figure cannot be above the week's")
        XCTAssertNil(switches(system: ceiling).budgetContradiction(perDay: 3, perWeek: nil))
        XCTAssertNil(switches().budgetContradiction(perDay: 0, perWeek: nil), "0 is a budget: no remote messages")
    }

    func testAResetTakesOutTheFiguresTheUsersFileSets() {
        XCTAssertEqual(switches().resettingBudget(), [])
        XCTAssertEqual(switches(user: OffSwitchSettings(file: home, budget: .init(perDay: 2, perWeek: 5))).resettingBudget(),
                       [.remove(group: "budget", key: "PerDay"), .remove(group: "budget", key: "PerWeek")])
        XCTAssertEqual(switches(user: OffSwitchSettings(file: home, budget: .init(perWeek: 5))).resettingBudget(), [.remove(group: "budget", key: "PerWeek")])
    }

    func testABudgetWithAFigureOfZeroLetsNoRemoteMessageThrough() {
        XCTAssertTrue(AttentionBudget(perDay: 0, perWeek: 10).isClosed)
        XCTAssertTrue(AttentionBudget(perDay: 3, perWeek: 0).isClosed)
        XCTAssertFalse(AttentionBudget.standard.isClosed)
    }
}
