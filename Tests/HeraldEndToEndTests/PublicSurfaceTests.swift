import Foundation
import HeraldTestSupport
import XCTest

/// What `import Herald` brings into an app, counted from the built module's symbol graph
/// (`Tests/scripts/public-types.sh`): the types an app developer uses, and no more.
final class PublicSurfaceTests: XCTestCase {
    func testImportHeraldExposesAtMostFortyPublicTypes() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = (environment["PATH"] ?? "").split(separator: ":")
        guard path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/swift-symbolgraph-extract") }) else {
            throw XCTSkip("counting the public types needs swift-symbolgraph-extract on PATH")
        }
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/scripts/public-types.sh").path
        // The products folder this test was built into, where the Herald module is.
        let products = URL(fileURLWithPath: TestPaths.herald).deletingLastPathComponent().path
        let run = try runToCompletion("/bin/bash", [script, "--limit", "40", products], environment: environment)
        let lines = run.output.split(separator: "\n")
        let count = lines.last.flatMap { Int($0.replacing("public-types: ", with: "")) }
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(count, lines.count - 1, run.output)
        XCTAssertLessThanOrEqual(count ?? .max, 40, run.output)
        // Each line a type's name, so a failure lists what an app would see.
        XCTAssertTrue(lines.dropLast().allSatisfy { $0.first?.isUppercase == true && !$0.contains(" ") }, run.output)
    }
}
