import CDesktopLibraries
import Glibc

extension MainContext {
    /// Runs a GTK app's `GApplication` on the default context until it quits, and its exit
    /// status: a stop signal (SIGINT, SIGTERM, SIGHUP) quits it the way closing its window does
    /// (its `shutdown` handler runs), and the status is then 128 + the signal. The application's
    /// reference is given up once it has run.
    @MainContext
    package static func run(_ application: UnsafeMutablePointer<GApplication>) -> Int32 {
        nonisolated(unsafe) let quitting = application
        var stoppedBy: Int32?
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            _ = onSignal(signal) {
                stoppedBy = stoppedBy ?? signal
                g_application_quit(quitting)
            }
        }
        let status = g_application_run(application, 1, CommandLine.unsafeArgv)
        g_object_unref(application)
        return stoppedBy.map { 128 + $0 } ?? status
    }
}
