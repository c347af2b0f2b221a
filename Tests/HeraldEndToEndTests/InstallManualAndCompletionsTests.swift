import Foundation
import HeraldTestSupport
import XCTest

/// What `desktop/install.sh` puts in a prefix beside the programs and their entries: the programs
/// without symbols or debug information, manual pages that `man` finds through PATH (as for
/// ~/.local), herald's completions where bash, zsh and fish look, the licence, and libherald-1
/// with its header, pkg-config file and introspection data.
final class InstallManualAndCompletionsTests: XCTestCase {
    func testInstallPutsStrippedProgramsTheirManualPagesAndHeraldsCompletionsWhereTheToolsFindThem() throws {
        let prefix = try Fixtures.temporaryDirectory("herald-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let build = TestPaths.packageRoot.appendingPathComponent(".build-release")
        let install = try runScript("install.sh", prefix: prefix)
        XCTAssertEqual(install.status, 0, install.errors)

        for (program, folder) in [("herald", "bin"), ("herald-gtk-demo", "bin"), ("herald-inbox", "bin"), ("herald-agent", "libexec")] {
            let built = try runToEnd("/usr/bin/readelf", ["--sections", "--wide", build.path + "/release/" + program]).output
            XCTAssertTrue(built.contains(" .symtab "), "the release build of \(program) has its symbols")
            let installed = try runToEnd("/usr/bin/readelf", ["--sections", "--wide", prefix.path + "/\(folder)/" + program]).output
            XCTAssertFalse(installed.contains(" .symtab "), "\(program) is installed without its symbols")
            XCTAssertFalse(installed.contains(" .debug_"), "\(program) is installed without debug information")
        }

        let man = ["PATH": prefix.path + "/bin:/usr/bin:/bin", "MANPAGER": "cat", "MANWIDTH": "200", "LANG": "C.UTF-8"]
        let found = try runToEnd("/usr/bin/man", ["-w", "herald", "herald-gtk-demo", "herald-inbox"], environment: man)
        XCTAssertEqual(found.output, ["herald", "herald-gtk-demo", "herald-inbox"].map { "\(prefix.path)/share/man/man1/\($0).1\n" }.joined(),
                       found.errors)
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
    /// it, and Herald's notifyrc where Plasma 5 and 6 look for it; uninstall takes them away.
    func testInstallPutsTheAgentsServicesWhereTheSessionLooksAndUninstallRemovesThem() throws {
        let prefix = try Fixtures.temporaryDirectory("herald-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        XCTAssertEqual(try runScript("install.sh", prefix: prefix).status, 0)
        let agent = prefix.path + "/libexec/herald-agent"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: agent), agent)
        let files = [("share/applications/org.herald.Agent.desktop", "Exec=\(agent)"),
                     ("share/dbus-1/services/org.herald.Agent.service", "Exec=\(agent)"),
                     ("share/systemd/user/herald-agent.service", "ExecStart=\(agent)"),
                     ("share/knotifications5/herald.notifyrc", "[Event/promotion]"), ("share/knotifications6/herald.notifyrc", "[Event/promotion]")]
        for (path, line) in files {
            let text = try String(contentsOfFile: prefix.path + "/" + path, encoding: .utf8)
            XCTAssertTrue(text.split(separator: "\n").contains(Substring(line)), "\(path):\n\(text)")
        }
        XCTAssertEqual(try runScript("uninstall.sh", prefix: prefix).status, 0)
        for (path, _) in files { XCTAssertFalse(FileManager.default.fileExists(atPath: prefix.path + "/" + path), path) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: agent), agent)
    }

