import Foundation
import HeraldDesktop
import HeraldTestSupport
import XCTest

private var session: DesktopSession { InProcessDesktop.session }

/// The Herald agent's D-Bus service (`SessionService`): the boxes GIO holds its call handler and
/// its name-ownership handler in are released once each, when the service stops, and a call
/// is answered once, on the main context.
final class SessionServiceLifetimeTests: XCTestCase {
    static let introspection = """
        <node><interface name="org.example.Lifetime">
          <method name="Ping"><arg type="s" name="text" direction="in"/><arg type="s" name="reply" direction="out"/></method>
        </interface></node>
        """

    override func setUp() {
        super.setUp()
        _ = InProcessDesktop.session
    }

    func testACallIsAnsweredOnceAndEveryCallbackIsReleasedWhenTheServiceStops() throws {
        try MainContext.assumeIsolated {
            weak var callCanary: Canary?
            weak var ownershipCanary: Canary?
            var calls: [String] = []
            var ownerships: [SessionService.Ownership] = []
            do {
                let (forCalls, forOwnership) = (Canary(), Canary())
                (callCanary, ownershipCanary) = (forCalls, forOwnership)
                let service = try SessionService(path: "/org/example/Lifetime", introspection: Self.introspection) { call in
                    withExtendedLifetime(forCalls) {
                        calls.append(call.method + " " + (call.parameters == .tuple([.string("hi")]) ? "hi" : "?"))
                        call.reply([.string("pong")])
                        call.reply([.string("a second reply is not sent")])
                    }
                }
                service.own("org.example.Lifetime") { ownership in withExtendedLifetime(forOwnership) { ownerships.append(ownership) } }
                XCTAssertTrue(spin(5) { ownerships == [.owned] })
                let ping = try ChildProcess("/usr/bin/gdbus", ["call", "--session", "--dest", "org.example.Lifetime", "--object-path",
                                                               "/org/example/Lifetime", "--method", "org.example.Lifetime.Ping", "hi"],
                                            environment: session.environment, directory: session.directory, name: "gdbus-ping")
                XCTAssertTrue(spin(10) { ping.output.contains("pong") }, ping.errorOutput)
                XCTAssertEqual(ping.wait(seconds: 5), 0)
                XCTAssertEqual(ping.output, "('pong',)\n")
                service.stop()
            }
            spin(0.3) { callCanary == nil && ownershipCanary == nil }
            XCTAssertEqual(calls, ["Ping hi"])
            XCTAssertNil(callCanary, "the call handler's box is released when the object is unexported")
            XCTAssertNil(ownershipCanary, "the ownership handler's box is released when the name is released")
            XCTAssertFalse(ownerships.contains(.lost), "releasing the name is not losing it: \(ownerships)")
        }
    }
}
