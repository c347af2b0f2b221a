import Foundation
import HeraldTestSupport
import XCTest

/// What Herald does inside a Flatpak sandbox beyond the matrix's scenario (desktop/docs/administrators.md, "In a
/// Flatpak app"): it prints nothing of libnotify's on stderr, and refuses a registration that no
/// session would read.
final class FlatpakSandboxTests: DesktopMatrixCase {
    override class var server: RealServer { .portalToXfce4Notifyd }

    func testACheckThroughThePortalPrintsNothingOnStandardError() throws {
        let run = try check([Matrix.linkKey: Matrix.link, Matrix.okKey: Matrix.ok], wait: 1)
        XCTAssertEqual(run.wait(seconds: 20), 0, run.errorOutput)
        XCTAssertEqual(run.errorOutput, "", "libnotify's warnings about the portal and the app name are not printed")
    }

    func testAutostartEnableRefusesInsideTheSandboxAndWritesNoRegistration() throws {
        let run = try desktop.herald(["autostart", "enable", "--app-id", desktop.appID, "--feed", "https://example.org/feed.plist"], name: "autostart")
        XCTAssertEqual(run.wait(seconds: 20), 69)
        XCTAssertEqual(run.errorOutput, """
            herald: inside a Flatpak sandbox a registration written here is never read: the app keeps checking when it \
            starts, and the Background portal (org.freedesktop.portal.Background, RequestBackground with autostart) can start it at login

            """)
        XCTAssertEqual(run.output, "", "never a false \"registered\"")
        let data = desktop.directory.appendingPathComponent("home/.var/app/\(desktop.appID)/data/herald")
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.path), "no registration in the sandbox's own data folder")
        let entries = desktop.directory.appendingPathComponent("home/.var/app/\(desktop.appID)/config/autostart")
        XCTAssertFalse(FileManager.default.fileExists(atPath: entries.path), "no entry in the sandbox's own config folder")
    }
}
