import Foundation
import HeraldTestSupport
import XCTest

/// A D-Bus-activatable app inside a Flatpak sandbox, against the real notification portal
/// (xdg-desktop-portal and its gtk backend) and a real server (Sources/Herald/Herald.docc/TheDelegate.md,
/// "Inside a Flatpak sandbox"): its message goes through the portal with its own
/// `app.herald-answer` buttons, and a click after the app was killed makes the bus start it
/// again, in its sandbox, to record the answer once in the sandbox's state and open the link.
class PortalActivationCase: DesktopMatrixCase {
    /// The scenario: launch, post, kill -9, click, the answer recorded once, heard at the next launch.
    func assertAClickAfterTheAppWasKilledStartsItToRecordTheAnswerOnce(file: StaticString = #filePath, line: UInt = #line) throws {
        let key = Matrix.linkKey, link = Matrix.link["ActionURL"]!
        try FileManager.default.createDirectory(at: feed.root, withIntermediateDirectories: true)
        try feed.publish("feed.plist", Fixtures.xmlFeed([key: Matrix.link]))
        let app = try ActivatableSandboxApp(on: desktop, feedURL: feed.url("feed.plist"))
        defer { app.stop() }
        let mark = desktop.mark()
        let linksBefore = desktop.session.openedLinks.count

        let first = try app.launch(["--stay"], name: "first-launch")
        XCTAssertTrue(eventually(within: 30) { first.output.contains("finished\n") }, "the launch check ends: \(first.output)\(first.errorOutput)", file: file, line: line)
        XCTAssertEqual(first.output, "shown \(key)\nfinished\n", file: file, line: line)

        // What the portal received: the app's own action on every button, its target the answer
        // and the handover's token.
        let state = try JSONSerialization.jsonObject(with: Data(contentsOf: app.stateFile)) as? [String: Any]
        let token = ((state?["handedOver"] as? [String: Any])?[key] as? [String: Any])?["token"] as? String ?? "no token"
        let added = desktop.calls("org.freedesktop.portal.Notification", "AddNotification", since: mark).map { $0["args"] as? [Any] ?? [] }
        XCTAssertEqual(added.count, 1, "one AddNotification to the portal", file: file, line: line)
        XCTAssertEqual(added.first?.first as? String, "\(desktop.appID) \(key)", file: file, line: line)
        let posted = added.first?.last as? [String: Any] ?? [:]
        let buttons = posted["buttons"] as? [[String: Any]] ?? []
        XCTAssertEqual(buttons.map { "\($0["label"] as? String ?? "") \($0["action"] as? String ?? "") \(($0["target"] as? [String] ?? []).joined(separator: ","))" },
                       ["What's new", "Remind Me Later", "Ignore"].enumerated().map { index, label in
                           "\(label) app.herald-answer \(desktop.appID),\(key),\(["view", "remind", "ignore"][index]),\(token)"
                       }, file: file, line: line)
        XCTAssertEqual(posted["default-action"] as? String, "app.herald-answer", file: file, line: line)
        if server.isGnomeShell {
            // The gtk backend hands a notification of app.* actions alone to the shell's list,
            // after the portal has answered the app.
            _ = eventually(within: 10) { !desktop.calls("org.gtk.Notifications", "AddNotification", since: mark).isEmpty }
            let listed = desktop.calls("org.gtk.Notifications", "AddNotification", since: mark).map { $0["args"] as? [Any] ?? [] }
            XCTAssertEqual(listed.map { "\($0.first ?? "") \($0.dropFirst().first ?? "")" }, ["\(desktop.appID) \(desktop.appID) \(key)"],
                           "one AddNotification in the shell's list, as the app's own", file: file, line: line)
            XCTAssertEqual(((listed.first?.last as? [String: Any])?["buttons"] as? [[String: Any]])?.map { $0["action"] as? String },
                           Array(repeating: "app.herald-answer", count: 3), file: file, line: line)
        } else {
            // What the server received from the gtk backend: each button the detailed action name.
            // The backend calls the server after the portal has answered the app, so it may come
            // after the app's check ended.
            _ = eventually(within: 10) { !desktop.notifyCalls(since: mark).isEmpty }
            let notified = desktop.notifyCalls(since: mark)
            XCTAssertEqual(notified.count, 1, "one Notify on the server", file: file, line: line)
            XCTAssertEqual(notified.first?.actions.map { "\($0.id)=\($0.label)" }, ["default="] + ["view", "remind", "ignore"].enumerated().map { index, answer in
                "app.herald-answer(('\(desktop.appID)', '\(key)', '\(answer)', '\(token)'))=\(["What's new", "Remind Me Later", "Ignore"][index])"
            }, file: file, line: line)
        }
        // What the server drew.
        guard let seen = try desktop.drawnText(within: 15, hover: server.isGnomeShell, until: { $0.centre(of: "What's new") != nil }),
              let button = seen.text.centre(of: "What's new") else {
            return XCTFail("\(server.rawValue): no What's new drawn", file: file, line: line)
        }
        XCTAssertTrue(seen.text.normalized.contains("Version 2 is out"), "drawn: \(seen.text.normalized)", file: file, line: line)

        // The app is killed: nothing of it is left to hear the click.
        let killed = try XCTUnwrap(app.ownerProcessID(), "the app owns its name", file: file, line: line)
        kill(killed, SIGKILL)
        XCTAssertTrue(eventually { !desktop.nameHasOwner(desktop.appID) }, "the name is released", file: file, line: line)
        first.wait(seconds: 10)
        XCTAssertEqual(app.activations, 0, file: file, line: line)

        let clicked = desktop.mark()
        try desktop.click(x: button.x, y: button.y)
        XCTAssertTrue(eventually(within: 20) { (try? recorded())?["viewed"] == [key] }, "the click is recorded: \(app.activatedLines)\n\(app.activatedErrors)\n\(desktop.endedProcesses)", file: file, line: line)
        XCTAssertEqual(app.activations, 1, "the bus started the app for the click", file: file, line: line)
        let started = app.ownerProcessID()
        XCTAssertNotEqual(started, killed, file: file, line: line)
        let activated = desktop.calls("org.freedesktop.Application", "ActivateAction", since: clicked).map { $0["args"] as? [Any] ?? [] }
        XCTAssertEqual(activated.map { "\($0.first ?? "") \((($0.dropFirst().first as? [Any])?.first as? [String] ?? []).joined(separator: ","))" },
                       ["herald-answer \(desktop.appID),\(key),view,\(token)"], "the backend activated the app's action", file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: app.stateFile.path), "the sandbox's state file", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: desktop.environment["XDG_STATE_HOME"]! + "/herald/\(desktop.appID).json"),
                       "nothing in the host's state", file: file, line: line)
        XCTAssertEqual(try recorded(), ["viewed": [key], "ignored": [], "reminded": []], file: file, line: line)
        XCTAssertTrue(eventually(within: 10) { desktop.session.openedLinks.count > linksBefore }, "the link is opened", file: file, line: line)
        XCTAssertEqual(desktop.calls("org.freedesktop.portal.OpenURI", "OpenURI", since: clicked).map { ($0["args"] as? [Any] ?? []).dropFirst().first as? String },
                       [link], "through the OpenURI portal", file: file, line: line)

        // A second click finds nothing to answer; the notification is gone from the screen, so
        // it is the backend's own call, made on the host's bus.
        XCTAssertTrue(eventually(within: 15) { !desktop.nameHasOwner(desktop.appID) }, "the started app exits when it has nothing to do: \(app.activatedLines)",
                      file: file, line: line)
        let again = try runToCompletion("/usr/bin/gapplication", ["action", desktop.appID, "herald-answer",
                                                                  "('\(desktop.appID)', '\(key)', 'ignore', '\(token)')"],
                                        environment: desktop.environment)
        XCTAssertEqual(again.status, 0, file: file, line: line)
        XCTAssertEqual(app.activations, 2, "the bus started the app again for the second click", file: file, line: line)
        XCTAssertTrue(eventually(within: 15) { !desktop.nameHasOwner(desktop.appID) }, "and it exits again", file: file, line: line)
        XCTAssertEqual(try recorded(), ["viewed": [key], "ignored": [], "reminded": []], "the second click records nothing", file: file, line: line)
        XCTAssertEqual(Array(desktop.session.openedLinks.dropFirst(linksBefore)), [link], "the link opened once", file: file, line: line)

        // The delegate hears the answer once, at the launch of a process that did not post it: the
        // one the bus started for the click when the action's call reached it before its launch
        // check began (as seen), else the next.
        let next = try app.launch(name: "next-launch")
        XCTAssertEqual(next.wait(seconds: 30), 0, file: file, line: line)
        let heard = (app.activatedLines + next.output.split(separator: "\n").map(String.init)).filter { $0.hasPrefix("away ") || $0.hasPrefix("received ") }
        XCTAssertEqual(heard, ["away \(key) view"], "started for the clicks: \(app.activatedLines); next launch: \(next.output)", file: file, line: line)
        XCTAssertEqual((try desktop.state()["answeredAway"] as? [String: Any])?.count ?? 0, 0, "nothing left to tell", file: file, line: line)
    }
}

/// Through the portal's gtk backend to xfce4-notifyd (its freedesktop fallback).
final class Xfce4NotifydPortalActivationTests: PortalActivationCase {
    override class var server: RealServer { .portalToXfce4Notifyd }

    func testAClickAfterTheAppWasKilledStartsItToRecordTheAnswerOnce() throws {
        try assertAClickAfterTheAppWasKilledStartsItToRecordTheAnswerOnce()
    }
}

/// Through the portal's gtk backend to GNOME Shell's list (org.gtk.Notifications), whose click
/// the shell itself turns into the app's action.
final class GnomeShellPortalActivationTests: PortalActivationCase {
    override class var server: RealServer { .portalToGnomeShell }

    func testAClickAfterTheAppWasKilledStartsItToRecordTheAnswerOnce() throws {
        try assertAClickAfterTheAppWasKilledStartsItToRecordTheAnswerOnce()
    }
}
