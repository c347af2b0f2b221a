import Glibc
import HeraldCore
import HeraldDesktop
import Synchronization

/// Takes SIGINT, SIGTERM and SIGHUP on a thread of its own, so that a stop request is heard
/// even while the main loop is stuck in a synchronous D-Bus call to a slow notification server.
///
/// Each signal is handed to the main loop, which closes what is shown and quits (DESIGN.md D18).
/// If the loop has not finished within a second, the watcher releases this process's claims
/// itself and ends the process: the messages then show again at the next check, and the user's
/// stop request is never held up by a server that does not answer.
///
/// The wait limit has the same guard: once armed (when the check first turns to the
/// notification server), a timer fires a second after the limit, and if the process is still
/// there, its loop is stuck in a call to the server; the watcher then releases the claims and
/// ends the process the same way.
enum SignalWatcher {
    /// The signals that stop a check.
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]
    /// The signal of the wait limit's guard timer.
    static let waitGuardSignal = SIGALRM
    /// The stop signal received, if any: set before the main loop hears of it, so a loop that
    /// ends on its own meanwhile (a lock wait cut short) still exits as stopped.
    static let stopSignal = Mutex<Int32?>(nil)

    /// Blocks the stop signals in this thread and every thread started later, and starts the
    /// watching thread. Call it first thing, before GLib starts threads of its own.
    ///
    /// - Parameters:
    ///   - onSignal: runs on the main loop for each signal.
    ///   - store: where the claims of this process are released if the loop does not answer;
    ///     `nil` for a state kept in memory, which ends with the process.
    static func start(store: (any StateStore & Sendable)?, onSignal: @escaping @MainContext @Sendable (Int32) -> Void) {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in stopSignals + [waitGuardSignal] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let watch = Watch(signals: signals, store: store, onSignal: onSignal)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(watch).toOpaque()
        pthread_create(&thread, nil, { pointer in
            // The watching thread ends only with the process.
            Unmanaged<Watch>.fromOpaque(pointer!).takeRetainedValue().run()
        }, context)
        pthread_detach(thread)
    }

    /// Arms the wait limit's guard: `seconds` plus one from now, the process ends unless its
    /// loop ended it first. `nil` disarms it (a person answering at the terminal takes their time).
    static func guardWaitLimit(_ seconds: Double?) {
        var timer = itimerval()
        if let seconds {
            let total = seconds + 1
            timer.it_value = timeval(tv_sec: Int(total), tv_usec: Int((total - total.rounded(.down)) * 1_000_000))
        }
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }

    /// What the watching thread needs; it owns it for the life of the process.
    private final class Watch {
        let signals: sigset_t
        let store: (any StateStore & Sendable)?
        let onSignal: @MainContext @Sendable (Int32) -> Void

        init(signals: sigset_t, store: (any StateStore & Sendable)?, onSignal: @escaping @MainContext @Sendable (Int32) -> Void) {
            self.signals = signals
            self.store = store
            self.onSignal = onSignal
        }

        func run() -> Never {
            var signals = self.signals
            var received: Int32 = 0
            while sigwait(&signals, &received) != 0 {}
            let signal = received
            // A process that ends waits on no lock: the main loop, perhaps waiting for the lock
            // of a stuck process, gives up at once, and so does the release of the claims below
            // (claims of a process that has gone lapse anyway).
            if signal != SignalWatcher.waitGuardSignal { SignalWatcher.stopSignal.withLock { $0 = signal } }
            RegularFile.stopWaitingForLocks()
            if signal == SignalWatcher.waitGuardSignal {
                releaseClaimsAndExit(because: "the main loop was still waiting on the notification server a second after the wait limit",
                                     status: ExitStatus.done.code)
            }
            let onSignal = self.onSignal
            MainContext.idle { onSignal(signal) }
            // The loop normally ends the process well within this second.
            var pause = timespec(tv_sec: 1, tv_nsec: 0)
            var remaining = timespec()
            while nanosleep(&pause, &remaining) != 0 { pause = remaining }
            releaseClaimsAndExit(because: "the main loop did not answer the stop request within a second", status: ExitStatus.stopped(by: signal))
        }

        private func releaseClaimsAndExit(because reason: String, status: Int32) -> Never {
            let processID = getpid()
            _ = try? store?.update { state in state = CheckPolicy.release(heldByProcess: processID, in: state) }
            FileHandleOutput.standardError.write("herald: \(reason); its claims were released\n")
            _exit(status)
        }
    }
}
