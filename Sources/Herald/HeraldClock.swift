import FoundationEssentials
import HeraldDesktop

/// Herald's time: what time it is, and the timers a check sets (its wait limit). A test's
/// clock (`ManualClock` in HeraldTesting) moves both by hand.
package protocol HeraldClock {
    /// The time now.
    var now: Date { get }
    /// Runs `body` once on the main context after `delay`.
    ///
    /// - Returns: an id that `cancel(_:)` takes; never 0.
    @discardableResult
    func schedule(after delay: Duration, _ body: @escaping @MainContext () -> Void) -> UInt32
    /// Cancels a timer of `schedule(after:_:)` that has not fired; 0 and fired timers are ignored.
    func cancel(_ timer: UInt32)
}

/// The system's clock, and timers of the GLib main context.
package struct SystemClock: HeraldClock {
    /// Creates the clock.
    package init() {}

    /// The system's time.
    package var now: Date { Date() }

    /// A GLib timeout source on the default main context.
    @discardableResult
    package func schedule(after delay: Duration, _ body: @escaping @MainContext () -> Void) -> UInt32 {
        MainContext.after(seconds: delay.seconds, body)
    }

    /// Removes the timeout source.
    package func cancel(_ timer: UInt32) {
        MainContext.cancel(timer)
    }
}

/// What opens a message's or prompt's link: the desktop's default applications
/// (`LinkOpener`), or a test's stand-in.
package protocol LinkOpening {
    /// Whether some application would open the URL; a message whose link cannot be opened is
    /// not shown (DESIGN.md D5).
    func canOpen(_ url: String) -> Bool
    /// Opens the URL.
    ///
    /// - Throws: `LinkOpenerError` when no application could be started for it.
    func open(_ url: String) throws(LinkOpenerError)
}

extension LinkOpener: LinkOpening {}
