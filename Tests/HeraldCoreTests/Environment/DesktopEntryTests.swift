import HeraldCore
import XCTest

/// An `Exec` value runs exactly the arguments it was made from.
final class DesktopEntryTests: XCTestCase {
    func testExecQuotesWhatNeedsQuotingAndRoundTrips() {
        let arguments = ["/opt/my apps/herald", "check", "--feed", "https://e.com/f.plist?a=1&b=%20", "--app-id", "org.e.App", "say \"hi\" $HOME \\ `x`", ""]
        let exec = DesktopEntry.exec(arguments)
        XCTAssertEqual(exec, #""/opt/my apps/herald" check --feed "https://e.com/f.plist?a=1&b=%%20" --app-id org.e.App "say \"hi\" \$HOME \\ \`x\`" """#)
        XCTAssertEqual(DesktopEntry.arguments(ofExec: exec), arguments)
    }

    func testFieldCodesAreDroppedWhenRead() {
        XCTAssertEqual(DesktopEntry.arguments(ofExec: "app %u --x %%y"), ["app", "--x", "%y"])
    }

    func testAnEntryStartsAProgramOnlyWhenItsExecAndTryExecAreThere() {
        let path = ["PATH": "/nonexistent:/bin"]
        func entry(_ exec: String, tryExec: String? = nil) -> DesktopEntry {
            DesktopEntry(fields: [("Type", "Application"), ("Exec", exec)] + (tryExec.map { [("TryExec", $0)] } ?? []))
        }
        XCTAssertTrue(entry("sh -c true").startsAProgram(environment: path), "found in PATH")
        XCTAssertTrue(entry("/bin/sh agent").startsAProgram(environment: [:]), "an absolute path")
        XCTAssertFalse(entry("herald-not-installed agent").startsAProgram(environment: path))
        XCTAssertFalse(entry("sh").startsAProgram(environment: ["PATH": "/nonexistent"]), "not in this PATH")
        XCTAssertFalse(entry("/bin/sh", tryExec: "herald-not-installed").startsAProgram(environment: path))
        XCTAssertFalse(DesktopEntry(fields: [("Type", "Application")]).startsAProgram(environment: path), "no Exec")
    }
}
