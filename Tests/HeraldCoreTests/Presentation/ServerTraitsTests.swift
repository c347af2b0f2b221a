import HeraldCore
import XCTest

/// DESIGN.md D24: every server shows a message's text as typed and its buttons once each.
final class ServerTraitsTests: XCTestCase {
    private let link = FeedEntry(key: "a", title: "Don't miss it", message: "Tom's <b>bold</b>", actionURL: "https://e.com", actionButton: "What's new")
    private let plain = FeedEntry(key: "b", title: "Plain", message: "Just OK")

    private func content(_ entry: FeedEntry, announced: Set<String>, server: String) -> NotificationContent {
        NotificationContent.make(for: entry, labels: .english, capabilities: ServerTraits.contentCapabilities(announced: announced, serverName: server),
                                 fallbackSummary: "App")
    }

    func testXfceGetsEachButtonOnceWithoutTheDefaultActionItWouldDrawAsAButton() {
        let announced: Set<String> = ["actions", "action-icons", "body", "body-hyperlinks", "body-markup", "icon-static"]
        XCTAssertEqual(content(link, announced: announced, server: "Xfce Notify Daemon").actions,
                       [NotificationAction(id: "view", label: "What's new"), NotificationAction(id: "remind", label: "Remind Me Later"),
                        NotificationAction(id: "ignore", label: "Ignore")])
        XCTAssertEqual(content(plain, announced: announced, server: "Xfce Notify Daemon").actions, [NotificationAction(id: "ok", label: "OK")])
    }

    func testServersThatTakeDefaultAsABodyClickKeepIt() {
        for server in ["GNOME Shell", "Plasma", "dunst", "Notification Daemon"] {
            XCTAssertEqual(content(link, announced: ["actions", "body", "body-markup"], server: server).actions.map(\.id),
                           ["default", "view", "remind", "ignore"], server)
        }
    }

    func testThroughThePortalTheBodyIsEscapedAndDefaultIsNotAButton() {
        // libnotify's own answer for the portal: no body-markup, although the server behind it reads markup.
        let shown = content(link, announced: ["actions", "body", "body-images", "icon-static"], server: "Portal Notification")
        XCTAssertEqual(shown.body, "Tom&apos;s &lt;b&gt;bold&lt;/b&gt;")
        XCTAssertEqual(shown.actions.map(\.id), ["view", "remind", "ignore"])
    }

    func testAPromptFollowsTheSameButtonRule() {
        let prompt = Prompt(name: "rate", settings: PromptSettings(title: "Rate us", message: "Please", actionButton: "Rate"))
        let capabilities = ServerTraits.contentCapabilities(announced: ["actions", "body"], serverName: "Xfce Notify Daemon")
        XCTAssertEqual(PromptPolicy.content(of: prompt, labels: .english, capabilities: capabilities).actions.map(\.id), ["action", "remind"])
    }

    func testOnlyThePortalRefusesAnAppName() {
        XCTAssertFalse(ServerTraits.acceptsAppName(serverName: "Portal Notification"))
        XCTAssertTrue(ServerTraits.acceptsAppName(serverName: "GNOME Shell"))
    }
}
