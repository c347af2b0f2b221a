import Foundation
import HeraldDesktop

/// Runs the GLib default main context for up to `seconds`, until `condition` holds, checking
/// it every 20 ms: the in-process tests' way to wait while Herald's callbacks keep running.
///
/// - Returns: whether the condition held.
@MainContext
@discardableResult
public func spin(_ seconds: Double, until condition: @escaping @MainContext () -> Bool = { false }) -> Bool {
    let loop = MainLoop()
    let deadline = Date().addingTimeInterval(seconds)
    func poll() {
        if condition() || Date() >= deadline { return loop.quit() }
        MainContext.after(seconds: 0.02) { poll() }
    }
    MainContext.idle { poll() }
    loop.run()
    return condition()
}
