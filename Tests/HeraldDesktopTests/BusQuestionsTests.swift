import CDesktopLibraries
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// Questions sent together come back in the order they were asked, each reply or `nil` for one
/// that failed; every call's slot is let go by its callback (the memcheck script runs this
/// class under valgrind, which reports a slot never released).
final class BusQuestionsTests: XCTestCase {
    func testTheRepliesComeInTheQuestionsOrderAndAFailedCallIsNil() throws {
        _ = InProcessDesktop.session
        try MainContext.assumeIsolated {
            try DesktopLibrary.gio.load()
            var error: UnsafeMutablePointer<GError>?
            let bus = try XCTUnwrap(g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error), "the session bus")
            defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
            let owner = { (name: String) in
                BusQuestions.Question("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [name], reply: "(s)")
            }
            let inhibited = BusQuestions.Question("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                  "org.freedesktop.DBus.Properties", "Get", ["org.freedesktop.Notifications", "Inhibited"],
                                                  reply: "(v)")
            let nobody = BusQuestions.Question("org.example.Nobody", "/org/example/Nobody", "org.example.Nobody", "Ask", [], reply: "()")
            let replies = BusQuestions.ask(bus, [owner("org.freedesktop.Notifications"), nobody, inhibited, owner("org.freedesktop.DBus")])
            defer { for reply in replies { if let reply { g_variant_unref(reply) } } }
            XCTAssertEqual(replies.map { $0 != nil }, [true, false, false, true],
                           "the server's owner; nobody owns org.example.Nobody and nothing is started; the mock has no Inhibited; the bus owns its name")
            let names = replies.map { reply in reply.map { tuple -> String in
                let value = g_variant_get_child_value(tuple, 0)!
                defer { g_variant_unref(value) }
                return String(cString: g_variant_get_string(value, nil))
            } }
            XCTAssertTrue(names[0]?.hasPrefix(":") == true, "a unique name: \(String(describing: names[0]))")
            XCTAssertEqual(names[3], "org.freedesktop.DBus")
        }
    }
}
