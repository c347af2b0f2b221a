import Foundation
import HeraldTestSupport
import XCTest

/// `desktop/debian/build-deb.sh`: the package it builds passes lintian, installs on this machine
/// with apt-get, works there, and a purge takes every file of it away again.
final class DebianPackageTests: XCTestCase {
    /// The package's path, built once for both tests (a release build when none is there yet).
    private nonisolated(unsafe) static var built: Result<String, Error>?

    override func setUpWithError() throws {
        for tool in ["/usr/bin/dpkg-deb", "/usr/bin/dpkg-shlibdeps"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing: apt-get install dpkg-dev (Tests/scripts/setup.sh --tests)")
        }
    }

    func testThePackageBuildsWithoutALintianErrorOrWarning() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian") else {
            throw XCTSkip("lintian is not installed: apt-get install lintian (Tests/scripts/setup.sh --tests)")
        }
        let package = try Self.package()
        // Lintian's informational tags (I:) are not shown by default; every other tag is a finding.
        let report = try runToEnd("/usr/bin/lintian", ["--fail-on", "error,warning", package], environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(report.status, 0, report.output + report.errors)
        XCTAssertEqual(report.output, "")
    }

    func testAnInstalledPackageRunsTheDemoAndAPurgeLeavesNothingOfItOnDisk() throws {
        guard geteuid() == 0 else { throw XCTSkip("installing a package system-wide needs root (CI runs as root)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") else { throw XCTSkip("no apt-get on this machine") }
        guard try runToEnd("/usr/bin/dpkg-query", ["-W", "-f", "${db:Status-Abbrev}", "herald"]).output.hasPrefix("i") == false else {
            throw XCTSkip("a herald package is installed on this machine already; the test would replace and then purge it")
        }
        let package = try Self.package()
        let apt = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "LANG": "C.UTF-8"]
        let install = try runToEnd("/usr/bin/apt-get", ["install", "-y", "--no-install-recommends", package], environment: apt)
        defer { _ = try? runToEnd("/usr/bin/apt-get", ["purge", "-y", "herald"], environment: apt) }
        XCTAssertEqual(install.status, 0, install.output + install.errors)
        let files = try runToEnd("/usr/bin/dpkg-query", ["-L", "herald"]).output.split(separator: "\n").map(String.init)
        for path in ["/usr/bin/herald", "/usr/bin/herald-gtk-demo", "/usr/share/man/man1/herald.1.gz", "/usr/share/man/man1/herald-gtk-demo.1.gz",
                     "/usr/share/bash-completion/completions/herald", "/usr/share/zsh/vendor-completions/_herald",
                     "/usr/share/fish/vendor_completions.d/herald.fish", "/usr/share/applications/org.herald.GtkDemo.desktop",
                     "/usr/share/applications/org.herald.Agent.desktop", "/usr/share/dbus-1/services/org.herald.Agent.service",
                     "/usr/lib/systemd/user/herald-agent.service",
                     "/usr/share/icons/hicolor/scalable/apps/org.herald.Herald.svg", "/usr/share/doc/herald/copyright",
                     "/usr/share/doc/herald/changelog.gz"] {
            XCTAssertTrue(files.contains(path), "the package installs \(path)")
        }

        let version = try runToEnd("/usr/bin/herald", ["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.output, try runToEnd(TestPaths.herald, ["--version"]).output, "the package holds the version of these sources")
        try assertTheDemoShowsTheSampleFeed()
        let demoUsage = try runToEnd("/usr/bin/herald-gtk-demo", ["--no-such-option"])
        XCTAssertEqual(demoUsage.status, 64, "the GTK demo starts with the libraries the package depends on")
        XCTAssertEqual(demoUsage.errors, "usage: herald-gtk-demo [--feed URL] [--app-id ID] [--in-window]\n")
        try assertManRendersEveryCommand()
        let completion = try bashCompletionOfHeraldSt(file: "/usr/share/bash-completion/completions/herald")
        XCTAssertEqual(completion.output, "complete -o filenames -F _herald herald\nstate\n", completion.errors)

        let purge = try runToEnd("/usr/bin/apt-get", ["purge", "-y", "herald"], environment: apt)
        XCTAssertEqual(purge.status, 0, purge.output + purge.errors)
        XCTAssertEqual(try runToEnd("/usr/bin/dpkg-query", ["-W", "herald"]).status, 1, "dpkg knows no herald package any more")
        // A folder the package shared with other packages stays theirs (and the root, "/.", everyone's);
        // everything else it listed is gone.
        let left = try files.filter { $0 != "/." }.filter { path in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return false }
            return try !isFolder.boolValue || runToEnd("/usr/bin/dpkg-query", ["-S", path]).status != 0
        }
        XCTAssertEqual(left, [], "nothing the package installed is left")
        let records = try FileManager.default.contentsOfDirectory(atPath: "/var/lib/dpkg/info").filter { $0.hasPrefix("herald.") }
        XCTAssertEqual(records, [], "dpkg keeps no record of it")
    }

    /// `herald demo`, run from the package on a private desktop with the mock notification server.
    private func assertTheDemoShowsTheSampleFeed() throws {
        let session = try DesktopSession()
        defer { session.stop() }
        let demo = try ChildProcess("/usr/bin/herald", ["demo", "--wait", "1"], environment: session.environment, directory: session.directory, name: "demo")
        XCTAssertEqual(demo.wait(), 0, demo.errorOutput)
        XCTAssertEqual(demo.errorOutput, "")
        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.map(\.summary), ["Publish your own feed", "Tip: seen once", "Herald 0.1 is out"])
        XCTAssertEqual(Set(calls.map(\.appName)), ["Herald demo"])
    }

    /// `man herald` finds the installed page and renders it without a complaint, and the page
    /// describes each of herald's subcommands with the abstract its --help gives.
    private func assertManRendersEveryCommand() throws {
        let page = try runToEnd("/usr/bin/man", ["herald"], environment: ["PATH": "/usr/bin:/bin", "MANPAGER": "cat", "MANWIDTH": "200", "LANG": "C.UTF-8"])
        XCTAssertEqual(page.status, 0, page.errors)
        XCTAssertEqual(page.errors, "")
        XCTAssertEqual(try subcommandsMissing(from: page.output, of: "/usr/bin/herald"), [])
    }

    /// Builds the package into a temporary folder once, with the release build the other tests use.
    private static func package() throws -> String {
        if built == nil {
            built = Result {
                let output = try Fixtures.temporaryDirectory("herald-deb")
                var environment = ProcessInfo.processInfo.environment
                environment["HERALD_BUILD_DIR"] = TestPaths.packageRoot.appendingPathComponent(".build-release").path
                environment["HERALD_SKIP_LINTIAN"] = "1"   // testThePackageBuildsWithoutALintianErrorOrWarning runs it
                let script = TestPaths.packageRoot.appendingPathComponent("desktop/debian/build-deb.sh").path
                let result = try runToEnd(script, ["--output", output.path], environment: environment)
                guard result.status == 0 else { throw TestSetupError("build-deb.sh exited \(result.status):\n\(result.errors)") }
                return result.output.trimmingCharacters(in: .newlines)
            }
        }
        return try built!.get()
    }

    override class func tearDown() {
        if case .success(let deb)? = built { try? FileManager.default.removeItem(at: URL(fileURLWithPath: deb).deletingLastPathComponent()) }
        built = nil
        super.tearDown()
    }
}
