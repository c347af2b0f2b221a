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
}
