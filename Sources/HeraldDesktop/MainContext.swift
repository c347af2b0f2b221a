import CLibNotify

/// A Swift closure handed to GLib as `user_data`.
///
/// Retained once when handed over and released exactly once, in the destroy notify GLib calls
/// when the source or signal handler goes away; never inside the callback itself.
final class CallbackBox<Argument> {
    let body: (Argument) -> Void
    init(_ body: @escaping (Argument) -> Void) { self.body = body }

    /// Retains the box for GLib.
    func retainedPointer() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    /// The box behind a `user_data` pointer, not consuming GLib's reference.
    static func from(_ pointer: gpointer?) -> CallbackBox { Unmanaged<CallbackBox>.fromOpaque(pointer!).takeUnretainedValue() }

    /// Releases GLib's reference; the destroy notify of every source and handler.
    static var release: GDestroyNotify { { pointer in
        Unmanaged<AnyObject>.fromOpaque(pointer!).release() }
    }
}

/// The GLib main loop of a process that has no loop of its own (the `herald` tool).
///
/// Apps with a GTK or GLib loop never need it: Herald runs on the default main context, which
/// their loop already dispatches.
public final class MainLoop {
    private let loop: OpaquePointer

    /// A loop on the default main context.
    public init() { loop = g_main_loop_new(nil, 0) }

    deinit { g_main_loop_unref(loop) }

    /// Runs until `quit()`.
    public func run() { g_main_loop_run(loop) }

    /// Makes `run()` return once the current callback finishes.
    public func quit() { g_main_loop_quit(loop) }
}

/// Scheduling on the default main context, where every Herald callback runs (DESIGN.md D17).
public enum MainContext {
    /// Runs `body` once, the next time the default context is idle.
    public static func idle(_ body: @escaping () -> Void) {
        let box = CallbackBox<Void>(body)
        g_idle_add_full(Int32(G_PRIORITY_DEFAULT_IDLE), { pointer in
            CallbackBox<Void>.from(pointer).body(())
            return 0
        }, box.retainedPointer(), CallbackBox<Void>.release)
    }

    /// Runs `body` once after `seconds`; the returned id cancels it with `cancel(_:)`.
    @discardableResult
    public static func after(seconds: Double, _ body: @escaping () -> Void) -> UInt32 {
        let box = CallbackBox<Void>(body)
        let milliseconds = UInt32(max(0, min(seconds * 1000, Double(UInt32.max - 1))))
        return g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), milliseconds, { pointer in
            CallbackBox<Void>.from(pointer).body(())
            return 0
        }, box.retainedPointer(), CallbackBox<Void>.release)
    }

    /// Removes a pending source from `after(seconds:_:)`.
    public static func cancel(_ source: UInt32) {
        if source != 0 { g_source_remove(source) }
    }

    /// Calls `body` on the loop whenever the process receives `signal` (SIGINT, SIGTERM, SIGHUP),
    /// so clean-up runs as ordinary loop work.
    @discardableResult
    public static func onSignal(_ signal: Int32, _ body: @escaping () -> Void) -> UInt32 {
        let box = CallbackBox<Void>(body)
        return g_unix_signal_add_full(Int32(G_PRIORITY_HIGH), signal, { pointer in
            CallbackBox<Void>.from(pointer).body(())
            return 1
        }, box.retainedPointer(), CallbackBox<Void>.release)
    }
}

/// Takes a GLib error's message and frees the error.
func consume(_ error: UnsafeMutablePointer<GError>?) -> String? {
    guard let error else { return nil }
    defer { g_error_free(error) }
    return String(cString: error.pointee.message)
}
