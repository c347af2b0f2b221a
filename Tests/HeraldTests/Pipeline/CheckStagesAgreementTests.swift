import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTesting
import XCTest

/// A launch check stops, skips or fetches as `CheckStages.decide` says for the same inputs: the
/// check goes through the stages in its own sequence (a snapshot first, the lock when the gate
/// changes the state), `reasonNotToCheck()` and `herald check --explain` through `decide`, and
/// the two must not part.
final class CheckStagesAgreementTests: XCTestCase {
    func testALaunchCheckStopsSkipsOrFetchesAsTheStagesDecideForTheSameInputs() throws {
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
                         declines: Bool, decision: CheckStages.Decision)] = [
                ("muted", CheckPipelineTests.launched, { .init(mute: mute) }, false, .stop(.muted(mute))),
                ("unreadable key file", CheckPipelineTests.launched, unreadable, false, .stop(.keyFile("\(conf): Permission denied"))),
                ("refused mirror", CheckPipelineTests.launched, { .init(mirror: FeedMirror(url: "http://mirror.example.com/feed.plist", file: conf)) },
                 false,
                 .stop(.keyFile("the feed URL http://mirror.example.com/feed.plist of \(conf) is refused: "
                                + "plain http is refused for feeds outside this machine (use https, or allow http)"))),
                ("muted and declined", CheckPipelineTests.launched, { .init(mute: mute) }, true, .stop(.muted(mute))),
                ("first launch", HeraldState(), { .none }, false, .skip(.firstLaunch)),
                ("first launch and declined", HeraldState(), { .none }, true, .skip(.firstLaunch)),
                ("checked recently", checkedRecently, { .none }, false, .skip(.checkPeriod(nextCheck: clock.now.addingTimeInterval(0.5 * 86_400 - 60)))),
                ("checked in the future", checkedInTheFuture, { .none }, false, .skip(.checkPeriod(nextCheck: clock.now.addingTimeInterval(0.5 * 86_400)))),
                ("failed recently", failedRecently, { .none }, false, .skip(.failureBackoff(nextAttempt: clock.now.addingTimeInterval(15 * 60 - 60)))),
                ("declined", CheckPipelineTests.launched, { .none }, true, .skip(.delegateDeclined)),
                ("due", CheckPipelineTests.launched, { .none }, false, .fetch),
            ]
            for stages in cases {
                let store = InMemoryStateStore(stages.state)
                let herald = try CheckPipelineTests.herald(feed, store: store, presenter: RecordingPresenter(), clock: clock,
                                                           offSwitches: stages.offSwitches)
                let recorder = StageRecorder(declines: stages.declines)
                herald.delegate = recorder
                let decided = CheckStages.decide(
                    offSwitches: stages.offSwitches, feedURL: herald.configuration.feedURL, rules: herald.configuration.urlRules,
                    configuration: herald.configuration.check, state: { stages.state }, now: clock.now, force: false,
                    shouldCheck: { recorder.heraldShouldCheck(herald) })
                XCTAssertEqual(decided, stages.decision, stages.name)
                recorder.pipeline.run { herald.appLaunched() }
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
