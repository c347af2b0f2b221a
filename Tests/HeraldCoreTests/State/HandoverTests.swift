import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

final class HandoverTests: XCTestCase {
    let clock = TestClock()
    let feed = Feed(entries: ["a", "b"].map { Fixtures.entry($0, url: "https://example.org/\($0)") })

    private func selected(_ state: HeraldState, agentLives: Bool = true, days: Double = 0.5) -> [String] {
        let context = PolicyContext(configuration: CheckConfiguration(), now: clock.after(days: days),
                                    runningProcess: { $0 == 77 && agentLives ? RunningProcess(startTime: 4242) : nil })
        return CheckPolicy.select(feed, state: state, in: context).candidates.map(\.key)
    }

    private func handedOver(_ place: Handover.Place) -> HeraldState {
        var state = HeraldState()
        state.ignored = []
        state.presenting["a"] = .init(processID: 5, check: "x.1", until: clock.after(days: 0.01))
        return CheckPolicy.handOver("a", Handover(place: place, agentProcessID: place == .agent ? 77 : nil, agentStartTime: place == .agent ? 4242 : nil,
                                                  link: "https://example.org/a", since: clock.now), in: state)
    }

    func testAMessageInTheDesktopsListIsNotShownAgainWhateverRuns() {
        let state = handedOver(.desktopList)
        XCTAssertNil(state.presenting["a"], "the check's claim becomes the handover")
        XCTAssertEqual(selected(state, agentLives: false, days: 30), ["b"])
        let skipped = CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: CheckConfiguration(), now: clock.after(days: 30))).skipped
        XCTAssertEqual(skipped.map(\.reason), [.handedOver(since: clock.now)])
        XCTAssertEqual(skipped.first?.reason.name, "handed-over")
    }

    func testAMessageHeldByTheAgentWaitsWhileTheAgentLivesAndShowsAgainAfter() {
        let state = handedOver(.agent)
        XCTAssertEqual(selected(state, agentLives: true), ["b"])
        XCTAssertEqual(selected(state, agentLives: false), ["b", "a"])
    }

    /// The rule on plain values: the agent's handover at `since`, judged at `now` against the
    /// process `running` finds with its PID.
    private func waits(_ handover: Handover, after seconds: TimeInterval, running: RunningProcess?) -> Bool {
        Handover.isWaiting(handover, now: clock.now.addingTimeInterval(seconds), remindPeriod: 86_400 * 7) { processID in
            XCTAssertEqual(processID, 77)
            return running
        }
    }

    func testAHandoverHeldByTheAgentWaitsOnlyForTheProcessWithItsPIDAndStartTime() {
        let handover = Handover(place: .agent, agentProcessID: 77, agentStartTime: 4242, link: nil, since: clock.now)
        XCTAssertTrue(waits(handover, after: 3600, running: RunningProcess(startTime: 4242)), "the agent runs")
        XCTAssertFalse(waits(handover, after: 3600, running: RunningProcess(startTime: 9000)), "another process took its PID")
        XCTAssertFalse(waits(handover, after: 3600, running: nil), "no process, or a zombie, has its PID")
        XCTAssertTrue(waits(handover, after: 3600, running: RunningProcess(startTime: nil)),
                      "a start time that cannot be read (no /proc) leaves the PID and the bound to say")
    }

    func testAHandoverHeldByTheAgentLapsesAfterADayEvenWhileTheAgentRuns() {
        let handover = Handover(place: .agent, agentProcessID: 77, agentStartTime: 4242, link: nil, since: clock.now)
        XCTAssertEqual(Handover.agentHoldLimit, 86_400)
        XCTAssertTrue(waits(handover, after: 86_399, running: RunningProcess(startTime: 4242)))
        XCTAssertFalse(waits(handover, after: 86_400, running: RunningProcess(startTime: 4242)))
        XCTAssertFalse(waits(Handover(place: .agent, link: nil, since: clock.now), after: 0, running: RunningProcess(startTime: 4242)),
                       "a handover to the agent that names no process holds nothing")
    }

    func testAHandoverWrittenBeforeTheStartTimeWasKeptIsJudgedByItsPIDAndTheBound() throws {
        let since = ISO8601Moment.text(clock.now)
        let json = #"{"handedOver": {"a": {"place": "agent", "agentProcessID": 77, "since": "\#(since)"}}}"#
        let state = try XCTUnwrap(StateFileFormat.decode(Data(json.utf8)), "an older state file still reads")
        let handover = try XCTUnwrap(state.handedOver["a"])
        XCTAssertEqual(handover, Handover(place: .agent, agentProcessID: 77, link: nil, since: clock.now))
        XCTAssertTrue(waits(handover, after: 3600, running: RunningProcess(startTime: 9000)), "any process with its PID, as before")
        XCTAssertFalse(waits(handover, after: 3600, running: nil))
        XCTAssertFalse(waits(handover, after: 86_400, running: RunningProcess(startTime: 9000)), "and a day at most")
    }

    func testTheDesktopsListKeepsItsHandoverAndThePortalOneRemindPeriod() {
        let list = Handover(place: .desktopList, link: nil, since: clock.now)
        XCTAssertTrue(waits(list, after: 86_400 * 365, running: nil))
        let portal = Handover(place: .portal, link: nil, since: clock.now)
        XCTAssertTrue(waits(portal, after: 86_400 * 7 - 1, running: nil))
        XCTAssertFalse(waits(portal, after: 86_400 * 7, running: nil))
    }

    func testAnAnswerToAHandedOverMessageIsRecordedOnce() throws {
        let state = handedOver(.desktopList)
        let first = try XCTUnwrap(CheckPolicy.applyHandedOver(.view, to: "a", state: state, now: clock.after(days: 1)))
        XCTAssertEqual(first.handover.link, "https://example.org/a")
        XCTAssertEqual(first.state.viewed, ["a"])
        XCTAssertNil(first.state.handedOver["a"])
        XCTAssertNil(CheckPolicy.applyHandedOver(.ignore, to: "a", state: first.state, now: clock.after(days: 2)),
                     "a second click finds nothing to answer")
        XCTAssertNil(CheckPolicy.applyHandedOver(.view, to: "b", state: state, now: clock.now), "b was never handed over")
    }

    func testAnAnswerInTheAppEndsTheHandoverToo() {
        let state = CheckPolicy.apply(.remind, to: "a", state: handedOver(.desktopList), now: clock.after(days: 1))
        XCTAssertNil(state.handedOver["a"])
        XCTAssertEqual(state.reminded["a"], clock.after(days: 1))
    }

    func testAHandedOverMessageTheFeedNoLongerHoldsIsWithdrawn() {
        var state = handedOver(.desktopList)
        state = CheckPolicy.handOver("gone", Handover(place: .agent, agentProcessID: 77, link: nil, since: clock.now), in: state)
        XCTAssertEqual(CheckPolicy.withdrawn(from: feed, state: state), ["gone"])
        XCTAssertEqual(CheckPolicy.forgetHandovers(["gone"], in: state).handedOver.keys.sorted(), ["a"])
    }

    func testAHandoverIsKeptInTheStateFileAndAnOlderFileHasNone() throws {
        let state = handedOver(.agent)
        let decoded = try StateFileFormat.decode(StateFileFormat.encode(state))
        XCTAssertEqual(decoded, state)
        XCTAssertFalse(String(decoding: try StateFileFormat.encode(HeraldState()), as: UTF8.self).contains("handedOver"))
    }

    func testAHandoverNamesTheStateFolderOfItsStoreWithLinksResolvedAndNoneForAStateInMemory() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real").resolvingSymlinksInPath().path
        try FileManager.default.createDirectory(atPath: real + "/herald", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("state").path, withDestinationPath: real)
        let paths = try HeraldPaths(appID: "org.example.App", environment: ["XDG_STATE_HOME": directory.appendingPathComponent("state").path])
        XCTAssertEqual(paths.stateDirectory, directory.appendingPathComponent("state/herald").path)
        XCTAssertEqual(Handover.stateFolder(of: FileStateStore(paths: paths)), real + "/herald")
        XCTAssertNil(Handover.stateFolder(of: MemoryStateStore()), "a state in memory has no folder")
        let missing = try HeraldPaths(appID: "org.example.App", environment: ["XDG_STATE_HOME": directory.appendingPathComponent("missing").path])
        XCTAssertNil(Handover.stateFolder(of: FileStateStore(paths: missing)), "nor has one whose folder is not there")
    }

    func testTheStateFolderAHandoverNamesGivesTheAppsFilesThereOnlyWhenItIsAnAbsoluteHeraldFolder() throws {
        let environment = ["HOME": "/home/someone", "XDG_STATE_HOME": "/elsewhere/state"]
        let paths = try XCTUnwrap(try HeraldPaths(appID: "org.example.App", stateDirectory: "/run/check/state/herald", environment: environment))
        XCTAssertEqual([paths.stateFile, paths.lockFile, paths.cachedFeedFile],
                       ["/run/check/state/herald/org.example.App.json", "/run/check/state/herald/org.example.App.lock",
                        "/home/someone/.cache/herald/org.example.App.feed"])
        for folder in ["relative/herald", "/run/check/state", "/run/check/state/herald/", "/run/check/state/heraldx", "/herald", ""] {
            XCTAssertNil(try HeraldPaths(appID: "org.example.App", stateDirectory: folder, environment: environment), folder)
        }
        XCTAssertThrowsError(try HeraldPaths(appID: "../x", stateDirectory: "/run/check/state/herald", environment: environment)) {
            XCTAssertEqual($0 as? StateStoreError, .invalidAppID("../x"))
        }
    }

    func testANotificationIDNamesTheAppAndTheMessage() throws {
        let id = Handover.notificationID(appID: "org.example.App", key: "2026/01/01 extra")
        XCTAssertEqual(id, "org.example.App 2026/01/01 extra")
        let parts = try XCTUnwrap(Handover.parts(ofNotificationID: id))
        XCTAssertEqual(parts.appID, "org.example.App")
        XCTAssertEqual(parts.key, "2026/01/01 extra")
        XCTAssertNil(Handover.parts(ofNotificationID: "no-space"))
        XCTAssertNil(Handover.parts(ofNotificationID: "org.example.App "))
    }

    func testAnAnswerGivenAwayWaitsForTheAppsNextLaunchWhichTakesItOnceOldestFirst() throws {
        var state = handedOver(.desktopList)
        state = CheckPolicy.handOver("b", Handover(place: .agent, agentProcessID: 77, link: nil, since: clock.now), in: state)
        state = try XCTUnwrap(CheckPolicy.applyHandedOver(.ignore, to: "b", state: state, now: clock.after(days: 2))).state
        state = try XCTUnwrap(CheckPolicy.applyHandedOver(.view, to: "a", state: state, now: clock.after(days: 1))).state
        XCTAssertEqual(try StateFileFormat.decode(StateFileFormat.encode(state)), state, "kept in the state file")
        let taken = CheckPolicy.takeAnswersGivenAway(from: &state)
        XCTAssertEqual(taken.map(\.key), ["a", "b"])
        XCTAssertEqual(taken.map(\.answer), [.view, .ignore])
        XCTAssertEqual(taken.map(\.at), [clock.after(days: 1), clock.after(days: 2)])
        XCTAssertTrue(CheckPolicy.takeAnswersGivenAway(from: &state).isEmpty, "each answer is told once")
        XCTAssertFalse(String(decoding: try StateFileFormat.encode(state), as: UTF8.self).contains("answeredAway"))
    }

    func testAClosedHandoverWithoutAnAnswerLeavesNothingForTheApp() throws {
        let state = try XCTUnwrap(CheckPolicy.applyHandedOver(nil, to: "a", state: handedOver(.agent), now: clock.after(days: 1))).state
        XCTAssertTrue(state.answeredAway.isEmpty)
        XCTAssertNil(state.handedOver["a"])
    }

    func testAnswersGivenAwayThatNoLaunchTookAreForgottenAfterTheRetention() throws {
        var state = handedOver(.desktopList)
        state = try XCTUnwrap(CheckPolicy.applyHandedOver(.view, to: "a", state: state, now: clock.after(days: 1))).state
        state = CheckPolicy.handOver("b", Handover(place: .desktopList, link: nil, since: clock.now), in: state)
        let later = clock.after(days: 1).addingTimeInterval(CheckPolicy.answerRetention)
        state = try XCTUnwrap(CheckPolicy.applyHandedOver(.remind, to: "b", state: state, now: later)).state
        XCTAssertEqual(state.answeredAway.keys.sorted(), ["b"])
    }

    func testAMessagePostedThroughThePortalWaitsOneRemindPeriodAndThenShowsAgain() {
        var state = HeraldState()
        state.ignored = []
        state = CheckPolicy.handOver("a", Handover(place: .portal, link: nil, since: clock.now), in: state)
        func selected(afterDays days: Double) -> [String] {
            CheckPolicy.select(feed, state: state, in: PolicyContext(configuration: CheckConfiguration(remindPeriod: .days(2)),
                                                                     now: clock.after(days: days))).candidates.map(\.key)
        }
        XCTAssertEqual(selected(afterDays: 1.9), ["b"])
        XCTAssertEqual(selected(afterDays: 2), ["b", "a"], "a server that let it go from the screen answers nothing")
    }

    func testOnlyTheHandoversOwnTokenAdmitsACallerAndAHandoverWithoutOneOnlyTheDesktopsList() {
        let issued = Handover(place: .agent, link: "https://example.org/a", since: clock.now).issued(under: URLRules())
        let token = try? XCTUnwrap(issued.token)
        XCTAssertEqual(token?.count, 32)
        XCTAssertTrue(token?.allSatisfy { $0.isHexDigit && !$0.isUppercase } == true, token ?? "")
        XCTAssertNotEqual(issued.issued(under: URLRules()).token, token, "each handover its own")
        XCTAssertTrue(issued.admits(token))
        XCTAssertFalse(issued.admits(nil, fromDesktopList: true), "a handover with a token needs it, whoever calls")
        XCTAssertFalse(issued.admits(String(token?.dropLast() ?? "")))
        XCTAssertFalse(issued.admits((token ?? "") + "0"))
        XCTAssertFalse(issued.admits(""))
        let older = Handover(place: .desktopList, link: nil, since: clock.now)
        XCTAssertTrue(older.admits(nil, fromDesktopList: true))
        XCTAssertFalse(older.admits(nil))
        XCTAssertFalse(older.admits("", fromDesktopList: false))
    }

    func testALinkIsJudgedAgainAtTheClickByTheURLRulesAndTheSchemesTheAppAllowed() {
        func refusal(_ link: String, allowing schemes: Set<String> = []) -> String? {
            Handover(place: .agent, link: link, since: clock.now).issued(under: URLRules(allowedCustomSchemes: schemes)).linkRefusal
        }
        XCTAssertNil(refusal("https://example.org/a"))
        XCTAssertEqual(refusal("javascript:alert(1)"), "the javascript: scheme is never opened")
        XCTAssertEqual(refusal("file:///etc/passwd"), "the file: scheme is never opened")
        XCTAssertEqual(refusal("data:text/html,<script>x</script>"), "the data: scheme is never opened")
        XCTAssertEqual(refusal("https://example.org/a b"), "the URL contains a space: percent-encode it")
        XCTAssertEqual(refusal("myapp://open"), "the myapp: scheme is not allowed by the app")
        XCTAssertNil(refusal("myapp://open", allowing: ["MyApp"]))
        XCTAssertEqual(refusal("javascript:x", allowing: ["javascript"]), "the javascript: scheme is never opened")
        XCTAssertNil(Handover(place: .agent, link: nil, since: clock.now).linkRefusal)
    }
}
