import Foundation
import HeraldTestSupport
import XCTest

/// `herald check --explain`: a line per message, and per prompt of a prompts file, saying
/// whether it would show now and why not, with nothing shown or counted and the state left as
/// it was (or never created).
final class CheckExplainEndToEndTests: XCTestCase {
    let appID = "org.example.Explained"
    let german = ["LANG": "de_DE.UTF-8", "XDG_CURRENT_DESKTOP": "GNOME"]

    func stateFolder(_ session: DesktopSession) -> String { session.environment["XDG_STATE_HOME"]! + "/herald" }

    func explain(_ session: DesktopSession, _ server: FeedServer, _ extra: [String] = [], environment: [String: String]) throws -> ToolRun {
        try session.run(["check", "--explain", "--feed", server.url("feed.json"), "--app-id", appID, "--app-version", "2"] + extra,
                        environment: environment)
    }

    func testEachMessageIsExplainedWithItsReasonAndTheStateIsLeftAsItWas() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.json", """
            {
              "2027/01/09": {"Title": {"en": "New release", "de": "Neue Version"}},
              "2027/01/08": {"Title": "Seen"},
              "2027/01/07": {"Title": "Not for me"},
              "2027/01/06": {"Title": "Put off"},
              "2027/01/05": {"Title": "Needs 3", "MinVersion": "3"},
              "2027/01/04": {"Title": "Not yet", "StartDate": "2999-01-01"},
              "2027/01/03": {"Title": "Over", "EndDate": "2001-01-01"},
              "2027/01/02": {"Title": "Nur KDE", "Desktops": ["KDE"]},
              "2027/01/01": {"Title": "Français", "Languages": ["fr"]},
              "2026/12/31": {"Title": "Bad link", "ActionURL": "javascript:alert(1)"},
              "2026/12/30": {"Title": "On screen elsewhere"},
              "2026/12/29": {"Title": "A fifth", "Rollout": 20},
              "2026/12/28": {"Title": "Second"},
              "2026/12/27": {"Title": "Third"},
              "2026/12/26": {"Title": "Fourth"},
              "2026/12/25": {"Title": "Soon", "StartDate": "soon"}
            }
            """)
        // Checked an hour ago, when one message was put off; another check of a live process
        // (this test's) shows one; this install's draw is outside a 20 % rollout.
        let hourAgo = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down))
        let iso = ISO8601DateFormatter()
        let state: [String: Any] = [
            "ignored": ["2027/01/07"], "viewed": ["2027/01/08"], "reminded": ["2027/01/06": iso.string(from: hourAgo)],
            "lastChecked": iso.string(from: hourAgo), "rolloutDraw": 0.5,
            "presenting": ["2026/12/30": ["processID": Int(getpid()), "check": "elsewhere", "until": iso.string(from: hourAgo.addingTimeInterval(86_400))]],
        ]
        try FileManager.default.createDirectory(atPath: stateFolder(session), withIntermediateDirectories: true)
        let stateFile = URL(fileURLWithPath: stateFolder(session) + "/\(appID).json")
        try JSONSerialization.data(withJSONObject: state).write(to: stateFile)
        let before = try Data(contentsOf: stateFile)

        let run = try explain(session, server, environment: german)
        XCTAssertEqual(run, ToolRun(status: 0, output: """
            no check now (checked recently; next check due \(hourAgo.addingTimeInterval(43_200).formatted(.iso8601))); a due check would decide:
            2027/01/09  Neue Version: shows
            2027/01/08  Seen: not shown: already viewed (viewed)
            2027/01/07  Not for me: not shown: ignored by the user (ignored)
            2027/01/06  Put off: not shown: reminder due \(hourAgo.addingTimeInterval(86_400).formatted(.iso8601)) (remind-later)
            2027/01/05  Needs 3: not shown: app version is below MinVersion 3 (below-min-version)
            2027/01/04  Not yet: not shown: starts 2999-01-01T00:00:00Z (not-started)
            2027/01/03  Over: not shown: ended 2001-01-01T23:59:59Z (ended)
            2027/01/02  Nur KDE: not shown: not for this desktop (other-desktop)
            2027/01/01  Français: not shown: not for this user's language (other-language)
            2026/12/31  Bad link: not shown: ActionURL refused: the javascript: scheme is never opened (refused-url)
            2026/12/30  On screen elsewhere: not shown: another process is showing it (shown-elsewhere)
            2026/12/29  A fifth: not shown: this install is outside the 20 % rollout (outside-rollout)
            2026/12/28  Second: shows
            2026/12/27  Third: shows
            2026/12/26  Fourth: not shown: more messages than one check shows (over-cap)
            2026/12/25  Soon: not shown: StartDate is not a date Herald can read (unreadable-date)

