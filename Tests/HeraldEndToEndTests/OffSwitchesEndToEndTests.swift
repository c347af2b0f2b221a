import Foundation
import HeraldTestSupport
import XCTest

/// The off switches through the built `herald`: `mute` / `unmute` in the user's key file, the
/// administrator's key file in a temporary `XDG_CONFIG_DIRS`, a loopback feed server that
/// records what is asked of it and the mock notification server.
final class OffSwitchesEndToEndTests: XCTestCase {
    let app = "org.example.App"
    let other = "org.example.Other"
    let feed = Fixtures.xmlFeed(["2027/01/01": ["Title": "From the app's own feed"]])

    func check(_ session: DesktopSession, _ url: String, appID: String) throws -> ToolRun {
        try session.run(["check", "--json", "--feed", url, "--app-id", appID, "--show-on-first-launch", "--wait", "1"])
    }

    /// The whole output of a check that a mute stopped.
    func mutedCheck(by: String, scope: String, file: URL) -> ToolRun {
        let detail = "muted by the \(by) for \(scope == "app" ? "this app" : "every app") (\(file.path))"
        return ToolRun(status: 0, output: #"{"by":"\#(by)","detail":"\#(detail)","event":"check-skipped","file":"\#(file.path)","reason":"muted","scope":"\#(scope)"}"# + "\n")
    }

    /// The events of a check's `--json` output, by name.
    func eventNames(_ run: ToolRun) -> [String] {
        run.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
    }

    var fetchedAndShown: [String] { ["fetched", "detected", "shown", "closed"] }

    func userFileText(_ session: DesktopSession) -> String? { try? String(contentsOf: session.userKeyFile, encoding: .utf8) }

    func testASystemWideMuteStopsTheFetchAndTheJSONSaysWhoMutedIt() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        try session.writeSystemKeyFile("[all]\nMuted=true\n")
        XCTAssertEqual(try check(session, server.url("feed.plist"), appID: app), mutedCheck(by: "administrator", scope: "all-apps", file: session.systemKeyFile))
        XCTAssertEqual(server.requests.map(\.path), [], "nothing is fetched")
        XCTAssertEqual(try session.notifyCalls().count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.environment["XDG_STATE_HOME"]! + "/herald"), "nor is the state written")
    }

    func testAnAdministratorsMuteOfOneAppStopsThatAppAlone() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        try session.writeSystemKeyFile("# Not on our desktops\n[app \(app)]\nMuted=true\n")
        XCTAssertEqual(try check(session, server.url("feed.plist"), appID: app), mutedCheck(by: "administrator", scope: "app", file: session.systemKeyFile))
        XCTAssertEqual(server.requests.map(\.path), [])
        let unmuted = try check(session, server.url("feed.plist"), appID: other)
        XCTAssertEqual(unmuted.status, 0, unmuted.description)
        XCTAssertEqual(eventNames(unmuted), fetchedAndShown)
        XCTAssertEqual(server.requests.map(\.path), ["/feed.plist"])
    }

    func testMuteAndUnmuteOneApp() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let file = session.userKeyFile.path
        XCTAssertEqual(try session.run(["mute", "--app-id", app]), ToolRun(status: 0, output: """
            muted \(app) (\(file))
            herald has not seen \(app) yet; the mute holds from its first check

            """))
        XCTAssertEqual(userFileText(session), "[app \(app)]\nMuted=true\n")
        XCTAssertEqual(try session.run(["mute", "--app-id", app]), ToolRun(status: 0, output: "\(app) is muted already (\(file))\n"))
        XCTAssertEqual(try check(session, server.url("feed.plist"), appID: app), mutedCheck(by: "user", scope: "app", file: session.userKeyFile))
        XCTAssertEqual(server.requests.map(\.path), [])

        XCTAssertEqual(try session.run(["unmute", "--app-id", app]), ToolRun(status: 0, output: "unmuted \(app) (\(file))\n"))
        XCTAssertEqual(userFileText(session), "")
        XCTAssertEqual(try session.run(["unmute", "--app-id", app]),
                       ToolRun(status: 0, output: "\(app) was not muted\nherald has not seen \(app) yet; there was nothing to undo\n"),
                       "a muted app's checks write no state: the app has not run yet")
        let unmuted = try check(session, server.url("feed.plist"), appID: app)
        XCTAssertEqual(eventNames(unmuted), fetchedAndShown, unmuted.description)
        XCTAssertEqual(server.requests.map(\.path), ["/feed.plist"])
    }

    func testMuteAllAndUnmuteAllWithAnAppSparedInBetween() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        let file = session.userKeyFile.path
        XCTAssertEqual(try session.run(["mute", "--all"]), ToolRun(status: 0, output: "muted all apps (\(file))\n"))
        XCTAssertEqual(try session.run(["mute", "--all"]), ToolRun(status: 0, output: "all apps are muted already (\(file))\n"))
        XCTAssertEqual(try check(session, server.url("feed.plist"), appID: app), mutedCheck(by: "user", scope: "all-apps", file: session.userKeyFile))
        XCTAssertEqual(try check(session, server.url("feed.plist"), appID: other), mutedCheck(by: "user", scope: "all-apps", file: session.userKeyFile))
        XCTAssertEqual(server.requests.map(\.path), [])

        XCTAssertEqual(try session.run(["unmute", "--app-id", other]), ToolRun(status: 0, output: """
            unmuted \(other) (\(file))
            herald has not seen \(other) yet; the unmute holds from its first check

            """))
        XCTAssertEqual(userFileText(session), "[all]\nMuted=true\n\n[app \(other)]\nMuted=false\n")
        XCTAssertEqual(eventNames(try check(session, server.url("feed.plist"), appID: other)), fetchedAndShown)
        XCTAssertEqual(try check(session, server.url("feed.plist"), appID: app), mutedCheck(by: "user", scope: "all-apps", file: session.userKeyFile))

        XCTAssertEqual(try session.run(["unmute", "--all"]), ToolRun(status: 0, output: "unmuted all apps (\(file))\n"))
        XCTAssertEqual(try session.run(["unmute", "--all"]), ToolRun(status: 0, output: "all apps were not muted\n"))
        XCTAssertEqual(eventNames(try check(session, server.url("feed.plist"), appID: app)), fetchedAndShown)
        XCTAssertEqual(server.requests.map(\.path), ["/feed.plist", "/feed.plist"])
    }

    func testUnmutingAllNamesTheAppsThatStayMutedOneByOne() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let file = session.userKeyFile.path
        for arguments in [["mute", "--app-id", other], ["mute", "--all"], ["mute", "--app-id", app]] {
            XCTAssertEqual(try session.run(arguments).status, 0)
        }
        XCTAssertEqual(try session.run(["unmute", "--all"]),
                       ToolRun(status: 0, output: """
                           unmuted all apps (\(file))
                           still muted: \(app) by the user (\(file))
                           still muted: \(other) by the user (\(file))

                           """))
    }

    func testTheUserCannotUnmuteAnAdministratorsMute() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let system = session.systemKeyFile.path
        try session.writeSystemKeyFile("[app \(app)]\nMuted=true\n")
        XCTAssertEqual(try session.run(["unmute", "--app-id", app]),
                       ToolRun(status: 77, output: "", errorOutput: "herald: cannot unmute \(app): muted by the administrator for this app (\(system))\n"))
        XCTAssertNil(userFileText(session), "nothing is written")
        XCTAssertEqual(try session.run(["mute", "--app-id", app]), ToolRun(status: 0, output: "muted \(app) (\(session.userKeyFile.path))\n"),
                       "the user's own mute is kept for when the administrator's goes")
        XCTAssertEqual(try session.run(["unmute", "--app-id", app]).status, 77)
        XCTAssertEqual(userFileText(session), "[app \(app)]\nMuted=true\n")

        try session.writeSystemKeyFile("[all]\nMuted=true\n")
        XCTAssertEqual(try session.run(["unmute", "--all"]),
                       ToolRun(status: 77, output: "", errorOutput: "herald: cannot unmute all apps: muted by the administrator for every app (\(system))\n"))
    }

    func testARepointedFeedURLIsFetchedInsteadOfTheAppsOwn() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        try server.publish("mirror.plist", Fixtures.xmlFeed(["2027/01/01": ["Title": "From the company's mirror"]]))
        try session.writeSystemKeyFile("[app \(app)]\nFeedURL=\(server.url("mirror.plist"))\n")
        let run = try check(session, server.url("feed.plist"), appID: app)
        XCTAssertEqual(run.status, 0, run.description)
        XCTAssertEqual(run.output.split(separator: "\n").first.map(String.init),
                       #"{"event":"mirror","file":"\#(session.systemKeyFile.path)","url":"\#(server.url("mirror.plist"))"}"#)
        XCTAssertEqual(eventNames(run), ["mirror"] + fetchedAndShown)
        XCTAssertEqual(server.requests.map(\.path), ["/mirror.plist"])
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["From the company's mirror"])
    }

    func testExplainHonoursAMuteBeforeFetchingAndExplainsTheMirrorsMessages() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        try server.publish("mirror.plist", Fixtures.xmlFeed(["2027/02/01": ["Title": "From the company's mirror"]]))
        try session.writeSystemKeyFile("[app \(app)]\nFeedURL=\(server.url("mirror.plist"))\n[app \(other)]\nMuted=true\n")
        let muted = try session.run(["check", "--explain", "--feed", server.url("feed.plist"), "--app-id", other])
        XCTAssertEqual(muted, ToolRun(status: 0, output: "no check: muted by the administrator for this app (\(session.systemKeyFile.path)); no message is shown\n"))
        XCTAssertEqual(server.requests.map(\.path), [], "a muted app's explanation fetches nothing")
        let mirrored = try session.run(["check", "--explain", "--force", "--feed", server.url("feed.plist"), "--app-id", app])
        XCTAssertEqual(mirrored, ToolRun(status: 0, output: "2027/02/01  From the company's mirror: shows\n"))
        XCTAssertEqual(server.requests.map(\.path), ["/mirror.plist"])
    }

    func testAMirrorThatCannotBeReadIsNamedInTheError() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        try server.publish("mirror.json", #"{"2027/02/01": {"Title": "Mirrored",}}"#)
        try session.writeSystemKeyFile("[app \(app)]\nFeedURL=\(server.url("mirror.json"))\n")
        let run = try session.run(["check", "--feed", server.url("feed.plist"), "--app-id", app, "--show-on-first-launch", "--wait", "1"])
        XCTAssertEqual(run.status, 65, run.description)
        XCTAssertEqual(run.errorOutput.split(separator: "\n").last.map(String.init),
                       "herald: \(server.url("mirror.json")):1:36: a trailing ',' before '}': JSON allows none (JSON)")
    }

    func testAMirrorTheURLRulesRefuseIsNotFetchedNorIsTheAppsOwnFeed() throws {
        let session = try DesktopSession()
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        try session.writeSystemKeyFile("[app \(app)]\nFeedURL=http://mirror.example.com/feed.plist\n")
        let message = "the feed URL http://mirror.example.com/feed.plist of \(session.systemKeyFile.path) is refused: "
            + "plain http is refused for feeds outside this machine (use https, or allow http)"
        XCTAssertEqual(try check(session, server.url("feed.plist"), appID: app),
                       ToolRun(status: 78, output: #"{"event":"failed","exitCode":78,"kind":"key-file","message":"\#(message)"}"# + "\n"))
        XCTAssertEqual(server.requests.map(\.path), [])
    }

    /// A key file is configuration: one that does not parse is exit 78 (EX_CONFIG) from every
    /// command that reads it, with the same line, and nothing is fetched.
    func testAKeyFileThatDoesNotParseIsExit78FromEveryCommand() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        try FileManager.default.createDirectory(at: session.userKeyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[all\nMuted=true\n".utf8).write(to: session.userKeyFile)
        let line = try XCTUnwrap(session.run(["mute", "--all"]).errorOutput.split(separator: "\n").first.map(String.init))
        XCTAssertTrue(line.hasPrefix("herald: \(session.userKeyFile.path): "), line)
        for arguments in [["check", "--feed", server.url("feed.plist"), "--app-id", app, "--force"],
                          ["check", "--explain", "--feed", server.url("feed.plist"), "--app-id", app, "--force"],
                          ["state", "--app-id", app], ["mute", "--app-id", app], ["unmute", "--all"]] {
            let run = try session.run(arguments)
            XCTAssertEqual(run.status, 78, "\(arguments): \(run.description)")
            XCTAssertEqual(run.errorOutput, line + "\n", "\(arguments)")
        }
        let json = try check(session, server.url("feed.plist"), appID: app)
        XCTAssertEqual(json.status, 78, json.description)
        let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        XCTAssertEqual(event["kind"] as? String, "key-file")
        XCTAssertEqual(event["exitCode"] as? Int, 78)
        XCTAssertEqual(server.requests.count, 0, "a check that cannot read its key files fetches nothing")
    }

    func testExplainOfAMutedAppInJSONSaysWhoMutedItAsACheckDoes() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let server = try session.serveFeed(feed)
        XCTAssertEqual(try session.run(["mute", "--app-id", app]).status, 0)
        let explained = try session.run(["check", "--explain", "--json", "--feed", server.url("feed.plist"), "--app-id", app])
        XCTAssertEqual(explained, mutedCheck(by: "user", scope: "app", file: session.userKeyFile))
        XCTAssertEqual(try check(session, server.url("feed.plist"), appID: app), mutedCheck(by: "user", scope: "app", file: session.userKeyFile))
    }

    func testStateShowsWhatIsMutedByWhomAndTheMirror() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        let system = session.systemKeyFile.path
        let stateFile = session.environment["XDG_STATE_HOME"]! + "/herald/\(app).json"
        let rest = ["first launch: not yet", "last check: never", "viewed: none", "ignored: none", "reminded: none"]
        func lines(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }

        XCTAssertEqual(try session.run(["state", "--app-id", app]), ToolRun(status: 0, output: lines(["state file: \(stateFile)", "muted: no"] + rest)))
        XCTAssertEqual(try session.run(["mute", "--app-id", app]).status, 0)
        XCTAssertEqual(try session.run(["state", "--app-id", app]),
                       ToolRun(status: 0, output: lines(["state file: \(stateFile)", "muted: by the user for this app (\(session.userKeyFile.path))"] + rest)))
        try session.writeSystemKeyFile("[all]\nMuted=true\n\n[app \(app)]\nFeedURL=https://mirror.example.com/feed.plist\n")
        XCTAssertEqual(try session.run(["state", "--app-id", app]), ToolRun(status: 0, output: lines([
            "state file: \(stateFile)", "muted: by the administrator for every app (\(system))",
            "feed URL: https://mirror.example.com/feed.plist (the administrator's mirror, \(system))",
        ] + rest)))
        let json = try session.state(appID: app)
        XCTAssertEqual(json["muted"] as? [String: String], ["by": "administrator", "scope": "all-apps", "file": system])
        XCTAssertEqual(json["feedMirror"] as? [String: String], ["url": "https://mirror.example.com/feed.plist", "file": system])

        try session.writeSystemKeyFile("[all]\nMuted=maybe\n")
        XCTAssertEqual(try session.run(["state", "--app-id", app]),
                       ToolRun(status: 78, output: lines(["state file: \(stateFile)"] + rest),
                               errorOutput: "herald: \(system): [all] Muted must be true or false, not 'maybe'\n"))
        XCTAssertEqual(try session.run(["mute", "--all"]),
                       ToolRun(status: 78, output: "", errorOutput: "herald: \(system): [all] Muted must be true or false, not 'maybe'\n"))
    }
}
