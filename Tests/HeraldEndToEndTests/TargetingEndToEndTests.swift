import Foundation
import HeraldTestSupport
import XCTest

/// The targeting keys through `herald check`, a session bus and the mock notification server:
/// the user's language and desktop come from the environment as a login session sets them.
final class TargetingEndToEndTests: XCTestCase {
    let feed = """
        {
          "2027/01/01": {"Title": {"en": "New release", "de": "Neue Version"}, "Message": {"en": "Faster sync.", "de": "Schneller."}},
          "2026/12/01": {"Title": "For KDE users", "Desktops": ["KDE"]},
          "2026/11/01": {"Title": "Nur auf Deutsch", "Languages": ["de"]},
          "2026/10/01": {"Title": "Not yet", "StartDate": "2999-01-01"},
          "2026/09/01": {"Title": "Over", "EndDate": "2001-01-01"},
          "2026/08/01": {"Title": "Quiet one", "Urgency": "low", "Icon": "software-update-available"}
        }
        """

    func check(_ session: DesktopSession, _ server: FeedServer, appID: String, environment: [String: String]) throws -> ChildProcess {
        try session.herald(["check", "--json", "--feed", server.url("feed.json"), "--app-id", appID, "--show-on-first-launch",
                            "--max", "10", "--wait", "1"], environment: environment)
    }

    func skipped(_ run: ChildProcess) -> [String: String] {
        Dictionary(uniqueKeysWithValues: run.events.filter { $0["event"] as? String == "skipped" }
            .map { ($0["key"] as! String, $0["reason"] as! String) })
    }

    func testAGermanDesktopSeesTheGermanTextAndAnEnglishOneTheEnglish() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        try server.publish("feed.json", feed)
        let german = try check(session, server, appID: "org.example.German", environment: ["LANG": "de_DE.UTF-8", "XDG_CURRENT_DESKTOP": "GNOME"])
        XCTAssertEqual(german.wait(), 0, german.errorOutput)
        let english = try check(session, server, appID: "org.example.English", environment: ["LANG": "en_GB.UTF-8", "XDG_CURRENT_DESKTOP": "GNOME"])
        XCTAssertEqual(english.wait(), 0, english.errorOutput)

        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.map(\.summary), ["Neue Version", "Nur auf Deutsch", "Quiet one", "New release", "Quiet one"])
        XCTAssertEqual(calls.map(\.body)[0], "Schneller.")
        XCTAssertEqual(calls.map(\.body)[3], "Faster sync.")
        XCTAssertEqual(skipped(german), ["2026/12/01": "other-desktop", "2026/10/01": "not-started", "2026/09/01": "ended"])
        XCTAssertEqual(skipped(english), ["2026/12/01": "other-desktop", "2026/11/01": "other-language", "2026/10/01": "not-started",
                                          "2026/09/01": "ended"])
    }

    func testAMessagesUrgencyAndIconReachTheServerAsItsHintAndIcon() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        try server.publish("feed.json", feed)
        let run = try check(session, server, appID: "org.example.Hints", environment: ["LANG": "C.UTF-8"])
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        let calls = try session.notifyCalls()
        let quiet = try XCTUnwrap(calls.first { $0.summary == "Quiet one" })
        XCTAssertEqual(quiet.appIcon, "software-update-available")
        XCTAssertEqual((quiet.hints["urgency"] as? NSNumber)?.intValue, 0, "low")
        let release = try XCTUnwrap(calls.first { $0.summary == "New release" })
        XCTAssertEqual(release.appIcon, "org.herald.Herald", "the app's icon where the message names none")
        XCTAssertNil(release.hints["urgency"], "the server's default where the message asks for none")
    }
}
