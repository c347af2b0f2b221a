import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import HeraldTesting
import XCTest

/// Quiet in the pipeline: a due check while the desktop asks for quiet shows nothing (prompts
/// neither), claims nothing, does not count, and tells the delegate once; a check with nothing
/// to show never asks.
final class QuietTests: XCTestCase {
    func testADueCheckDuringQuietShowsNothingAndDoesNotCount() throws {
        let feed = try CheckPipelineTests.feedURL(["a"])
        try MainContext.assumeIsolated {
            var asked = 0
            let quiet = DesktopQuietSetting(.doNotDisturb)
            let (store, presenter, herald, recorder) = try CheckPipelineTests.pipeline(feed, quiet: { asked += 1; return quiet.reason })
            herald.register(Prompt(name: "pro", settings: PromptSettings(title: "Go pro", usesUntilPrompt: 1, daysUntilPrompt: .zero)))
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "deferred do-not-disturb", "finished"])
            XCTAssertEqual(asked, 1, "asked once per check")
            XCTAssertEqual(presenter.shown.count, 0)
            XCTAssertNil(store.state.lastChecked, "not done: the next check tries again")
            XCTAssertEqual(store.state.prompts["pro"]?.usesCount, 1, "the launch still counts as a use")
            XCTAssertEqual(store.state.presentingPrompts, [:], "the due prompt waits, unclaimed")
            XCTAssertEqual(store.state.presenting, [:], "the message too")

            quiet.reason = nil
            recorder.events = []
            recorder.answer = "ok"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events.first, "fetched")
            XCTAssertTrue(recorder.events.contains("shown a"), "\(recorder.events)")
            XCTAssertTrue(recorder.events.contains("shown prompt pro"), "\(recorder.events)")
        }
    }

    /// The bytes a deferred check fetched are in the cache: their validators are kept, so the
    /// check after the quiet asks conditionally, not for the whole feed.
    func testAFeedFetchedDuringQuietKeepsItsValidatorsForTheNextCheck() throws {
        let server = InProcessDesktop.feedServer
        try server.publish("quiet-validators.plist", Fixtures.xmlFeed(["a": ["Title": "Title a"]]))
        let feed = server.url("quiet-validators.plist")
        try MainContext.assumeIsolated {
            let quiet = DesktopQuietSetting(.doNotDisturb)
            let (store, _, herald, recorder) = try CheckPipelineTests.pipeline(feed, quiet: { quiet.reason })
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "deferred do-not-disturb", "finished"])
            XCTAssertNil(store.state.lastChecked, "not done: the next check tries again")
            XCTAssertEqual(store.state.cachedFeed?.url, feed)
            XCTAssertNotNil(store.state.cachedFeed?.etag)
            XCTAssertNotNil(store.state.cachedFeed?.lastModified)
            quiet.reason = nil
            recorder.events = []
            recorder.answer = "ok"
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
            let asked = server.requests.filter { $0.path == "/quiet-validators.plist" }
            XCTAssertEqual(asked.count, 2)
            XCTAssertEqual(asked.last?.headers["If-None-Match"], store.state.cachedFeed?.etag)
        }
    }

    func testACheckWithNothingToShowDoesNotAskAboutQuiet() throws {
        let feed = try CheckPipelineTests.feedURL(["a"])
        try MainContext.assumeIsolated {
            var state = CheckPipelineTests.launched
            state.viewed = ["a"]
            var asked = 0
            let (store, _, herald, recorder) = try CheckPipelineTests.pipeline(feed, state: state, quiet: { asked += 1; return .doNotDisturb })
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "skipped a viewed", "finished"])
            XCTAssertEqual(asked, 0, "the settings and the server are asked only when there is something to show")
            XCTAssertNotNil(store.state.lastChecked, "a check with nothing to show is done")
        }
    }

    func testACheckThatIsNotDueDoesNotAskAboutQuiet() throws {
        let feed = try CheckPipelineTests.feedURL(["a"])
        try MainContext.assumeIsolated {
            var state = CheckPipelineTests.launched
            state.lastChecked = ManualClock().now
            var asked = 0
            let (_, _, herald, recorder) = try CheckPipelineTests.pipeline(feed, state: state, quiet: { asked += 1; return .doNotDisturb })
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["check-skipped check-period", "finished"])
            XCTAssertEqual(asked, 0, "reading the desktop's settings is left to checks that are due")
        }
    }
}

/// The desktop's quiet as a test sets it: the check asks it through a closure, and the test
/// changes it between checks.
@MainContext
final class DesktopQuietSetting {
    var reason: QuietReason?

    init(_ reason: QuietReason?) {
        self.reason = reason
    }
}
