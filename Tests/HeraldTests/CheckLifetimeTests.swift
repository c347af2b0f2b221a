import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// A check releases every notification it showed, exactly once, however it ends: the handle
/// lives in the check's list of what is on screen until its answer, then the libnotify object
/// is unreffed; and once the check is over nothing keeps its `Herald` alive.
final class CheckLifetimeTests: XCTestCase {
    /// Runs one check of a one-message feed for a fresh app, with `configure` setting up the
    /// recorder, and returns the census, the events and whether the Herald was freed after.
    @MainContext
    static func check(_ name: String, waitLimit: Duration? = nil, refuse: Bool = false,
                      configure: (EventRecorder) -> Void, then: (Herald) -> Void = { _ in })
        throws -> (census: NotificationCensus, events: [String], heraldFreed: Bool) {
        let session = InProcessDesktop.session
        let appID = "org.example.Lifetime\(name)"
        try InProcessDesktop.feedServer.publish("\(appID).plist", Fixtures.xmlFeed(["m": ["Title": "Message \(name)"]]))
        if refuse { try session.refuseNotifications(true) }
        defer { if refuse { try? session.refuseNotifications(false) } }
        let census = NotificationCensus()
        defer { census.stop() }
        let recorder = EventRecorder(session: session, answer: nil)
        configure(recorder)
        weak var watched: Herald?
        do {
            let herald = try Herald(configuration: .init(
                feedURL: InProcessDesktop.feedServer.url("\(appID).plist"), appID: appID, appVersion: "1",
                check: CheckConfiguration(showOnFirstLaunch: true), waitLimit: waitLimit,
                environment: InProcessDesktop.environment(forApp: appID)))
            watched = herald
            herald.delegate = recorder
            herald.appLaunched()
            then(herald)
        }
        runLoop(until: recorder)
        // What the check let go of is finalized on the loop's next turns.
        spin(5) { census.finalizedCount == census.createdCount && watched == nil }
        return (census, recorder.events, watched == nil)
    }

    func testShownAndAnsweredIsReleased() throws {
        try MainContext.assumeIsolated {
            let result = try Self.check("Answered") { $0.answerAll = "ok" }
            XCTAssertEqual(result.events.suffix(3), ["shown m", "ok m", "finished"])
            XCTAssertEqual(result.census.createdCount, 1)
            XCTAssertEqual(result.census.finalizedCount, 1)
            XCTAssertTrue(result.heraldFreed)
        }
    }

    func testShownAndClosedIsReleased() throws {
        try MainContext.assumeIsolated {
            let result = try Self.check("Closed") { $0.closeReason = 2 }
            XCTAssertEqual(result.events.suffix(3), ["shown m", "closed m dismissed", "finished"])
            XCTAssertEqual(result.census.createdCount, 1)
            XCTAssertEqual(result.census.finalizedCount, 1)
            XCTAssertTrue(result.heraldFreed)
        }
    }

    func testStillShownWhenTheCheckEndsIsReleased() throws {
        try MainContext.assumeIsolated {
            let result = try Self.check("WaitLimit", waitLimit: .seconds(0.3)) { _ in }
            XCTAssertEqual(result.events.suffix(3), ["shown m", "closed m closed-by-herald", "finished"])
            XCTAssertEqual(result.census.createdCount, 1)
            XCTAssertEqual(result.census.finalizedCount, 1)
            XCTAssertTrue(result.heraldFreed)
        }
    }

    func testFailedToShowIsReleased() throws {
        try MainContext.assumeIsolated {
            let result = try Self.check("Refused", refuse: true) { _ in }
            XCTAssertEqual(result.events.suffix(2), [
                "failed the notification could not be shown: GDBus.Error:org.freedesktop.DBus.Error.Failed: refused", "finished",
            ])
            XCTAssertEqual(result.census.createdCount, 1)
            XCTAssertEqual(result.census.finalizedCount, 1)
            XCTAssertTrue(result.heraldFreed)
        }
    }

    func testAHeraldDroppedWhileItsCheckRunsStillRecordsTheAnswer() throws {
        try MainContext.assumeIsolated {
            let result = try Self.check("Dropped") { $0.answerAll = "ok" }
            XCTAssertEqual(result.events.suffix(2), ["ok m", "finished"], "the check held its Herald until the answer")
            let store = FileStateStore(paths: try HeraldPaths(appID: "org.example.LifetimeDropped",
                                                                environment: InProcessDesktop.environment(forApp: "org.example.LifetimeDropped")))
            XCTAssertEqual(try store.load().viewed, ["m"])
            XCTAssertEqual(try store.load().presenting, [:])
        }
    }
}
