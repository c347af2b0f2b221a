import Glibc
import HeraldCore
import HeraldDesktop

/// Takes SIGINT, SIGTERM and SIGHUP on a thread of its own, so that a stop request is heard
/// even while the main loop is stuck in a synchronous D-Bus call to a slow notification server.
///
/// Each signal is handed to the main loop, which closes what is shown and quits (DESIGN.md D18).
/// If the loop has not finished within a second, the watcher releases this process's claims
/// itself and ends the process: the messages then show again at the next check, and the user's
/// stop request is never held up by a server that does not answer.
enum SignalWatcher {
    /// The signals that stop a check.
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the stop signals in this thread and every thread started later, and starts the
    /// watching thread. Call it first thing, before GLib starts threads of its own.
    ///
    /// - Parameters:
    ///   - onSignal: runs on the main loop for each signal.
    ///   - store: where the claims of this process are released if the loop does not answer.
    static func start(store: any StateStore & Sendable, onSignal: @escaping @MainContext @Sendable (Int32) -> Void) {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in stopSignals { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let watch = Watch(signals: signals, store: store, onSignal: onSignal)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(watch).toOpaque()
        pthread_create(&thread, nil, { pointer in
            Unmanaged<Watch>.fromOpaque(pointer!).takeRetainedValue().run()
            return nil
        }, context)
        pthread_detach(thread)
    }

    /// What the watching thread needs; it owns it for the life of the process.
    private final class Watch {
        let signals: sigset_t
        let store: any StateStore & Sendable
        let onSignal: @MainContext @Sendable (Int32) -> Void

        init(signals: sigset_t, store: any StateStore & Sendable, onSignal: @escaping @MainContext @Sendable (Int32) -> Void) {
            self.signals = signals
            self.store = store
            self.onSignal = onSignal
        }

        func run() -> Never {
            var signals = self.signals
            var received: Int32 = 0
            while sigwait(&signals, &received) != 0 {}
            let signal = received
            let onSignal = self.onSignal
            MainContext.idle { onSignal(signal) }
            // The loop normally ends the process well within this second.
            var pause = timespec(tv_sec: 1, tv_nsec: 0)
            var remaining = timespec()
            while nanosleep(&pause, &remaining) != 0 { pause = remaining }
            let processID = getpid()
            _ = try? store.update { state in state = CheckPolicy.release(heldByProcess: processID, in: state) }
            FileHandleOutput.standardError.write("herald: the main loop did not answer the stop request within a second; its claims were released\n")
            _exit(0)
        }
    }
}
