import Foundation
import Herald
import HeraldTestSupport
@testable import HeraldTesting
import XCTest

/// Records the events an app's delegate would get.
@MainContext
final class Events: HeraldDelegate {
    var skipped: [String: MessageSkipReason] = [:]
    var answers: [NoticeAnswer] = []
    var closed: [CloseReason] = []
    var finished = 0
    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .messageSkipped(let key, let reason): skipped[key] = reason
        case .checkFinished: finished += 1
        default: break
        }
    }
    func herald(_ herald: Herald, didReceive answer: NoticeAnswer) { answers.append(answer) }
    func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason) { closed.append(reason) }
}

/// HeraldTesting stands in for the whole desktop: the loop, the clock and its timers, the link
/// opener, and nothing read from the machine.
final class TestDesktopTests: XCTestCase {
    /// A feed file with one message, `key`, linking to `link` when given.
    static func feed(_ key: String = "2026/01/01", link: String? = nil) throws -> String {
        var entry = ["Title": "Hello"]
        entry["ActionURL"] = link
        let file = try Fixtures.temporaryDirectory("herald-testing").appendingPathComponent("feed.plist")
        try Fixtures.xmlFeed([key: entry]).write(to: file, atomically: true, encoding: .utf8)
        return file.absoluteString
    }

    /// A desktop, a delegate recording its events, and a Herald on `feed` set up by `configure`.
    @MainContext
    static func herald(_ feed: String, hasLinkHandler: Bool = true,
                       configure: (inout Herald.Configuration) -> Void = { _ in }) throws -> (TestDesktop, Events, Herald) {
        let desktop = TestDesktop()
        desktop.links.hasHandler = hasLinkHandler
        let events = Events()
        let herald = try desktop.herald(feedURL: feed, appID: "org.example.App", appVersion: "1", configure: configure)
        herald.delegate = events
        return (desktop, events, herald)
    }

    func testRunDrivesTheLoopUntilAMessageIsShown() throws {
        let feed = try Self.feed()
        try MainContext.assumeIsolated {
            let desktop = TestDesktop()
            let herald = try desktop.herald(feedURL: feed, appID: "org.example.App", appVersion: "1")
            herald.appLaunched()
            XCTAssertTrue(desktop.presenter.shown.isEmpty, "appLaunched returns before the check runs")
            try desktop.run(until: { !desktop.presenter.shown.isEmpty }, timeout: .seconds(5))
            XCTAssertEqual(desktop.presenter.shown.map(\.content.summary), ["Hello"])
            // A check holds its Herald until what it shows is answered or closed.
            herald.closeShownMessages()
        }
    }

    func testRunThrowsWhenTheConditionDoesNotHoldInTime() throws {
        try MainContext.assumeIsolated {
            let desktop = TestDesktop()
            let started = ContinuousClock.now
            XCTAssertThrowsError(try desktop.run(until: { false }, timeout: .milliseconds(200))) { error in
                XCTAssertEqual(String(describing: error), "the condition did not hold within 0.2 seconds")
            }
            let waited = started.duration(to: .now)
            XCTAssertGreaterThanOrEqual(waited, .milliseconds(200))
            XCTAssertLessThan(waited, .seconds(2), "an idle loop still wakes at the deadline")
        }
    }

    func testTheTimeoutIsWrittenAsPeopleWriteANumber() {
        XCTAssertEqual(TestDesktopTimeout(timeout: .seconds(10)).description, "the condition did not hold within 10 seconds")
    }

    func testAHeraldOutlivesTheDesktopThatMadeIt() throws {
        let feed = try Self.feed()
        try MainContext.assumeIsolated {
            let herald = try TestDesktop().herald(feedURL: feed, appID: "org.example.App", appVersion: "1")
            XCTAssertNil(herald.quietReason())
            XCTAssertNil(try herald.reasonNotToCheck())
            XCTAssertTrue(herald.shouldCheck)
        }
    }

