import Foundation
import HeraldTestSupport
import XCTest

/// A library Herald loads on first use that cannot be loaded (not installed, or broken) is an
/// error the app hears through its delegate, never the end of its process: `herald check`, an
/// app of the library, reports it as a `failed` event and exits 69 with the loader's reason.
final class MissingLibraryTests: XCTestCase {
    let appID = "org.example.MissingLibrary"
    let feed = Fixtures.xmlFeed(["2026/01/01": ["Title": "Would show"]])

    /// A folder on `LD_LIBRARY_PATH` holding an empty file named `library`: the loader takes it
    /// for the library, and fails ("file too short").
    func hiding(_ library: String, in session: DesktopSession) throws -> (environment: [String: String], file: String) {
        let folder = session.directory.appendingPathComponent("hidden-libraries")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(library).path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        return (["LD_LIBRARY_PATH": folder.path], file)
    }

    func assertMissing(_ library: String, output: String, fetches: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(feed)
        let hidden = try hiding(library, in: session)
        let arguments = ["check", "--feed", server.url("feed.plist"), "--app-id", appID, "--force", "--wait", "5"]

        let plain = try session.timedRun(arguments, environment: hidden.environment, within: 30)
        XCTAssertEqual(plain.run.status, 69, plain.run.description, file: file, line: line)
        XCTAssertEqual(plain.run.errorOutput, "herald: cannot load \(library): \(hidden.file): file too short\n", file: file, line: line)
        XCTAssertEqual(plain.run.output, output, file: file, line: line)
        XCTAssertLessThan(plain.seconds, 10, file: file, line: line)

        let json = try session.herald(["check", "--json"] + arguments.dropFirst(), environment: hidden.environment)
        XCTAssertEqual(json.wait(seconds: 30), 69, "\(json.output) \(json.errorOutput)", file: file, line: line)
        let failed = json.events.filter { $0["event"] as? String == "failed" }
        XCTAssertEqual(failed.count, 1, json.output, file: file, line: line)
        XCTAssertEqual(failed.first?["kind"] as? String, "library-unavailable", file: file, line: line)
        XCTAssertEqual(failed.first?["message"] as? String, "cannot load \(library): \(hidden.file): file too short", file: file, line: line)
        XCTAssertEqual(failed.first?["exitCode"] as? Int, 69, file: file, line: line)

        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing was shown", file: file, line: line)
        XCTAssertEqual(server.requests.count, fetches, file: file, line: line)
        XCTAssertNil(try session.state(appID: appID)["failure"], "a missing library is not the feed's failure: no backoff", file: file, line: line)
    }

    func testMissingLibsoupIsAFailedCheckWithExit69AndTheLoadersReason() throws {
        try assertMissing("libsoup-3.0.so.0", output: "", fetches: 0)
    }

    func testMissingLibnotifyIsAFailedCheckWithExit69AndTheLoadersReason() throws {
        // The feed is fetched; the notification server is asked nothing.
        try assertMissing("libnotify.so.4", output: "fetched 1 message\n", fetches: 2)
    }
}
