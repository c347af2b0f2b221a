import HeraldCore
import XCTest

private let app = "org.example.App"
private let other = "org.example.Other"
private let etc = "/etc/xdg/herald/herald.conf"
private let site = "/usr/local/etc/xdg/herald/herald.conf"
private let home = "/home/ada/.config/herald/herald.conf"

/// A file's `MutedCategories`: in `[all]` (`all`) and in `[app ID]` groups.
private func file(_ path: String, all: [MessageCategory] = [], _ apps: [String: [MessageCategory]] = [:]) -> OffSwitchSettings {
    OffSwitchSettings(file: path, allMutedCategories: all, apps: apps.mapValues { OffSwitchSettings.App(mutedCategories: $0) })
}

private func switches(system: [OffSwitchSettings] = [], user: OffSwitchSettings = file(home)) -> OffSwitches {
    OffSwitches(system: system, user: user)
}

/// Categories a person or the administrator mutes (issue 27, item 2): which mute applies to an
/// app's messages of a category, and what `herald mute/unmute --category` changes.
final class MutedCategoriesTests: XCTestCase {
    func testACategoryMutedForOneAppIsMutedForThatAppAlone() {
        let files = switches(user: file(home, [app: [.promotion]]))
        XCTAssertEqual(files.decision(for: app).mutedCategories, [.promotion: Mute(by: .user, scope: .app, file: home)])
        XCTAssertEqual(files.decision(for: other).mutedCategories, [:])
    }

    func testACategoryMutedForAllAppsIsMutedForEveryAppAndAnAppsOwnListComesFirst() {
        let files = switches(user: file(home, all: [.survey, .promotion], [app: [.survey]]))
        XCTAssertEqual(files.decision(for: app).mutedCategories, [.survey: Mute(by: .user, scope: .app, file: home),
                                                                 .promotion: Mute(by: .user, scope: .allApps, file: home)])
        XCTAssertEqual(files.decision(for: other).mutedCategories, [.survey: Mute(by: .user, scope: .allApps, file: home),
                                                                   .promotion: Mute(by: .user, scope: .allApps, file: home)])
    }

    func testTheAdministratorsCategoryMuteComesFirstNamingTheMostImportantFileThatMutesIt() {
        let files = switches(system: [file(site, [app: [.tip]]), file(etc, all: [.tip, .promotion])], user: file(home, [app: [.promotion, .tip]]))
        XCTAssertEqual(files.decision(for: app).mutedCategories, [.tip: Mute(by: .administrator, scope: .app, file: site),
                                                                 .promotion: Mute(by: .administrator, scope: .allApps, file: etc)])
        XCTAssertEqual(files.decision(for: other).mutedCategories[.tip], Mute(by: .administrator, scope: .allApps, file: etc),
                       "a list only adds: the site's list for one app does not unmute another's")
    }

    func testMutingACategoryAddsItToTheTargetsListKeepingWhatItHolds() {
        XCTAssertEqual(switches().muting([.promotion], for: .app(app)),
                       .setList(group: "app org.example.App", key: "MutedCategories", values: ["promotion"]))
        XCTAssertEqual(switches(user: file(home, all: [.tip])).muting([.survey, .promotion, .survey], for: .allApps),
                       .setList(group: "all", key: "MutedCategories", values: ["tip", "survey", "promotion"]))
        XCTAssertEqual(switches(user: file(home, all: [.promotion])).muting([.promotion], for: .app(app)),
                       .setList(group: "app org.example.App", key: "MutedCategories", values: ["promotion"]),
                       "so that it stays muted for the app after an unmute for all")
        XCTAssertNil(switches(user: file(home, [app: [.promotion, .tip]])).muting([.tip], for: .app(app)))
    }

    func testUnmutingACategoryTakesItOutOfTheTargetsListAndTheKeyWithTheLastOne() {
        let files = switches(user: file(home, all: [.promotion], [app: [.promotion, .survey]]))
        XCTAssertEqual(files.unmuting([.promotion], for: .app(app)),
                       .success(.setList(group: "app org.example.App", key: "MutedCategories", values: ["survey"])))
        XCTAssertEqual(files.unmuting([.survey, .promotion], for: .app(app)), .success(.remove(group: "app org.example.App", key: "MutedCategories")))
        XCTAssertEqual(files.unmuting([.promotion], for: .allApps), .success(.remove(group: "all", key: "MutedCategories")))
        XCTAssertEqual(files.unmuting([.tip], for: .app(app)), .success(nil))
        XCTAssertEqual(files.unmuting([.survey], for: .allApps), .success(nil), "an app's own list is not all apps'")
    }

    func testTheUserCannotUnmuteACategoryTheAdministratorMuted() {
        let user = file(home, all: [.promotion], [app: [.promotion]])
        let forApp = switches(system: [file(etc, [app: [.promotion]])], user: user)
        XCTAssertEqual(forApp.unmuting([.tip, .promotion], for: .app(app)),
                       .failure(AdministratorMute(mute: Mute(by: .administrator, scope: .app, file: etc))))
        XCTAssertEqual(forApp.unmuting([.promotion], for: .allApps), .success(.remove(group: "all", key: "MutedCategories")),
                       "the administrator's mute for one app leaves the user's for all apps theirs")
        let forAll = switches(system: [file(etc, all: [.promotion])], user: user)
        XCTAssertEqual(forAll.unmuting([.promotion], for: .allApps),
                       .failure(AdministratorMute(mute: Mute(by: .administrator, scope: .allApps, file: etc))))
        XCTAssertEqual(forAll.unmuting([.promotion], for: .app(app)),
                       .failure(AdministratorMute(mute: Mute(by: .administrator, scope: .allApps, file: etc))))
    }

    func testACategoryIsNamedAsAFeedNamesItAndAWrongNameGetsTheChoices() {
        XCTAssertEqual(MessageCategory.named(" Promotion "), .promotion)
        XCTAssertNil(MessageCategory.named("ads"))
        XCTAssertEqual(MessageCategory.choices(for: "surevy"), " (did you mean survey?)")
        XCTAssertEqual(MessageCategory.choices(for: "ads"), " (the categories are announcement, tip, promotion, security, survey)")
    }
}
