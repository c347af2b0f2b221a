import Foundation
import HeraldCore
import XCTest

/// `CheckPolicy.explain`: one verdict per message, with every reason a check can have, and
/// nothing drawn, claimed or stored.
final class CheckExplanationTests: XCTestCase {
    /// 1 January 2027, 00:00 UTC.
    let now = Date(timeIntervalSince1970: 1_798_761_600)
    let configuration = CheckConfiguration(appVersion: "2", audience: Audience(languages: ["de_DE", "de"], desktops: ["GNOME"]))

    func feed(_ json: String) throws -> Feed { try FeedDecoder.decode(Data(json.utf8)) }

    /// Every kind of message a check tells apart, keyed so that the display order is the key
    /// order, newest first.
    var everyReason: Feed {
        get throws {
            try feed("""
                {
                  "18": {"Title": {"en": "Shown", "de": "Gezeigt"}},
                  "17": {"Title": "Viewed"},
                  "16": {"Title": "Ignored"},
                  "15": {"Title": "Put off"},
                  "14": {"Title": "Newer app", "MinVersion": "3"},
                  "13": {"Title": "Later", "StartDate": "2999-01-01"},
                  "12": {"Title": "Over", "EndDate": "2001-01-01"},
                  "11": {"Title": "French", "Languages": ["fr"]},
                  "10": {"Title": "KDE", "Desktops": ["KDE"]},
                  "09": {"Title": "Soon", "StartDate": "soon"},
                  "08": {"Title": "Bad link", "ActionURL": "javascript:alert(1)"},
                  "07": {"Title": "Elsewhere"},
                  "06": {"Title": "Some installs", "Rollout": 20},
                  "05": {"Title": "Second"},
                  "04": {"Message": "Third, without a title"},
                  "03": {"Title": "Fourth"},
                  "02": {"Title": {"en": 3}}
                }
                """)
        }
    }

    /// Answers and a claim for `everyReason`, and a draw outside a 20 % rollout.
    var answered: HeraldState {
        var state = HeraldState()
        state.ignored = ["16"]
        state.viewed = ["17"]
        state.reminded = ["15": now.addingTimeInterval(-3600)]
        state.presenting = ["07": HeraldState.Claim(processID: 4242, check: "other", until: now.addingTimeInterval(3600))]
        state.rolloutDraw = 0.5
        return state
    }

    func testEveryMessageGetsItsVerdictInTheOrderACheckConsidersThem() throws {
        let feed = try everyReason
        let explained = CheckPolicy.explain(feed, state: answered, quiet: nil, in: PolicyContext(configuration: configuration, now: now, isLive: { _ in true }))
        // The moments the feed's dates stand for (an end date lasts its whole day).
        guard case .moment(let start)? = feed.entries["13"]?.startDate, case .moment(let end)? = feed.entries["12"]?.endDate else {
            return XCTFail("the dates do not decode")
        }
        XCTAssertEqual(explained.map(\.key), ["18", "17", "16", "15", "14", "13", "12", "11", "10", "09", "08", "07", "06", "05", "04", "03", "02"])
        XCTAssertEqual(explained.map(\.verdict), [
            .shows, .skipped(.viewed), .skipped(.ignored), .skipped(.remindLater(until: now.addingTimeInterval(86_400 - 3600))),
            .skipped(.belowMinVersion("3")), .skipped(.notStarted(until: start)),
            .skipped(.ended(end)), .skipped(.otherLanguage), .skipped(.otherDesktop),
            .skipped(.unreadableDate("StartDate")), .skipped(.refusedURL("the javascript: scheme is never opened")),
            .skipped(.shownElsewhere), .skipped(.outsideRollout(20)), .shows, .shows, .skipped(.overCap),
            .unusable(try XCTUnwrap(feed.problems.first { $0.key == "02" }).reason),
        ])
        XCTAssertEqual(explained.first?.title, "Gezeigt", "the title in the user's language")
        XCTAssertNil(explained.first { $0.key == "04" }?.title)
    }

