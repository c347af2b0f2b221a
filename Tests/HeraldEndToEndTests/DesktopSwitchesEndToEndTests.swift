import Foundation
import HeraldTestSupport
import XCTest

/// The desktop's own notification settings (DesktopSwitches): each notification names Herald's
/// notifyrc and its category as Plasma's event and an installed desktop entry as GNOME's app;
/// what the person turned off there is held back as their own mute.
final class DesktopSwitchesEndToEndTests: XCTestCase {
    let appID = "org.example.Tested"
    /// One message of each category, titled with it; without buttons (the server has no
    /// actions), so the check ends once they are shown.
    let everyCategory = Fixtures.xmlFeed(Dictionary(uniqueKeysWithValues: ["announcement", "tip", "promotion", "security", "survey"].enumerated().map {
        ("2024/01/0\($0.offset + 1)", ["Title": $0.element, "Category": $0.element])
    }))

    /// Runs `herald check` of `feed` to its end (the feed served until then).
    /// Turns the switch of GNOME Settings' app `id` (its settings id) off, in GLib's key-file
    /// settings backend of the session (`GSETTINGS_BACKEND=keyfile`).
    func switchOff(_ id: String, in session: DesktopSession) throws {
        let settings = session.environment["XDG_CONFIG_HOME"]! + "/glib-2.0/settings"
        try FileManager.default.createDirectory(atPath: settings, withIntermediateDirectories: true)
        try "[org/gnome/desktop/notifications/application/\(id)]\nenable=false\n"
            .write(toFile: settings + "/keyfile", atomically: true, encoding: .utf8)
    }

