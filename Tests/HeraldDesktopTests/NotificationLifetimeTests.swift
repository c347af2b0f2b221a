import CDesktopLibraries
import Foundation
import HeraldDesktop
import HeraldTestSupport
import XCTest

private var session: DesktopSession { InProcessDesktop.session }

/// The responses a notification delivered.
@MainContext
final class Responses {
    var received: [NotificationResponse] = []
}

/// Shows a notification whose response closure captures a canary, lets `scenario` act on the
/// handle, drops it, runs the loop a little and returns the census, whether the canary was
/// freed, and the responses.
@MainContext
func showAndLetGo(_ scenario: (NotificationHandle, Responses) throws -> Void) throws -> (census: NotificationCensus, canaryFreed: Bool, responses: [NotificationResponse]) {
    let census = NotificationCensus()
    defer { census.stop() }
    let responses = Responses()
    weak var watched: Canary?
    do {
        let canary = Canary()
        watched = canary
        let notification = DesktopNotification(summary: "Lifetime", body: "body", appName: "Lifetime test",
                                               actions: [("default", "Open"), ("ok", "OK")], timeout: 0)
        let handle = try notification.show { response in
            withExtendedLifetime(canary) { responses.received.append(response) }
        }
        try scenario(handle, responses)
    }
    spin(0.3)
    return (census, watched == nil, responses.received)
}

/// Every libnotify object and every callback box is released exactly once (DESIGN.md, "How a
/// check flows", answers): the handle is the one owner of its `NotifyNotification`, and the
/// callbacks registered for it hold neither.
///
/// Each test counts the notifications created and finalized, and watches a canary captured by
/// the response closure: when the canary is gone, so are the boxes libnotify held it in.
final class NotificationLifetimeTests: XCTestCase {
    override func setUp() {
        super.setUp()
        _ = InProcessDesktop.session
        XCTAssertNotNil(MainContext.assumeIsolated { NotificationServer(appName: "Lifetime test") }, "the mock notification server answers")
    }

    func testAnsweredNotificationIsFinalizedWithItsCallbacks() throws {
        try MainContext.assumeIsolated {
            let result = try showAndLetGo { handle, responses in
                try session.invoke("ok", on: Int(handle.id))
                spin(5) { !responses.received.isEmpty }
            }
            XCTAssertEqual(result.responses, [.action("ok")], "the action, and not the close that follows it")
            XCTAssertEqual(result.census.createdCount, 1)
            XCTAssertEqual(result.census.finalizedCount, 1)
            XCTAssertTrue(result.canaryFreed)
        }
    }

    func testNotificationClosedByTheServerIsFinalized() throws {
        try MainContext.assumeIsolated {
            let result = try showAndLetGo { handle, responses in
                try session.close(Int(handle.id), reason: 2)
                spin(5) { !responses.received.isEmpty }
            }
            XCTAssertEqual(result.responses, [.closed(.dismissed)])
            XCTAssertEqual(result.census.createdCount, 1)
            XCTAssertEqual(result.census.finalizedCount, 1)
            XCTAssertTrue(result.canaryFreed)
        }
    }

    func testNotificationStillShownWhenItsOwnerLetsGoIsFinalized() throws {
        try MainContext.assumeIsolated {
            let result = try showAndLetGo { handle, _ in handle.close() }
            XCTAssertEqual(result.census.createdCount, 1)
            XCTAssertEqual(result.census.finalizedCount, 1)
            XCTAssertTrue(result.canaryFreed, "an answer can no longer arrive, so its closure is gone too")
        }
    }

    func testNotificationTheServerRefusedIsFinalized() throws {
        try MainContext.assumeIsolated {
            try session.refuseNotifications(true)
            defer { try? session.refuseNotifications(false) }
            let census = NotificationCensus()
            defer { census.stop() }
            weak var watched: Canary?
            do {
                let canary = Canary()
                watched = canary
                let notification = DesktopNotification(summary: "Refused", body: "", actions: [("ok", "OK")], timeout: 0)
                XCTAssertThrowsError(try notification.show { _ in withExtendedLifetime(canary) {} }) { error in
                    XCTAssertEqual((error as? NotificationError)?.description,
                                   "the notification could not be shown: GDBus.Error:org.freedesktop.DBus.Error.Failed: refused")
                }
            }
            spin(0.2)
            XCTAssertEqual(census.createdCount, 1)
            XCTAssertEqual(census.finalizedCount, 1)
            XCTAssertNil(watched)
        }
    }

    func testAnIdleCallbackIsReleasedOnceItHasRun() {
        MainContext.assumeIsolated {
            weak var watched: Canary?
            var runs = 0
            do {
                let canary = Canary()
                watched = canary
                MainContext.idle { withExtendedLifetime(canary) { runs += 1 } }
            }
            XCTAssertNotNil(watched, "GLib holds the box until the source is done")
            spin(0.2)
            XCTAssertEqual(runs, 1)
            XCTAssertNil(watched)
        }
    }

    func testACancelledTimerIsReleasedWithoutRunning() {
        MainContext.assumeIsolated {
            weak var watched: Canary?
            var runs = 0
            do {
                let canary = Canary()
                watched = canary
                let timer = MainContext.after(seconds: 60) { withExtendedLifetime(canary) { runs += 1 } }
                MainContext.cancel(timer)
            }
            XCTAssertNil(watched)
            XCTAssertEqual(runs, 0)
        }
    }

    func testATaskOnTheMainContextRunsOnTheGLibLoop() {
        MainContext.assumeIsolated {
            var ran = false
            Task { @MainContext in ran = true }
            XCTAssertFalse(ran, "the job waits for the loop")
            spin(2) { ran }
            XCTAssertTrue(ran)
        }
    }
}
