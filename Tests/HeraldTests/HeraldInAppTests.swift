import CDesktopLibraries
import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

private var session: DesktopSession { InProcessDesktop.session }
private var server: FeedServer { InProcessDesktop.feedServer }

/// A Herald for `appID` whose feed is `feed` on the loopback server, first launch shown.
@MainContext
func makeHerald(_ appID: String, feed: String) throws -> Herald {
    try server.publish("\(appID).plist", feed)
    return try Herald(configuration: .init(
        feedURL: server.url("\(appID).plist"), appID: appID, appVersion: "2.0", appName: "In-app test",
        check: CheckConfiguration(showOnFirstLaunch: true), environment: InProcessDesktop.environment(forApp: appID)))
}

/// Runs the default main context until the delegate hears the check finish (at most 15 s).
@MainContext
func runLoop(until recorder: EventRecorder) {
    let loop = MainLoop()
    recorder.onFinish = { loop.quit() }
    let guardTimer = MainContext.after(seconds: 15) { loop.quit() }
    loop.run()
    MainContext.cancel(guardTimer)
}

/// The library as an app uses it: `appLaunched()` in the app's own process, the delegate's
/// events on the GLib main context, against a private session bus and a loopback feed.
///
/// Every test body runs isolated to the main context, as an app's GLib callbacks do.
final class HeraldInAppTests: XCTestCase {
    func testAppLaunchedReturnsAtOnceAndEventsArriveInOrderOnTheMainThread() throws {
        try MainContext.assumeIsolated {
            let herald = try makeHerald("org.example.InApp", feed: Fixtures.xmlFeed([
                "2024/05/01": ["Title": "Hello", "ActionURL": "https://example.com/hello", "Campaign": "spring"],
                "2024/04/01": ["Title": "Too new for you", "MinVersion": "3.0"],
            ]))
            let recorder = EventRecorder(session: session, answer: "view")
            herald.delegate = recorder
            let requestsBefore = server.requests.count
            herald.appLaunched()
            XCTAssertEqual(server.requests.count, requestsBefore, "appLaunched only schedules; the loop does the work")
            XCTAssertEqual(recorder.events, [])
            runLoop(until: recorder)
            XCTAssertEqual(recorder.events, [
                "shouldCheck", "fetched", "skipped 2024/04/01 below-min-version", "detected 2024/05/01",
                "shouldDisplay 2024/05/01", "shown 2024/05/01", "view 2024/05/01", "finished",
            ])
            XCTAssertTrue(recorder.allOnMainThread)
            XCTAssertEqual(recorder.details["Campaign"], .string("spring"), "unknown keys reach the delegate")
            XCTAssertTrue(eventually { session.openedLinks.contains("https://example.com/hello") })
            XCTAssertEqual(try herald.store.load().viewed, ["2024/05/01"])
        }
    }

    func testNothingPendingSendsDidNotDetect() throws {
        try MainContext.assumeIsolated {
            let herald = try makeHerald("org.example.Empty", feed: Fixtures.xmlFeed([:]))
            let recorder = EventRecorder(session: session, answer: nil)
            herald.delegate = recorder
            herald.appLaunched()
            runLoop(until: recorder)
            XCTAssertEqual(recorder.events, ["shouldCheck", "fetched", "notDetected", "finished"])
        }
    }

    func testDelegateDecliningTheCheckFetchesNothing() throws {
        try MainContext.assumeIsolated {
            let herald = try makeHerald("org.example.Declined", feed: Fixtures.xmlFeed(["a": ["Title": "A"]]))
            let recorder = EventRecorder(session: session, answer: nil)
            recorder.allowCheck = false
            herald.delegate = recorder
            let requestsBefore = server.requests.count
            herald.appLaunched()
            runLoop(until: recorder)
            XCTAssertEqual(recorder.events, ["shouldCheck", "check-skipped delegate-declined", "finished"])
            XCTAssertEqual(server.requests.count, requestsBefore)
        }
    }

