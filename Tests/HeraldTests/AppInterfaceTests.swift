import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import HeraldTesting
import XCTest

/// iNotify's advanced API for apps with their own interface (ORIGINALS.md §1.2): the answers
/// read and set, an answer given in the app, the display order, the gate's decision, and the
/// claims of running checks respected, on the same state rules as a notification's buttons.
final class AppInterfaceTests: XCTestCase {
    /// A feed decoded from entries titled "Title KEY", with extra fields per key.
    static func feed(_ entries: [String: [String: String]]) throws -> Feed {
        try FeedDecoder.decode(Data(Fixtures.xmlFeed(entries.mapValues { ["Title": "Title"].merging($0) { $1 } }).utf8))
    }

    /// A Herald without a feed on an in-memory store holding `state`.
    @MainContext
    static func herald(state: HeraldState = CheckPipelineTests.launched, check: CheckConfiguration = CheckConfiguration(),
                       clock: ManualClock = ManualClock()) throws -> (InMemoryStateStore, Herald) {
        let store = InMemoryStateStore(state)
        return (store, try CheckPipelineTests.herald(nil, store: store, presenter: RecordingPresenter(), clock: clock, check: check))
    }

    func testAnswersReadTheStateAndAMissingIgnoreListReadsEmptyAsInINotify() throws {
        try MainContext.assumeIsolated {
            var state = HeraldState()
            state.viewed = ["a"]
            state.reminded = ["b": Date(timeIntervalSince1970: 1_600_000_000)]
            let (store, herald) = try Self.herald(state: state)
            XCTAssertEqual(try herald.answers(), MessageAnswers(viewed: ["a"], ignored: [], reminded: ["b": Date(timeIntervalSince1970: 1_600_000_000)]))
            XCTAssertEqual(store.updates, 0, "reading takes no lock")
        }
    }

    func testSettingAnswersIsOneLockedWriteThatKeepsTheFirstLaunchMarker() throws {
        try MainContext.assumeIsolated {
            let (store, herald) = try Self.herald(state: HeraldState())
            let checked = Date(timeIntervalSince1970: 1_650_000_000)
            try herald.updateAnswers { answers in
                answers.viewed.insert("a")
                answers.lastChecked = checked
            }
            XCTAssertEqual([store.updates, store.writes], [1, 1], "one locked update, one write")
            XCTAssertEqual(store.state.viewed, ["a"])
            XCTAssertEqual(store.state.lastChecked, checked)
            XCTAssertNil(store.state.ignored, "an empty ignore list set by the app does not pass the first launch")
            try herald.updateAnswers { $0.ignored = ["b"] }
            XCTAssertEqual(store.state.ignored, ["b"])
        }
    }

