import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// Everything on the desktop Herald would touch, in memory: a recording presenter for the
/// notification server, an in-memory state store, a manual clock, a recording link opener, no
/// quiet and no mutes. Nothing is read from the machine: not the off-switch files, not the
/// desktop's do-not-disturb, not the state directory, not the process's environment.
///
/// ```swift
/// let desktop = TestDesktop()
/// let herald = try desktop.herald(feedURL: feedURL, appID: "org.example.App", appVersion: "1.4")
/// herald.appLaunched()
/// try desktop.run(until: { !desktop.presenter.shown.isEmpty })
/// ```
@MainContext
public final class TestDesktop {
    /// Shows nothing; records what would be shown and answers it.
    public let presenter: RecordingPresenter
    /// The answers and the cached feed.
    public let store: InMemoryStateStore
    /// The time, and Herald's timers.
    public let clock: ManualClock
    /// Records the links that would open.
    public let links: RecordingLinkOpener
    /// Whether the person at the desktop asked for quiet; `nil` by default.
    public var quiet: QuietReason?
    /// What the off-switch files would say; none by default.
    package var offSwitches: OffSwitchDecision = .none
    /// The environment Herald's configuration reads (language, desktop, XDG directories); empty by
    /// default, so the labels are English and the desktop is none.
    public var environment: [String: String] = [:]

    /// A desktop with a notification server that has buttons and body markup, and a state
    /// past its first launch, so the first `appLaunched()` checks.
    public init(capabilities: Set<String> = ["actions", "body", "body-markup"]) {
        presenter = RecordingPresenter(capabilities: capabilities)
        var launched = HeraldState()
        launched.ignored = []
        store = InMemoryStateStore(launched)
        clock = ManualClock()
        links = RecordingLinkOpener()
    }

    /// A Herald on this desktop.
    ///
    /// - Parameters:
    ///   - feedURL, appID, appVersion: as `Herald.Configuration` takes them.
    ///   - configure: changes the rest of the configuration, made with `environment`.
    /// - Throws: what `Herald.init` throws for an unusable configuration.
    public func herald(feedURL: String?, appID: String, appVersion: String?,
                       configure: (inout Herald.Configuration) -> Void = { _ in }) throws -> Herald {
        var configuration = Herald.Configuration(feedURL: feedURL, appID: appID, appVersion: appVersion, environment: environment)
        configure(&configuration)
        return try Herald(configuration: configuration, store: store, presenter: presenter, linkOpener: links, clock: clock,
                          // Held strongly: a Herald may outlive a desktop the test did not keep, and
                          // the desktop does not hold the Herald, so there is no cycle.
                          quietReason: { [self] in quiet }, offSwitches: { [self] in offSwitches })
    }

    /// Runs the GLib main context, as an app's loop would, until `condition` holds; it is
    /// checked before each iteration. Herald's timers do not fire here: move `clock` for them.
    ///
    /// - Parameter timeout: the real time to wait at most.
    /// - Throws: `TestDesktopTimeout` when the condition still does not hold after `timeout`.
    public func run(until condition: () -> Bool, timeout: Duration = .seconds(10)) throws {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TestDesktopTimeout(timeout: timeout) }
            MainContext.iterate(wakingBy: deadline)
        }
    }
}

/// `TestDesktop.run(until:timeout:)` waited `timeout` and the condition did not hold.
public struct TestDesktopTimeout: Error, CustomStringConvertible {
    /// How long it waited.
    public var timeout: Duration
    /// "the condition did not hold within 10 seconds".
    public var description: String { "the condition did not hold within \(NumberText.plain(timeout.seconds)) seconds" }
}