    /// libherald-1 goes where a Debian system keeps a prefix's libraries (lib/<multiarch>), with
    /// its links, header, herald-1.pc naming the prefix, .gir, .typelib and .vapi; install.sh
    /// prints the variables that make them found, and with those alone (no Swift toolchain on
    /// PATH) a C program built with `pkg-config --cflags --libs herald-1` runs and Python's
    /// `gi` loads the Herald namespace and creates a client. Uninstall leaves the prefix empty.
    func testInstallPutsLibHeraldWherePkgConfigAndIntrospectionFindItWithTheVariablesItPrints() throws {
        let prefix = try Fixtures.temporaryDirectory("herald-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let install = try runScript("install.sh", prefix: prefix)
        XCTAssertEqual(install.status, 0, install.errors)

        let triplet = try runToEnd("/usr/bin/gcc", ["-print-multiarch"]).output.trimmingCharacters(in: .newlines)
        XCTAssertFalse(triplet.isEmpty, "gcc names Debian's multiarch triplet")
        let libdir = "\(prefix.path)/lib/\(triplet)"
        let files = FileManager.default
        XCTAssertEqual(try files.destinationOfSymbolicLink(atPath: libdir + "/libherald-1.so"), "libherald-1.so.0")
        XCTAssertEqual(try files.destinationOfSymbolicLink(atPath: libdir + "/libherald-1.so.0"), "libherald-1.so.0.0.0")
        let library = try runToEnd("/usr/bin/readelf", ["--sections", "--dynamic", "--wide", libdir + "/libherald-1.so.0.0.0"]).output
        XCTAssertTrue(library.contains("Library soname: [libherald-1.so.0]"), library)
        XCTAssertFalse(library.contains(" .symtab "), "the library is installed without its symbols")
        XCTAssertFalse(library.contains("libswift"), "the Swift runtime is inside the library: \(library)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: prefix.path + "/include/herald-1/herald.h")),
                       try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Sources/libherald/include/herald.h")))
        let pc = try String(contentsOfFile: libdir + "/pkgconfig/herald-1.pc", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(Array(pc.prefix(2)), ["prefix=\(prefix.path)", "libdir=${prefix}/lib/\(triplet)"])
        for path in ["\(libdir)/girepository-1.0/Herald-1.typelib", "share/gir-1.0/Herald-1.gir", "share/vala/vapi/herald-1.vapi", "share/vala/vapi/herald-1.deps"] {
            let file = path.hasPrefix("/") ? path : prefix.path + "/" + path
            XCTAssertGreaterThan((try? files.attributesOfItem(atPath: file)[.size] as? Int) ?? 0, 0, file)
        }

        let settings = [
            "    export LD_LIBRARY_PATH=\"\(libdir)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"",
            "    export GI_TYPELIB_PATH=\"\(libdir)/girepository-1.0${GI_TYPELIB_PATH:+:$GI_TYPELIB_PATH}\"",
            "    export PKG_CONFIG_PATH=\"\(libdir)/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}\"",
        ]
        let advice = """

            Programs find libherald-1 under \(prefix.path) once these are set (in ~/.profile, or where the
            app and its build start):
            \(settings.joined(separator: "\n"))

            """
        XCTAssertTrue(install.output.contains(advice), install.output)

        // With the variables install.sh printed, and nothing of the Swift toolchain on PATH.
        let work = try Fixtures.temporaryDirectory("herald-app")
        defer { try? FileManager.default.removeItem(at: work) }
        let program = work.appendingPathComponent("client-properties.c")
        try """
            #include <herald.h>
            int main (void) {
              HeraldClient *client = herald_client_new ("https://example.com/feed.plist", "org.example.Installed", "1.0");
              char *app_id = NULL;
              g_object_get (client, "app-id", &app_id, NULL);
              g_print ("%s %s\\n", G_OBJECT_TYPE_NAME (client), app_id);
              g_free (app_id);
              g_object_unref (client);
              return 0;
            }
            """.write(to: program, atomically: true, encoding: .utf8)
        let python = """
            import gi; gi.require_version("Herald", "1"); from gi.repository import Herald
            client = Herald.Client.new("https://example.com/feed.plist", "org.example.Installed", "1.0")
            print(type(client).__name__, client.props.app_id)
            """
        let use = try runToEnd("/bin/bash", ["-c", """
            set -e
            \(settings.joined(separator: "\n"))
            cd "$0"
            gcc -Wall -Werror -o client-properties client-properties.c $(pkg-config --cflags --libs herald-1)
            ./client-properties
            /usr/bin/python3 -c "$1"
            """, work.path, python], environment: ["PATH": "/usr/bin:/bin", "HOME": work.path, "LANG": "C.UTF-8"])
        XCTAssertEqual(use.output, "HeraldClient org.example.Installed\nClient org.example.Installed\n", use.errors)
        XCTAssertEqual(use.errors, "")

        XCTAssertEqual(try runScript("uninstall.sh", prefix: prefix).status, 0)
        XCTAssertEqual(try files.contentsOfDirectory(atPath: prefix.path), [], "uninstall takes away everything install put there")
    }

    /// Runs desktop/install.sh or desktop/uninstall.sh with `--prefix`, with the release build the other tests use.
    private func runScript(_ name: String, prefix: URL) throws -> (status: Int32, output: String, errors: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_BUILD_DIR"] = TestPaths.packageRoot.appendingPathComponent(".build-release").path
        return try runToEnd("/bin/bash", [TestPaths.packageRoot.appendingPathComponent("desktop/\(name)").path, "--prefix", prefix.path],
                            environment: environment)
    }
}
