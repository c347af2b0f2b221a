import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// The one order of a check's stages before its plan: off switches → gate → the app's word →
/// feed (DESIGN.md, "How a check flows"), as `CheckStages.decide` answers for
/// `Herald.reasonNotToCheck()` and a check follows.
final class CheckStagesTests: XCTestCase {
    let clock = TestClock()
    let feedURL = "https://example.com/feed.plist"
    let mute = Mute(by: .user, scope: .app, file: "/home/u/.config/herald/herald.conf")

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "/etc/xdg/herald/herald.conf cannot be read: permission denied" }
    }

    /// The state after a successful check a quarter of a day ago (the check period is half a day).
    var checkedRecently: HeraldState {
        var state = HeraldState()
        state.ignored = []
        state.lastChecked = clock.after(days: -0.25)
        return state
    }

    /// The state after the first launch, with no check since.
    var pastFirstLaunch: HeraldState {
        var state = HeraldState()
        state.ignored = []
        return state
    }

    /// What the stages decide, and which stages were asked, in order.
    func decide(_ offSwitches: OffSwitchDecision, state: HeraldState, force: Bool = false, shouldCheck: Bool? = true)
        -> (CheckStages.Decision, [String]) {
        var asked: [String] = []
        let decision = CheckStages.decide(
            offSwitches: { () throws(Unreadable) in asked.append("off switches"); return offSwitches }, feedURL: feedURL, rules: URLRules(),
            configuration: CheckConfiguration(), state: { asked.append("state"); return state }, now: clock.now, force: force,
            shouldCheck: { asked.append("app"); return shouldCheck })
        return (decision, asked)
    }

    func testAMuteStopsTheCheckBeforeTheStateOrTheAppIsAsked() {
        let (decision, asked) = decide(OffSwitchDecision(mute: mute), state: HeraldState())
        XCTAssertEqual(decision, .stop(.muted(mute)))
        XCTAssertEqual(asked, ["off switches"])
    }

    func testAKeyFileThatCannotBeReadStopsTheCheck() {
        var asked: [String] = []
        let decision = CheckStages.decide(
            offSwitches: { () throws(Unreadable) -> OffSwitchDecision in throw Unreadable() }, feedURL: feedURL, rules: URLRules(),
            configuration: CheckConfiguration(), state: { asked.append("state"); return HeraldState() }, now: clock.now, force: false,
            shouldCheck: { asked.append("app"); return true })
        XCTAssertEqual(decision, .stop(.keyFile("/etc/xdg/herald/herald.conf cannot be read: permission denied")))
        XCTAssertEqual(asked, [])
    }

    func testAMirrorTheURLRulesRefuseStopsTheCheckAndItsOwnFeedIsNotFetchedEither() {
        let mirror = FeedMirror(url: "http://mirror.example.com/feed.plist", file: "/etc/xdg/herald/herald.conf")
        XCTAssertEqual(CheckStages.offSwitches({ () throws(Unreadable) in OffSwitchDecision(mirror: mirror) }, feedURL: feedURL, rules: URLRules()),
                       .stop(.keyFile("the feed URL http://mirror.example.com/feed.plist of /etc/xdg/herald/herald.conf is refused: "
                                      + "plain http is refused for feeds outside this machine (use https, or allow http)")))
    }

    func testTheGateDecidesBeforeTheAppIsAsked() {
        let (decision, asked) = decide(.none, state: checkedRecently)
        XCTAssertEqual(decision, .skip(.checkPeriod(nextCheck: clock.after(days: 0.25))))
        XCTAssertEqual(asked, ["off switches", "state"])
    }

    func testTheAppIsAskedLastAndItsNoSkipsTheFeed() {
        let (decision, asked) = decide(.none, state: pastFirstLaunch, shouldCheck: false)
        XCTAssertEqual(decision, .skip(.delegateDeclined))
        XCTAssertEqual(asked, ["off switches", "state", "app"])
    }

    func testAForcedCheckPassesTheGateAndDoesNotAskTheAppButAMuteStillStopsIt() {
        let (decision, asked) = decide(.none, state: checkedRecently, force: true, shouldCheck: false)
        XCTAssertEqual(decision, .fetch)
        XCTAssertEqual(asked, ["off switches", "state"])
        XCTAssertEqual(decide(OffSwitchDecision(mute: mute), state: checkedRecently, force: true).0, .stop(.muted(mute)))
    }

    func testADueCheckWithoutAnAppToAskFetches() {
        XCTAssertEqual(decide(.none, state: pastFirstLaunch, shouldCheck: nil).0, .fetch)
        XCTAssertEqual(decide(.none, state: HeraldState()).0, .skip(.firstLaunch))
    }
}
