import Foundation
import HeraldTestSupport
import XCTest

/// The desktop's own switches (DesktopSwitches) on the real servers (../shared/DESKTOPS.md).
extension RealDesktopHandoverTests {
    /// Publishes an announcement and an offer and runs `herald check` to its end (at most 30 s).
    func checkAnAnnouncementAndAnOffer(on desktop: RealDesktop) throws -> ChildProcess {
        let feed = try FeedServer(directory: desktop.directory.appendingPathComponent("feed"))
        addTeardownBlock { feed.stop() }
        try feed.publish("feed.plist", Fixtures.xmlFeed([
            "2024/03/01": ["Title": "Version 4 is out", "Message": "Faster search", "Category": "announcement"],
            "2024/03/02": ["Title": "Half price today", "Message": "Upgrade to Pro", "Category": "promotion"],
        ]))
        let run = try desktop.herald(["check", "--feed", feed.url("feed.plist"), "--app-id", desktop.appID, "--force", "--json", "--wait", "600"],
                                     name: "herald-check")
        run.wait(seconds: 30)
        return run
    }

    /// Herald's notifyrc installed where Plasma reads it, and the person's own turning promotions off
    /// as System Settings → Notifications → Herald → Promotions writes it: Plasma is sent, and draws,
    /// the announcement alone, named as Herald's event; the promotion is held back as the person's mute.
    func testOnPlasmaAnEventTurnedOffInThePersonsNotifyrcIsNotShownAndAnotherIs() throws {
        let desktop = try desktop(.plasma)
        let installed = desktop.environment["XDG_DATA_HOME"]! + "/knotifications5"
        try FileManager.default.createDirectory(atPath: installed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.packageRoot.appendingPathComponent("desktop/herald.notifyrc").path,
                                         toPath: installed + "/herald.notifyrc")
        let personal = desktop.environment["XDG_CONFIG_HOME"]! + "/herald.notifyrc"
        try "[Event/promotion]\nAction=Sound\n".write(toFile: personal, atomically: true, encoding: .utf8)
        let mark = desktop.mark()
        let run = try checkAnAnnouncementAndAnOffer(on: desktop)
        XCTAssertEqual(run.process.terminationStatus, 0, run.errorOutput)
        XCTAssertEqual(run.events.filter { ["shown", "skipped"].contains($0["event"] as? String) }.map { "\($0["event"]!) \($0["key"]!) \($0["detail"] ?? "")" }, [
            "skipped 2024/03/02 category promotion muted by the user for every app (\(personal))",
            "shown 2024/03/01 ",
        ], run.output)
        let sent = desktop.notifyCalls(since: mark)
        XCTAssertEqual(sent.map(\.summary), ["Version 4 is out"], "Plasma is sent the announcement alone")
        XCTAssertEqual(sent.first?.hints.filter { $0.key.hasPrefix("x-kde") || $0.key == "desktop-entry" }.mapValues { "\($0)" },
                       ["x-kde-appname": "herald", "x-kde-eventId": "announcement", "desktop-entry": "org.herald.Agent"])
        let drawn = try desktop.drawnText(within: 15) { $0.normalized.contains("Version 4") }
        let screenshot = try desktop.screenshot("plasma-notifyrc-offer-off")
        // Between the sender and the text, Plasma draws its "Configure" button for a notification
        // whose notifyrc it found (tesseract reads it as "o—" or so): the words around it are whole.
        let words = drawn?.text.normalized.split(separator: " ").map(String.init) ?? []
        XCTAssertEqual(words.first, "org.example.App", "drawn: \(words) (\(screenshot))")
        XCTAssertEqual(Array(words.suffix(7)), ["Version", "4", "is", "out", "Faster", "search", "OK"], "drawn: \(words) (\(screenshot))")
        XCTAssertLessThanOrEqual(words.count, 9, "one popup, no offer: \(words) (\(screenshot))")
    }
}

extension RealDesktopHandoverTests {
    /// `gsettings set` of the switch of the desktop's app (org.example.App) in GNOME Settings (the
    /// relocatable schema at the app's path, as GNOME Settings writes it), in the desktop's
    /// settings backend.
    func setGnomeSwitch(on: Bool, in desktop: RealDesktop) throws {
        let schema = "org.gnome.desktop.notifications.application:/org/gnome/desktop/notifications/application/org-example-app/"
        let set = try runToCompletion("/usr/bin/gsettings", ["set", schema, "enable", on ? "true" : "false"], environment: desktop.environment)
        XCTAssertEqual(set.status, 0, set.output)
    }

    /// An app with an installed desktop entry, whose switch in GNOME Settings the person turned
    /// off: its message reaches neither the shell's list nor a banner. Turned on again, the next
    /// check hands it to the shell's list, and the shell draws its banner.
    func testOnGnomeShellTheAppsOwnSwitchOffKeepsItsMessageOffTheScreenAndOnShowsIt() throws {
        let desktop = try desktop(.gnomeShell)
        let applications = desktop.environment["XDG_DATA_HOME"]! + "/applications"
        try "[Desktop Entry]\nType=Application\nName=Example\nExec=/bin/true\n".write(toFile: applications + "/\(desktop.appID).desktop",
                                                                                        atomically: true, encoding: .utf8)
        try setGnomeSwitch(on: false, in: desktop)
        let title = Matrix.link["Title"]!
        var mark = desktop.mark()
        let (off, _) = try check(on: desktop)
        XCTAssertEqual(off.process.terminationStatus, 0, off.errorOutput)
        let mute = "GNOME's notification settings, /org/gnome/desktop/notifications/application/org-example-app/"
        XCTAssertEqual(off.output, #"{"by":"user","detail":"muted by the user for this app (\#(mute))","event":"check-skipped","file":"\#(mute)","reason":"muted","scope":"app"}"# + "\n")
        XCTAssertEqual(desktop.calls("org.gtk.Notifications", "AddNotification", since: mark).count, 0)
        XCTAssertEqual(desktop.notifyCalls(since: mark).count, 0)
        let nothing = try desktop.drawnText(within: 5) { $0.normalized.contains(title) }
        XCTAssertFalse(nothing?.text.normalized.contains(title) ?? false, "no banner: \(nothing?.text.normalized ?? "")")

        try setGnomeSwitch(on: true, in: desktop)
        mark = desktop.mark()
        let (on, _) = try check(on: desktop)
        XCTAssertEqual(on.process.terminationStatus, 0, on.errorOutput)
        XCTAssertEqual(on.events.filter { $0["event"] as? String == "shown" }.map { $0["handedOver"] as? String }, ["desktop-list"], on.output)
        XCTAssertEqual(desktop.calls("org.gtk.Notifications", "AddNotification", since: mark).count, 1)
        let banner = try desktop.drawnText(within: 15) { $0.normalized.contains(title) }
        XCTAssertTrue(banner?.text.normalized.contains("Example: " + title) ?? false, "the banner: \(banner?.text.normalized ?? "none")")
    }
}
