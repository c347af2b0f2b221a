import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import HeraldTesting
import XCTest

/// Records a check's events and answers what is shown through a `RecordingPresenter`.
@MainContext
final class PipelineRecorder: HeraldDelegate {
    var events: [String] = []
    var declined: Set<String> = []
    /// The action each shown message is answered with, if any.
    var answer: String?
    let presenter: RecordingPresenter
    /// Called when the check is over, besides ending `run`.
    var onFinish: () -> Void = {}
    /// Called when a message is shown, before it is answered.
    var onShow: () -> Void = {}
    private var loop: MainLoop?

    init(_ presenter: RecordingPresenter) { self.presenter = presenter }

    /// Runs the main context until the check is over (at most 10 s); `start` runs on the loop,
    /// so a check that ends at once still ends a running loop.
    func run(_ start: @escaping @MainContext () -> Void) {
        let loop = MainLoop()
        self.loop = loop
        let guardTimer = MainContext.after(seconds: 10) { loop.quit() }
        MainContext.idle(start)
        loop.run()
        MainContext.cancel(guardTimer)
    }

    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .checkSkipped(let reason): events.append("check-skipped \(reason.name)")
        case .checkDeferred(let reason): events.append("deferred \(reason.name)")
        case .fetchingMirror(let mirror): events.append("mirror \(mirror.url)")
        case .feedFetched: events.append("fetched")
        case .checkFailed(let error): events.append("failed \(error.kind)")
        case .budgetNotKept(let error): events.append("budget not kept \(error.kind)")
        case .messageSkipped(let key, let reason): events.append("skipped \(key) \(reason.name)")
        case .answerNotRecorded(let key, let error): events.append("not recorded \(key) \(error.kind)")
        case .answeredWhileAway(let key, let answer, _): events.append("answered away \(key) \(answer.rawValue)")
        case .checkFinished:
            events.append("finished")
            onFinish()
            loop?.quit()
        case .pending, .promptDecided, .linkNotOpened: break
        }
    }
    func herald(_ herald: Herald, shouldShow notice: Notice) -> Bool {
        guard case .message(let message) = notice else { return true }
        return !declined.contains(message.key)
    }
    func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32) {
        switch notice {
        case .message(let message):
            events.append("shown \(message.key)")
            onShow()
        case .prompt(let prompt):
            events.append("shown prompt \(prompt.name)")
        }
        if let answer, let shown = presenter.shown.last { presenter.answer(shown, with: answer) }
    }
    func herald(_ herald: Herald, didReceive answer: NoticeAnswer) {
        switch answer {
        case .message(let message, .ignore): events.append("ignore \(message.key)")
        case .message(let message, .ok): events.append("ok \(message.key)")
        case .message: break
        case .prompt(let prompt, let button): events.append("pressed \(prompt.name) \(button.rawValue)")
        }
    }
    func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason) {
        if case .message(let message) = notice { events.append("closed \(message.key) \(reason.rawValue)") }
    }
}

/// The flow of one check through its stages (DESIGN.md, "How a check flows"), with the test
/// seams of `HeraldTesting`: a recording presenter, an in-memory store and a manual clock.
final class CheckPipelineTests: XCTestCase {
    /// A state past its first launch, so checks run.
    static var launched: HeraldState {
        var state = HeraldState()
        state.ignored = []
        return state
    }

    /// A feed file with one message per key (titled "Title KEY"), as a `file://` URL.
    static func feedURL(_ keys: [String], name: String = #function) throws -> String {
        let directory = try Fixtures.temporaryDirectory("herald-pipeline")
        let file = directory.appendingPathComponent("feed.plist")
        try Fixtures.xmlFeed(Dictionary(uniqueKeysWithValues: keys.map { ($0, ["Title": "Title \($0)"]) })).write(to: file, atomically: true, encoding: .utf8)
        return file.absoluteString
    }