    func testDelegateDecliningOneMessageLeavesItUnmarkedAndShowsTheNext() throws {
        try MainContext.assumeIsolated {
            let herald = try makeHerald("org.example.Choosy", feed: Fixtures.xmlFeed(["b": ["Title": "B"], "a": ["Title": "A"]]))
            let recorder = EventRecorder(session: session, answer: "ok")
            recorder.declinedKeys = ["b"]
            herald.delegate = recorder
            herald.appLaunched()
            runLoop(until: recorder)
            XCTAssertEqual(recorder.events, [
                "shouldCheck", "fetched", "detected b a", "shouldDisplay b", "skipped b delegate-declined",
                "shouldDisplay a", "shown a", "ok a", "finished",
            ])
            let state = try herald.store.load()
            XCTAssertEqual(state.viewed, ["a"])
            XCTAssertEqual(state.presenting, [:], "the declined message's claim is dropped")
        }
    }

    func testASecondLaunchCallWhileCheckingStartsNoSecondCheck() throws {
        try MainContext.assumeIsolated {
            let herald = try makeHerald("org.example.Twice", feed: Fixtures.xmlFeed([:]))
            let recorder = EventRecorder(session: session, answer: nil)
            herald.delegate = recorder
            let requestsBefore = server.requests.count
            herald.appLaunched()
            herald.appLaunched()
            runLoop(until: recorder)
            XCTAssertEqual(recorder.events.filter { $0 == "fetched" }.count, 1)
            XCTAssertEqual(server.requests.count, requestsBefore + 1)
        }
    }

    func testCheckAtLaunchOffMakesAppLaunchedDoNothing() throws {
        try MainContext.assumeIsolated {
            try server.publish("off.plist", Fixtures.xmlFeed([:]))
            let herald = try Herald(configuration: .init(
                feedURL: server.url("off.plist"), appID: "org.example.Off", appVersion: "1", checkAtLaunch: false,
                environment: InProcessDesktop.environment(forApp: "org.example.Off")))
            let recorder = EventRecorder(session: session, answer: nil)
            herald.delegate = recorder
            herald.appLaunched()
            let loop = MainLoop()
            MainContext.after(seconds: 0.3) { loop.quit() }
            loop.run()
            XCTAssertEqual(recorder.events, ["finished"], "no feed step and no prompts: the launch ends at once")
        }
    }

    func testPromptsAreCountedShownAfterTheFeedAndAnsweredThroughTheDelegate() throws {
        try MainContext.assumeIsolated {
            let herald = try makeHerald("org.example.Prompts", feed: Fixtures.xmlFeed(["m": ["Title": "Message"]]))
            herald.register(Prompt(name: "pro", settings: PromptSettings(title: "Go pro", actionURL: "https://example.com/pro", usesUntilPrompt: 1, daysUntilPrompt: .zero)))
            herald.register(Prompt(name: "pro", settings: PromptSettings(title: "Go pro", actionURL: "https://example.com/pro", usesUntilPrompt: 1, daysUntilPrompt: .zero)))
            let recorder = EventRecorder(session: session, answer: "ok")
            recorder.promptAnswer = "action"
            recorder.openLinks = false
            herald.delegate = recorder
            herald.appLaunched()
            runLoop(until: recorder)
            XCTAssertEqual(recorder.events.filter { $0.contains("pro") || $0 == "finished" }, [
                "decided pro due", "shouldDisplay pro", "shown pro", "pressed pro action", "shouldOpen pro", "finished",
            ])
            XCTAssertLessThan(recorder.events.firstIndex(of: "shown m")!, recorder.events.firstIndex(of: "shown pro")!)
            let state = try herald.store.load()
            XCTAssertEqual(state.prompts["pro"]?.usesCount, 1, "registered twice, counted once")
            XCTAssertEqual(state.prompts["pro"]?.viewed, true)
            XCTAssertEqual(state.presentingPrompts, [:], "the answered prompt's claim is dropped")
            XCTAssertFalse(session.openedLinks.contains("https://example.com/pro"), "the delegate declined the link")
        }
    }