            """))
        XCTAssertEqual(try Data(contentsOf: stateFile), before, "the state file is not written")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stateFolder(session)), ["\(appID).json"], "no lock file, nothing else")
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.environment["XDG_CACHE_HOME"]! + "/herald"), "nothing cached")
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing shown")
    }

    func testWhileDoNotDisturbIsOnWhatWouldShowIsDeferredAndAFirstRunCreatesNoState() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.json", #"{"b": {"Title": "For some", "Rollout": 20}, "a": {"Title": "Hello"}}"#)
        // GNOME's do-not-disturb, on GSettings' key-file backend so that herald reads it.
        let settings = session.environment["XDG_CONFIG_HOME"]! + "/glib-2.0/settings"
        try FileManager.default.createDirectory(atPath: settings, withIntermediateDirectories: true)
        try "[org/gnome/desktop/notifications]\nshow-banners=false\n".write(toFile: settings + "/keyfile", atomically: true, encoding: .utf8)

        let run = try explain(session, server, ["--json"], environment: ["GSETTINGS_BACKEND": "keyfile"])
        XCTAssertEqual(run, ToolRun(status: 0, output: """
            {"detail":"first launch: nothing is fetched until the next one","event":"check-skipped","reason":"first-launch"}
            {"decision":"not-shown","detail":"Rollout 20 %: this install has not drawn its place yet (the next check does)","event":"explained","key":"b","reason":"rollout-not-drawn","title":"For some"}
            {"decision":"deferred","detail":"do not disturb is on (org.gnome.desktop.notifications show-banners is false)","event":"explained","key":"a","reason":"do-not-disturb","title":"Hello"}

            """))
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFolder(session)), "no state folder, file or lock")
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing shown")
    }

    func testThePromptsOfAPromptsFileFollowDecidedAsALaunchDecidesThemAndNothingIsCounted() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.json", #"{"a": {"Title": "Hello"}}"#)
        let prompts = session.directory.appendingPathComponent("prompts.json")
        try """
            {
              "defaults": {"daysUntilPrompt": 0},
              "rate": {"title": "Rate us", "usesUntilPrompt": 1},
              "pro": {"title": "Go Pro", "usesUntilPrompt": 10}
            }
            """.write(to: prompts, atomically: true, encoding: .utf8)
        let options = ["--prompts", prompts.path, "--show-on-first-launch"]

        XCTAssertEqual(try explain(session, server, options, environment: [:]), ToolRun(status: 0, output: """
            a  Hello: shows
            prompt 'pro' waits: 1 of 10 uses
            prompt 'rate' shows: due

            """), "this launch is the first use of each")
        XCTAssertEqual(try explain(session, server, options + ["--json"], environment: [:]), ToolRun(status: 0, output: """
            {"decision":"shows","detail":null,"event":"explained","key":"a","reason":null,"title":"Hello"}
            {"decision":"waits","detail":"waits: 1 of 10 uses","event":"prompt-explained","prompt":"pro","reason":"uses"}
            {"decision":"shows","detail":"shows: due","event":"prompt-explained","prompt":"rate","reason":"due"}

            """))
        XCTAssertEqual(try explain(session, server, options + ["--force"], environment: [:]), ToolRun(status: 0, output: "a  Hello: shows\n"),
                       "a manual check shows no prompt")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFolder(session)), "no use is counted: no state folder, file or lock")

        // The check that cannot fetch still decides its prompts, and fails as the check would.
        server.stop()
        let unreachable = try explain(session, server, options, environment: [:])
        XCTAssertEqual(unreachable.status, 75, unreachable.description)
        XCTAssertEqual(unreachable.output, "prompt 'pro' waits: 1 of 10 uses\nprompt 'rate' shows: due\n")

        XCTAssertEqual(try session.run(["mute", "--app-id", appID]).status, 0)
        let muted = try explain(session, server, options, environment: [:])
        XCTAssertEqual(muted.status, 0, muted.description)
        XCTAssertTrue(muted.output.hasPrefix("no check: muted") && muted.output.hasSuffix("; no message or prompt is shown\n"), muted.output)
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing shown")
    }
}
