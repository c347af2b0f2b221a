import Foundation
import HeraldTestSupport
import XCTest

/// What `desktop/install.sh` puts in a prefix beside the programs and their entries: the programs
/// without symbols or debug information, manual pages that `man` finds through PATH (as for
/// ~/.local), herald's completions where bash, zsh and fish look, and the licence.
final class InstallManualAndCompletionsTests: XCTestCase {
    func testInstallPutsStrippedProgramsTheirManualPagesAndHeraldsCompletionsWhereTheToolsFindThem() throws {
        let prefix = try Fixtures.temporaryDirectory("herald-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let build = TestPaths.packageRoot.appendingPathComponent(".build-release")
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_BUILD_DIR"] = build.path
        let install = try runToEnd("/bin/bash", [TestPaths.packageRoot.appendingPathComponent("desktop/install.sh").path, "--prefix", prefix.path],
                                   environment: environment)
        XCTAssertEqual(install.status, 0, install.errors)

        for (program, folder) in [("herald", "bin"), ("herald-gtk-demo", "bin"), ("herald-agent", "libexec")] {
            let built = try runToEnd("/usr/bin/readelf", ["--sections", "--wide", build.path + "/release/" + program]).output
            XCTAssertTrue(built.contains(" .symtab "), "the release build of \(program) has its symbols")
            let installed = try runToEnd("/usr/bin/readelf", ["--sections", "--wide", prefix.path + "/\(folder)/" + program]).output
            XCTAssertFalse(installed.contains(" .symtab "), "\(program) is installed without its symbols")
            XCTAssertFalse(installed.contains(" .debug_"), "\(program) is installed without debug information")
        }

        let man = ["PATH": prefix.path + "/bin:/usr/bin:/bin", "MANPAGER": "cat", "MANWIDTH": "200", "LANG": "C.UTF-8"]
        let found = try runToEnd("/usr/bin/man", ["-w", "herald", "herald-gtk-demo"], environment: man)
        XCTAssertEqual(found.output, "\(prefix.path)/share/man/man1/herald.1\n\(prefix.path)/share/man/man1/herald-gtk-demo.1\n", found.errors)
        let page = try runToEnd("/usr/bin/man", ["herald"], environment: man)
        XCTAssertEqual(page.status, 0)
        XCTAssertEqual(page.errors, "")
        XCTAssertEqual(try subcommandsMissing(from: page.output, of: prefix.path + "/bin/herald"), [])

        let bash = try bashCompletionOfHeraldSt(file: prefix.path + "/share/bash-completion/completions/herald")
        XCTAssertEqual(bash.output, "complete -o filenames -F _herald herald\nstate\n", bash.errors)
        // zsh finds a completion by the #compdef line of a file named after its function; fish by the file's name.
        let zsh = try String(contentsOfFile: prefix.path + "/share/zsh/site-functions/_herald", encoding: .utf8)
        XCTAssertEqual(zsh.split(separator: "\n").first, "#compdef herald")
        let fish = try String(contentsOfFile: prefix.path + "/share/fish/vendor_completions.d/herald.fish", encoding: .utf8)
        XCTAssertEqual(fish, try runToEnd(prefix.path + "/bin/herald", ["--generate-completion-script", "fish"]).output)
        XCTAssertEqual(try Data(contentsOf: prefix.appendingPathComponent("share/doc/herald/LICENSE")),
                       try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("LICENSE")), "the licence goes with the programs")
    }

    /// The agent goes into the prefix's libexec, and its desktop entry, session bus service and
    /// systemd user unit where GNOME Shell, dbus-daemon and systemd look under the prefix, naming
    /// it; uninstall takes them away.
    func testInstallPutsTheAgentsServicesWhereTheSessionLooksAndUninstallRemovesThem() throws {
        let prefix = try Fixtures.temporaryDirectory("herald-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_BUILD_DIR"] = TestPaths.packageRoot.appendingPathComponent(".build-release").path
        let script = { (name: String) in TestPaths.packageRoot.appendingPathComponent("desktop/\(name)").path }
        XCTAssertEqual(try runToEnd("/bin/bash", [script("install.sh"), "--prefix", prefix.path], environment: environment).status, 0)
        let agent = prefix.path + "/libexec/herald-agent"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: agent), agent)
        let files = [("share/applications/org.herald.Agent.desktop", "Exec=\(agent)"),
                     ("share/dbus-1/services/org.herald.Agent.service", "Exec=\(agent)"),
                     ("share/systemd/user/herald-agent.service", "ExecStart=\(agent)")]
        for (path, line) in files {
            let text = try String(contentsOfFile: prefix.path + "/" + path, encoding: .utf8)
            XCTAssertTrue(text.split(separator: "\n").contains(Substring(line)), "\(path):\n\(text)")
        }
        XCTAssertEqual(try runToEnd("/bin/bash", [script("uninstall.sh"), "--prefix", prefix.path], environment: environment).status, 0)
        for (path, _) in files { XCTAssertFalse(FileManager.default.fileExists(atPath: prefix.path + "/" + path), path) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: agent), agent)
    }
}
