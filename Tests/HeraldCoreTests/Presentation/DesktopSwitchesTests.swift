import Foundation
@testable import HeraldCore
import HeraldTestSupport
import XCTest

final class DesktopSwitchesTests: XCTestCase {
    /// The notifyrc Herald installs names every category as an event a person can read, and no
    /// other, each shown as a popup until the person says otherwise.
    func testTheInstalledNotifyrcGivesEachCategoryAnEventWithANameAndCommentAndAPopup() throws {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("desktop/herald.notifyrc"), encoding: .utf8)
        let file = try KeyFile(text)
        XCTAssertEqual(file.groups, ["Global"] + MessageCategory.allCases.map { "Event/" + $0.rawValue })
        XCTAssertEqual(file.string(group: "Global", key: "Name"), "Herald")
        XCTAssertEqual(file.string(group: "Global", key: "IconName"), "org.herald.Herald")
        for category in MessageCategory.allCases {
            let group = "Event/" + category.rawValue
            XCTAssertEqual(file.entries(in: group).map(\.key), ["Name", "Comment", "Action"], group)
            XCTAssertEqual(file.string(group: group, key: "Action"), "Popup", group)
        }
        XCTAssertEqual(DesktopSwitches.categoriesOff(in: [("installed", file)]), [:])
    }

    /// As KNotifications reads it: the first file whose event has an `Action` decides, and an
    /// `Action` without `Popup` (another action alone, `None`, empty) turns the category off.
    func testTheFirstFileWhoseEventHasAnActionDecidesAndAnActionWithoutPopupTurnsItOff() throws {
        let person = try KeyFile("[Event/promotion]\nAction=Sound\n[Event/survey]\nAction=\n[Event/tip]\nAction=Popup|Sound\n[Event/security]\nExecute=x\n")
        let system = try KeyFile("[Event/security]\nAction=None\n[Event/tip]\nAction=None\n")
        let installed = try KeyFile("[Event/announcement]\nAction=Popup\n[Event/survey]\nAction=Popup\n")
        XCTAssertEqual(DesktopSwitches.categoriesOff(in: [("person", person), ("system", system), ("installed", installed)]),
                       [.promotion: "person", .survey: "person", .security: "system"])
    }

    /// GNOME Shell's `_canonicalizeId`: lower case, dashes for the rest, no two in a row.
    func testGnomesSettingsIDOfAnAppIsItsIDInLowerCaseWithDashes() {
        XCTAssertEqual(DesktopSwitches.gnomeSettingsPath(appID: "org.Example.My_App--2"),
                       "/org/gnome/desktop/notifications/application/org-example-my-app-2/")
    }

    /// The desktop's switches add to Herald's own mutes and never replace one.
    func testTheDesktopsSwitchesAddThePersonsMutesWhereHeraldsOwnLeaveAThingOn() {
        let administrator = Mute(by: .administrator, scope: .allApps, file: "/etc/xdg/herald/herald.conf")
        let own = OffSwitchDecision(mutedCategories: [.survey: administrator])
        let desktop = DesktopSwitchSettings(categoriesOff: [.survey: "/home/p/.config/herald.notifyrc", .tip: "/home/p/.config/herald.notifyrc"],
                                            gnomeAppSwitchOff: "/org/gnome/desktop/notifications/application/org-example-app/")
        XCTAssertEqual(own.adding(desktop), OffSwitchDecision(
            mute: Mute(by: .user, scope: .app, file: "GNOME's notification settings, /org/gnome/desktop/notifications/application/org-example-app/"),
            mutedCategories: [.survey: administrator, .tip: Mute(by: .user, scope: .allApps, file: "/home/p/.config/herald.notifyrc")]))
        let muted = OffSwitchDecision(mute: administrator)
        XCTAssertEqual(muted.adding(desktop).mute, administrator)
    }

    func testMessagesNameTheAppsEntryWhenInstalledElseTheAgentsAndTheirCategoryAsHeraldsEvent() {
        XCTAssertEqual(DesktopSwitches.desktopEntry(appID: "org.example.App", hasEntry: true, agentID: "org.herald.Agent"), "org.example.App")
        XCTAssertEqual(DesktopSwitches.desktopEntry(appID: "org.example.App", hasEntry: false, agentID: "org.herald.Agent"), "org.herald.Agent")
        XCTAssertEqual(DesktopSwitches.kdeHints(category: .survey).map { "\($0.name)=\($0.value)" }, ["x-kde-appname=herald", "x-kde-eventId=survey"])
        XCTAssertEqual(DesktopSwitches.kdeHints(category: nil).count, 0)
    }

    /// Version 2 of the portal takes `sound`; version 1 (or a portal that does not say) is sent none.
    func testATipAnOfferOrASurveyIsSilentThroughAPortalOfVersion2AndNothingAsksForASoundThroughVersion1() {
        let sounds = MessageCategory.allCases.map { category in
            "\(category.rawValue): \([2, 1, nil].map { DesktopSwitches.portalSound(category: category, portalVersion: $0) ?? "-" })"
        }
        XCTAssertEqual(sounds, ["announcement: [\"-\", \"-\", \"-\"]", "tip: [\"silent\", \"-\", \"-\"]", "promotion: [\"silent\", \"-\", \"-\"]",
                                "security: [\"-\", \"-\", \"-\"]", "survey: [\"silent\", \"-\", \"-\"]"])
        XCTAssertNil(DesktopSwitches.portalSound(category: nil, portalVersion: 2))
    }
}
