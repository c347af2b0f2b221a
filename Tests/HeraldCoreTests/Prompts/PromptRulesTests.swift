import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

final class PromptsFileTests: XCTestCase {
    func decode(_ json: String) throws -> PromptsFile { try PromptsFile.decode(Data(json.utf8)) }

    func testDefaultsEntryAppliesToEveryPrompt() throws {
        let file = try decode(#"""
            {"defaults": {"usesUntilPrompt": 3, "cancelButton": "No thanks", "title": "Shared title"},
             "pro": {"message": "Go pro"},
             "rate": {"title": "Rate us", "usesUntilPrompt": 5}}
            """#)
        XCTAssertEqual(file.problems, [])
        let pro = try XCTUnwrap(file.prompts.first { $0.name == "pro" })
        XCTAssertEqual(pro.usesUntilPrompt, 3)
        XCTAssertEqual(pro.cancelButton, "No thanks")
        XCTAssertEqual(pro.title, "Shared title")
        let rate = try XCTUnwrap(file.prompts.first { $0.name == "rate" })
        XCTAssertEqual(rate.usesUntilPrompt, 5)
        XCTAssertEqual(rate.title, "Rate us")
        XCTAssertFalse(file.prompts.contains { $0.name == "defaults" }, "the defaults entry is not a prompt")
    }

    func testBuiltInDefaultsMatchIPrompt() throws {
        let prompt = Prompt(name: "p", settings: PromptSettings(title: "T"))
        XCTAssertEqual(prompt.usesUntilPrompt, 10)
        XCTAssertEqual(prompt.daysUntilPrompt, .seconds(10 * 86_400), "10 days")
        XCTAssertEqual(prompt.remindPeriod, .seconds(86_400), "1 day")
        XCTAssertFalse(prompt.recurring)
        XCTAssertFalse(prompt.previewMode)
        XCTAssertNil(prompt.cancelButton)
    }

    func testNumbersMayBeStringsIntegersOrReals() throws {
        let file = try decode(#"{"p": {"title": "T", "usesUntilPrompt": "4", "daysUntilPrompt": 2, "remindPeriod": 0.5, "recurring": "YES"}}"#)
        let prompt = try XCTUnwrap(file.prompts.first)
        XCTAssertEqual(prompt.usesUntilPrompt, 4)
        XCTAssertEqual(prompt.daysUntilPrompt, .seconds(2 * 86_400), "a file's periods are days")
        XCTAssertEqual(prompt.remindPeriod, .seconds(12 * 3600), "fractional remind periods are kept, not truncated")
        XCTAssertTrue(prompt.recurring)
        let xml = #"<?xml version="1.0"?><plist version="1.0"><dict><key>p</key><dict><key>Title</key><string>T</string><key>usesUntilPrompt</key><real>7</real><key>previewMode</key><true/></dict></dict></plist>"#
        let plist = try PromptsFile.decode(Data(xml.utf8))
        XCTAssertEqual(plist.prompts.first?.usesUntilPrompt, 7)
        XCTAssertEqual(plist.prompts.first?.previewMode, true)
    }

    func testKeysWorkWithEitherFirstLetterCaseAndAsPropertyNames() throws {
        let file = try decode(#"{"p": {"Title": "T", "Message": "M", "actionButtonLabel": "Go", "RemindButton": "Later", "ActionURL": "https://e.com"}}"#)
        let prompt = try XCTUnwrap(file.prompts.first)
        XCTAssertEqual(prompt.message, "M")
        XCTAssertEqual(prompt.actionButton, "Go")
        XCTAssertEqual(prompt.remindButton, "Later")
        XCTAssertEqual(prompt.actionURL, "https://e.com", "ActionURL with a capital A is a URL, not a raw string")
    }

    func testStateKeysCannotBeSetFromTheFile() throws {
        let file = try decode(#"{"p": {"title": "T", "usesCount": 99, "viewed": true, "firstUsed": "2020-01-01"}}"#)
        XCTAssertEqual(file.prompts.count, 1, "the prompt still works")
        XCTAssertEqual(Set(file.problems.compactMap(\.key)), ["usesCount", "viewed", "firstUsed"])
        XCTAssertTrue(file.problems.allSatisfy { !$0.isFatal && $0.reason.contains("state") })
    }

    func testBadPromptsAreReportedByNameAndKeyAndTheOthersStillWork() throws {
        let file = try decode(#"""
            {"wrongtype": {"title": "T", "usesUntilPrompt": "many"},
             "untitled": {"message": "no title"},
             "notadict": 3,
             "unknown": {"title": "T", "colour": "red"},
             "good": {"title": "Fine"}}
            """#)
        XCTAssertEqual(file.prompts.map(\.name), ["good", "unknown"])
        let fatal = file.problems.filter(\.isFatal).map { "\($0.prompt)/\($0.key ?? "-")" }
        XCTAssertEqual(Set(fatal), ["wrongtype/usesUntilPrompt", "untitled/title", "notadict/-"])
        XCTAssertEqual(file.problems.first { $0.prompt == "unknown" }?.key, "colour")
        XCTAssertTrue(file.problems.first { $0.prompt == "wrongtype" }!.description.contains("prompt 'wrongtype', key 'usesUntilPrompt'"))
    }

    func testRootThatIsNotADictionaryIsAnError() {
        XCTAssertThrowsError(try decode("[1, 2]")) { XCTAssertEqual($0 as? FeedError, .rootNotDictionary(found: "array")) }
    }

    func testDangerousActionURLIsRefused() throws {
        let file = try decode(#"{"p": {"title": "T", "actionURL": "javascript:alert(1)"}}"#)
        XCTAssertEqual(file.prompts, [])
        XCTAssertEqual(file.problems.first?.key, "actionURL")
    }
}

final class PromptPolicyTests: XCTestCase {
    let clock = TestClock()
    func prompt(_ settings: PromptSettings) -> Prompt { Prompt(name: "p", settings: settings) }

    func testEachLaunchCountsOneUsePerPromptNameHoweverOftenRegistered() {
        let pro = prompt(PromptSettings(title: "T"))
        var states = PromptPolicy.countLaunch(of: [pro, pro], in: [:], now: clock.now)
        XCTAssertEqual(states["p"]?.usesCount, 1)
        XCTAssertEqual(states["p"]?.firstUsed, clock.now)
        states = PromptPolicy.countLaunch(of: [pro], in: states, now: clock.after(days: 1))
        XCTAssertEqual(states["p"]?.usesCount, 2)
        XCTAssertEqual(states["p"]?.firstUsed, clock.now, "firstUsed is the first registration")
    }

    func testDueOnTheNthUseCountingTheCurrentLaunch() {
        let pro = prompt(PromptSettings(title: "T", usesUntilPrompt: 3, daysUntilPrompt: .zero))
        var states: [String: PromptState] = [:]
        var decisions: [String] = []
        for _ in 1...3 {
            states = PromptPolicy.countLaunch(of: [pro], in: states, now: clock.now)
            decisions.append(PromptPolicy.decide(pro, state: states["p"]!, now: clock.now).name)
        }
        XCTAssertEqual(decisions, ["uses", "uses", "due"])
        XCTAssertEqual(PromptPolicy.decide(pro, state: PromptState(firstUsed: clock.now, usesCount: 1), now: clock.now).description, "waits: 1 of 3 uses")
    }

    func testDaysAreCountedFromTheFirstUseStrictly() {
        let pro = prompt(PromptSettings(title: "T", usesUntilPrompt: 0, daysUntilPrompt: .days(2.5)))
        let state = PromptState(firstUsed: clock.now, usesCount: 1)
        XCTAssertEqual(PromptPolicy.decide(pro, state: state, now: clock.after(days: 2.4)).name, "days")
        XCTAssertEqual(PromptPolicy.decide(pro, state: state, now: clock.after(days: 2.5)).name, "due")
    }

    func testRemindWaitsAFractionalRemindPeriod() {
        let pro = prompt(PromptSettings(title: "T", usesUntilPrompt: 0, daysUntilPrompt: .zero, remindPeriod: .days(0.5)))
        let state = PromptPolicy.apply(.remind, to: pro, state: PromptState(firstUsed: clock.now, usesCount: 1), now: clock.now)
        let decision = PromptPolicy.decide(pro, state: state, now: clock.after(days: 0.25))
        XCTAssertEqual(decision.description, "waits: reminded 6 h ago, remind period 0.5 days")
        XCTAssertEqual(PromptPolicy.decide(pro, state: state, now: clock.after(days: 0.5)).name, "due")
    }

    func testCancelMeansNeverAgainEvenWhenRecurring() {
        let pro = prompt(PromptSettings(title: "T", usesUntilPrompt: 0, daysUntilPrompt: .zero, recurring: true))
        let state = PromptPolicy.apply(.cancel, to: pro, state: PromptState(firstUsed: clock.now, usesCount: 1), now: clock.now)
        XCTAssertTrue(state.cancelled)
        XCTAssertEqual(PromptPolicy.decide(pro, state: state, now: clock.after(days: 100)), .cancelled)
    }

    func testActionIsDoneUnlessRecurringThenItWaitsLikeAReminder() {
        let once = prompt(PromptSettings(title: "T", usesUntilPrompt: 0, daysUntilPrompt: .zero))
        let done = PromptPolicy.apply(.action, to: once, state: PromptState(firstUsed: clock.now, usesCount: 1), now: clock.now)
        XCTAssertEqual(PromptPolicy.decide(once, state: done, now: clock.after(days: 100)), .viewed)
        let recurring = prompt(PromptSettings(title: "T", usesUntilPrompt: 0, daysUntilPrompt: .zero, remindPeriod: .days(2), recurring: true))
        let again = PromptPolicy.apply(.action, to: recurring, state: PromptState(firstUsed: clock.now, usesCount: 1), now: clock.now)
        XCTAssertFalse(again.viewed)
        XCTAssertEqual(PromptPolicy.decide(recurring, state: again, now: clock.after(days: 1)).name, "reminded")
        XCTAssertEqual(PromptPolicy.decide(recurring, state: again, now: clock.after(days: 2)).name, "due")
    }

    func testPreviewModeShowsWhateverTheState() {
        let preview = prompt(PromptSettings(title: "T", previewMode: true))
        XCTAssertEqual(PromptPolicy.decide(preview, state: PromptState(cancelled: true), now: clock.now), .show(preview: true))
    }

    func testButtonsAreMappedByIdentityNotPosition() {
        let noLabels = prompt(PromptSettings(title: "T", actionButton: "", remindButton: ""))
        let content = PromptPolicy.content(of: noLabels, labels: .english, capabilities: ["actions"])
        XCTAssertEqual(content.actions.map(\.id), ["default", "action"], "an empty action label falls back to OK; empty remind hides remind")
        XCTAssertEqual(content.actions.map(\.label), ["OK", "OK"])
        XCTAssertEqual(PromptPolicy.button(forActionID: "action"), .action)
        XCTAssertEqual(PromptPolicy.button(forActionID: "remind"), .remind)
        XCTAssertEqual(PromptPolicy.button(forActionID: "cancel"), .cancel)
        XCTAssertEqual(PromptPolicy.button(forActionID: "default"), .action)
        XCTAssertNil(PromptPolicy.button(forActionID: "0"))
    }

    func testCancelButtonShowsOnlyWhenLabelled() {
        let labelled = prompt(PromptSettings(title: "T", cancelButton: "Never"))
        XCTAssertEqual(PromptPolicy.content(of: labelled, labels: .english, capabilities: ["actions"]).actions.map(\.id),
                       ["default", "action", "remind", "cancel"])
        let german = PromptPolicy.content(of: prompt(PromptSettings(title: "T")), labels: Labels.translations["de"]!, capabilities: ["actions"])
        XCTAssertEqual(german.actions.map(\.label), ["OK", "OK", "Mich später erinnern"])
    }

    func testDatesLeftInTheFutureByAWrongClockCountAsNow() {
        let due = prompt(PromptSettings(title: "T", usesUntilPrompt: 1, daysUntilPrompt: .days(1), remindPeriod: .days(1)))
        let ahead = PromptState(firstUsed: clock.after(days: 1000), lastReminded: clock.after(days: 1000), usesCount: 5)
        XCTAssertEqual(PromptPolicy.decide(due, state: ahead, now: clock.now), .waitingForDays(elapsed: .zero, needed: .days(1)))
        let counted = PromptPolicy.countLaunch(of: [due], in: ["p": ahead], now: clock.now)["p"]
        XCTAssertEqual(counted?.firstUsed, clock.now)
        XCTAssertEqual(counted?.lastReminded, clock.now)
        XCTAssertEqual(PromptPolicy.decide(due, state: counted!, now: clock.after(days: 1)), .show(preview: false),
                       "one period after the clock was put right, not a thousand days")
    }
}