    func testAdvancingTheClockFiresTheWaitLimitAndNotBefore() throws {
        let feed = try Self.feed()
        try MainContext.assumeIsolated {
            let (desktop, events, herald) = try Self.herald(feed) { $0.waitLimit = .seconds(600) }
            herald.appLaunched()
            try desktop.run(until: { !desktop.presenter.shown.isEmpty })
            XCTAssertEqual(desktop.clock.pendingTimers, 1, "the wait limit is set on the test's clock")
            desktop.clock.advance(by: .seconds(599))
            XCTAssertEqual(events.closed, [])
            XCTAssertFalse(desktop.presenter.shown[0].isClosed)
            desktop.clock.advance(by: .seconds(1))
            XCTAssertEqual(events.closed, [.closedByHerald])
            XCTAssertTrue(desktop.presenter.shown[0].isClosed)
            XCTAssertEqual(events.finished, 1)
        }
    }

    func testACheckEndedByItsLastAnswerBeforeItsWaitLimitCancelsTheTimerAndLetsItsHeraldGo() throws {
        let feed = try Self.feed()
        try MainContext.assumeIsolated {
            let desktop = TestDesktop()
            let events = Events()
            weak var watched: Herald?
            do {
                let herald = try desktop.herald(feedURL: feed, appID: "org.example.App", appVersion: "1") { $0.waitLimit = .seconds(600) }
                herald.delegate = events
                watched = herald
                herald.appLaunched()
            }
            try desktop.run(until: { !desktop.presenter.shown.isEmpty })
            XCTAssertNotNil(watched, "the check holds its Herald while a notification awaits an answer")
            XCTAssertEqual(desktop.clock.pendingTimers, 1)
            desktop.presenter.answer(desktop.presenter.shown[0], with: "ok")
            XCTAssertEqual(events.finished, 1)
            XCTAssertEqual(desktop.clock.pendingTimers, 0, "the wait limit's timer is cancelled")
            // The check lets go of its handles on the loop's next turn.
            try desktop.run(until: { watched == nil }, timeout: .seconds(5))
        }
    }

    func testAdvancingTheClockBringsAMessagePutOffUntilItsRemindPeriodBack() throws {
        let feed = try Self.feed()
        try MainContext.assumeIsolated {
            let (desktop, events, herald) = try Self.herald(feed)
            herald.checkNow()
            try desktop.run(until: { !desktop.presenter.shown.isEmpty })
            desktop.presenter.answer(desktop.presenter.shown[0], with: "remind")
            try desktop.run(until: { events.finished == 1 })
            desktop.clock.advance(by: .seconds(86_399))
            herald.checkNow()
            try desktop.run(until: { events.finished == 2 })
            XCTAssertEqual(desktop.presenter.shown.count, 1)
            XCTAssertEqual(events.skipped["2026/01/01"]?.name, "remind-later")
            desktop.clock.advance(by: .seconds(1))
            herald.checkNow()
            try desktop.run(until: { desktop.presenter.shown.count == 2 })
            herald.closeShownMessages()
        }
    }

    func testAViewAnswerOpensItsLinkOnTheStandInOnly() throws {
        let feed = try Self.feed(link: "https://example.com/news")
        try MainContext.assumeIsolated {
            let (desktop, events, herald) = try Self.herald(feed)
            herald.appLaunched()
            try desktop.run(until: { !desktop.presenter.shown.isEmpty })
            desktop.presenter.answer(desktop.presenter.shown[0], with: "view")
            XCTAssertEqual(desktop.links.opened, ["https://example.com/news"])
            XCTAssertEqual(events.answers.count, 1)
            XCTAssertEqual(desktop.store.state.viewed, ["2026/01/01"])
        }
    }

    func testWithoutALinkHandlerALinkMessageIsLeftOutUnmarked() throws {
        let feed = try Self.feed(link: "https://example.com/news")
        try MainContext.assumeIsolated {
            let (desktop, events, herald) = try Self.herald(feed, hasLinkHandler: false)
            herald.appLaunched()
            try desktop.run(until: { events.finished == 1 })
            XCTAssertEqual(events.skipped, ["2026/01/01": .noHandler("https")])
            XCTAssertEqual(desktop.presenter.shown.count, 0)
            XCTAssertEqual(desktop.links.opened, [])
            XCTAssertEqual(desktop.store.state.viewed, [])
        }
    }

