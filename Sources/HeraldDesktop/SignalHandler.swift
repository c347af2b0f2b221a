import CDesktopLibraries

/// Swift closures connected to GObject signals. Each is kept in a `CallbackBox` that the
/// connection holds: GLib releases it once, in the handler's destroy notify, when the handler is
/// disconnected or the object goes.
///
/// A signal's C handler takes the instance, the signal's own arguments and then the user data,
/// so each shape of handler has its own `connect`.
@MainContext
package enum SignalHandler {
    /// Connects `run` to `signal` of `instance`, for a signal whose handler takes the instance
    /// alone (`clicked`, `value-changed`, GApplication's `activate`).
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping @MainContext () -> Void) {
        let handler: @convention(c) (gpointer?, gpointer?) -> Void = { _, box in CallbackBox<Void>.invoke(box, ()) }
        connect(instance, signal, unsafeBitCast(handler, to: GCallback.self), box: CallbackBox<Void> { _ in run() })
    }

    /// Connects `run` to `signal` of `instance`, for a signal whose handler takes the instance and
    /// one argument that `run` does not need (`notify::PROPERTY`, whose argument is the property's
    /// GParamSpec).
    package static func connectIgnoringArgument(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping @MainContext () -> Void) {
        let handler: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, box in CallbackBox<Void>.invoke(box, ()) }
        connect(instance, signal, unsafeBitCast(handler, to: GCallback.self), box: CallbackBox<Void> { _ in run() })
    }

    /// Connects `run` to the `activate` signal of a GSimpleAction: it hears each activation's
    /// parameter, `nil` for an action without one.
    package static func connectActivation(of action: OpaquePointer, _ run: @escaping @MainContext (DBusValue?) -> Void) {
        let handler: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, parameter, box in
            CallbackBox<DBusValue?>.invoke(box, parameter.map(DBusValue.init))
        }
        connect(UnsafeMutableRawPointer(action), "activate", unsafeBitCast(handler, to: GCallback.self), box: CallbackBox<DBusValue?>(run))
    }

    private static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: GCallback, box: AnyObject) {
        g_signal_connect_data(instance, signal, handler, Unmanaged.passRetained(box).toOpaque(),
                              { box, _ in CallbackBox<Void>.release(box) }, GConnectFlags(rawValue: 0))
    }
}
