import Foundation
import HeraldTestSupport
import XCTest

/// `herald check --allow-critical-urgency`, the command line's form of
/// `CheckConfiguration.allowsCriticalUrgency`: with it a `security` message marked
/// `Urgency: critical` is shown critical and passes a spent attention budget; without it the
/// same message is shown as normal and waits for room like any other.
final class CriticalUrgencyEndToEndTests: XCTestCase {
    let feed = """
        {"2027/01/02": {"Title": "Update now: a hole in sync", "Category": "security", "Urgency": "critical"},
         "2027/01/01": {"Title": "Version 2 is out", "Priority": 5}}
        """

    /// A session whose person has room for one message a day, serving `feed`.
    func oneADaySession() throws -> (DesktopSession, FeedServer) {
        let session = try DesktopSession()
        try FileManager.default.createDirectory(at: session.userKeyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[budget]\nPerDay=1\nPerWeek=10\n".utf8).write(to: session.userKeyFile)
        return (session, try session.serveFeed(feed))
    }

    /// What the check decided, each message as "key: shown" or "key: reason", in key order.
    func decisions(_ session: DesktopSession, _ server: FeedServer, _ extra: [String]) throws -> [String] {
        let run = try session.run(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", "org.example.App",
                                   "--show-on-first-launch", "--wait", "1"] + extra)
        XCTAssertEqual(run.status, 0, run.description)
        return run.checkDecisions
    }

    /// Each notification's summary and urgency hint (none for normal, which a server assumes
    /// without one), in the order they were shown.
    func urgencies(_ session: DesktopSession) throws -> [String] {
        try session.notifyCalls().map { "\($0.summary): \(($0.hints["urgency"] as? Int).map(String.init) ?? "none")" }
    }

    func testWithoutTheOptionACriticalSecurityMessageIsShownAsNormalAndWaitsForRoom() throws {
        let (session, server) = try oneADaySession()
        defer { session.stop() }
        XCTAssertEqual(try decisions(session, server, []), ["2027/01/01: shown", "2027/01/02: over-day-budget"])
        XCTAssertEqual(try urgencies(session), ["Version 2 is out: none"])
    }

    func testWithTheOptionACriticalSecurityMessageIsShownCriticalAndPassesTheBudget() throws {
        let (session, server) = try oneADaySession()
        defer { session.stop() }
        XCTAssertEqual(try decisions(session, server, ["--allow-critical-urgency"]), ["2027/01/01: shown", "2027/01/02: shown"])
        XCTAssertEqual(try urgencies(session).sorted(), ["Update now: a hole in sync: 2", "Version 2 is out: none"])
    }

    func testTheRegistrationKeepsTheOption() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let enable = try session.run(["autostart", "enable", "--feed", "https://example.org/feed.plist", "--app-id", "org.example.App",
                                      "--allow-critical-urgency"])
        XCTAssertEqual(enable.status, 0, enable.description)
        let registration = URL(fileURLWithPath: session.environment["XDG_DATA_HOME"]!).appendingPathComponent("herald/apps/org.example.App.conf")
        XCTAssertEqual(try String(contentsOf: registration, encoding: .utf8), "[Herald]\nFeed=https://example.org/feed.plist\nAllowCriticalUrgency=true\n")
    }
}