    func check(_ session: DesktopSession, _ feed: String, environment: [String: String] = [:]) throws -> ChildProcess {
        let server = try session.serveFeed(feed)
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch"],
                                     environment: environment)
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        return run
    }

    /// The hints that name the notification to the desktop's settings, by summary.
    func switchHints(_ session: DesktopSession) throws -> [String: [String: String]] {
        Dictionary(uniqueKeysWithValues: try session.notifyCalls().map { call in
            (call.summary, call.hints.filter { ["desktop-entry", "x-kde-appname", "x-kde-eventId"].contains($0.key) }.mapValues { "\($0)" })
        })
    }

    func installEntry(of appID: String, in session: DesktopSession) throws {
        let applications = session.environment["XDG_DATA_HOME"]! + "/applications"
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Tested App\nExec=true\n".write(toFile: applications + "/\(appID).desktop", atomically: true, encoding: .utf8)
    }

    func expectedHints(entry: String) -> [String: [String: String]] {
        Dictionary(uniqueKeysWithValues: ["announcement", "tip", "promotion", "security", "survey"].map {
            ($0, ["desktop-entry": entry, "x-kde-appname": "herald", "x-kde-eventId": $0])
        })
    }

    /// The switch hints of one message of each category, shown three by three (as many as one
    /// check shows) in sessions of their own, with the app's desktop entry installed or not.
    func hintsOfEveryCategory(appHasEntry: Bool) throws -> [String: [String: String]] {
        var hints: [String: [String: String]] = [:]
        for categories in [["announcement", "tip", "promotion"], ["security", "survey"]] {
            let session = try DesktopSession(capabilities: "body")
            defer { session.stop() }
            if appHasEntry { try installEntry(of: appID, in: session) }
            _ = try check(session, Fixtures.xmlFeed(Dictionary(uniqueKeysWithValues: categories.enumerated().map {
                ("2024/01/0\($0.offset + 1)", ["Title": $0.element, "Category": $0.element])
            })))
            hints.merge(try switchHints(session)) { first, _ in first }
        }
        return hints
    }

    func testEachMessageNamesItsCategoryAsHeraldsPlasmaEventAndTheAgentsEntryWhenTheAppHasNone() throws {
        XCTAssertEqual(try hintsOfEveryCategory(appHasEntry: false), expectedHints(entry: "org.herald.Agent"))
    }

    func testEachMessageOfAnAppWithAnInstalledEntryNamesThatEntry() throws {
        XCTAssertEqual(try hintsOfEveryCategory(appHasEntry: true), expectedHints(entry: appID))
    }

    /// System Settings → Notifications → Herald → Promotions → "Show a message in a popup" off writes
    /// `Action=Sound` (or an empty `Action`) to ~/.config/herald.notifyrc.
    func testACategoryTurnedOffInThePersonsNotifyrcIsHeldBackAsMutedByThePersonForEveryApp() throws {
        let session = try DesktopSession(capabilities: "body")
        defer { session.stop() }
        let notifyrc = session.environment["XDG_CONFIG_HOME"]! + "/herald.notifyrc"
        try "[Event/promotion]\nAction=Sound\n\n[Event/survey]\nAction=\n\n[Event/tip]\nAction=Popup|Sound\n".write(toFile: notifyrc, atomically: true, encoding: .utf8)
        let run = try check(session, everyCategory)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["security", "tip", "announcement"])
        XCTAssertEqual(run.events.filter { $0["event"] as? String == "skipped" }.map { "\($0["key"]!) \($0["detail"]!)" }, [
            "2024/01/05 category survey muted by the user for every app (\(notifyrc))",
            "2024/01/03 category promotion muted by the user for every app (\(notifyrc))",
        ])
        // herald inbox says so too, as the app's own check does.
        let inbox = try session.run(["inbox", "--app-id", appID, "--json"])
        XCTAssertEqual(inbox.status, 0, inbox.description)
        let states = inbox.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .map { "\($0["id"] as? String ?? "?") \($0["state"] as? String ?? "?")" }
        XCTAssertEqual(states.filter { $0.hasPrefix("2024/01/05") || $0.hasPrefix("2024/01/03") },
                       ["2024/01/05 category-muted", "2024/01/03 category-muted"])
    }

    /// GNOME Settings → Notifications → the app → off writes `enable=false` under the app's path
    /// (read here from GLib's key file backend, as the shell reads it from dconf).
    func testTheAppsOwnSwitchOffInGnomeSettingsMutesItsMessagesAsThePersonsMute() throws {
        let session = try DesktopSession(capabilities: "body")
        defer { session.stop() }
        try installEntry(of: appID, in: session)
        try switchOff("org-example-tested", in: session)
        let run = try check(session, everyCategory, environment: ["GSETTINGS_BACKEND": "keyfile", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"])
        XCTAssertEqual(try session.notifyCalls().count, 0)
        let mute = "GNOME's notification settings, /org/gnome/desktop/notifications/application/org-example-tested/"
        XCTAssertEqual(run.output, #"{"by":"user","detail":"muted by the user for this app (\#(mute))","event":"check-skipped","file":"\#(mute)","reason":"muted","scope":"app"}"# + "\n")
    }

    func testOutsideAGnomeSessionGnomesSwitchIsNotRead() throws {
        let session = try DesktopSession(capabilities: "body")
        defer { session.stop() }
        try installEntry(of: appID, in: session)
        try switchOff("org-example-tested", in: session)
        _ = try check(session, everyCategory, environment: ["GSETTINGS_BACKEND": "keyfile", "XDG_CURRENT_DESKTOP": "KDE"])
        XCTAssertGreaterThan(try session.notifyCalls().count, 0, "Plasma does not obey GNOME's switch, and neither does Herald there")
    }

    func testInAGnomeSessionAnAppWithoutAnEntryFollowsHeraldsOwnSwitch() throws {
        let session = try DesktopSession(capabilities: "body")
        defer { session.stop() }
        try switchOff("org-herald-agent", in: session)
        let run = try check(session, everyCategory, environment: ["GSETTINGS_BACKEND": "keyfile", "XDG_CURRENT_DESKTOP": "GNOME"])
        XCTAssertEqual(try session.notifyCalls().count, 0)
        let mute = "GNOME's notification settings, /org/gnome/desktop/notifications/application/org-herald-agent/"
        XCTAssertEqual(run.output, #"{"by":"user","detail":"muted by the user for this app (\#(mute))","event":"check-skipped","file":"\#(mute)","reason":"muted","scope":"app"}"# + "\n")
    }
}

extension AgentEndToEndTests {
    /// A held message names its category as Herald's Plasma event; a category Herald does not
    /// know names none.
    func testAHeldMessageNamesItsCategoryAsHeraldsPlasmaEventAndAnUnknownOneNone() throws {
        let session = try agentSession(server: true)
        defer { session.stop() }
        for (key, category) in [("2026/01/01", "promotion"), ("2026/01/02", "promotions")] {
            let token = try handOver(key, in: session, place: .agent)
            let notification = "{'summary': <'\(category)'>, 'body': <'Body'>, 'app-name': <'Example'>, 'category': <'\(category)'>}"
            XCTAssertEqual(try agentCall("Hold", [appID, key, try stateFolder(session), token, notification], in: session).status, 0)
        }
        let hints = try session.notifyCalls().map { call in
            call.hints.filter { ["desktop-entry", "x-kde-appname", "x-kde-eventId"].contains($0.key) }.mapValues { "\($0)" }
        }
        XCTAssertEqual(hints, [["desktop-entry": "org.herald.Agent", "x-kde-appname": "herald", "x-kde-eventId": "promotion"],
                               ["desktop-entry": "org.herald.Agent"]])
    }
}
