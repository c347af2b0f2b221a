import CDesktopLibraries
import Glibc

/// The GLib default main context as a global actor: everything Herald does runs there.
///
/// Its executor runs Swift jobs as idle sources of the default context, so `Task { @MainContext in … }`
/// runs on whatever loop dispatches that context (GTK's, `MainLoop`'s). Code isolated to it
/// cannot be called from another thread without `await`: the compiler, not a comment, keeps
/// Herald on the loop (DESIGN.md D17). C callbacks, which GLib calls on that loop, enter it
/// with `assumeIsolated`.
@globalActor
public actor MainContext {
    /// The one instance.
    public static let shared = MainContext()

    private static let executor = MainContextExecutor()

    /// The executor that runs jobs on the default main context.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }

    /// Runs `operation` as code isolated to the main context, from synchronous code that is
    /// on it: a GLib callback, or the main thread while no other thread owns the context.
    ///
    /// Traps when called from anywhere else, instead of racing.
    public static func assumeIsolated<T>(_ operation: @MainContext () throws -> T) rethrows -> T {
        typealias Unisolated = () throws -> T
        shared.preconditionIsolated("not on the GLib main context")
        return try withoutActuallyEscaping(operation) { isolated in
            try unsafeBitCast(isolated, to: Unisolated.self)()
        }
    }

    /// Runs `body` once, the next time the default context is idle.
    public static func idle(_ body: @escaping @MainContext () -> Void) {
        let box = CallbackBox<Void> { _ in body() }
        g_idle_add_full(Int32(G_PRIORITY_DEFAULT_IDLE), { pointer in
            CallbackBox<Void>.invoke(pointer, ())
            return 0
        }, box.retainedPointer(), CallbackBox<Void>.release)
    }

    /// Runs `body` once after `seconds`; the returned id cancels it with `cancel(_:)`.
    @discardableResult
    public static func after(seconds: Double, _ body: @escaping @MainContext () -> Void) -> UInt32 {
        let box = CallbackBox<Void> { _ in body() }
        let milliseconds = UInt32(max(0, min(seconds * 1000, Double(UInt32.max - 1))))
        return g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), milliseconds, { pointer in
            CallbackBox<Void>.invoke(pointer, ())
            return 0
        }, box.retainedPointer(), CallbackBox<Void>.release)
    }

    /// Removes a pending source from `after(seconds:_:)`.
    public static func cancel(_ source: UInt32) {
        if source != 0 { g_source_remove(source) }
    }

    /// Dispatches what is ready on the default context, or waits for the next source (a
    /// callback, a timer, a fetch's bytes) but not past `deadline`: one step of a loop a test drives.
    package static func iterate(wakingBy deadline: ContinuousClock.Instant) {
        let left = ContinuousClock.now.duration(to: deadline)
        let milliseconds = UInt32(max(0, min(left / .milliseconds(1) + 1, 3_600_000)))
        // The source itself, not its id: once it has fired, its id may name another source.
        let wake = g_timeout_source_new(milliseconds)!
        g_source_set_callback(wake, { _ in 0 }, nil, nil)
        g_source_attach(wake, nil)
        g_main_context_iteration(nil, 1)
        g_source_destroy(wake)
        g_source_unref(wake)
    }

    /// Calls `body` on the loop whenever the process receives `signal` (SIGINT, SIGTERM, SIGHUP),
    /// so clean-up runs as ordinary loop work.
    @discardableResult
    public static func onSignal(_ signal: Int32, _ body: @escaping @MainContext () -> Void) -> UInt32 {
        let box = CallbackBox<Void> { _ in body() }
        return g_unix_signal_add_full(Int32(G_PRIORITY_HIGH), signal, { pointer in
            CallbackBox<Void>.invoke(pointer, ())
            return 1
        }, box.retainedPointer(), CallbackBox<Void>.release)
    }
}

/// Runs Swift jobs on the GLib default main context, and knows when the caller is on it.
final class MainContextExecutor: SerialExecutor {
    /// The thread that started the process: the one that runs the loop when nothing else
    /// has taken the context.
    private static let mainThread = pthread_self()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let box = Unmanaged.passRetained(JobBox(job, on: asUnownedSerialExecutor())).toOpaque()
        g_idle_add_full(Int32(G_PRIORITY_DEFAULT), { pointer in
            let box = Unmanaged<JobBox>.fromOpaque(pointer!).takeUnretainedValue()
            box.job.runSynchronously(on: box.executor)
            return 0
        }, box, { pointer in Unmanaged<JobBox>.fromOpaque(pointer!).release() })
    }

    /// A job waiting in the context's queue, released by the idle source's destroy notify.
    private final class JobBox {
        let job: UnownedJob
        let executor: UnownedSerialExecutor
        init(_ job: UnownedJob, on executor: UnownedSerialExecutor) {
            self.job = job
            self.executor = executor
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    /// On the context means: this thread owns it (a loop is dispatching it here), or it is the
    /// main thread and no other thread owns it (before a loop runs, or between iterations).
    func checkIsolated() {
        let context = g_main_context_default()
        if g_main_context_is_owner(context) != 0 { return }
        guard pthread_equal(pthread_self(), Self.mainThread) != 0, g_main_context_acquire(context) != 0 else {
            fatalError("Herald was called off the GLib main context")
        }
        g_main_context_release(context)
    }
}

/// A Swift closure handed to GLib as `user_data`.
///
/// Retained once when handed over and released exactly once, in the destroy notify GLib calls
/// when the source, signal handler or action goes away; never inside the callback itself.
///
/// The body is isolated to the main context: every C trampoline calls it inside
/// `MainContext.assumeIsolated`, since GLib calls it on the loop that dispatches that context.
final class CallbackBox<Argument: Sendable> {
    let body: @MainContext (Argument) -> Void
    init(_ body: @escaping @MainContext (Argument) -> Void) { self.body = body }

    /// Calls the box behind `pointer` from a GLib callback, on the main context.
    static func invoke(_ pointer: gpointer?, _ argument: Argument) {
        // Boxes are made on the main context and GLib calls back on the loop dispatching it,
        // which `assumeIsolated` checks: the box never crosses threads.
        nonisolated(unsafe) let box = from(pointer)
        MainContext.assumeIsolated { box.body(argument) }
    }

    /// Retains the box for GLib.
    func retainedPointer() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    /// The box behind a `user_data` pointer, not consuming GLib's reference.
    static func from(_ pointer: gpointer?) -> CallbackBox { Unmanaged<CallbackBox>.fromOpaque(pointer!).takeUnretainedValue() }

    /// Releases GLib's reference; the destroy notify of every source, handler and action.
    static var release: GDestroyNotify { { pointer in
        Unmanaged<AnyObject>.fromOpaque(pointer!).release() }
    }
}

/// The GLib main loop of a process that has no loop of its own (the `herald` tool, tests).
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

/// Takes a GLib error's message and frees the error.
func consume(_ error: UnsafeMutablePointer<GError>?) -> String? {
    guard let error else { return nil }
    defer { g_error_free(error) }
    return String(cString: error.pointee.message)
}