    func testWhileTheDesktopAsksForQuietWhatWouldShowIsDeferred() throws {
        let explained = CheckPolicy.explain(try everyReason, state: answered, quiet: .doNotDisturb, in: PolicyContext(configuration: configuration, now: now, isLive: { _ in true }))
        let verdicts = Dictionary(uniqueKeysWithValues: explained.map { ($0.key, $0.verdict) })
        XCTAssertEqual(["18", "05", "04", "03"].map { verdicts[$0] }, [.deferred(.doNotDisturb), .deferred(.doNotDisturb), .deferred(.doNotDisturb), .skipped(.overCap)])
    }

    func testWithoutADrawARolloutIsExplainedAsNotDrawnYetAndNothingIsDrawn() throws {
        let feed = try feed(#"{"c": {"Title": "a fifth", "Rollout": 20}, "b": {"Title": "none", "Rollout": 0}, "a": {"Title": "all", "Rollout": 100}}"#)
        var state = HeraldState()
        state.ignored = []
        let explained = CheckPolicy.explain(feed, state: state, quiet: nil, in: PolicyContext(configuration: configuration, now: now))
        XCTAssertEqual(explained.map(\.verdict), [.rolloutNotDrawn(20), .skipped(.outsideRollout(0)), .shows])
        XCTAssertNil(state.rolloutDraw)
    }

    func testAClaimOfACheckThatNoLongerRunsHoldsNothingBack() throws {
        let explained = CheckPolicy.explain(try everyReason, state: answered, quiet: nil, in: PolicyContext(configuration: configuration, now: now, isLive: { _ in false }))
        XCTAssertEqual(explained.first { $0.key == "07" }?.verdict, .shows)
    }

    func testAHigherPriorityIsConsideredFirstAndTakesTheCap() throws {
        let feed = try feed(#"{"c": {"Title": "C"}, "b": {"Title": "B"}, "a": {"Title": "A", "Priority": 5}}"#)
        var limited = configuration
        limited.maxNotificationsPerCheck = 2
        let explained = CheckPolicy.explain(feed, state: answered, quiet: nil, in: PolicyContext(configuration: limited, now: now))
        XCTAssertEqual(explained.map(\.key), ["a", "c", "b"])
        XCTAssertEqual(explained.map(\.verdict), [.shows, .shows, .skipped(.overCap)])
    }

    func testAVerdictReadsAsTheDecisionTheSentenceAndTheReasonsName() {
        XCTAssertEqual(MessageVerdict.shows.description, "shows")
        XCTAssertEqual(MessageVerdict.skipped(.viewed).description, "not shown: already viewed (viewed)")
        XCTAssertEqual(MessageVerdict.deferred(.serverInhibited).description,
                       "deferred: the notification server holds notifications back (Inhibited) (server-inhibited)")
        XCTAssertEqual(MessageVerdict.rolloutNotDrawn(12.5).description,
                       "not shown: Rollout 12.5 %: this install has not drawn its place yet (the next check does) (rollout-not-drawn)")
    }

    // MARK: - Prompts

    func prompt(_ name: String, uses: Int = 1, days: Double = 0, preview: Bool = false) -> Prompt {
        Prompt(name: name, settings: PromptSettings(title: name, usesUntilPrompt: uses, daysUntilPrompt: .days(days), remindPeriod: .days(1), previewMode: preview))
    }

    /// A prompt of each kind a launch check tells apart, and the state that makes them so.
    var everyPromptDecision: (prompts: [Prompt], state: HeraldState) {
        var state = HeraldState()
        let weekAgo = now.addingTimeInterval(-7 * 86_400)
        state.prompts = [
            "cancelled": PromptState(firstUsed: weekAgo, usesCount: 20, cancelled: true),
            "viewed": PromptState(firstUsed: weekAgo, usesCount: 20, viewed: true),
            "reminded": PromptState(firstUsed: weekAgo, lastReminded: now.addingTimeInterval(-3600), usesCount: 20),
            "elsewhere": PromptState(firstUsed: weekAgo, usesCount: 20),
            "lapsed": PromptState(firstUsed: weekAgo, usesCount: 20),
            "third-use": PromptState(firstUsed: weekAgo, usesCount: 2),
        ]
        state.presentingPrompts = [
            "elsewhere": HeraldState.Claim(processID: 4242, check: "other", until: now.addingTimeInterval(3600)),
            "lapsed": HeraldState.Claim(processID: 4242, check: "other", until: now.addingTimeInterval(-1)),
        ]
        let prompts = [prompt("third-use", uses: 3), prompt("uses", uses: 5), prompt("days", days: 3), prompt("cancelled"), prompt("viewed"),
                       prompt("reminded"), prompt("elsewhere"), prompt("lapsed"), prompt("preview", uses: 99, preview: true)]
        return (prompts, state)
    }

    func testThisLaunchIsCountedThenEachPromptGetsItsDecisionInNameOrder() {
        let (prompts, state) = everyPromptDecision
        let explained = CheckPolicy.explain(prompts, state: state, quiet: nil, in: PolicyContext(configuration: CheckConfiguration(), now: now, isLive: { _ in true }))
        XCTAssertEqual(explained.map(\.name), ["cancelled", "days", "elsewhere", "lapsed", "preview", "reminded", "third-use", "uses", "viewed"])
        XCTAssertEqual(explained.map(\.decision), [
            .cancelled, .waitingForDays(elapsed: .zero, needed: .days(3)), .shownElsewhere, .show(preview: false), .show(preview: true),
            .reminded(hoursAgo: 1, remindPeriod: .days(1)), .show(preview: false), .waitingForUses(count: 1, needed: 5), .viewed,
        ], "the third use is this launch's; a prompt first counted now has one use and no days")
        XCTAssertEqual(explained.map(\.verdict), ["done", "waits", "waits", "shows", "shows", "waits", "shows", "waits", "done"])
    }

    func testWhileTheDesktopAsksForQuietOnlyWhatWouldShowIsDeferred() {
        let (prompts, state) = everyPromptDecision
        let explained = CheckPolicy.explain(prompts, state: state, quiet: .serverInhibited, in: PolicyContext(configuration: CheckConfiguration(), now: now, isLive: { _ in true }))
        XCTAssertEqual(explained.filter { $0.deferredFor != nil }.map(\.name), ["lapsed", "preview", "third-use"])
        XCTAssertEqual(explained.map(\.verdict), ["done", "waits", "waits", "deferred", "deferred", "waits", "deferred", "waits", "done"])
        XCTAssertEqual(explained.first { $0.name == "third-use" }?.reason, "server-inhibited")
    }

    func testAPromptClaimOfACheckThatNoLongerRunsHoldsNothingBack() {
        let (prompts, state) = everyPromptDecision
        let explained = CheckPolicy.explain(prompts, state: state, quiet: nil, in: PolicyContext(configuration: CheckConfiguration(), now: now, isLive: { _ in false }))
        XCTAssertEqual(explained.first { $0.name == "elsewhere" }?.decision, .show(preview: false))
    }

    func testAPromptExplanationReadsAsItsDecisionOrTheQuietThatDefersIt() {
        XCTAssertEqual(PromptExplanation(name: "p", decision: .waitingForUses(count: 3, needed: 10)).description, "waits: 3 of 10 uses")
        XCTAssertEqual(PromptExplanation(name: "p", decision: .show(preview: false), deferredFor: .doNotDisturb).description,
                       "is deferred: do not disturb is on (org.gnome.desktop.notifications show-banners is false) (do-not-disturb)")
        XCTAssertEqual(PromptExplanation(name: "p", decision: .cancelled).reason, "cancelled")
    }
}
