import Foundation
import HeraldTestSupport
import XCTest

/// README.md's "In an app" code, built as a new package that depends on this checkout, holding
/// only the files the README tells its reader to create, and run against a mock notification
/// server and the README's sample feed; then the catalog's articles' code added and its tests
/// run (`Tests/scripts/readme-snippets.sh`): what a new app developer copies compiles and works.
final class ReadmeSnippetTests: XCTestCase {
    func testTheReadmesAppBuildsShowsTheSampleMessageAndPrintsTheAnswer() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = (environment["PATH"] ?? "").split(separator: ":")
        guard path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/swift") }) else {
            throw XCTSkip("building the README's app needs swift on PATH")
        }
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/scripts/readme-snippets.sh").path
        // The script's progress and the app's output go to standard error, into the test log.
        let run = try runToCompletion("/bin/bash", [script], environment: environment)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.output.split(separator: "\n").last, "readme-snippets: passed (Package.swift, Sources/App/main.swift; Package.swift, Tests/AppTests/DelegateTests.swift, Sources/App/Banner.swift, Sources/App/WhatsNew.swift, Tests/AppTests/WhatsNewTests.swift)", run.output)
    }
}

/// README.md's demo command, `Tests/scripts/demo.sh`, as a new user runs it: it builds the
/// release `herald` that `desktop/install.sh` then installs, and shows the sample feed on the
/// desktop, or says in one line that there is no notification server.
final class ReadmeCommandsTests: XCTestCase {
    let script = TestPaths.packageRoot.appendingPathComponent("Tests/scripts/demo.sh").path

    func testTheDemoCommandShowsTheSampleFeedOnTheDesktop() throws {
        let session = try DesktopSession()
        defer { session.stop() }
        let demo = try ChildProcess("/bin/bash", [script, "--wait", "1"], environment: session.environment, directory: session.directory, name: "demo")
        XCTAssertEqual(demo.wait(seconds: 1800), 0, demo.output + demo.errorOutput)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Publish your own feed", "Tip: seen once", "Herald 0.1 is out"])
    }

    func testTheDemoCommandWithoutANotificationServerSaysSoInOneLineAndExits69() throws {
        let session = try DesktopSession(capabilities: nil)
        defer { session.stop() }
        let demo = try ChildProcess("/bin/bash", [script, "--wait", "1"], environment: session.environment, directory: session.directory, name: "demo")
        XCTAssertEqual(demo.wait(seconds: 1800), 69, demo.output + demo.errorOutput)
        let lines = demo.errorOutput.split(separator: "\n").filter { $0.hasPrefix("herald") }
        XCTAssertEqual(lines.count, 1, demo.errorOutput)
        XCTAssertTrue(lines.first?.hasPrefix("herald: no notification server") ?? false, demo.errorOutput)
    }
}
