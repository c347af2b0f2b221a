import Foundation
import HeraldTestSupport
import XCTest

/// The prototypes and constants of libsoup and libnotify that Herald declares by hand
/// (`CDesktopLibraries.h`) are the libraries' own: `Tests/support/declarations_check.c`
/// includes the real headers, then Herald's, and compiles only when they agree.
final class DeclarationsCheckTests: XCTestCase {
    func testHandWrittenDeclarationsCompileAgainstTheRealHeaders() throws {
        let environment = ProcessInfo.processInfo.environment
        let flags = try runToCompletion("/usr/bin/pkg-config", ["--cflags", "libsoup-3.0", "libnotify"], environment: environment)
        guard flags.status == 0 else { throw XCTSkip("the check needs libsoup-3.0-dev and libnotify-dev (pkg-config)") }
        let root = TestPaths.packageRoot
        let arguments = ["-c", #"exec cc -fsyntax-only -Werror "$@" 2>&1"#, "cc"]
            + flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
            + ["-I", root.appendingPathComponent("Sources/CDesktopLibraries/include").path,
               root.appendingPathComponent("Tests/support/declarations_check.c").path]
        let compile = try runToCompletion("/bin/sh", arguments, environment: environment)
        XCTAssertEqual(compile.output, "")
        XCTAssertEqual(compile.status, 0)
    }
}
