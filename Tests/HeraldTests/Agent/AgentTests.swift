import HeraldCore
import HeraldDesktop
import XCTest
@testable import Herald

/// What the agent takes from a call: the notification `Hold` describes, and which app ids and
/// keys it refuses before touching any file.
final class AgentTests: XCTestCase {
    func testHoldsNotificationIsHeldUntilAnsweredWithTheFieldsAsGiven() {
        let notification = Agent.notification([
            "summary": .variant(.init(.string("S"))), "body": .variant(.init(.string("B &amp; C"))),
            "app-name": .variant(.init(.string("Example"))), "icon": .variant(.init(.string(""))),
            "urgency": .variant(.init(.byte(2))), "desktop-entry": .variant(.init(.string("org.example.App"))),
            "actions": .variant(.init(.array([.tuple([.string("default"), .string("More")]), .tuple([.string("view"), .string("More")])]))),
        ])
        XCTAssertEqual(notification.summary, "S")
        XCTAssertEqual(notification.body, "B &amp; C")
        XCTAssertEqual(notification.appName, "Example")
        XCTAssertNil(notification.icon, "an empty icon is none")
        XCTAssertEqual(notification.urgency, .critical)
        XCTAssertEqual(notification.desktopEntry, "org.example.App")
        XCTAssertEqual(notification.actions.map(\.id), ["default", "view"])
        XCTAssertEqual(notification.actions.map(\.label), ["More", "More"])
        XCTAssertEqual(notification.timeout, 0)
    }

    func testAnAppIDThatIsNoFileNameOrAnEmptyKeyOrOneWithANULIsRefused() {
        XCTAssertNil(Agent.refusal(appID: "org.example.App", key: "2026/01/01"))
        XCTAssertEqual(Agent.refusal(appID: "../x", key: "k"), "app id '../x' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)")
        XCTAssertEqual(Agent.refusal(appID: "org.example.App", key: ""), "the message key is empty")
        XCTAssertEqual(Agent.refusal(appID: "org.example.App", key: "a\0b"), "the message key holds a NUL character")
        XCTAssertEqual(Agent.refusal(appID: "org.example\0App", key: "k"),
                       "app id 'org.example\0App' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)")
    }
}
