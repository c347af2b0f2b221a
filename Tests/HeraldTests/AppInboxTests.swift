import Foundation
import Herald
import HeraldCore
import HeraldTestSupport
import HeraldTesting
import XCTest

/// An app's own inbox (`Herald.inbox()`), on HeraldTesting's in-memory parts: the messages its
/// checks kept for the person, newest first, with their state, for the app's "What's new" page.
final class AppInboxTests: XCTestCase {
    /// Nothing before a check; while the delegate hears `didShow`, the message on the screen is
    /// shown; after the check, each message kept with its answer or where it waits.
    func testTheAppsInboxListsWhatItsChecksKeptForThePersonWithTheirState() throws {
        let directory = try Fixtures.temporaryDirectory("herald-app-inbox")
        let file = directory.appendingPathComponent("feed.plist")
        try Fixtures.xmlFeed([
            "2026/11/02": ["Title": "Version 2", "Message": "Faster."],
            "2026/11/01": ["Title": "A tip", "Category": "tip"],
            "2026/10/01": ["Title": "For version 2 only", "MinVersion": "2"],
        ]).write(to: file, atomically: true, encoding: .utf8)
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            var check = CheckConfiguration()
            check.maxNotificationsPerCheck = 1
            let (_, _, herald, recorder) = try CheckPipelineTests.pipeline(file.absoluteString, check: check, clock: clock)
            XCTAssertEqual(try herald.inbox(), [], "nothing has reached the person before a check")
            recorder.answer = "view"
            var whileShown: [InboxMessage.State]?
            recorder.onShow = { whileShown = (try? herald.inbox())?.map(\.state) }
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(whileShown, [.shown, .due], "in didShow, the message on the screen is shown")
            XCTAssertEqual(recorder.events.last, "finished")
            XCTAssertEqual(try herald.inbox(), [
                InboxMessage(appID: "org.example.Pipeline", id: "2026/11/02", title: "Version 2", message: "Faster.",
                             category: "announcement", reached: clock.now, lastShown: clock.now, state: .viewed),
                InboxMessage(appID: "org.example.Pipeline", id: "2026/11/01", title: "A tip", message: "", category: "tip",
                             reached: clock.now, state: .due),
            ])
        }
    }

    /// The inbox is no step on the way to the screen: a check that shows a message records it
    /// in the person's inbox once the notification is out, and before the delegate hears
    /// `didShow`. Each event says how many notifications were out when it came.
    func testACheckRecordsItsInboxOnceTheNotificationIsOutBeforeTheDelegateHearsOfIt() throws {
        let feed = try CheckPipelineTests.feedURL(["a", "b"])
        try MainContext.assumeIsolated {
            let store = InMemoryStateStore(CheckPipelineTests.launched)
            let presenter = RecordingPresenter()
            let recorder = PipelineRecorder(presenter)
            var events: [String] = []
            let inbox = WatchedInboxStore { events.append("inbox written, \(presenter.shown.count) out") }
            var check = CheckConfiguration()
            check.maxNotificationsPerCheck = 1
            let herald = try Herald(configuration: .init(feedURL: feed, appID: "org.example.Pipeline", appVersion: "1", check: check),
                                    store: store, presenter: presenter, clock: ManualClock(), quietReason: { nil },
                                    offSwitches: { .none }, inbox: inbox)
            herald.delegate = recorder
            recorder.onShow = { events.append("didShow, \(presenter.shown.count) out") }
            recorder.answer = "ignore"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(events, ["inbox written, 1 out", "didShow, 1 out"])
            XCTAssertEqual(try inbox.snapshot().apps["org.example.Pipeline"]?.keys.sorted(), ["a", "b"])
        }
    }
}

/// An in-memory inbox that says when it is written.
private final class WatchedInboxStore: InboxStore {
    let memory = MemoryInboxStore()
    let written: () -> Void

    init(written: @escaping () -> Void) { self.written = written }

    func snapshot() throws -> Inbox { try memory.snapshot() }

    func update<Result>(_ change: (inout Inbox) throws -> Result) throws -> Result {
        written()
        return try memory.update(change)
    }
}