    func testACheckThatShowedNothingForWantOfALinkHandlerDoesNotCountAsDone() throws {
        let feed = try Self.feed(link: "https://example.com/news")
        try MainContext.assumeIsolated {
            let (desktop, events, herald) = try Self.herald(feed, hasLinkHandler: false)
            herald.appLaunched()
            try desktop.run(until: { events.finished == 1 })
            XCTAssertEqual(desktop.store.state.lastChecked, nil, "the check period does not start")
            XCTAssertEqual(desktop.store.state.failure, nil, "nor is it a failure that backs off")
            // A browser set up a minute later: the next launch checks and shows the message.
            desktop.links.hasHandler = true
            desktop.clock.advance(by: .seconds(60))
            herald.appLaunched()
            try desktop.run(until: { desktop.presenter.shown.count == 1 })
            XCTAssertEqual(desktop.presenter.shown.map(\.content.summary), ["Hello"])
            XCTAssertNotEqual(desktop.store.state.lastChecked, nil)
            herald.closeShownMessages()
        }
    }

    func testACheckThatShowedAnotherMessageCountsAsDoneThoughOneLinkHadNoHandler() throws {
        let file = try Fixtures.temporaryDirectory("herald-testing").appendingPathComponent("feed.plist")
        try Fixtures.xmlFeed(["2026/01/02": ["Title": "Linked", "ActionURL": "https://example.com/news"], "2026/01/01": ["Title": "Plain"]])
            .write(to: file, atomically: true, encoding: .utf8)
        try MainContext.assumeIsolated {
            let (desktop, events, herald) = try Self.herald(file.absoluteString, hasLinkHandler: false)
            herald.appLaunched()
            try desktop.run(until: { desktop.presenter.shown.count == 1 })
            XCTAssertEqual(events.skipped, ["2026/01/02": .noHandler("https")])
            XCTAssertEqual(desktop.store.state.lastChecked, desktop.clock.now)
            herald.closeShownMessages()
        }
    }

    func testTheDefaultsReadNoOffSwitchFileNoLanguageAndNoStateDirectoryOfTheMachine() throws {
        let feed = try Self.feed(link: "https://example.com/news")
        let home = try Fixtures.temporaryDirectory("herald-testing-home")
        let config = home.appendingPathComponent("config/herald")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[all]\nMuted=true\n".write(to: config.appendingPathComponent("herald.conf"), atomically: true, encoding: .utf8)
        let changed = ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "XDG_STATE_HOME": home.appendingPathComponent("state").path,
                       "XDG_CACHE_HOME": home.appendingPathComponent("cache").path, "LANGUAGE": "de", "LANG": "de_DE.UTF-8"]
        let before = changed.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        for (name, value) in changed { setenv(name, value, 1) }
        defer { for (name, value) in before { if let value { setenv(name, value, 1) } else { unsetenv(name) } } }
        try MainContext.assumeIsolated {
            // The control: a Herald with the machine's defaults reads that user's mute.
            let machine = try Herald(configuration: .init(feedURL: feed, appID: "org.example.App", appVersion: "1"))
            XCTAssertEqual(try machine.reasonNotToCheck()?.name, "muted")

            let (desktop, _, herald) = try Self.herald(feed)
            XCTAssertNil(try herald.reasonNotToCheck())
            herald.appLaunched()
            try desktop.run(until: { !desktop.presenter.shown.isEmpty })
            XCTAssertEqual(desktop.presenter.shown.first?.content.actions.map(\.label).contains("Ignore"), true, "English, not the machine's German")
            XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("state").path), "no state file written")
            XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("cache").path), "no feed cached on disk")
            herald.closeShownMessages()
        }
    }
}
