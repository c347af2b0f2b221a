import Foundation
import HeraldTestSupport
import XCTest

/// README.md's "In an app" code, built as a new package that depends on this checkout and run
/// against a mock notification server and the README's sample feed
/// (`Tests/scripts/readme-snippets.sh`): what a new app developer copies compiles and works.
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
        XCTAssertEqual(run.output.split(separator: "\n").last, "readme-snippets: passed (Package.swift, Sources/App/main.swift, Tests/AppTests/DelegateTests.swift, Sources/App/Banner.swift, Sources/App/WhatsNew.swift, Tests/AppTests/WhatsNewTests.swift)", run.output)
    }
}
