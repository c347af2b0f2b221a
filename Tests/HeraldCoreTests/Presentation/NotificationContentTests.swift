import HeraldCore
import HeraldTestSupport
import XCTest

final class NotificationContentTests: XCTestCase {
    let withActions: Set<String> = ["actions", "body", "body-markup"]

    func testMessageWithLinkOffersViewRemindIgnoreAndTheBodyClickIsView() {
        let entry = FeedEntry(key: "a", title: "T", message: "M", actionURL: "https://e.com", actionButton: "Read")
        let content = NotificationContent.make(for: entry, labels: .english, capabilities: withActions, fallbackSummary: "App")
        XCTAssertEqual(content.actions.map(\.id), ["default", "view", "remind", "ignore"])
        XCTAssertEqual(content.actions.map(\.label), ["Read", "Read", "Remind Me Later", "Ignore"])
        XCTAssertEqual(NotificationContent.answer(forActionID: "default", entry: entry), .view)
    }

    func testMessageWithoutLinkOffersOnlyOKAndTheBodyClickIsOK() {
        let entry = FeedEntry(key: "a", title: "T", actionButton: "Ignored without a link")
        let content = NotificationContent.make(for: entry, labels: .english, capabilities: withActions, fallbackSummary: "App")
        XCTAssertEqual(content.actions, [NotificationAction(id: "default", label: "OK"), NotificationAction(id: "ok", label: "OK")])
        XCTAssertEqual(NotificationContent.answer(forActionID: "default", entry: entry), .ok)
    }

    /// A notification held for a check that has gone knows only whether it offers view.
    func testTheBodyClickWithoutTheEntryIsViewWithAnActionURLAndOKWithout() {
        XCTAssertEqual(NotificationContent.answer(forActionID: "default", hasActionURL: true), .view)
        XCTAssertEqual(NotificationContent.answer(forActionID: "default", hasActionURL: false), .ok)
        XCTAssertEqual(NotificationContent.answer(forActionID: "remind", hasActionURL: true), .remind)
        XCTAssertNil(NotificationContent.answer(forActionID: "open", hasActionURL: true))
    }

    func testViewLabelDefaultsToMoreInfo() {
        let entry = FeedEntry(key: "a", actionURL: "https://e.com")
        let content = NotificationContent.make(for: entry, labels: .english, capabilities: withActions, fallbackSummary: "App")
        XCTAssertEqual(content.actions[1].label, "More Info")
    }

    func testEmptyRemindLabelHidesTheRemindButton() {
        var labels = Labels.english
        labels.remind = ""
        let content = NotificationContent.make(for: FeedEntry(key: "a", actionURL: "https://e.com"), labels: labels,
                                               capabilities: withActions, fallbackSummary: "App")
        XCTAssertEqual(content.actions.map(\.id), ["default", "view", "ignore"])
    }

    /// The ids go over D-Bus and come back in ActionInvoked; a server, a script reading
    /// `--json` and earlier state all see these exact strings (DESIGN.md D9).
    func testActionIDsOnTheWireAreViewRemindIgnoreOkAndDefault() {
        let linked = FeedEntry(key: "a", actionURL: "https://e.com")
        let plain = FeedEntry(key: "b")
        let withLink = NotificationContent.make(for: linked, labels: .english, capabilities: withActions, fallbackSummary: "App")
        let withoutLink = NotificationContent.make(for: plain, labels: .english, capabilities: withActions, fallbackSummary: "App")
        XCTAssertEqual(withLink.actions.map(\.id), ["default", "view", "remind", "ignore"])
        XCTAssertEqual(withoutLink.actions.map(\.id), ["default", "ok"])
        XCTAssertEqual(NotificationContent.answer(forActionID: "view", entry: linked), .view)
        XCTAssertEqual(NotificationContent.answer(forActionID: "remind", entry: linked), .remind)
        XCTAssertEqual(NotificationContent.answer(forActionID: "ignore", entry: linked), .ignore)
        XCTAssertEqual(NotificationContent.answer(forActionID: "ok", entry: plain), .ok)
        XCTAssertEqual(NotificationContent.answer(forActionID: "default", entry: linked), .view)
        XCTAssertEqual(NotificationContent.answer(forActionID: "default", entry: plain), .ok)
        XCTAssertNil(NotificationContent.answer(forActionID: "1", entry: linked), "never a position")
    }

    func testServerWithoutActionsGetsTheLinkInTheText() {
        let entry = FeedEntry(key: "a", title: "T", message: "M", actionURL: "https://e.com/?a&b")
        let hyperlinks = NotificationContent.make(for: entry, labels: .english, capabilities: ["body", "body-markup", "body-hyperlinks"], fallbackSummary: "App")
        XCTAssertFalse(hyperlinks.isInteractive)
        XCTAssertEqual(hyperlinks.body, "M\n<a href=\"https://e.com/?a&amp;b\">https://e.com/?a&amp;b</a>")
        let plain = NotificationContent.make(for: entry, labels: .english, capabilities: ["body"], fallbackSummary: "App")
        XCTAssertEqual(plain.body, "M\nhttps://e.com/?a&b")
    }

    func testMissingTitleFallsBackToTheAppName() {
        let content = NotificationContent.make(for: FeedEntry(key: "a", message: "M"), labels: .english, capabilities: withActions, fallbackSummary: "Example")
        XCTAssertEqual(content.summary, "Example")
    }
}

final class ConfigurationDefaultsTests: XCTestCase {
    func testDefaultsMatchINotifyExceptTheCapOfThree() {
        let configuration = CheckConfiguration()
        XCTAssertEqual(configuration.checkPeriod, .seconds(12 * 3600), "12 hours")
        XCTAssertEqual(configuration.remindPeriod, .seconds(24 * 3600), "1 day")
        XCTAssertFalse(configuration.showOldestFirst)
        XCTAssertFalse(configuration.showOnFirstLaunch)
        XCTAssertFalse(configuration.debug)
        XCTAssertEqual(configuration.maxNotificationsPerCheck, 3)
        XCTAssertNil(configuration.appVersion)
    }

    /// A body for a server that reads markup escapes the five XML-special characters as the
    /// named entities GNOME keeps, and nothing else.
    func testAMarkupBodyEscapesTheFiveCharactersAsNamedEntities() {
        XCTAssertEqual(NotificationText.body(#"Fish & <chips> "q" 'a' é"#, markup: true),
                       "Fish &amp; &lt;chips&gt; &quot;q&quot; &apos;a&apos; é")
        XCTAssertEqual(NotificationText.body(#"Fish & <chips> "q" 'a' é"#, markup: false), #"Fish & <chips> "q" 'a' é"#)
    }
}
