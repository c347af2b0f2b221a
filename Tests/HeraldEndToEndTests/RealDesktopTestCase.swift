import HeraldTestSupport
import XCTest

extension XCTestCase {
    /// `server` on a desktop of its own for this test, on the display the tests share, stopped
    /// when the test ends; with the Herald agent as the package installs it when `agent` is set
    /// (`RealDesktop.init`). Skipped when a program of the server is missing.
    func startRealDesktop(_ server: RealServer, agent: Bool = false) throws -> RealDesktop {
        _ = SharedDisplayStopper.registered
        let missing = server.missingPrograms
        if !missing.isEmpty { throw XCTSkip("\(server.rawValue) is not installed: no \(missing.joined(separator: ", "))") }
        let desktop = try RealDesktop(server: server, display: try SharedDisplay.start(), agent: agent)
        addTeardownBlock { desktop.stop() }
        return desktop
    }
}
