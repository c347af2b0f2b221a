import Foundation
import HeraldTestSupport
import XCTest

/// The C declarations Herald writes by hand are the libraries' own: a check file in
/// `Tests/support` includes the real headers, then Herald's, and compiles only when they agree.
final class DeclarationsCheckTests: XCTestCase {
    /// libsoup's and libnotify's prototypes and constants in `CDesktopLibraries.h`.
    func testHandWrittenDeclarationsCompileAgainstTheRealHeaders() throws {
        try assertCompiles("declarations_check.c", including: "Sources/CDesktopLibraries/include",
                           packages: ["libsoup-3.0", "libnotify"], from: "libsoup-3.0-dev and libnotify-dev")
    }

    /// GTK 4's types, constants and prototypes in `CGtk.h`, which herald-gtk-demo calls.
    func testHandWrittenGtkDeclarationsCompileAgainstGtksHeaders() throws {
        try assertCompiles("gtk_declarations_check.c", including: "Sources/CGtk/include",
                           packages: ["gtk4"], from: "libgtk-4-dev")
    }

    /// libadwaita 1.2's prototypes in `CAdwaita.h`, which herald-inbox calls.
    func testHandWrittenAdwaitaDeclarationsCompileAgainstLibadwaitasHeaders() throws {
        try assertCompiles("adwaita_declarations_check.c", including: "Sources/CAdwaita/include",
                           packages: ["libadwaita-1"], from: "libadwaita-1-dev", alsoIncluding: ["Sources/CGtk/include"])
    }

    /// Compiles `Tests/support/CHECK` with the pkg-config `packages`' flags and Herald's
    /// `including` folder: no message, and success.
    private func assertCompiles(_ check: String, including folder: String, packages: [String], from debianPackages: String, alsoIncluding others: [String] = [],
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let environment = ProcessInfo.processInfo.environment
        let flags = try runToCompletion("/usr/bin/pkg-config", ["--cflags"] + packages, environment: environment)
        guard flags.status == 0 else { throw XCTSkip("the check needs \(debianPackages) (pkg-config)") }
        let root = TestPaths.packageRoot
        let arguments = ["-c", #"exec cc -fsyntax-only -Werror "$@" 2>&1"#, "cc"]
            + flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
            + (others.flatMap { ["-I", root.appendingPathComponent($0).path] })
            + ["-I", root.appendingPathComponent(folder).path, "-I", root.appendingPathComponent("Sources/CDesktopLibraries/include").path,
               root.appendingPathComponent("Tests/support/\(check)").path]
        let compile = try runToCompletion("/bin/sh", arguments, environment: environment)
        XCTAssertEqual(compile.output, "", file: file, line: line)
        XCTAssertEqual(compile.status, 0, file: file, line: line)
    }
}