    /// A Herald on `feed` with a fresh in-memory store (holding `state`), a recording presenter
    /// (for a server with `capabilities`) and a recorder listening as its delegate.
    @MainContext
    static func pipeline(_ feed: String, state: HeraldState = launched, capabilities: Set<String> = ["actions", "body", "body-markup"],
                         check: CheckConfiguration = CheckConfiguration(), waitLimit: Duration? = nil, clock: ManualClock = ManualClock(),
                         quiet: @escaping @MainContext () -> QuietReason? = { nil },
                         offSwitches: @escaping @MainContext () throws(OffSwitchFileError) -> OffSwitchDecision = { .none })
        throws -> (InMemoryStateStore, RecordingPresenter, Herald, PipelineRecorder) {
        let store = InMemoryStateStore(state)
        let presenter = RecordingPresenter(capabilities: capabilities)
        let herald = try Self.herald(feed, store: store, presenter: presenter, clock: clock, check: check, waitLimit: waitLimit,
                                     quiet: quiet, offSwitches: offSwitches)
        let recorder = PipelineRecorder(presenter)
        herald.delegate = recorder
        return (store, presenter, herald, recorder)
    }

    @MainContext
    static func herald(_ feed: String?, store: InMemoryStateStore, presenter: RecordingPresenter, clock: ManualClock = ManualClock(),
                       check: CheckConfiguration = CheckConfiguration(), waitLimit: Duration? = nil,
                       quiet: @escaping @MainContext () -> QuietReason? = { nil },
                       offSwitches: @escaping @MainContext () throws(OffSwitchFileError) -> OffSwitchDecision = { .none }) throws -> Herald {
        // Not this machine's key files or do-not-disturb: a test's outcome must not depend on
        // who runs it, or when.
        try Herald(configuration: .init(feedURL: feed, appID: "org.example.Pipeline", appVersion: "1", check: check, waitLimit: waitLimit),
                   store: store, presenter: presenter, clock: clock, quietReason: quiet, offSwitches: offSwitches)
    }

