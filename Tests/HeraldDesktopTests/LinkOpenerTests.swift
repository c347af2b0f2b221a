@testable import HeraldDesktop
import XCTest

/// A click's activation reaches the application a link starts, so the browser is raised; the
/// checks of one run ask GIO about each scheme once.
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

    func testEachSchemeIsAskedOnceForARunAndItsAnswerKept() {
        let schemes = SchemeHandlers()
        var asked: [String] = []
        XCTAssertTrue(schemes.answer(for: "https") { asked.append("https"); return true })
        XCTAssertTrue(schemes.answer(for: "https") { asked.append("https"); return false })
        XCTAssertFalse(schemes.answer(for: "x-none") { asked.append("x-none"); return false })
        XCTAssertFalse(schemes.answer(for: "x-none") { asked.append("x-none"); return true })
        XCTAssertEqual(asked, ["https", "x-none"])
    }

    func testAnOpenerOfARunTakesTheKeptAnswerAndStillJudgesEachLink() throws {
        try XCTSkipIf(Sandbox.isFlatpak, "inside a sandbox every link with a scheme is openable through the portal")
        let schemes = SchemeHandlers()
        _ = schemes.answer(for: "x-herald-kept") { true }
        _ = schemes.answer(for: "https") { false }
        let opener = LinkOpener(rememberingIn: schemes)
        XCTAssertTrue(opener.canOpen("x-herald-kept:anything"), "no application has the scheme, but the run's answer is kept")
        XCTAssertFalse(opener.canOpen("https://example.org/"), "the kept answer, not GIO's")
        XCTAssertFalse(opener.canOpen("x-herald-kept:a b"), "a link with white space is refused whatever the scheme's answer")
        XCTAssertFalse(LinkOpener().canOpen("x-herald-kept:anything"), "an opener of its own asks GIO")
    }
}
