import CDesktopLibraries
import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

private var session: DesktopSession { InProcessDesktop.session }
/// The one message each app shows, with a link.
private let key = "2024/07/01"
private let feed = Fixtures.xmlFeed([key: ["Title": "Version 4", "Message": "Out now", "ActionURL": "https://example.com/v4"]])

/// A D-Bus-activatable app inside a Flatpak sandbox (DESIGN.md D23): its messages go through the
/// notification portal with its own `app.herald-answer` action, which the portal (or GNOME
/// Shell, behind it) activates on the app's bus name, starting the app if it has gone. The app
/// here is a `GApplication` of the test process on the in-process bus; a stand-in owns the
/// portal's name and records every call (Tests/support/handover_mocks.py); clicks are
/// `gapplication action`, the call the portal's backend makes.
final class PortalHandoverTests: XCTestCase {
    func testAnActivatableAppInASandboxPostsThroughThePortalAndItsOwnActionRecordsAClickOnce() throws {
        let portal = try HandoverStandIns(["--portal"], in: session)
        defer { portal.stop() }
        try MainContext.assumeIsolated {
            let appID = "org.example.PortalClick"
            let removeApplication = try makeApplication(appID)
            defer { removeApplication() }
            let herald = try makeSandboxedHerald(appID)
            let recorder = EventRecorder(session: session, answer: nil)
            herald.delegate = recorder
            let notifiesBefore = try session.notifyCalls().count
            herald.appLaunched()
            XCTAssertTrue(spin(15) { recorder.events.last == "finished" }, "the check does not wait: \(recorder.events)")
            XCTAssertTrue(recorder.events.contains("shown \(key)"), "\(recorder.events)")
            XCTAssertEqual(try session.notifyCalls().count, notifiesBefore, "nothing went to the freedesktop server")
            let posted = portal.calls(of: "AddNotification")
            XCTAssertEqual(posted.count, 1)
            XCTAssertEqual(posted.first?.first as? String, appID + " " + key)
            let notification = try XCTUnwrap(posted.first?.last as? [String: Any])
            XCTAssertEqual(notification["title"] as? String, "Version 4")
            XCTAssertEqual(notification["body"] as? String, "Out now")
            XCTAssertEqual(notification["default-action"] as? String, "app.herald-answer")
            let token = try XCTUnwrap(try herald.store.load().handedOver[key]?.token)
            XCTAssertEqual(notification["default-action-target"] as? [String], [appID, key, "view", token])
            let buttons = try XCTUnwrap(notification["buttons"] as? [[String: Any]])
            XCTAssertEqual(buttons.map { $0["action"] as? String }, Array(repeating: "app.herald-answer", count: 3))
            XCTAssertEqual(buttons.map { $0["target"] as? [String] }, ["view", "remind", "ignore"].map { [appID, key, $0, token] })
            XCTAssertEqual(try herald.store.load().handedOver[key]?.place, .portal)

            // Any process may activate the app's action: without the token it records nothing.
            let before = try herald.store.load()
            try click("view", appID: appID, token: "0123456789abcdef0123456789abcdef")
            spin(0.3)
            XCTAssertEqual(try herald.store.load(), before, "a stranger's click records nothing")
            XCTAssertFalse(recorder.events.contains("view \(key)"), "\(recorder.events)")

            try click("view", appID: appID, token: token)
            XCTAssertTrue(spin(5) { recorder.events.contains("view \(key)") }, "\(recorder.events)")
            XCTAssertTrue(eventually { session.openedLinks.contains("https://example.com/v4") })
            let state = try herald.store.load()
            XCTAssertEqual(state.viewed, [key])
            XCTAssertEqual(state.handedOver, [:])
            XCTAssertEqual(state.answeredAway, [:], "the delegate heard it now, not at the next launch")

            let opened = session.openedLinks.count
            try click("ignore", appID: appID, token: token)
            spin(0.3)
            let answers = recorder.events.filter { event in Answer.allCases.contains { event.hasPrefix($0.rawValue + " ") } }
            XCTAssertEqual(answers, ["view \(key)"], "a second click answers nothing")
            XCTAssertEqual(session.openedLinks.count, opened)
            XCTAssertEqual(try herald.store.load().ignored, [])
        }
    }

