import CDesktopLibraries
import Foundation
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// The action Herald adds to the app's own `GApplication` (`app.herald-answer`): it is there
/// while its owner keeps it, its handler's box is released once when it goes, and an owner that
/// goes does not take away the action another has since added under the same name; an action
/// that outlives its application (an app's `Herald` released after its `GApplication`) lets go
/// without touching it.
final class ApplicationActionTests: XCTestCase {
    override func setUp() {
        super.setUp()
        _ = InProcessDesktop.session
    }

    func testTheActionIsTheApplicationsWhileKeptAndItsHandlerIsReleasedWhenItGoes() throws {
        try MainContext.assumeIsolated {
            try DesktopLibrary.gio.load()
            let application = try XCTUnwrap(g_application_new("org.example.ActionLifetime", G_APPLICATION_DEFAULT_FLAGS))
            defer { g_object_unref(UnsafeMutableRawPointer(application)) }
            XCTAssertEqual(ApplicationAction.defaultApplicationID, "org.example.ActionLifetime")
            let map = OpaquePointer(application)
            weak var firstCanary: Canary?
            weak var secondCanary: Canary?
            var second: ApplicationAction?
            do {
                let (one, two) = (Canary(), Canary())
                (firstCanary, secondCanary) = (one, two)
                var first = ApplicationAction(name: "herald-answer", parameterType: "(sss)") { _ in withExtendedLifetime(one) {} }
                XCTAssertNotNil(first)
                XCTAssertNotNil(g_action_map_lookup_action(map, "herald-answer"))
                second = ApplicationAction(name: "herald-answer", parameterType: "(sss)") { _ in withExtendedLifetime(two) {} }
                first = nil
                _ = first
            }
            XCTAssertNil(firstCanary, "the replaced action's handler is released")
            XCTAssertNotNil(g_action_map_lookup_action(map, "herald-answer"), "the first owner leaves the second's action")
            second = nil
            _ = second
            XCTAssertNil(secondCanary)
            XCTAssertNil(g_action_map_lookup_action(map, "herald-answer"))
        }
    }

    func testAnActionThatOutlivesItsApplicationLetsGoWithoutTouchingIt() throws {
        try MainContext.assumeIsolated {
            try DesktopLibrary.gio.load()
            let application = try XCTUnwrap(g_application_new("org.example.ActionOutlives", G_APPLICATION_DEFAULT_FLAGS))
            weak var canary: Canary?
            var action: ApplicationAction?
            do {
                let kept = Canary()
                canary = kept
                action = ApplicationAction(name: "herald-answer", parameterType: "(sss)") { _ in withExtendedLifetime(kept) {} }
            }
            XCTAssertNotNil(action)
            g_object_unref(UnsafeMutableRawPointer(application))
            action = nil
            _ = action
            XCTAssertNil(canary, "the handler is released with the action")
        }
    }
}
