import Foundation
import HeraldTestSupport
import XCTest

/// `desktop/debian/build-deb.sh`: the packages it builds (herald, the command and the agent's
/// files, with no GTK; herald-gtk-demo, the GTK demo; herald-inbox, the inbox window; libherald-1-0, libherald-1-dev and
/// gir1.2-herald-1, the GObject library) pass lintian, each holds exactly its own files, they
/// install on this machine with apt-get (herald enabling its timer for every user), work there,
/// and a purge takes every file of them away again, the timer's link too.
final class DebianPackageTests: XCTestCase {
    /// The packages' paths, built once for all tests (a release build when none is there yet).
    private nonisolated(unsafe) static var built: Result<Packages, Error>?

    /// The .deb files build-deb.sh prints, in its order.
    private struct Packages {
        /// herald_<version>_<arch>.deb: the command, its manual page and completions, the agent's files.
        let herald: String
        /// herald-gtk-demo_<version>_<arch>.deb: the GTK demo.
        let demo: String
        /// herald-inbox_<version>_<arch>.deb: the person's inbox window.
        let inbox: String
        /// libherald-1-0_<version>_<arch>.deb: the library.
        let library: String
        /// libherald-1-dev_<version>_<arch>.deb: its header, .so link, .pc, .gir and .vapi.
        let dev: String
        /// gir1.2-herald-1_<version>_<arch>.deb: its typelib.
        let typelib: String

        /// Every package, in build-deb.sh's order.
        var all: [String] { [herald, demo, inbox, library, dev, typelib] }
    }

    override func setUpWithError() throws {
        for tool in ["/usr/bin/dpkg-deb", "/usr/bin/dpkg-shlibdeps"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing: apt-get install dpkg-dev (Tests/scripts/setup.sh --tests)")
        }
    }

