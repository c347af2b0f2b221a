import CDesktopLibraries
import Foundation
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// A Swift closure connected to a GObject signal runs on each emission, hears the signal's
/// argument where it takes one, and is released exactly once: when its object is finalized, not
/// before. Each test counts the finalizations of an object the closure captures.
final class SignalHandlerTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Captured.finalized = 0
    }

    func testAHandlerOfTheInstanceAloneRunsOnEmissionAndIsReleasedOnceWithItsObject() throws {
        try MainContext.assumeIsolated {
            try DesktopLibrary.gio.load()
            let cancellable = try XCTUnwrap(g_cancellable_new())
            let heard = Heard<Void>()
            do {
                let captured = Captured()
                SignalHandler.connect(UnsafeMutableRawPointer(cancellable), "cancelled") { withExtendedLifetime(captured) { heard.values.append(()) } }
            }
            g_cancellable_cancel(cancellable)
            XCTAssertEqual(heard.values.count, 1)
            XCTAssertEqual(Captured.finalized, 0, "kept while its object lives")
            g_object_unref(UnsafeMutableRawPointer(cancellable))
            XCTAssertEqual(Captured.finalized, 1)
        }
    }

    func testAHandlerThatIgnoresTheArgumentRunsOnEachNotifyAndIsReleasedOnceWithItsObject() throws {
        try MainContext.assumeIsolated {
            try DesktopLibrary.gio.load()
            let action = try XCTUnwrap(g_simple_action_new("refresh", nil))
            let heard = Heard<Void>()
            do {
                let captured = Captured()
                SignalHandler.connectIgnoringArgument(UnsafeMutableRawPointer(action), "notify::enabled") {
                    withExtendedLifetime(captured) { heard.values.append(()) }
                }
            }
            let object = UnsafeMutableRawPointer(action).assumingMemoryBound(to: GObject.self)
            g_object_notify(object, "enabled")
            g_object_notify(object, "name")
            g_object_notify(object, "enabled")
            XCTAssertEqual(heard.values.count, 2, "only its own property's notifications")
            XCTAssertEqual(Captured.finalized, 0)
            g_object_unref(UnsafeMutableRawPointer(action))
            XCTAssertEqual(Captured.finalized, 1)
        }
    }

    func testAnActionsHandlerHearsEachParameterAndIsReleasedOnceWithTheAction() throws {
        try MainContext.assumeIsolated {
            try DesktopLibrary.gio.load()
            let activate = try Self.actionActivate()
            let type = g_variant_type_new("s")
            defer { g_variant_type_free(type) }
            let withParameter = try XCTUnwrap(g_simple_action_new("view", type))
            let without = try XCTUnwrap(g_simple_action_new("refresh", nil))
            let heard = Heard<DBusValue?>()
            do {
                let captured = Captured()
                for action in [withParameter, without] {
                    SignalHandler.connectActivation(of: action) { parameter in withExtendedLifetime(captured) { heard.values.append(parameter) } }
                }
            }
            activate(withParameter, g_variant_new_string("org.example.App 2026/11/01"))
            activate(without, nil)
            XCTAssertEqual(heard.values, [.string("org.example.App 2026/11/01"), nil])
            g_object_unref(UnsafeMutableRawPointer(withParameter))
            XCTAssertEqual(Captured.finalized, 0, "the other action's handler still holds it")
            g_object_unref(UnsafeMutableRawPointer(without))
            XCTAssertEqual(Captured.finalized, 1)
        }
    }

    /// GIO's `g_action_activate`, which Herald itself never calls (GIO is loaded, not linked).
    private static func actionActivate() throws -> @convention(c) (OpaquePointer?, OpaquePointer?) -> Void {
        let gio = try XCTUnwrap(dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_NOLOAD))
        let symbol = try XCTUnwrap(dlsym(gio, "g_action_activate"))
        return unsafeBitCast(symbol, to: (@convention(c) (OpaquePointer?, OpaquePointer?) -> Void).self)
    }
}

/// What a handler heard, in order.
@MainContext
private final class Heard<Value> {
    var values: [Value] = []
}

/// An object captured by a handler, counting its own finalizations.
private final class Captured {
    nonisolated(unsafe) static var finalized = 0
    deinit { Self.finalized += 1 }
}
