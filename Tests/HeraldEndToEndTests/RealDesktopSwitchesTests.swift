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

    /// Herald's notifyrc installed where Plasma reads it, and the person's own turning offers off
    /// as System Settings → Notifications → Herald → Offers writes it: Plasma is sent, and draws,
    /// the announcement alone, named as Herald's event; the offer is held back as the person's mute.
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