    /// A portal of version 2 is asked for no sound for a tip; a portal of version 1 (Debian 12's
    /// xdg-desktop-portal 1.16) is sent only the keys it knows. The body is plain text on both.
    func testThroughAPortalOfVersion2ATipIsSilentAndAPortalOfVersion1GetsOnlyTheKeysItKnows() throws {
        let tip = Fixtures.xmlFeed([key: ["Title": "Tip", "Message": "Drag & drop <b>works</b>", "Category": "tip"]])
        var sent: [Int: String] = [:]
        for version in [2, 1] {
            let portal = try HandoverStandIns(["--portal", "--portal-version=\(version)"], in: session)
            defer { portal.stop() }
            try MainContext.assumeIsolated {
                let appID = "org.example.PortalVersion\(version)"
                let removeApplication = try makeApplication(appID)
                defer { removeApplication() }
                let herald = try makeSandboxedHerald(appID, feed: tip)
                let recorder = EventRecorder(session: session, answer: nil)
                herald.delegate = recorder
                herald.appLaunched()
                XCTAssertTrue(spin(15) { recorder.events.last == "finished" }, "\(recorder.events)")
                let token = try XCTUnwrap(try herald.store.load().handedOver[key]?.token)
                sent[version] = portal.texts(of: "AddNotification").joined(separator: "\n")
                    .replacing(token, with: "TOKEN").replacing(appID, with: "APP")
            }
        }
        let target = "<('APP', '\(key)', 'ok', 'TOKEN')>"
        let common = "'body': <'Drag & drop <b>works</b>'>, 'priority': <'normal'>"
        XCTAssertEqual(sent[2], "('APP \(key)', {'title': <'Tip'>, \(common), 'sound': <'silent'>, 'default-action': <'app.herald-answer'>, "
                       + "'default-action-target': \(target), 'buttons': <[{'label': <'OK'>, 'action': <'app.herald-answer'>, 'target': \(target)}]>, "
                       + "'icon': <('themed', <['org.herald.Herald']>)>})")
        XCTAssertEqual(sent[1], sent[2]?.replacing("'sound': <'silent'>, ", with: ""))
    }

    func testAClickThatStartsTheAppReachesItsDelegateAtTheLaunch() throws {
        try MainContext.assumeIsolated {
            let appID = "org.example.PortalStarted"
            let removeApplication = try makeApplication(appID)
            defer { removeApplication() }
            // The process that posted the message has gone; this one was started for the click.
            let (herald, token) = try sandboxedHerald(appID, handingOverLink: "https://example.com/v4")
            let listener = AnswersGivenAwayListener()
            herald.delegate = listener
            try click("remind", appID: appID, token: token)
            XCTAssertTrue(spin(5) { (try? herald.store.load().reminded[key]) != nil })
            XCTAssertEqual(listener.heardText, [], "no message of this process: the answer waits for the launch")
            XCTAssertEqual(try herald.store.load().answeredAway[key]?.answer, "remind")
            herald.appLaunched()
            XCTAssertTrue(spin(15) { listener.finished == 1 })
            XCTAssertEqual(listener.heardText, ["\(key) remind"])
        }
    }

    func testAViewThroughThePortalOpensNoLinkTheURLRulesNeverOpenButIsRecorded() throws {
        try MainContext.assumeIsolated {
            let appID = "org.example.PortalLink"
            let removeApplication = try makeApplication(appID)
            defer { removeApplication() }
            let (herald, token) = try sandboxedHerald(appID, handingOverLink: "javascript:alert(1)")
            let listener = LinkRefusalListener()
            herald.delegate = listener
            let opened = session.openedLinks
            try click("view", appID: appID, token: token)
            XCTAssertTrue(spin(5) { (try? herald.store.load().viewed) == [key] })
            XCTAssertEqual(listener.refused, ["javascript:alert(1): the javascript: scheme is never opened"])
            spin(0.3)
            XCTAssertEqual(session.openedLinks, opened)
        }
    }

    func testAMessageThePublisherRemovedIsTakenBackFromThePortal() throws {
        let portal = try HandoverStandIns(["--portal"], in: session)
        defer { portal.stop() }
        try MainContext.assumeIsolated {
            let appID = "org.example.PortalWithdrawn"
            let removeApplication = try makeApplication(appID)
            defer { removeApplication() }
            let herald = try makeSandboxedHerald(appID)
            try herald.store.update { state in
                state.ignored = []
                state = CheckPolicy.handOver("2024/01/01", Handover(place: .portal, link: nil, since: Date()), in: state)
            }
            let recorder = EventRecorder(session: session, answer: nil)
            herald.delegate = recorder
            herald.appLaunched()
            XCTAssertTrue(spin(15) { recorder.events.last == "finished" }, "\(recorder.events)")
            XCTAssertEqual(portal.calls(of: "RemoveNotification").compactMap { $0.first as? String }, [appID + " 2024/01/01"])
            XCTAssertNil(try herald.store.load().handedOver["2024/01/01"])
        }
    }