    func testAnAnswerGivenInTheAppRecordsWhatTheNotificationsButtonWould() throws {
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            for answer in Answer.allCases {
                let (store, herald) = try Self.herald(clock: clock)
                try herald.record(answer, forMessage: "2026/11/01")
                XCTAssertEqual(store.state, CheckPolicy.apply(answer, to: "2026/11/01", state: CheckPipelineTests.launched, now: clock.now), "\(answer)")
                XCTAssertEqual(store.writes, 1, "\(answer): one locked write")
            }
        }
    }

    func testAnAnswerGivenInTheAppTakesItsOwnNotificationOffTheScreen() throws {
        let feed = try CheckPipelineTests.feedURL(["a"])
        try MainContext.assumeIsolated {
            let (store, presenter, herald, recorder) = try CheckPipelineTests.pipeline(feed)
            recorder.onShow = { try? herald.record(.view, forMessage: "a") }
            recorder.run { herald.appLaunched() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "closed a closed-by-herald", "finished"])
            XCTAssertEqual(presenter.shown.map(\.isClosed), [true])
            XCTAssertEqual(store.state.viewed, ["a"])
            XCTAssertEqual(store.state.presenting, [:], "its claim goes with it")
            XCTAssertFalse(herald.isBusy)
        }
    }

    func testAClaimOfAnotherRunningCheckOutlivesAnAnswerGivenInTheApp() throws {
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            var state = CheckPipelineTests.launched
            let until = clock.now.addingTimeInterval(3600)
            state.presenting = [
                "live": HeraldState.Claim(processID: getppid(), check: "other", until: until),
                "gone": HeraldState.Claim(processID: Int32.max, check: "other", until: until),
            ]
            let (store, herald) = try Self.herald(state: state, clock: clock)
            try herald.record(.ignore, forMessage: "live")
            try herald.record(.view, forMessage: "gone")
            XCTAssertEqual(store.state.ignored, ["live"])
            XCTAssertEqual(store.state.viewed, ["gone"])
            XCTAssertEqual(Array(store.state.presenting.keys), ["live"], "the running check lets go of its own claim; a dead one's goes")
        }
    }

    func testAnAnswerThatCannotBeWrittenIsAnErrorAndChangesNothing() throws {
        try MainContext.assumeIsolated {
            let (store, herald) = try Self.herald()
            store.failure = .unwritable(path: "state.json", reason: "No space left on device")
            XCTAssertThrowsError(try herald.record(.view, forMessage: "a")) { error in
                XCTAssertEqual((error as? HeraldError)?.kind, "state")
            }
            store.failure = nil
            XCTAssertEqual(store.state, CheckPipelineTests.launched)
        }
    }

    func testTheNextMessageIsTheNewestKeyOrTheOldestWithShowOldestFirst() throws {
        try MainContext.assumeIsolated {
            let entries = Array(try Self.feed(["2026/01/05": [:], "2026/01/10": [:], "2025/12/31": [:]]).entries.values)
            let (_, newest) = try Self.herald()
            XCTAssertEqual(newest.nextMessage(of: entries)?.key, "2026/01/10")
            XCTAssertNil(newest.nextMessage(of: []))
            let (_, oldest) = try Self.herald(check: CheckConfiguration(showOldestFirst: true))
            XCTAssertEqual(oldest.nextMessage(of: entries)?.key, "2025/12/31")
        }
    }

    func testPendingMessagesAreWhatACheckWouldShowInDisplayOrder() throws {
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            let feed = try Self.feed([
                "1-viewed": [:], "2-ignored": [:], "3-reminded": [:], "4-too-new": ["MinVersion": "2"],
                "5-claimed": [:], "6-pending": [:], "7-pending": [:],
            ])
            var state = CheckPipelineTests.launched
            state.viewed = ["1-viewed"]
            state.ignored = ["2-ignored"]
            state.reminded = ["3-reminded": clock.now]
            state.presenting = ["5-claimed": HeraldState.Claim(processID: getppid(), check: "other", until: clock.now.addingTimeInterval(60))]
            let (store, herald) = try Self.herald(state: state, clock: clock)
            XCTAssertEqual(try herald.pendingMessages(in: feed).map(\.key), ["7-pending", "6-pending"])
            XCTAssertEqual(store.updates, 0, "asking changes nothing")
        }
    }

    func testTheGatesDecisionIsReadWithoutChangingTheState() throws {
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            let store = InMemoryStateStore(HeraldState())
            let herald = try CheckPipelineTests.herald("file:///feed.plist", store: store, presenter: RecordingPresenter(), clock: clock)
            XCTAssertEqual(try herald.reasonNotToCheck(), .firstLaunch)
            XCTAssertEqual(try herald.reasonNotToCheck(), .firstLaunch, "asking does not pass the first launch")
            XCTAssertEqual(store.updates, 0)
            store.state = CheckPipelineTests.launched
            XCTAssertNil(try herald.reasonNotToCheck())
            XCTAssertTrue(herald.shouldCheck)
            store.state.lastChecked = clock.now
            XCTAssertEqual(try herald.reasonNotToCheck(), .checkPeriod(nextCheck: clock.now.addingTimeInterval(0.5 * 86_400)))
            XCTAssertFalse(herald.shouldCheck)
            store.state.lastChecked = nil
            let declining = DecliningDelegate()
            herald.delegate = declining
            XCTAssertEqual(try herald.reasonNotToCheck(), .delegateDeclined, "the delegate is asked last, as at a launch")
        }
    }
}

/// A delegate that declines every check.
@MainContext
private final class DecliningDelegate: HeraldDelegate {
    func heraldShouldCheck(_ herald: Herald) -> Bool { false }

    func testAReasonNotToCheckFollowsACheckAndARefusedMirrorStopsItAsAKeyFileProblem() throws {
        try MainContext.assumeIsolated {
            let mirror = FeedMirror(url: "http://mirror.example.com/feed.plist", file: "/etc/xdg/herald/herald.conf")
            let (_, _, herald, _) = try CheckPipelineTests.pipeline("file:///feed.plist", offSwitches: { .init(mirror: mirror) })
            XCTAssertThrowsError(try herald.reasonNotToCheck()) { error in
                XCTAssertEqual((error as? HeraldError)?.description,
                               HeraldError.keyFile("the feed URL http://mirror.example.com/feed.plist of /etc/xdg/herald/herald.conf is refused: "
                                                   + "plain http is refused for feeds outside this machine (use https, or allow http)").description)
            }
            XCTAssertFalse(herald.shouldCheck, "a check stops on it")
        }
    }

    func testExplainingACheckOfAMutedAppStopsAtTheOffSwitchesAndFetchesNothing() throws {
        try MainContext.assumeIsolated {
            let mute = Mute(by: .user, scope: .app, file: "/home/u/.config/herald/herald.conf")
            let (_, _, herald, _) = try CheckPipelineTests.pipeline("file:///feed.plist", offSwitches: { .init(mute: mute) })
            var fetched: [String] = []
            let explained = herald.explainCheck(state: CheckPipelineTests.launched, force: true) { source, _ in
                fetched.append(source.url)
                return .failure(.fetch(.transport("not asked")))
            }
            guard case .stopped(.muted(let stoppedBy)) = explained else { return XCTFail("\(explained)") }
            XCTAssertEqual(stoppedBy, mute)
            XCTAssertEqual(fetched, [])
        }
    }
}
