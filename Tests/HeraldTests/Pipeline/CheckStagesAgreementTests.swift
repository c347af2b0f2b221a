import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTesting
import XCTest

/// A check stops, skips or fetches as `CheckStages.decide` says for the same inputs: the
/// check goes through the stages in its own sequence (a snapshot first, the lock when the gate
/// changes the state), `reasonNotToCheck()` and `herald check --explain` through `decide`, and
/// the two must not part.
final class CheckStagesAgreementTests: XCTestCase {
    func testACheckStopsSkipsOrFetchesAsTheStagesDecideForTheSameInputs() throws {
        let feed = try CheckPipelineTests.feedURL([])
        try MainContext.assumeIsolated {
            let clock = ManualClock()
            let conf = "/etc/xdg/herald/herald.conf"
            let mute = Mute(by: .administrator, scope: .allApps, file: conf)
            var checkedRecently = CheckPipelineTests.launched
            checkedRecently.lastChecked = clock.now.addingTimeInterval(-60)
            var checkedInTheFuture = CheckPipelineTests.launched
            checkedInTheFuture.lastChecked = clock.now.addingTimeInterval(30 * 86_400)
            var failedRecently = CheckPipelineTests.launched
            failedRecently.failure = .init(count: 1, lastAttempt: clock.now.addingTimeInterval(-60), reason: "offline")
            let unreadable: @MainContext () throws(OffSwitchFileError) -> OffSwitchDecision = { () throws(OffSwitchFileError) in
                throw OffSwitchFileError(file: conf, reason: "Permission denied")
            }
            let cases: [(name: String, state: HeraldState, offSwitches: @MainContext () throws(OffSwitchFileError) -> OffSwitchDecision,
                         declines: Bool, force: Bool, decision: CheckStages.Decision)] = [
                ("muted", CheckPipelineTests.launched, { .init(mute: mute) }, false, false, .stop(.muted(mute))),
                ("unreadable key file", CheckPipelineTests.launched, unreadable, false, false, .stop(.keyFile("\(conf): Permission denied"))),
                ("refused mirror", CheckPipelineTests.launched, { .init(mirror: FeedMirror(url: "http://mirror.example.com/feed.plist", file: conf)) },
                 false, false,
                 .stop(.keyFile("the feed URL http://mirror.example.com/feed.plist of \(conf) is refused: "
                                + "plain http is refused for feeds outside this machine (use https, or allow http)"))),
                ("muted and declined", CheckPipelineTests.launched, { .init(mute: mute) }, true, false, .stop(.muted(mute))),
                ("first launch", HeraldState(), { .none }, false, false, .skip(.firstLaunch)),
                ("first launch and declined", HeraldState(), { .none }, true, false, .skip(.firstLaunch)),
                ("checked recently", checkedRecently, { .none }, false, false, .skip(.checkPeriod(nextCheck: clock.now.addingTimeInterval(0.5 * 86_400 - 60)))),
                ("checked in the future", checkedInTheFuture, { .none }, false, false, .skip(.checkPeriod(nextCheck: clock.now.addingTimeInterval(0.5 * 86_400)))),
                ("failed recently", failedRecently, { .none }, false, false, .skip(.failureBackoff(nextAttempt: clock.now.addingTimeInterval(15 * 60 - 60)))),
                ("declined", CheckPipelineTests.launched, { .none }, true, false, .skip(.delegateDeclined)),
                ("due", CheckPipelineTests.launched, { .none }, false, false, .fetch),
                ("forced, checked recently and declined", checkedRecently, { .none }, true, true, .fetch),
                ("forced, first launch", HeraldState(), { .none }, false, true, .fetch),
                ("forced and muted", CheckPipelineTests.launched, { .init(mute: mute) }, false, true, .stop(.muted(mute))),
            ]
            for stages in cases {
                let store = InMemoryStateStore(stages.state)
                let herald = try CheckPipelineTests.herald(feed, store: store, presenter: RecordingPresenter(), clock: clock,
                                                           offSwitches: stages.offSwitches)
                let recorder = StageRecorder(declines: stages.declines)
                herald.delegate = recorder
                let decided = CheckStages.decide(
                    offSwitches: stages.offSwitches, feedURL: herald.configuration.feedURL, rules: herald.configuration.urlRules,
                    configuration: herald.configuration.check, state: { stages.state }, now: clock.now, force: stages.force,
                    shouldCheck: { recorder.heraldShouldCheck(herald) })
                XCTAssertEqual(decided, stages.decision, stages.name)
                recorder.pipeline.run { stages.force ? herald.checkNow() : herald.appLaunched() }
                XCTAssertEqual(recorder.decisions, [stages.decision], stages.name)
                XCTAssertEqual(recorder.pipeline.events.last, "finished", stages.name)
            }
        }
    }
}

/// Hears where a check left the stages before its plan, as `CheckStages.Decision`s, and passes
/// every event on to a `PipelineRecorder`, which runs the main context until the check is over.
@MainContext
private final class StageRecorder: HeraldDelegate {
    let declines: Bool
    let pipeline = PipelineRecorder(RecordingPresenter())
    var decisions: [CheckStages.Decision] = []

    init(declines: Bool) { self.declines = declines }

    func heraldShouldCheck(_ herald: Herald) -> Bool { !declines }

    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .checkSkipped(.muted(let mute)): decisions.append(.stop(.muted(mute)))
        case .checkSkipped(let reason): decisions.append(.skip(reason))
        case .checkFailed(.keyFile(let problem)): decisions.append(.stop(.keyFile(problem)))
        case .feedFetched: decisions.append(.fetch)
        default: break
        }
        pipeline.herald(herald, didReport: event)
    }
}
