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

/// Runs `action` on the GLib default main context as soon as `condition` holds, checking it
/// every 20 ms while the loop runs; after `seconds` it runs `action` anyway, so that the test's
/// assertions say what did not happen instead of the test hanging.
@MainContext
public func when(_ condition: @escaping @MainContext () -> Bool, within seconds: Double = 10, do action: @escaping @MainContext () -> Void) {
    let deadline = Date().addingTimeInterval(seconds)
    func poll() {
        if condition() || Date() >= deadline { return action() }
        MainContext.after(seconds: 0.02) { poll() }
    }
    MainContext.idle { poll() }
}
