import Foundation
import HeraldCore
import HeraldDesktop
import XCTest
@testable import Herald

/// What the agent takes from a call: the notification `Hold` describes, made safe as a check
/// makes its own text, which app ids and keys it refuses before touching any file, and how many
/// notifications it holds.
final class AgentTests: XCTestCase {
    func string(_ text: String) -> DBusValue { .variant(.init(.string(text))) }

    /// An environment whose data folder holds the desktop entry of org.example.App.
    func environmentWithTheAppsEntry() throws -> [String: String] {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("herald-agent-entry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("applications"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: data) }
        try "[Desktop Entry]\nType=Application\nName=Example\nExec=true\n".write(to: data.appendingPathComponent("applications/org.example.App.desktop"),
                                                                                 atomically: true, encoding: .utf8)
        return ["XDG_DATA_HOME": data.path, "XDG_DATA_DIRS": data.path]
    }

    func testAHeldNotificationIsHeldUntilAnsweredWithItsTextAsACheckMakesIt() throws {
        let notification = Agent.notification([
            "summary": string("S"), "body": string("B & C"), "app-name": string("Example"), "icon": string(""),
            "urgency": .variant(.init(.byte(2))), "desktop-entry": string("org.example.App"), "category": string("survey"),
            "actions": .variant(.init(.array([.tuple([.string("default"), .string("More")]), .tuple([.string("view"), .string("More")])]))),
        ], appID: "org.example.App", capabilities: ["actions", "body-markup"], environment: try environmentWithTheAppsEntry())
        XCTAssertEqual(notification.summary, "S")
        XCTAssertEqual(notification.body, "B &amp; C", "escaped for a server that reads markup")
        XCTAssertEqual(notification.appName, "Example")
        XCTAssertNil(notification.icon, "an empty icon is none")
        XCTAssertEqual(notification.urgency, .critical)
        XCTAssertEqual(notification.desktopEntry, "org.example.App", "the app's entry, installed")
        XCTAssertEqual(notification.category, .survey)
        XCTAssertEqual(notification.actions.map(\.id), ["default", "view"])
        XCTAssertEqual(notification.actions.map(\.label), ["More", "More"])
        XCTAssertEqual(notification.timeout, 0)
        XCTAssertEqual(Agent.notification(["body": string("B & C")], appID: "org.example.App", capabilities: ["actions"]).body, "B & C",
                       "plain for a server that reads none")
    }

    func testAHeldNotificationsMarkupBidiControlsAndLengthAreEscapedAndCappedAsTheChecksOwnText() {
        let long = String(repeating: "x", count: 10_000)
        let notification = Agent.notification([
            "summary": string("<b>Pay</b>\u{202E}\u{1B}[31m now\n" + long), "body": string("<a href=\"https://evil.example\">x</a>\u{2067}" + long),
            "app-name": string("Bank\u{200B}\u{7}"), "icon": string("/x/" + long), "desktop-entry": string("org.other.App"), "category": string("Promotion"),
            "actions": .variant(.init(.array([.tuple([.string("view"), .string("<i>Pay\u{202E}</i>")]), .tuple([.string("run"), .string("Run")]),
                                               .tuple([.string("view"), .string("Again")]), .tuple([.string("ignore"), .string("\u{200B}")])]))),
        ], appID: "org.example.App", capabilities: ["actions", "body-markup"], environment: ["XDG_DATA_HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"])
        XCTAssertEqual(notification.summary, NotificationText.summary("<b>Pay</b>[31m now " + long))
        XCTAssertEqual(notification.summary.unicodeScalars.count, NotificationText.summaryLimit)
        XCTAssertEqual(notification.body, NotificationText.body("<a href=\"https://evil.example\">x</a>" + long, markup: true))
        XCTAssertTrue(notification.body.hasPrefix("&lt;a href=&quot;https://evil.example&quot;&gt;x&lt;/a&gt;xxx"), notification.body)
        XCTAssertEqual(notification.appName, "Bank")
        XCTAssertNil(notification.icon, "an icon longer than a path is none")
        XCTAssertEqual(notification.desktopEntry, "org.herald.Agent", "the agent's (the app has no entry installed), whatever the caller says")
        XCTAssertNil(notification.category, "a category Herald does not know is none")
        XCTAssertEqual(notification.actions.map(\.id), ["view", "ignore"], "only a check's actions, each once")
        XCTAssertEqual(notification.actions.map(\.label), ["<i>Pay</i>", "ignore"])
    }

    func testAnAppIDThatIsNoFileNameOrAnEmptyKeyOrOneWithAControlCharacterIsRefused() {
        XCTAssertNil(Agent.refusal(appID: "org.example.App", key: "2026/01/01"))
        XCTAssertEqual(Agent.refusal(appID: "../x", key: "k"), "app id '../x' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)")
        XCTAssertEqual(Agent.refusal(appID: "org.example.App", key: ""), "the message key is empty")
        XCTAssertEqual(Agent.refusal(appID: "org.example.App", key: "a\0b"), FeedProblem.idRefusal("a\0b"))
        XCTAssertEqual(Agent.refusal(appID: "org.example.App", key: "a\u{1B}b"), FeedProblem.idRefusal("a\u{1B}b"))
        XCTAssertEqual(Agent.refusal(appID: "org.example\0App", key: "k"),
                       "app id 'org.example\0App' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)")
    }

    func testTheAgentHoldsAtMostTenNotificationsOfAnAppAndFiftyInAll() {
        let app = "org.example.App"
        XCTAssertNil(Agent.holdRefusal(appID: app, held: Array(repeating: app, count: 9)))
        XCTAssertEqual(Agent.holdRefusal(appID: app, held: Array(repeating: app, count: 10)),
                       "the agent holds 10 notifications of org.example.App already, as many as it holds of one app")
        XCTAssertNil(Agent.holdRefusal(appID: "org.example.Other", held: Array(repeating: app, count: 10)))
        XCTAssertEqual(Agent.holdRefusal(appID: "org.example.Other", held: (0..<50).map { "org.example.App\($0)" }),
                       "the agent holds 50 notifications already, as many as it holds of every app")
    }
}
