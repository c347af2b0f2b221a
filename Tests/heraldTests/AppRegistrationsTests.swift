import Foundation
import HeraldCore
import XCTest
@testable import herald

/// The registrations of a session read from the XDG data folders (`AppRegistrations`): one app's
/// mistake leaves only that app out, the first registration in XDG order counts, and the
/// installed version comes from `Version` or the app's AppStream metainfo.
final class AppRegistrationsTests: XCTestCase {
    private var root: URL!
    private var environment: [String: String] {
        ["HOME": root.path + "/home", "XDG_DATA_HOME": root.path + "/user", "XDG_DATA_DIRS": root.path + "/local:" + root.path + "/system"]
    }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("herald-registrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: root)
    }

    /// Writes `text` at `path` under the test's folder and returns the file's full path.
    @discardableResult
    private func write(_ path: String, _ text: String) throws -> String {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func listed(_ listing: AppRegistrations.Listing) -> [String] {
        listing.apps.map { "\($0.app.appID) \($0.app.line.feed) \($0.app.line.appVersion ?? "-") \($0.versionSource) \($0.app.file)" }
    }

    func testAMistakeLeavesOnlyItsAppOutAndTheOthersAreRead() throws {
        let good = try write("system/herald/apps/org.example.Good.conf", "[Herald]\nFeed=https://example.org/good\nVersion=1\n")
        let bad = try write("system/herald/apps/org.example.Bad.conf", "[Herald]\nFeed=https://example.org/bad\nFeeed=x\n")
        let listing = AppRegistrations.list(environment: environment)
        XCTAssertEqual(listed(listing), ["org.example.Good https://example.org/good 1 given \(good)"])
        XCTAssertEqual(listing.problems, [RegistrationProblem(file: bad, line: 3, description: "unknown key “Feeed”; did you mean “Feed”?")])
        let read = AppRegistrations.read(environment: environment)
        XCTAssertEqual(read.apps.map(\.appID), ["org.example.Good"])
        XCTAssertEqual(read.problems, listing.problems)
    }

    func testTheFirstRegistrationInXDGOrderCountsAndTheOthersAreShadowed() throws {
        let user = try write("user/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/user\nVersion=1\n")
        let local = try write("local/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/local\n")
        let entry = try write("local/applications/org.example.App.desktop", "[Desktop Entry]\nName=E\nX-Herald-Feed=https://example.org/entry\n")
        let plainEntry = try write("system/applications/org.example.App.desktop", "[Desktop Entry]\nName=E\nExec=e\n")
        let byEntry = try write("local/applications/org.example.Other.desktop", "[Desktop Entry]\nName=O\nX-Herald-Feed=https://example.org/other\n")
        let system = try write("system/herald/apps/org.example.Other.conf", "[Herald]\nFeed=https://example.org/system\n")
        let listing = AppRegistrations.list(environment: environment)
        XCTAssertEqual(listed(listing), [
            "org.example.App https://example.org/user 1 given \(user)",
            "org.example.Other https://example.org/other - none \(byEntry)",
        ])
        XCTAssertEqual(listing.shadowed, [
            AppRegistrations.Shadowed(appID: "org.example.App", file: local, by: user),
            AppRegistrations.Shadowed(appID: "org.example.App", file: entry, by: user),
            AppRegistrations.Shadowed(appID: "org.example.Other", file: system, by: byEntry),
        ], "an entry without X-Herald keys (\(plainEntry)) registers nothing and is not listed")
        XCTAssertEqual(listing.problems, [])
    }

    func testARegistrationWithAMistakeStillShadowsTheOnesAfterIt() throws {
        let user = try write("user/herald/apps/org.example.App.conf", "[Herald]\nFed=https://example.org/user\n")
        let system = try write("system/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/system\n")
        let listing = AppRegistrations.list(environment: environment)
        XCTAssertEqual(listing.apps, [])
        XCTAssertEqual(listing.shadowed, [AppRegistrations.Shadowed(appID: "org.example.App", file: system, by: user)])
        XCTAssertEqual(listing.problems.map(\.text), [
            "\(user):2: unknown key “Fed”; did you mean “Feed”?", "\(user): no “Feed”: a registration names the app's feed (Feed=https://…)",
        ])
    }

    func testTheVersionIsTheNewestReleaseOfTheAppsMetainfoUnlessVersionIsGiven() throws {
        let conf = try write("system/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/feed\n")
        let given = try write("system/herald/apps/org.example.Given.conf", "[Herald]\nFeed=https://example.org/given\nVersion=0.9\n")
        let releases = #"<component><releases><release version="1.9" /><release version="1.10"/><release version="1.2"/></releases></component>"#
        let metainfo = try write("system/metainfo/org.example.App.metainfo.xml", releases)
        try write("system/metainfo/org.example.Given.metainfo.xml", releases)
        try write("system/appdata/org.example.App.appdata.xml", #"<releases><release version="7"/></releases>"#)
        let listing = AppRegistrations.list(environment: environment)
        XCTAssertEqual(listed(listing), [
            "org.example.App https://example.org/feed 1.10 metainfo(\"\(metainfo)\") \(conf)",
            "org.example.Given https://example.org/given 0.9 given \(given)",
        ])
    }

    func testTheOlderAppdataFileGivesTheVersionWhenThereIsNoMetainfo() throws {
        try write("user/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/feed\n")
        let appdata = try write("system/appdata/org.example.App.appdata.xml", #"<releases><release version='3.0'/></releases>"#)
        XCTAssertEqual(AppRegistrations.list(environment: environment).apps.map(\.versionSource), [.metainfo(appdata)])
    }

    func testAMetainfoThatCannotBeReadIsAProblemNamedByFileAndTheAppIsCheckedWithoutAVersion() throws {
        try write("user/herald/apps/org.example.App.conf", "[Herald]\nFeed=https://example.org/feed\n")
        let metainfo = try write("system/metainfo/org.example.App.metainfo.xml", String(repeating: " ", count: AppRegistrations.sizeLimit + 1))
        let listing = AppRegistrations.list(environment: environment)
        XCTAssertEqual(listing.apps.map(\.versionSource), [.none])
        XCTAssertEqual(listing.problems.map(\.text), [
            "\(metainfo): the app's version cannot be read from it: "
                + FileError.tooLarge(path: metainfo, size: AppRegistrations.sizeLimit + 1, limit: AppRegistrations.sizeLimit).reason,
        ])
    }

    func testARegistrationThatIsNoRegularFileIsAProblemAndIsNeverWaitedOn() throws {
        let fifo = root.path + "/user/herald/apps/org.example.Fifo.conf"
        try FileManager.default.createDirectory(atPath: root.path + "/user/herald/apps", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        try FileManager.default.createDirectory(atPath: root.path + "/user/applications/org.example.Folder.desktop", withIntermediateDirectories: true)
        let listing = AppRegistrations.list(environment: environment)
        XCTAssertEqual(listing.apps, [])
        XCTAssertEqual(listing.problems.map(\.text), ["\(fifo): cannot be read: it is a FIFO, not a regular file"],
                       "a desktop entry that cannot be read registers nothing")
    }

    func testARegistrationIsReadThroughALinkAsDesktopsReadDesktopEntries() throws {
        let target = try write("dotfiles/org.example.App.conf", "[Herald]\nFeed=https://example.org/feed\nVersion=2\n")
        let entryTarget = try write("flatpak/org.example.Entry.desktop", "[Desktop Entry]\nName=E\nX-Herald-Feed=https://example.org/entry\n")
        let conf = root.path + "/user/herald/apps/org.example.App.conf"
        let entry = root.path + "/system/applications/org.example.Entry.desktop"
        for (link, target) in [(conf, target), (entry, entryTarget)] {
            try FileManager.default.createDirectory(atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        }
        XCTAssertEqual(listed(AppRegistrations.list(environment: environment)), [
            "org.example.App https://example.org/feed 2 given \(conf)",
            "org.example.Entry https://example.org/entry - none \(entry)",
        ])
    }

    func testAFileNameThatGivesNoUsableAppIDIsAProblem() throws {
        let file = try write("user/herald/apps/no good.conf", "[Herald]\nFeed=https://example.org/feed\n")
        XCTAssertEqual(AppRegistrations.list(environment: environment).problems.map(\.text),
                       ["\(file): its name gives no app id: \(AppOptions.refusal(appID: "no good")!)"])
    }

    func testNoFolderIsNoRegistrationAndNoProblem() {
        XCTAssertEqual(AppRegistrations.list(environment: environment), AppRegistrations.Listing())
    }

    func testTheUsersRegistrationIsInTheDataHome() {
        XCTAssertEqual(AppRegistrations.userFile(appID: "a.b", environment: ["HOME": "/h"]), "/h/.local/share/herald/apps/a.b.conf")
        XCTAssertEqual(AppRegistrations.userFile(appID: "a.b", environment: ["HOME": "/h", "XDG_DATA_HOME": "/d"]), "/d/herald/apps/a.b.conf")
    }

    func testALoginEntrysOptionsAreKeptWhereTheNewCommandGivesNone() throws {
        let old = try XCTUnwrap(CheckCommandLine(plainArguments: [
            "--feed", "https://example.org/old", "--app-id", "org.example.App", "--app-name", "Old", "--start-delay", "120",
            "--check-period", "3", "--max", "2", "--allow-scheme", "old",
        ]))
        var given = CheckCommandLine(feed: "https://example.org/new", appID: "org.example.App")
        given.max = 5
        var expected = given
        expected.appName = "Old"
        expected.startDelay = 120
        expected.checkPeriod = 3
        expected.allowedSchemes = ["old"]
        XCTAssertEqual(AutostartCommand.Enable.line(given, keeping: old), expected)
    }
}
