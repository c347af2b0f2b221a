import HeraldDesktop
import XCTest

/// A click's activation reaches the application a link starts, so the browser is raised.
final class LinkOpenerTests: XCTestCase {
    func testAClicksActivationTokenAndStartupIDBecomeTheLaunchedApplicationsVariables() {
        XCTAssertEqual(LinkOpener.launchEnvironment(platformData: ["activation-token": "wayland-1", "desktop-startup-id": "x11-2", "other": "3"]),
                       ["XDG_ACTIVATION_TOKEN": "wayland-1", "DESKTOP_STARTUP_ID": "x11-2"])
        XCTAssertEqual(LinkOpener.launchEnvironment(platformData: ["desktop-startup-id": "x11-2"]), ["DESKTOP_STARTUP_ID": "x11-2"])
        XCTAssertEqual(LinkOpener.launchEnvironment(platformData: [:]), [:])
    }

    func testAnEmptyTokenOrOneWithAControlCharacterIsNotPassedOn() {
        XCTAssertEqual(LinkOpener.launchEnvironment(platformData: ["activation-token": "", "desktop-startup-id": "a\nb"]), [:])
    }
}