    func testEveryPackageBuildsWithoutALintianErrorOrWarning() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian") else {
            throw XCTSkip("lintian is not installed: apt-get install lintian (Tests/scripts/setup.sh --tests)")
        }
        let packages = try Self.packages()
        XCTAssertEqual(try field("Package", of: packages.herald), "herald")
        XCTAssertEqual(try field("Package", of: packages.demo), "herald-gtk-demo")
        XCTAssertEqual(try field("Package", of: packages.inbox), "herald-inbox")
        XCTAssertEqual(try field("Package", of: packages.library), "libherald-1-0")
        XCTAssertEqual(try field("Package", of: packages.dev), "libherald-1-dev")
        XCTAssertEqual(try field("Package", of: packages.typelib), "gir1.2-herald-1")
        // Lintian's informational tags (I:) are not shown by default; every other tag is a finding.
        let report = try runToEnd("/usr/bin/lintian", ["--fail-on", "error,warning"] + packages.all, environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(report.status, 0, report.output + report.errors)
        XCTAssertEqual(report.output, "")
    }

    func testHeraldDependsOnNoGTKAndTheDemoOnHeraldOfItsOwnVersionAndGTK() throws {
        let packages = try Self.packages()
        var version = try runToEnd(TestPaths.herald, ["--version"]).output.trimmingCharacters(in: .newlines)
        version = String(version.dropFirst("herald ".count))
        let heraldDepends = try dependencies(of: packages.herald)
        XCTAssertEqual(heraldDepends.filter { $0.contains("gtk") }, [], "herald needs no GTK: \(heraldDepends)")
        for library in ["libglib2.0-0", "libsoup-3.0-0", "libnotify4", "glib-networking"] {
            XCTAssertEqual(heraldDepends.filter { $0.split(separator: " ").first.map(String.init) == library }.count, 1, "herald depends on \(library): \(heraldDepends)")
        }
        let demoDepends = try dependencies(of: packages.demo)
        XCTAssertTrue(demoDepends.contains("herald (= \(version))"), "the demo depends on herald of its own version: \(demoDepends)")
        XCTAssertEqual(demoDepends.filter { $0.hasPrefix("libgtk-4-1 ") }.count, 1, "the demo depends on GTK 4: \(demoDepends)")
        let inboxDepends = try dependencies(of: packages.inbox)
        XCTAssertTrue(inboxDepends.contains("herald (= \(version))"), "the inbox window depends on herald of its own version: \(inboxDepends)")
        XCTAssertEqual(inboxDepends.filter { $0.hasPrefix("libgtk-4-1 ") || $0.hasPrefix("libadwaita-1-0 ") }.count, 2,
                       "the inbox window depends on GTK 4 and libadwaita: \(inboxDepends)")
    }

    func testEachPackageShipsExactlyItsOwnFiles() throws {
        let packages = try Self.packages()
        let icons = try FileManager.default.subpathsOfDirectory(atPath: TestPaths.packageRoot.appendingPathComponent("icons/hicolor").path)
            .filter { $0.hasSuffix(".png") || $0.hasSuffix(".svg") }.map { "/usr/share/icons/hicolor/\($0)" }
        XCTAssertEqual(icons.count, 9, "Herald's icon in its sizes and scalable, and the inbox window's scalable one")
        XCTAssertEqual(try files(of: packages.herald), ([
            "/usr/bin/herald", "/usr/libexec/herald-agent", "/usr/share/man/man1/herald.1.gz", "/usr/share/man/man8/herald-agent.8.gz",
            "/usr/share/bash-completion/completions/herald", "/usr/share/zsh/vendor-completions/_herald",
            "/usr/share/fish/vendor_completions.d/herald.fish",
            "/usr/share/applications/org.herald.Agent.desktop", "/usr/share/dbus-1/services/org.herald.Agent.service",
            "/usr/lib/systemd/user/herald-agent.service",
            "/usr/share/knotifications5/herald.notifyrc", "/usr/share/knotifications6/herald.notifyrc",
            "/usr/lib/systemd/user/herald-check.service", "/usr/lib/systemd/user/herald-check.timer",
            "/etc/xdg/autostart/org.herald.CheckRegistered.desktop",
            "/usr/share/doc/herald/copyright", "/usr/share/doc/herald/changelog.gz",
        ] + icons).sorted())
        XCTAssertEqual(try files(of: packages.demo), [
            "/usr/bin/herald-gtk-demo", "/usr/share/man/man1/herald-gtk-demo.1.gz",
            "/usr/share/applications/org.herald.GtkDemo.desktop",
            "/usr/share/doc/herald-gtk-demo/copyright", "/usr/share/doc/herald-gtk-demo/changelog.gz",
            "/usr/share/doc/herald-gtk-demo/examples/org.herald.GtkDemo.conf",
            "/usr/share/doc/herald-gtk-demo/examples/org.herald.GtkDemo.herald.desktop",
        ].sorted())
        XCTAssertEqual(try files(of: packages.inbox), [
            "/usr/bin/herald-inbox", "/usr/share/man/man1/herald-inbox.1.gz",
            "/usr/share/applications/org.herald.Inbox.desktop", "/usr/share/metainfo/org.herald.Inbox.metainfo.xml",
            "/usr/share/doc/herald-inbox/copyright", "/usr/share/doc/herald-inbox/changelog.gz",
        ].sorted())
        let libdir = try Self.libraryFolder()
        XCTAssertEqual(try files(of: packages.library), [
            "\(libdir)/libherald-1.so.0", "\(libdir)/libherald-1.so.0.0.0",
            "/usr/share/doc/libherald-1-0/changelog.gz", "/usr/share/doc/libherald-1-0/copyright",
        ])
        XCTAssertEqual(try files(of: packages.dev), [
            "/usr/include/herald-1/herald.h", "\(libdir)/libherald-1.so", "\(libdir)/pkgconfig/herald-1.pc",
            "/usr/share/doc/libherald-1-dev/changelog.gz", "/usr/share/doc/libherald-1-dev/copyright",
            "/usr/share/gir-1.0/Herald-1.gir", "/usr/share/vala/vapi/herald-1.deps", "/usr/share/vala/vapi/herald-1.vapi",
        ])
        XCTAssertEqual(try files(of: packages.typelib), [
            "\(libdir)/girepository-1.0/Herald-1.typelib",
            "/usr/share/doc/gir1.2-herald-1/changelog.gz", "/usr/share/doc/gir1.2-herald-1/copyright",
        ])
    }

    /// libherald-1-0 depends on the libraries dpkg-shlibdeps finds it links and on those Herald
    /// loads as it runs; its symbols file lists every function the header declares (and no other
    /// symbol), at the package's version, and its shlibs file names it, so that an app's package
    /// gets its dependency; the -dev package depends on the library and typelib of its own version
    /// and GLib's headers, the typelib on the library and GLib's typelibs.
    func testTheLibrarysPackagesDependAndDeclareTheirSymbolsAsADebianMaintainerExpects() throws {
        let packages = try Self.packages()
        let version = try field("Version", of: packages.library)
        let libraryDepends = try dependencies(of: packages.library)
        for library in ["libc6", "libglib2.0-0", "libsoup-3.0-0", "libnotify4", "glib-networking"] {
            XCTAssertEqual(libraryDepends.filter { $0.split(separator: " ").first.map(String.init) == library }.count, 1,
                           "libherald-1-0 depends on \(library): \(libraryDepends)")
        }
        XCTAssertEqual(libraryDepends.filter { $0.contains("gtk") || $0.hasPrefix("herald") }, [], "the library needs no GTK nor the command: \(libraryDepends)")
        XCTAssertEqual(try dependencies(of: packages.dev), ["libherald-1-0 (= \(version))", "gir1.2-herald-1 (= \(version))", "libglib2.0-dev"])
        XCTAssertEqual(try dependencies(of: packages.typelib), ["libherald-1-0 (= \(version))", "gir1.2-glib-2.0"])

        let header = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Sources/libherald/include/herald.h"), encoding: .utf8)
        let declared = Set(header.split(separator: "\n").flatMap { line -> [String] in
            if line.hasPrefix(" *") || line.hasPrefix("/*") || line.hasPrefix("#define") { return [] }
            if line.hasPrefix("G_DECLARE_FINAL_TYPE") { return [line.components(separatedBy: ", ")[1] + "_get_type"] }
            // "const char *herald_message_get_id (HeraldMessage *message);": the word before " (".
            return line.components(separatedBy: " (").dropLast().compactMap { $0.split(separator: " ").last?.trimmingCharacters(in: ["*"]) }
                .filter { $0.hasPrefix("herald_") }
        })
        XCTAssertGreaterThan(declared.count, 10, "the header declares the API: \(declared.sorted())")
        let symbols = declared.sorted().map { " \($0)@HERALD_1.0 \(version)\n" }.joined()
        XCTAssertEqual(try controlFile("symbols", of: packages.library), "libherald-1.so.0 libherald-1-0 #MINVER#\n" + symbols)
        XCTAssertEqual(try controlFile("shlibs", of: packages.library), "libherald-1 0 libherald-1-0 (>= \(version))\n")
        XCTAssertEqual(try controlFile("triggers", of: packages.library), "activate-noawait ldconfig\n", "the loader's cache learns the library")
    }

    func testHeraldInstallsAndRunsWithoutTheDemoTheDemoOnItAndAPurgeLeavesNothingOfThemOnDisk() throws {
        guard geteuid() == 0 else { throw XCTSkip("installing a package system-wide needs root (CI runs as root)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") else { throw XCTSkip("no apt-get on this machine") }
        for name in ["herald", "herald-gtk-demo"] {
            guard try !isInstalled(name) else {
                throw XCTSkip("a \(name) package is installed on this machine already; the test would replace and then purge it")
            }
        }
        let packages = try Self.packages()
        let apt = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "LANG": "C.UTF-8"]
        defer { _ = try? runToEnd("/usr/bin/apt-get", ["purge", "-y", "herald-gtk-demo", "herald"], environment: apt) }
        let install = try runToEnd("/usr/bin/apt-get", ["install", "-y", "--no-install-recommends", packages.herald], environment: apt)
        XCTAssertEqual(install.status, 0, install.output + install.errors)
        XCTAssertFalse(try isInstalled("herald-gtk-demo"), "herald installs without the demo")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/usr/bin/herald-gtk-demo"))
        let heraldFiles = try runToEnd("/usr/bin/dpkg-query", ["-L", "herald"]).output.split(separator: "\n").map(String.init)
        XCTAssertEqual(heraldFiles.filter { !isFolder($0) }.sorted(), try files(of: packages.herald), "dpkg installs what the package lists")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: Self.timerEnabled), "/usr/lib/systemd/user/herald-check.timer",
                       "the postinst enables the timer for every user")
        XCTAssertEqual(try controlFile("conffiles", of: packages.herald), "/etc/xdg/autostart/org.herald.CheckRegistered.desktop\n")

        let version = try runToEnd("/usr/bin/herald", ["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.output, try runToEnd(TestPaths.herald, ["--version"]).output, "the package holds the version of these sources")
        try assertTheDemoShowsTheSampleFeed()
        try assertManRendersEveryCommand()
        let completion = try bashCompletionOfHeraldSt(file: "/usr/share/bash-completion/completions/herald")
        XCTAssertEqual(completion.output, "complete -o filenames -F _herald herald\nstate\n", completion.errors)

        let installDemo = try runToEnd("/usr/bin/apt-get", ["install", "-y", "--no-install-recommends", packages.demo], environment: apt)
        XCTAssertEqual(installDemo.status, 0, installDemo.output + installDemo.errors)
        let demoFiles = try runToEnd("/usr/bin/dpkg-query", ["-L", "herald-gtk-demo"]).output.split(separator: "\n").map(String.init)
        XCTAssertEqual(demoFiles.filter { !isFolder($0) }.sorted(), try files(of: packages.demo), "dpkg installs what the package lists")
        let demoUsage = try runToEnd("/usr/bin/herald-gtk-demo", ["--no-such-option"])
        XCTAssertEqual(demoUsage.status, 64, "the GTK demo starts with the libraries the package depends on")
        XCTAssertEqual(demoUsage.errors, "usage: herald-gtk-demo [--feed URL] [--app-id ID] [--in-window] [--whats-new]\n")

        let purge = try runToEnd("/usr/bin/apt-get", ["purge", "-y", "herald-gtk-demo", "herald"], environment: apt)
        XCTAssertEqual(purge.status, 0, purge.output + purge.errors)
        for name in ["herald", "herald-gtk-demo"] {
            XCTAssertEqual(try runToEnd("/usr/bin/dpkg-query", ["-W", name]).status, 1, "dpkg knows no \(name) package any more")
        }
        // A folder the packages shared with other packages stays theirs (and the root, "/.", everyone's);
        // everything else they listed is gone.
        let left = try (heraldFiles + demoFiles).filter { $0 != "/." }.filter { path in
            guard FileManager.default.fileExists(atPath: path) else { return false }
            return try !isFolder(path) || runToEnd("/usr/bin/dpkg-query", ["-S", path]).status != 0
        }
        XCTAssertEqual(left, [], "nothing the packages installed is left")
        let records = try FileManager.default.contentsOfDirectory(atPath: "/var/lib/dpkg/info").filter { $0.hasPrefix("herald.") || $0.hasPrefix("herald-gtk-demo.") }
        XCTAssertEqual(records, [], "dpkg keeps no record of them")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: Self.timerEnabled), "the purge takes the timer's link away")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/systemd/user/herald-check.timer"), "and its mask")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/var/lib/systemd/deb-systemd-user-helper-enabled/herald-check.timer.dsh-also"),
                       "and deb-systemd-helper's record of it")
    }

    /// With the library's three packages installed (and not herald's), the Python example, copied
    /// to a folder outside the checkout, runs with /usr/bin/python3 with no GI_TYPELIB_PATH, no
    /// loader path and no Swift toolchain on PATH: it shows a feed's message and its `answered`
    /// handler hears the click. A C program builds with `pkg-config --cflags --libs herald-1`
    /// alone, and dpkg-shlibdeps gives its package the dependency on libherald-1-0. A purge
    /// leaves nothing of the packages on disk.
    func testTheLibrarysPackagesInstallAndThePythonExampleRunsFromThemWithNoSwiftToolchain() throws {
        guard geteuid() == 0 else { throw XCTSkip("installing a package system-wide needs root (CI runs as root)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") else { throw XCTSkip("no apt-get on this machine") }
        let names = ["libherald-1-0", "libherald-1-dev", "gir1.2-herald-1"]
        for name in names {
            guard try !isInstalled(name) else {
                throw XCTSkip("a \(name) package is installed on this machine already; the test would replace and then purge it")
            }
        }
        guard FileManager.default.fileExists(atPath: "/usr/lib/\(try Self.triplet())/girepository-1.0/Gtk-4.0.typelib") else {
            throw XCTSkip("GTK 4's typelib is not installed (Debian: gir1.2-gtk-4.0)")
        }
        let packages = try Self.packages()
        let apt = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "LANG": "C.UTF-8"]
        defer { _ = try? runToEnd("/usr/bin/apt-get", ["purge", "-y"] + names, environment: apt) }
        let install = try runToEnd("/usr/bin/apt-get", ["install", "-y", "--no-install-recommends", packages.library, packages.dev, packages.typelib],
                                   environment: apt)
        XCTAssertEqual(install.status, 0, install.output + install.errors)
        var installed: [String] = []
        for (name, deb) in zip(names, [packages.library, packages.dev, packages.typelib]) {
            let listed = try runToEnd("/usr/bin/dpkg-query", ["-L", name]).output.split(separator: "\n").map(String.init)
            XCTAssertEqual(listed.filter { !isFolder($0) }.sorted(), try files(of: deb), "dpkg installs what \(name) lists")
            installed += listed
        }
        XCTAssertFalse(try isInstalled("herald"), "the library installs without the command")

        let session = try DesktopSession(server: .mock("actions body body-markup"), display: true)
        defer { session.stop() }
        let key = "2024/01/10"
        let feed = try session.serveFeed(Fixtures.xmlFeed([key: ["Title": "A tip", "Message": "Plain text", "ActionURL": "https://example.com/tip"]]))
        let folder = try Fixtures.temporaryDirectory("herald-python-app")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("herald_app.py")
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("desktop/examples/python/herald_app.py"), to: script)
        var environment = session.environment
        environment["PATH"] = "/usr/bin:/bin"
        for name in ["GI_TYPELIB_PATH", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "PYTHONPATH"] { environment[name] = nil }
        let app = try ChildProcess("/usr/bin/python3", [script.path, feed.url("feed.plist"), "org.example.Packaged"], environment: environment,
                                   directory: folder, name: "app")
        defer { app.stop() }
        XCTAssertTrue(eventually(within: 20) { app.output == "shown \(key)\n" }, "\(app.output)\(app.errorOutput)")
        try session.invoke("ignore", on: 1)
        XCTAssertTrue(eventually { app.output == "shown \(key)\nanswered \(key) ignore\nfinished\n" }, "\(app.output)\(app.errorOutput)")
        app.signal(SIGTERM)
        XCTAssertEqual(app.wait(), 0, app.errorOutput)

        // An app's package: built against the installed files, its dependency from the symbols file.
        try "#include <herald.h>\nint main (void) { g_object_unref (herald_client_new (\"https://example.com/feed.plist\", \"org.example.Packaged\", \"1\")); return 0; }\n"
            .write(to: folder.appendingPathComponent("app.c"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("debian"), withIntermediateDirectories: true)
        try "Source: app\n\nPackage: app\nArchitecture: any\n".write(to: folder.appendingPathComponent("debian/control"), atomically: true, encoding: .utf8)
        let linked = try runToEnd("/bin/sh", ["-c", "cd \"$0\" && gcc -o app app.c $(pkg-config --cflags --libs herald-1) && ./app && dpkg-shlibdeps -O app",
                                            folder.path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        XCTAssertEqual(linked.status, 0, linked.errors)
        let version = try field("Version", of: packages.library)
        XCTAssertTrue(linked.output.hasPrefix("shlibs:Depends="), linked.output)
        XCTAssertTrue(linked.output.trimmingCharacters(in: .newlines).dropFirst("shlibs:Depends=".count).components(separatedBy: ", ")
                        .contains("libherald-1-0 (>= \(version))"), linked.output)

        let purge = try runToEnd("/usr/bin/apt-get", ["purge", "-y"] + names, environment: apt)
        XCTAssertEqual(purge.status, 0, purge.output + purge.errors)
        let left = try installed.filter { $0 != "/." }.filter { path in
            guard FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil else { return false }
            return try !isFolder(path) || runToEnd("/usr/bin/dpkg-query", ["-S", path]).status != 0
        }
        XCTAssertEqual(left, [], "nothing the packages installed is left")
    }

    /// Every package carries the MIT licence of LICENSE in its copyright file.
    func testEveryPackageCarriesTheMITLicenceOfLICENSEInItsCopyrightFile() throws {
        let packages = try Self.packages()
        let licence = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("LICENSE"), encoding: .utf8)
        XCTAssertEqual(licence.split(separator: "\n").first, "MIT License")
        // DEP-5 keeps a licence's text indented by one space, a blank line as " .".
        let permission = try XCTUnwrap(licence.range(of: "Permission is hereby granted")).lowerBound
        let indented = licence[permission...].split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.isEmpty ? " ." : " " + $0 }.joined(separator: "\n")
        for (deb, name) in [(packages.herald, "herald"), (packages.demo, "herald-gtk-demo"), (packages.inbox, "herald-inbox"), (packages.library, "libherald-1-0"),
                            (packages.dev, "libherald-1-dev"), (packages.typelib, "gir1.2-herald-1")] {
            let copyright = try runToEnd("/bin/sh", ["-c", "/usr/bin/dpkg-deb --fsys-tarfile \"$0\" | /bin/tar -xO ./usr/share/doc/$1/copyright", deb, name])
            XCTAssertEqual(copyright.status, 0, copyright.errors)
            XCTAssertTrue(copyright.output.contains("Files: *\nCopyright: 2026 the Herald authors\nLicense: Expat\n"), copyright.output)
            XCTAssertTrue(copyright.output.hasSuffix("License: Expat\n" + indented + "\n"), copyright.output)
        }
    }

    /// herald's postinst and postrm, run as dpkg runs them against a root of their own
    /// (`DPKG_ROOT`, which deb-systemd-helper honours), keep the timer as dh_installsystemduser's
    /// scripts do: enabled at the first installation, the same after a second configure, masked
    /// at a removal and enabled again at a reinstallation, and nothing left after a purge; an
    /// administrator's `--global disable` holds across an upgrade, and their own mask across a
    /// reinstallation.
    func testTheMaintainerScriptsEnableTheTimerOnceMaskItAtARemovalAndLeaveNothingAfterAPurge() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/deb-systemd-helper") else {
            throw XCTSkip("deb-systemd-helper is not installed: apt-get install init-system-helpers")
        }
        let root = try Fixtures.temporaryDirectory("herald-dpkg-root")
        defer { try? FileManager.default.removeItem(at: root) }
        let unit = root.path + "/usr/lib/systemd/user/herald-check.timer"
        func installUnit() throws {
            try FileManager.default.createDirectory(atPath: (unit as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("desktop/systemd/herald-check.timer"), encoding: .utf8)
                .write(toFile: unit, atomically: true, encoding: .utf8)
        }
        /// Runs a maintainer script with its arguments, as dpkg does.
        func run(_ script: String, _ arguments: String...) throws {
            let result = try runToEnd("/bin/sh", [TestPaths.packageRoot.appendingPathComponent("desktop/debian/herald.\(script)").path] + arguments,
                                      environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DPKG_ROOT": root.path,
                                                    "DPKG_MAINTSCRIPT_PACKAGE": "herald", "DPKG_MAINTSCRIPT_NAME": script])
            XCTAssertEqual(result.status, 0, "\(script) \(arguments): \(result.output)\(result.errors)")
        }
        /// Every link under the root with its target, and every file but the unit.
        func left() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted().compactMap { path in
                let full = root.path + "/" + path
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: full) { return "/\(path) -> \(target)" }
                var folder: ObjCBool = false
                return full == unit || FileManager.default.fileExists(atPath: full, isDirectory: &folder) && folder.boolValue ? nil : "/" + path
            }
        }
        let enabled = [
            "/etc/systemd/user/timers.target.wants/herald-check.timer -> /usr/lib/systemd/user/herald-check.timer",
            "/var/lib/systemd/deb-systemd-user-helper-enabled/herald-check.timer.dsh-also",
            "/var/lib/systemd/deb-systemd-user-helper-enabled/timers.target.wants/herald-check.timer",
        ]
        let masked = ["/etc/systemd/user/herald-check.timer -> /dev/null"] + enabled + ["/var/lib/systemd/deb-systemd-user-helper-masked/herald-check.timer"]

        try installUnit()
        try run("postinst", "configure")
        XCTAssertEqual(try left(), enabled, "enabled at the first installation")
        try run("postinst", "configure", "1.0")
        XCTAssertEqual(try left(), enabled, "an upgrade keeps it so, and adds nothing")
        try FileManager.default.removeItem(atPath: unit)
        try run("postrm", "remove")
        XCTAssertEqual(try left(), masked, "a removal masks it")
        try run("postrm", "remove")
        XCTAssertEqual(try left(), masked, "twice, the same")
        try installUnit()
        try run("postinst", "configure", "1.0")
        XCTAssertEqual(try left(), enabled, "a reinstallation takes the removal's mask away")
        try FileManager.default.removeItem(atPath: unit)
        try run("postrm", "remove")
        try run("postrm", "purge")
        XCTAssertEqual(try left(), [], "a purge leaves nothing")
        try run("postrm", "purge")
        XCTAssertEqual(try left(), [], "a second purge finds nothing to do")

        // The administrator's choices: `systemctl --global disable` before an upgrade, their own mask before a reinstallation.
        try installUnit()
        try run("postinst", "configure")
        try FileManager.default.removeItem(atPath: root.path + "/etc/systemd/user/timers.target.wants/herald-check.timer")
        try run("postinst", "configure", "1.0")
        XCTAssertEqual(try left(), Array(enabled.dropFirst()), "disabled by the administrator, it stays so at an upgrade")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/etc/systemd/user/herald-check.timer", withDestinationPath: "/dev/null")
        try run("postinst", "configure", "1.0")
        XCTAssertEqual(try left(), ["/etc/systemd/user/herald-check.timer -> /dev/null"] + enabled.dropFirst(), "their own mask stays")
    }

    /// The link that enables herald-check.timer for every user (`systemctl --global enable`).
    private static let timerEnabled = "/etc/systemd/user/timers.target.wants/herald-check.timer"

    /// A field of a package's control file, as dpkg-deb reads it.
    private func field(_ name: String, of deb: String) throws -> String {
        let result = try runToEnd("/usr/bin/dpkg-deb", ["--field", deb, name])
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output.trimmingCharacters(in: .newlines)
    }

    /// A file of a package's control archive (symbols, shlibs, triggers), as dpkg-deb holds it.
    private func controlFile(_ name: String, of deb: String) throws -> String {
        let result = try runToEnd("/bin/sh", ["-c", "/usr/bin/dpkg-deb --ctrl-tarfile \"$0\" | /bin/tar -xO ./$1", deb, name])
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output
    }

    /// Debian's multiarch triplet of this machine (x86_64-linux-gnu).
    private static func triplet() throws -> String {
        let result = try runToEnd("/usr/bin/dpkg-architecture", ["-qDEB_HOST_MULTIARCH"])
        guard result.status == 0 else { throw TestSetupError("dpkg-architecture does not name the multiarch triplet: \(result.errors)") }
        return result.output.trimmingCharacters(in: .newlines)
    }

    /// Where Debian keeps this architecture's libraries: /usr/lib/<triplet>.
    private static func libraryFolder() throws -> String { "/usr/lib/" + (try triplet()) }

    /// A package's Depends, one dependency an element.
    private func dependencies(of deb: String) throws -> [String] {
        try field("Depends", of: deb).components(separatedBy: ", ")
    }

    /// Every entry of a package that is not a folder, as an installed path, sorted.
    private func files(of deb: String) throws -> [String] {
        let contents = try runToEnd("/usr/bin/dpkg-deb", ["--contents", deb])
        XCTAssertEqual(contents.status, 0, contents.errors)
        // "-rw-r--r-- root/root 1234 2026-11-22 09:37 ./usr/bin/herald": the path is the sixth field
        // (of a link, before " -> " and its target).
        return contents.output.split(separator: "\n").filter { !$0.hasPrefix("d") }
            .map { String($0.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)[5].dropFirst()) }
            .map { $0.components(separatedBy: " -> ")[0] }.sorted()
    }

    /// Whether dpkg has a package of that name installed.
    private func isInstalled(_ name: String) throws -> Bool {
        try runToEnd("/usr/bin/dpkg-query", ["-W", "-f", "${db:Status-Abbrev}", name]).output.hasPrefix("i")
    }

    /// Whether a path is a folder on this machine.
    private func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
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

    /// Builds the packages into a temporary folder once, with the release build the other tests use.
    private static func packages() throws -> Packages {
        if built == nil {
            built = Result {
                let output = try Fixtures.temporaryDirectory("herald-deb")
                var environment = ProcessInfo.processInfo.environment
                environment["HERALD_BUILD_DIR"] = TestPaths.packageRoot.appendingPathComponent(".build-release").path
                environment["HERALD_SKIP_LINTIAN"] = "1"   // testEveryPackageBuildsWithoutALintianErrorOrWarning runs it
                let script = TestPaths.packageRoot.appendingPathComponent("desktop/debian/build-deb.sh").path
                let result = try runToEnd(script, ["--output", output.path], environment: environment)
                guard result.status == 0 else { throw TestSetupError("build-deb.sh exited \(result.status):\n\(result.errors)") }
                let debs = result.output.split(separator: "\n").map(String.init)
                guard debs.count == 6 else { throw TestSetupError("build-deb.sh printed \(debs), not the paths of six packages") }
                return Packages(herald: debs[0], demo: debs[1], inbox: debs[2], library: debs[3], dev: debs[4], typelib: debs[5])
            }
        }
        return try built!.get()
    }

    override class func tearDown() {
        if case .success(let packages)? = built { try? FileManager.default.removeItem(at: URL(fileURLWithPath: packages.herald).deletingLastPathComponent()) }
        built = nil
        super.tearDown()
    }
}
