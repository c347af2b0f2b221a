import Foundation
import HeraldTestSupport
import XCTest

/// Quiet is respected: while the desktop's do-not-disturb is on, a due check shows nothing and
/// does not count, so the message comes at the first check after quiet ends. The
/// setting is GNOME's real `gsettings` key, on the key-file backend so that separate processes
/// see it.
final class QuietEndToEndTests: XCTestCase {
    let appID = "org.example.Quiet"
    let feed = Fixtures.xmlFeed(["2027/01/01": ["Title": "Version 2 is out"]])
    let keyFile = ["GSETTINGS_BACKEND": "keyfile"]

    func check(_ session: DesktopSession, _ server: FeedServer) throws -> ChildProcess {
        try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch", "--wait", "1"],
                           environment: keyFile)
    }

    func setBanners(_ session: DesktopSession, _ value: Bool) throws {
        var environment = session.environment
        environment.merge(keyFile) { _, new in new }
        let set = try runToCompletion("/usr/bin/gsettings", ["set", "org.gnome.desktop.notifications", "show-banners", String(value)],
                                      environment: environment)
        XCTAssertEqual(set.status, 0, set.output)
    }

    func testDoNotDisturbDefersTheCheckAndTheMessageComesOnceItIsOff() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        try setBanners(session, false)
        let quiet = try check(session, server)
        XCTAssertEqual(quiet.wait(), 0, quiet.errorOutput)
        XCTAssertEqual(quiet.events.map { $0["event"] as? String }, ["fetched", "deferred"])
        XCTAssertEqual(quiet.events.last?["reason"] as? String, "do-not-disturb")
        XCTAssertEqual(try session.notifyCalls().count, 0)
        XCTAssertNil(try? session.state(appID: appID)["lastChecked"], "the check does not count as done")
        let inbox = try session.run(["inbox", "--app-id", appID], environment: keyFile)
        XCTAssertEqual(inbox.output.replacingOccurrences(of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"#, with: "<time>",
                                                         options: .regularExpression), """
            \(appID)
              2027/01/01: held back while the desktop asked for quiet; reached <time>
                Version 2 is out

            """, "what quiet keeps off the screen reached the person's inbox")

        try setBanners(session, true)
        let after = try check(session, server)
        XCTAssertEqual(after.wait(), 0, after.errorOutput)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Version 2 is out"], "shown at the first check after quiet")
    }

    func testAServerThatSaysItIsInhibitedDefersTheCheck() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let add = try runToCompletion("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
            "--method", "org.freedesktop.DBus.Mock.AddProperty", "org.freedesktop.Notifications", "Inhibited", "<true>",
        ], environment: session.environment)
        XCTAssertEqual(add.status, 0, add.output)
        let run = try check(session, server)
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(run.events.last?["event"] as? String, "deferred")
        XCTAssertEqual(run.events.last?["reason"] as? String, "server-inhibited")
        XCTAssertEqual(try session.notifyCalls().count, 0)
    }

    /// The desktop's three quiet questions (Xfce's do-not-disturb, dunst's pause, the server's
    /// `Inhibited`) go out together, so they cost one round trip: the stand-in answers none
    /// before all three have come. Xfce's, asked first, says quiet; a check asking one at a time
    /// would have given up on it (a second each) before sending the others, and shown the message.
    func testTheQuietQuestionsAreAskedAtOnce() throws {
        let session = try DesktopSession(capabilities: nil)
        addTeardownBlock { session.stop() }
        let server = try session.serveFeed(feed)
        let log = session.directory.appendingPathComponent("quiet-questions.log")
        let standIn = try ChildProcess("/usr/bin/python3", [TestPaths.support("quiet_questions.py"), log.path],
                                       environment: session.environment, directory: session.directory, name: "quiet-questions")
        addTeardownBlock { standIn.stop() }
        guard eventually({ standIn.output == "ready\n" }) else { throw TestSetupError("the stand-in did not start: \(standIn.errorOutput)") }
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch"])
        XCTAssertEqual(run.wait(seconds: 15), 0, run.errorOutput)
        XCTAssertEqual(run.events.last?["event"] as? String, "deferred", run.output)
        XCTAssertEqual(run.events.last?["reason"] as? String, "xfce-do-not-disturb")
        let questions = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(questions.map { $0["waiting"] as? Int }, [1, 2, 3], "each question came while the others waited")
        XCTAssertEqual(Set(questions.compactMap { $0["question"] as? String }), ["xfce4-notifyd/do-not-disturb", "paused", "Inhibited"])
    }
}