    func testALaunchThatCountsAPromptsUsesTakesTheLockOnceBeforeTheFetch() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, _, herald, recorder) = try Self.pipeline(feed)
            herald.register(Prompt(name: "pro", settings: PromptSettings(title: "Go pro", usesUntilPrompt: 5, daysUntilPrompt: .zero)))
            var beforeShow: (snapshots: Int, updates: Int)?
            recorder.onShow = { beforeShow = (store.snapshots, store.updates) }
            recorder.answer = "ok"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
            XCTAssertEqual(beforeShow?.updates, 2, "the gate decides in the update that counts the use; the plan claims in one locked update")
            XCTAssertEqual(beforeShow?.snapshots, 0, "the plan starts from the state that update wrote")
            XCTAssertEqual(store.state.prompts["pro"]?.usesCount, 1)
        }
    }

    func testAOneMessageCheckLocksAndWritesTheStateOnceBeforeItsNotificationOnceForItsOutcomeAndOnceForTheAnswer() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed)
            var beforeShow: (updates: Int, writes: Int)?
            recorder.onShow = { beforeShow = (store.updates, store.writes) }
            recorder.answer = "ok"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
            XCTAssertEqual(presenter.shown.count, 1)
            XCTAssertEqual(beforeShow?.updates, 2, "the lock taken before the fetch, writing nothing; the plan claims in one locked update")
            XCTAssertEqual(beforeShow?.writes, 1)
            XCTAssertEqual(store.snapshots, 1, "the gate reads without the lock")
            XCTAssertEqual(store.writes, 3)
            XCTAssertEqual(store.updates, 4, "the lock before the fetch, the plan claims, the outcome after the show, the answer records")
            XCTAssertEqual(store.state.viewed, ["a"])
            XCTAssertEqual(store.state.presenting, [:])
            XCTAssertNotNil(store.state.lastChecked)
        }
    }

    /// A feed's file name says nothing of its format: JSON named `.plist` and a property list
    /// named `.json` are each read by what their bytes are.
    func testFormatIsChosenByContentNotFileName() throws {
        let directory = try Fixtures.temporaryDirectory("herald-pipeline")
        let jsonNamedPlist = directory.appendingPathComponent("feed.plist")
        let plistNamedJSON = directory.appendingPathComponent("feed.json")
        try #"{"a": {"Title": "JSON in a .plist"}}"#.write(to: jsonNamedPlist, atomically: true, encoding: .utf8)
        try Fixtures.xmlFeed(["a": ["Title": "A plist in a .json"]]).write(to: plistNamedJSON, atomically: true, encoding: .utf8)
        try MainContext.assumeIsolated {
            for (file, title) in [(jsonNamedPlist, "JSON in a .plist"), (plistNamedJSON, "A plist in a .json")] {
                let (_, presenter, herald, recorder) = try Self.pipeline(file.absoluteString)
                recorder.answer = "ok"
                recorder.run { herald.appLaunched() }
                XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"], file.lastPathComponent)
                XCTAssertEqual(presenter.shown.map(\.content.summary), [title], file.lastPathComponent)
            }
        }
    }

    func testACheckThatIsNotDueTakesNoLockAndWritesNothing() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            var state = Self.launched
            state.lastChecked = clock.now.addingTimeInterval(-60)
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, state: state, clock: clock)
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["check-skipped check-period", "finished"])
            XCTAssertEqual(store.updates, 0)
            XCTAssertEqual(store.writes, 0)
            XCTAssertEqual(presenter.capabilityRequests, 0, "no D-Bus")
        }
    }

    func testACheckWithNothingToShowNeverAsksForTheNotificationServer() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            var state = Self.launched
            state.viewed = ["a"]
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, state: state)
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "skipped a viewed", "finished"])
            XCTAssertEqual(presenter.capabilityRequests, 0)
            XCTAssertEqual(store.writes, 1, "the successful check")
        }
    }

    /// DESIGN.md D12: a check at login may come before the desktop's server; the next check
    /// tries again at once, not after the failure backoff.
    func testWithoutAServerTheCheckFailsClaimsNothingAndTheNextCheckTriesAgainAtOnce() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed)
            presenter.isAvailable = false
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "failed no-notification-server", "finished"])
            XCTAssertNil(store.state.lastChecked, "nothing could be shown, so it does not count")
            XCTAssertNil(store.state.failure, "no backoff holds the next check")
            XCTAssertEqual(store.state.presenting, [:])
            presenter.isAvailable = true
            recorder.events = []
            recorder.answer = "ok"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
        }
    }

    func testWhatThePresentationDoesNotShowIsReleasedInOneUpdate() throws {
        let feed = try Self.feedURL(["a", "b", "c"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, check: CheckConfiguration(maxNotificationsPerCheck: 1), waitLimit: .seconds(30))
            recorder.declined = ["c"]
            recorder.run {
                herald.appLaunched()
                when({ recorder.events.contains("skipped a over-cap") }) {
                    XCTAssertEqual(Array(store.state.presenting.keys), ["b"], "only the shown message stays claimed")
                    XCTAssertEqual(store.writes, 3, "plan with claims, the update that releases c and claims b, then the outcome")
                    presenter.answer(presenter.shown[0], with: "ignore")
                }
            }
            XCTAssertEqual(recorder.events, ["fetched", "skipped c delegate-declined", "shown b", "skipped a over-cap", "ignore b", "finished"])
            XCTAssertEqual(store.state.presenting, [:])
            XCTAssertEqual(store.state.ignored, ["b"])
        }
    }

    func testTheFeedSourceWritesNoStateAndTheCheckRecordsTheLanguageThatAnsweredWithItsOutcome() throws {
        let plain = try Self.feedURL(["a"])
        let template = plain.replacingOccurrences(of: "feed.plist", with: "feed.{lang}.plist")
        try MainContext.assumeIsolated {
            let (store, _, herald, recorder) = try Self.pipeline(template, check: CheckConfiguration(audience: Audience(languages: ["de"])))
            var beforeShow: (updates: Int, writes: Int)?
            recorder.onShow = { beforeShow = (store.updates, store.writes) }
            recorder.answer = "ok"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
            XCTAssertEqual(beforeShow?.updates, 2, "the lock before the fetch, then the plan's claims: the feed source writes nothing")
            XCTAssertEqual(beforeShow?.writes, 1)
            XCTAssertEqual(store.state.cachedFeed?.url, plain, "the URL that answered, written by the check")
            XCTAssertEqual(store.state.cachedFeed?.template, template)
            XCTAssertEqual(store.state.cachedFeed?.languages, ["de"])
        }
    }

    func testMessagesPastTheCapWereNeverClaimedSoSkippingThemTouchesNoState() throws {
        let feed = try Self.feedURL(["a", "b", "c"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, check: CheckConfiguration(maxNotificationsPerCheck: 1), waitLimit: .seconds(30))
            recorder.run {
                herald.appLaunched()
                when({ recorder.events.contains("skipped a over-cap") }) {
                    XCTAssertEqual(Array(store.state.presenting.keys), ["c"])
                    XCTAssertEqual(store.updates, 3, "the lock before the fetch, the plan's update, the outcome: no release")
                    XCTAssertEqual(store.writes, 2)
                    presenter.answer(presenter.shown[0], with: "ok")
                }
            }
            XCTAssertEqual(recorder.events, ["fetched", "shown c", "skipped b over-cap", "skipped a over-cap", "ok c", "finished"])
            XCTAssertEqual(store.writes, 3, "the plan, the outcome, the answer")
            XCTAssertEqual(store.state.presenting, [:])
        }
    }

    func testAMessagePassedOverIsReleasedAndTheNextClaimedInOneUpdate() throws {
        let feed = try Self.feedURL(["a", "b", "c", "d"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, check: CheckConfiguration(maxNotificationsPerCheck: 2), waitLimit: .seconds(30))
            recorder.declined = ["d"]
            var claimedWhenShown: [[String]] = []
            recorder.onShow = { claimedWhenShown.append(store.state.presenting.keys.sorted()) }
            recorder.run {
                herald.appLaunched()
                when({ recorder.events.contains("skipped a over-cap") }) { for shown in presenter.shown { presenter.answer(shown, with: "ok") } }
            }
            XCTAssertEqual(recorder.events, ["fetched", "skipped d delegate-declined", "shown c", "shown b", "skipped a over-cap",
                                             "ok c", "ok b", "finished"])
            XCTAssertEqual(claimedWhenShown, [["c", "d"], ["b", "c"]], "d's claim is dropped in the update that claims b; a is never claimed")
            XCTAssertEqual(store.writes, 5, "plan with c and d, release d and claim b, the outcome, two answers")
            XCTAssertEqual(store.state.viewed, ["b", "c"])
        }
    }

    func testAClaimKeepsASecondHeraldInTheSameProcessFromShowingTheMessage() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let store = InMemoryStateStore(Self.launched)
            let presenter = RecordingPresenter()
            let heralds = try (0..<2).map { _ in try Self.herald(feed, store: store, presenter: presenter, waitLimit: .seconds(30)) }
            let recorders = heralds.map { _ in PipelineRecorder(presenter) }
            let loop = MainLoop()
            var finished = 0
            for (herald, recorder) in zip(heralds, recorders) {
                herald.delegate = recorder
                // Whichever check plans second finds the message claimed and ends; then the
                // first one's message is answered.
                recorder.onFinish = {
                    finished += 1
                    if finished == 1 { presenter.answer(presenter.shown[0], with: "ok") } else { loop.quit() }
                }
            }
            MainContext.after(seconds: 10) { loop.quit() }
            MainContext.idle { heralds.forEach { $0.checkNow() } }
            loop.run()
            XCTAssertEqual(presenter.shown.map(\.content.summary), ["Title a"])
            XCTAssertEqual(Set(recorders.map(\.events)), [
                ["fetched", "skipped a shown-elsewhere", "finished"], ["fetched", "shown a", "ok a", "finished"],
            ])
            XCTAssertEqual(store.state.presenting, [:])
            XCTAssertEqual(store.state.viewed, ["a"])
        }
    }

    func testTheWaitLimitClosesWhatIsShownAndReleasesItsClaimsInOneUpdate() throws {
        let feed = try Self.feedURL(["a", "b"])
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, waitLimit: .seconds(0.2), clock: clock)
            var closedBeforeTheLimit: Bool?
            // The wait limit runs on the check's clock: nothing closes until the clock reaches it.
            recorder.onShow = {
                guard presenter.shown.count == 2 else { return }
                MainContext.idle {
                    clock.advance(by: .milliseconds(199))
                    closedBeforeTheLimit = presenter.shown.contains(where: \.isClosed)
                    clock.advance(by: .milliseconds(1))
                }
            }
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(closedBeforeTheLimit, false)
            XCTAssertEqual(recorder.events, ["fetched", "shown b", "shown a", "closed b closed-by-herald", "closed a closed-by-herald", "finished"])
            XCTAssertTrue(presenter.shown.allSatisfy(\.isClosed))
            XCTAssertEqual(store.state.presenting, [:])
            XCTAssertEqual(store.state.viewed, [], "DESIGN.md D7: closed by Herald changes nothing")
            XCTAssertEqual(store.writes, 3, "plan with claims, the outcome, then one release of both")
        }
    }

    func testAnAnswerTheStateCannotKeepIsReportedAsNotRecordedBeforeItsEvent() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, _, herald, recorder) = try Self.pipeline(feed)
            recorder.answer = "ok"
            recorder.onShow = { store.failure = .unwritable(path: "/state/app.json", reason: "No space left on device") }
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "failed state", "not recorded a state", "ok a", "finished"])
            XCTAssertEqual(store.state.viewed, [], "nothing was written")
            XCTAssertEqual(Array(store.state.presenting.keys), ["a"], "the claim stays until its check is gone")
        }
    }

    func testOnAServerWithoutButtonsShowingIsViewingRecordedInOneUpdate() throws {
        let feed = try Self.feedURL(["a", "b"])
        try MainContext.assumeIsolated {
            let (store, _, herald, recorder) = try Self.pipeline(feed, capabilities: ["body"])
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown b", "shown a", "finished"])
            XCTAssertEqual(store.state.viewed, ["a", "b"])
            XCTAssertEqual(store.state.presenting, [:])
            XCTAssertEqual(store.writes, 2)
        }
    }

    func testACheckWhoseEveryNotificationWasRefusedDropsItsClaimsAndDoesNotCount() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed)
            presenter.refusesMessages = true
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "failed presentation", "finished"])
            XCTAssertEqual(store.state.presenting, [:])
            XCTAssertEqual(store.state.viewed, [])
            XCTAssertNil(store.state.lastChecked, "nothing reached the screen: tried again after the backoff")
            XCTAssertEqual(store.state.failure?.reason, "the notification server refused every message")
        }
    }

    func testACheckWhoseEveryNotificationWasRefusedCountsOnTopOfTheFailuresBeforeIt() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            var state = Self.launched
            let clock = ManualClock()
            state.failure = .init(count: 2, lastAttempt: clock.now.addingTimeInterval(-86_400), reason: "HTTP 500")
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, state: state, clock: clock)
            presenter.refusesMessages = true
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "failed presentation", "finished"])
            XCTAssertEqual(store.state.failure, .init(count: 3, lastAttempt: clock.now, reason: "the notification server refused every message"))
            XCTAssertNil(store.state.lastChecked)
        }
    }

    /// A fetch that a check without a server could not use still left its bytes in the cache:
    /// their validators are kept, so the next check asks conditionally, not for the whole feed.
    func testWithoutAServerTheFetchedCopysValidatorsAreKeptForTheNextCheck() throws {
        let server = InProcessDesktop.feedServer
        try server.publish("no-server-validators.plist", Fixtures.xmlFeed(["a": ["Title": "Title a"]]))
        let feed = server.url("no-server-validators.plist")
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed)
            presenter.isAvailable = false
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "failed no-notification-server", "finished"])
            XCTAssertEqual(store.state.cachedFeed?.url, feed)
            XCTAssertNotNil(store.state.cachedFeed?.etag)
            XCTAssertNotNil(store.state.cachedFeed?.lastModified)
            recorder.events = []
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "failed no-notification-server", "finished"])
            let asked = server.requests.filter { $0.path == "/no-server-validators.plist" }
            XCTAssertEqual(asked.count, 2)
            XCTAssertEqual(asked.last?.headers["If-None-Match"], store.state.cachedFeed?.etag)
        }
    }

    func testAPresentersOwnErrorIsReportedAsASentence() throws {
        struct WindowClosed: Error, CustomStringConvertible { var description: String { "the app's window is closed" } }
        struct Opaque: Error { let code = 7 }
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let cases: [(any Error, String)] = [
                (WindowClosed(), "the presenter refused the notification: the app's window is closed"),
                (Opaque(), "the presenter refused the notification"),
            ]
            for (error, sentence) in cases {
                let herald = try Herald(configuration: .init(feedURL: feed, appID: "org.example.Pipeline", appVersion: "1"),
                                        store: InMemoryStateStore(Self.launched), presenter: FailingPresenter(error), clock: ManualClock(),
                                        quietReason: { nil }, offSwitches: { .none })
                let failures = Failures()
                herald.delegate = failures
                herald.checkNow()
                let deadline = ContinuousClock.now + .seconds(10)
                while !failures.finished, ContinuousClock.now < deadline { MainContext.iterate(wakingBy: deadline) }
                XCTAssertTrue(failures.finished)
                XCTAssertEqual(failures.failures, [.presentation(sentence)])
            }
        }
    }

    func testADuePromptIsClaimedShownAfterTheMessagesAndItsAnswerDropsTheClaim() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, _, herald, recorder) = try Self.pipeline(feed)
            herald.register(Prompt(name: "pro", settings: PromptSettings(title: "Go pro", usesUntilPrompt: 1, daysUntilPrompt: .zero)))
            recorder.answer = "ok"
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "shown prompt pro", "finished"],
                           "the prompt's answer comes as 'ok', which is no prompt button: it closes unanswered")
            XCTAssertEqual(store.state.presentingPrompts, [:])
            XCTAssertEqual(store.state.prompts["pro"]?.usesCount, 1)
        }
    }

    func testANotificationIdTheServerGivesTwiceReplacesTheFirstMessageSoOneClickAnswersOne() throws {
        let feed = try Self.feedURL(["a", "b"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, waitLimit: .seconds(30))
            presenter.reusesIDs = true
            recorder.run {
                herald.appLaunched()
                when({ presenter.shown.count == 2 }) { presenter.answer(presenter.shown[1], with: "ok") }
            }
            XCTAssertEqual(recorder.events, ["fetched", "shown b", "closed b undefined", "shown a", "ok a", "finished"])
            XCTAssertEqual(store.state.viewed, ["a"])
            XCTAssertEqual(store.state.presenting, [:])
        }
    }

    func testClosingWhileTheFeedIsOnItsWayShowsNothingAndClaimsNothing() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed)
            recorder.run {
                herald.appLaunched()
                MainContext.idle { herald.closeShownMessages() }
            }
            XCTAssertEqual(recorder.events, ["fetched", "finished"])
            XCTAssertEqual(presenter.shown.count, 0)
            XCTAssertEqual(store.state.presenting, [:])
        }
    }

    func testAManualCheckShowsTheFeedAndLeavesPromptsToTheLaunch() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, _, herald, recorder) = try Self.pipeline(feed)
            herald.register(Prompt(name: "pro", settings: PromptSettings(title: "Go pro", usesUntilPrompt: 0, daysUntilPrompt: .zero)))
            recorder.answer = "ok"
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
            XCTAssertNil(store.state.prompts["pro"], "not counted either")
        }
    }

    func testAConfigurationWithTheLongestTimeoutOrWaitIsRefusedNotTrapped() throws {
        try MainContext.assumeIsolated {
            let endlessTimeout = Herald.Configuration(feedURL: "https://example.com/feed.plist", appID: "org.example.Pipeline", appVersion: "1",
                                                      timeout: .seconds(Int64.max))
            XCTAssertThrowsError(try Herald(configuration: endlessTimeout, store: InMemoryStateStore())) { error in
                XCTAssertEqual(error as? HeraldError, .configuration("timeout must be more than 0 and at most 3600 seconds, not 9.223372036854776e+18"))
            }
            let endlessWait = Herald.Configuration(feedURL: "https://example.com/feed.plist", appID: "org.example.Pipeline", appVersion: "1",
                                                   waitLimit: .seconds(Int64.max))
            XCTAssertThrowsError(try Herald(configuration: endlessWait, store: InMemoryStateStore())) { error in
                XCTAssertEqual((error as? HeraldError)?.description.hasPrefix("waitLimit must be more than 0 and at most 604800 seconds"), true)
            }
        }
    }

    func testAMutedAppCountsFetchesShowsAndWritesNothingPromptsIncluded() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let mute = Mute(by: .administrator, scope: .allApps, file: "/etc/xdg/herald/herald.conf")
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, offSwitches: {
                .init(mute: mute, mirror: FeedMirror(url: "https://mirror.example.com/feed.plist", file: mute.file))
            })
            herald.register(Prompt(name: "pro", settings: PromptSettings(title: "Go pro", usesUntilPrompt: 1, daysUntilPrompt: .zero)))
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["check-skipped muted", "finished"])
            XCTAssertEqual(try herald.reasonNotToCheck(), .muted(mute))
            XCTAssertEqual(presenter.capabilityRequests, 0, "no D-Bus")
            XCTAssertEqual(presenter.shown.count, 0)
            XCTAssertEqual(store.snapshots + store.updates + store.writes, 0, "the state is not read or written")
            XCTAssertEqual(store.state, Self.launched)
        }
    }

    func testAKeyFileThatCannotBeReadStopsTheCheckAsAKeyFileFailure() throws {
        let feed = try Self.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(feed, offSwitches: { () throws(OffSwitchFileError) in
                throw OffSwitchFileError(file: "/etc/xdg/herald/herald.conf", reason: "Permission denied")
            })
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["failed key-file", "finished"])
            XCTAssertEqual(presenter.shown.count, 0)
            XCTAssertEqual(store.writes, 0)
            XCTAssertThrowsError(try herald.reasonNotToCheck()) { error in
                XCTAssertEqual(error as? HeraldError, .keyFile("/etc/xdg/herald/herald.conf: Permission denied"))
            }
            XCTAssertFalse(herald.shouldCheck, "a check stops on a key file it cannot read")
        }
    }

    func testTheAdministratorsMirrorIsFetchedInsteadOfTheAppsFeed() throws {
        let own = try Self.feedURL(["own"])
        let mirror = try Self.feedURL(["mirrored"])
        try MainContext.assumeIsolated {
            let (store, _, herald, recorder) = try Self.pipeline(own, offSwitches: { .init(mirror: FeedMirror(url: mirror, file: "/etc/xdg/herald/herald.conf")) })
            recorder.answer = "ok"
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["mirror \(mirror)", "fetched", "shown mirrored", "ok mirrored", "finished"])
            XCTAssertEqual(store.state.viewed, ["mirrored"])
        }
    }

    func testAMirrorTheURLRulesRefuseIsNotFetchedNorTheAppsFeedInstead() throws {
        let own = try Self.feedURL(["own"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try Self.pipeline(own, offSwitches: {
                .init(mirror: FeedMirror(url: "file://elsewhere.example.com/feed.plist", file: "/etc/xdg/herald/herald.conf"))
            })
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["failed key-file", "finished"])
            XCTAssertEqual(presenter.shown.count, 0)
            XCTAssertNil(store.state.lastChecked)
        }
    }

    func testAManualClockDecidesWhenTheNextCheckIsDue() throws {
        let feed = try Self.feedURL([])
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            let (_, _, herald, recorder) = try Self.pipeline(feed, clock: clock)
            recorder.run { herald.appLaunched() }
            clock.advance(by: .seconds(21_600))
            recorder.run { herald.appLaunched() }
            clock.advance(by: .seconds(21_600))
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "finished", "check-skipped check-period", "finished", "fetched", "finished"])
        }
    }
}

/// A presenter whose every notification fails with an error of its own, not a `HeraldError`.
@MainContext
private final class FailingPresenter: MessagePresenter {
    let error: any Error
    init(_ error: any Error) { self.error = error }
    func capabilities() throws -> Set<String> { ["actions", "body"] }
    func present(_ content: NotificationContent, link: String?,
                 respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage {
        throw error
    }
}

/// Records the failures a check reports, and whether it finished.
@MainContext
private final class Failures: HeraldDelegate {
    var failures: [HeraldError] = []
    var finished = false
    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .checkFailed(let error): failures.append(error)
        case .checkFinished: finished = true
        default: break
        }
    }
}
