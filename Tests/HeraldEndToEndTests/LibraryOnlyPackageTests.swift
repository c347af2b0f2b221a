import Foundation
import HeraldTestSupport
import XCTest

/// An app that depends only on the `Herald` library (with the package's traits off) resolves and
/// builds without swift-argument-parser, which only the `herald` tool needs: here its address
/// leads nowhere, as on a machine with no network.
final class LibraryOnlyPackageTests: XCTestCase {
    func testAppUsingOnlyTheLibraryResolvesAndBuildsWithoutArgumentParser() throws {
        let app = try Fixtures.temporaryDirectory("herald-library-app")
        defer { try? FileManager.default.removeItem(at: app) }
        let root = TestPaths.packageRoot
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "App",
                dependencies: [.package(path: "\(root.path)", traits: [])],
                targets: [.executableTarget(name: "App", dependencies: [.product(name: "Herald", package: "\(root.lastPathComponent)")])]
            )
            """.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import Herald\n\nprint(Herald.self)\n".write(to: app.appendingPathComponent("Sources/App/main.swift"), atomically: true, encoding: .utf8)

        let started = Date()
        let swift = "/usr/bin/env"
        let mirror = try runToEnd(swift, ["swift", "package", "--package-path", app.path, "config", "set-mirror",
                                          "--original", "https://github.com/apple/swift-argument-parser", "--mirror", "file:///nonexistent/swift-argument-parser"])
        XCTAssertEqual(mirror.status, 0, mirror.errors)
        let resolve = try runToEnd(swift, ["swift", "package", "--package-path", app.path, "resolve"])
        XCTAssertEqual(resolve.status, 0, resolve.errors)
        let dependencies = try runToEnd(swift, ["swift", "package", "--package-path", app.path, "show-dependencies", "--format", "flatlist"])
        XCTAssertEqual(dependencies.status, 0, dependencies.errors)
        XCTAssertFalse(dependencies.output.lowercased().contains("argument-parser"), dependencies.output)
        let resolved = (try? String(contentsOf: app.appendingPathComponent("Package.resolved"), encoding: .utf8)) ?? ""
        XCTAssertFalse(resolved.contains("argument-parser"), resolved)
        let build = try runToEnd(swift, ["swift", "build", "--package-path", app.path, "--product", "App"])
        XCTAssertEqual(build.status, 0, build.output + build.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.appendingPathComponent(".build/checkouts/swift-argument-parser").path))
        // It builds the library again: about half a minute on two cores.
        XCTAssertLessThan(Date().timeIntervalSince(started), 300)
    }
}