    func testCheckNowSkipsTheGatesAndTheDelegatesShouldCheck() throws {
        try MainContext.assumeIsolated {
            let herald = try makeHerald("org.example.Manual", feed: Fixtures.xmlFeed([:]))
            try herald.store.update { $0 = CheckPolicy.recordSuccess($0, now: Date()) }
            let recorder = EventRecorder(session: session, answer: nil)
            recorder.allowCheck = false
            herald.delegate = recorder
            herald.checkNow()
            runLoop(until: recorder)
            XCTAssertEqual(recorder.events, ["fetched", "notDetected", "finished"])
        }
    }
}

/// Records delegate events as short strings, answering shown messages like a user would.
@MainContext
final class EventRecorder: HeraldDelegate {
    var events: [String] = []
    var allOnMainThread = true
    var allowCheck = true
    var declinedKeys: Set<String> = []
    var details: [String: FeedValue] = [:]
    var onFinish: () -> Void = {}
    var openLinks = true
    var promptAnswer: String?
    /// Closes each shown message with this `NotificationClosed` reason instead of answering.
    var closeReason: Int?
    let session: DesktopSession
    /// The action each shown message is answered with, if any.
    var answerAll: String?

    init(session: DesktopSession, answer: String?) {
        self.session = session
        self.answerAll = answer
    }

    func record(_ event: String) {
        allOnMainThread = allOnMainThread && Thread.isMainThread
        events.append(event)
    }

    func heraldShouldCheck(_ herald: Herald) -> Bool { record("shouldCheck"); return allowCheck }
    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .checkSkipped(let reason): record("check-skipped \(reason.name)")
        case .feedFetched: record("fetched")
        case .checkFailed(let error): record("failed \(error)")
        case .budgetNotKept(let error): record("budget not kept \(error)")
        case .pending([]): record("notDetected")
        case .pending(let messages):
            record("detected " + messages.map(\.key).joined(separator: " "))
            details = messages.first?.details ?? [:]
        case .messageSkipped(let key, let reason): record("skipped \(key) \(reason.name)")
        case .promptDecided(let prompt, let decision): record("decided \(prompt.name) \(decision.name)")
        case .checkFinished:
            record("finished")
            onFinish()
        case .answeredWhileAway(let key, let answer, _): record("answered away \(key) \(answer.rawValue)")
        case .checkDeferred, .fetchingMirror, .linkNotOpened, .answerNotRecorded: break
        }
    }
    func herald(_ herald: Herald, shouldShow notice: Notice) -> Bool {
        switch notice {
        case .message(let message):
            record("shouldDisplay \(message.key)")
            return !declinedKeys.contains(message.key)
        case .prompt(let prompt):
            record("shouldDisplay \(prompt.name)")
            return true
        }
    }
    func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32) {
        switch notice {
        case .message(let message):
            record("shown \(message.key)")
            if let closeReason { try? session.close(Int(notificationID), reason: closeReason) }
            if let answerAll { try? session.invoke(answerAll, on: Int(notificationID)) }
        case .prompt(let prompt):
            record("shown \(prompt.name)")
            if let promptAnswer { try? session.invoke(promptAnswer, on: Int(notificationID)) }
        }
    }
    func herald(_ herald: Herald, didReceive answer: NoticeAnswer) {
        switch answer {
        case .message(let message, let answer): record("\(answer.rawValue) \(message.key)")
        case .prompt(let prompt, let button): record("pressed \(prompt.name) \(button.rawValue)")
        }
    }
    func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason) {
        if case .message(let message) = notice { record("closed \(message.key) \(reason.rawValue)") }
    }
    func herald(_ herald: Herald, shouldOpenActionURLFor prompt: Prompt) -> Bool { record("shouldOpen \(prompt.name)"); return openLinks }
}
