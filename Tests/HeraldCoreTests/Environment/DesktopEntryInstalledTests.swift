import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// The app's own face (issue "Right on the desktops"): its installed desktop entry is found as a
/// desktop finds it.
final class DesktopEntryInstalledTests: XCTestCase {
    private func install(_ text: String, in folder: URL, appID: String = "org.example.App") throws {
        let applications = folder.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try text.write(to: applications.appendingPathComponent(appID + ".desktop"), atomically: true, encoding: .utf8)
    }

    func testTheUsersDataFolderComesBeforeTheSystemsAndAnEntryIsFoundThroughALink() throws {
        let root = try Fixtures.temporaryDirectory()
        let home = root.appendingPathComponent("data"), system = root.appendingPathComponent("system")
        try install("[Desktop Entry]\nName=Mine\nIcon=mine\n", in: home)
        try install("[Desktop Entry]\nName=System\nIcon=system\n", in: system)
        let environment = ["XDG_DATA_HOME": home.path, "XDG_DATA_DIRS": "relative:" + system.path]
        XCTAssertEqual(DesktopEntry.installed(appID: "org.example.App", environment: environment)?["Name"], "Mine")
        try FileManager.default.removeItem(at: home.appendingPathComponent("applications/org.example.App.desktop"))
        XCTAssertEqual(DesktopEntry.installed(appID: "org.example.App", environment: environment)?["Icon"], "system")
        // Flatpak exports its apps' entries as links.
        try FileManager.default.createSymbolicLink(atPath: home.appendingPathComponent("applications/org.example.App.desktop").path,
                                                   withDestinationPath: system.appendingPathComponent("applications/org.example.App.desktop").path)
        XCTAssertEqual(DesktopEntry.installed(appID: "org.example.App", environment: ["XDG_DATA_HOME": home.path, "XDG_DATA_DIRS": "/nowhere"])?["Name"], "System")
    }

    func testNoEntryAnInvalidIdOrSomethingElseThanAFileIsNil() throws {
        let root = try Fixtures.temporaryDirectory()
        XCTAssertNil(DesktopEntry.installed(appID: "org.example.App", environment: ["XDG_DATA_HOME": root.path, "XDG_DATA_DIRS": root.path]))
        try install("[Desktop Entry]\nName=Evil\n", in: root, appID: "x")
        XCTAssertNil(DesktopEntry.installed(appID: "../applications/x", environment: ["XDG_DATA_HOME": root.path]))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("applications/org.example.Dir.desktop"), withIntermediateDirectories: true)
        XCTAssertNil(DesktopEntry.installed(appID: "org.example.Dir", environment: ["XDG_DATA_HOME": root.path, "XDG_DATA_DIRS": root.path]))
    }
}