    func testAnAppThatIsNotDBusActivatableShowsItsMessagesAsOutsideTheSandbox() throws {
        let portal = try HandoverStandIns(["--portal"], in: session)
        defer { portal.stop() }
        try MainContext.assumeIsolated {
            let appID = "org.example.PortalPlain"
            let removeApplication = try makeApplication(appID, activatable: false)
            defer { removeApplication() }
            let herald = try makeSandboxedHerald(appID)
            let recorder = EventRecorder(session: session, answer: "ignore")
            herald.delegate = recorder
            herald.appLaunched()
            XCTAssertTrue(spin(15) { recorder.events.last == "finished" }, "\(recorder.events)")
            XCTAssertTrue(recorder.events.contains("ignore \(key)"), "answered on the freedesktop notification: \(recorder.events)")
            XCTAssertEqual(portal.calls(of: "AddNotification").count, 0)
            XCTAssertEqual(try herald.store.load().handedOver, [:])
        }
    }
}

/// Registers a `GApplication` named `appID` on the in-process bus, the process's default
/// while the test runs, and installs its desktop entry, D-Bus-activatable or not; returns
/// what takes both away again.
@MainContext
private func makeApplication(_ appID: String, activatable: Bool = true) throws -> () -> Void {
    let applications = URL(fileURLWithPath: session.environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
    try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
    let entry = applications.appendingPathComponent(appID + ".desktop")
    try "[Desktop Entry]\nType=Application\nName=Portal test\nExec=true\n\(activatable ? "DBusActivatable=true\n" : "")"
        .write(to: entry, atomically: true, encoding: .utf8)
    try DesktopLibrary.gio.load()
    let application = try XCTUnwrap(g_application_new(appID, G_APPLICATION_DEFAULT_FLAGS))
    var error: UnsafeMutablePointer<GError>?
    XCTAssertNotEqual(g_application_register(application, nil, &error), 0)
    return {
        try? FileManager.default.removeItem(at: entry)
        g_object_unref(UnsafeMutableRawPointer(application))
    }
}

/// A Herald of `appID`, as inside a sandbox, whose feed is `contents`.
@MainContext
private func makeSandboxedHerald(_ appID: String, feed contents: String = feed) throws -> Herald {
    try InProcessDesktop.feedServer.publish("\(appID).plist", contents)
    var configuration = Herald.Configuration(
        feedURL: InProcessDesktop.feedServer.url("\(appID).plist"), appID: appID, appVersion: "2.0", appName: "Portal test",
        check: CheckConfiguration(showOnFirstLaunch: true), environment: InProcessDesktop.environment(forApp: appID))
    configuration.isSandboxed = true
    return try Herald(configuration: configuration)
}

/// A sandboxed app's `Herald` whose state holds a handover of the message through the portal,
/// posted by a process that has gone, and the handover's token.
@MainContext
private func sandboxedHerald(_ appID: String, handingOverLink link: String) throws -> (Herald, token: String) {
    let herald = try makeSandboxedHerald(appID)
    let handover = Handover(place: .portal, link: link, since: Date()).issued(under: URLRules())
    try herald.store.update { state in
        state.ignored = []
        state = CheckPolicy.handOver(key, handover, in: state)
    }
    return (herald, try XCTUnwrap(handover.token))
}

/// Clicks a button as the portal's backend does: `ActivateAction("herald-answer", [target])`
/// on the app's bus name, the target (app id, key, answer, token), while the loop runs; returns
/// once the call returned.
@MainContext
private func click(_ answer: String, appID: String, token: String) throws {
    let target = "('\(appID)', '\(key)', '\(answer)', '\(token)')"
    let click = try ChildProcess("/usr/bin/gapplication", ["action", appID, "herald-answer", target],
                                 environment: session.environment, directory: session.directory, name: "click")
    XCTAssertTrue(spin(10) { !click.process.isRunning }, "the click returned")
    XCTAssertEqual(click.wait(seconds: 1), 0, click.errorOutput)
}

/// A delegate that hears each link Herald would not open, as "URL: reason".
@MainContext
private final class LinkRefusalListener: HeraldDelegate {
    private(set) var refused: [String] = []

    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        if case .linkNotOpened(let url, let reason) = event { refused.append("\(url): \(reason)") }
    }
}
