import CAdwaita
import HeraldDesktop

/// A Swift closure connected to a GObject signal: the connection holds it, and GLib releases it
/// (the destroy notify) when the object goes.
@MainContext
final class SignalHandler {
    let run: @MainContext (UnsafeMutableRawPointer?) -> Void

    private init(_ run: @escaping @MainContext (UnsafeMutableRawPointer?) -> Void) { self.run = run }

    /// Connects `run` to `signal` of `instance`, for a signal whose handler takes the instance
    /// and one argument (`notify::…`, GSimpleAction's `activate`), which `run` is given.
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                        _ run: @escaping @MainContext (UnsafeMutableRawPointer?) -> Void) {
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, argument, pointer in
            nonisolated(unsafe) let argument = argument
            let box = Unmanaged<SignalHandler>.fromOpaque(pointer!).takeUnretainedValue()
            MainContext.assumeIsolated { box.run(argument) }
        }
        connect(instance, signal, unsafeBitCast(handler, to: GCallback.self), run)
    }

    /// Connects `run` to `signal` of `instance`, for a signal whose handler takes the instance
    /// alone (`value-changed`).
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping @MainContext () -> Void) {
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, pointer in
            let box = Unmanaged<SignalHandler>.fromOpaque(pointer!).takeUnretainedValue()
            MainContext.assumeIsolated { box.run(nil) }
        }
        connect(instance, signal, unsafeBitCast(handler, to: GCallback.self)) { _ in run() }
    }

    private static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback,
                                _ run: @escaping @MainContext (UnsafeMutableRawPointer?) -> Void) {
        g_signal_connect_data(instance, signal, callback, Unmanaged.passRetained(SignalHandler(run)).toOpaque(),
                              { pointer, _ in Unmanaged<SignalHandler>.fromOpaque(pointer!).release() }, GConnectFlags(rawValue: 0))
    }
}
