import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// The checks of every registered app, in one process on one main loop (DESIGN.md D27): what a
/// systemd user timer, or the one autostart entry for all apps, runs at login and twice a day.
///
/// Each app is checked as its own `herald check` of the same options would check it — its
/// mutes, gate, backoff, state file and locks — so an app checking in-process at the same
/// moment still never shows a message twice. A few feeds are fetched at a time
/// (`fetchesAtOnce`); the checks meet at a `CheckRendezvous` before they plan, so one budget
/// decision weighs every app's messages; then each hands its messages over (GNOME Shell's list,
/// the agent) and the process exits once every check has ended.
@MainContext
struct RegisteredCheck {
    /// The apps to check, in app-id order.
    let apps: [RegisteredApp]
    /// One JSON object per event, each with its app, instead of lines for people.
    let json: Bool
    /// How long the checks that have their feed wait for the others before the budget is
    /// decided without them.
    let deadline: Duration
    /// How many checks fetch at once: enough to overlap the network's waits, few enough that a
    /// login with many apps does not open a connection per app at the same instant.
    static let fetchesAtOnce = 6

    /// Runs every check and returns the exit status: the first failure's, else done.
    func run(startDelay: Double) -> Int32 {
        let loop = MainLoop()
        var heralds: [(herald: Herald, reporter: EventReporter)] = []
        // The first failure's status: an app that could not be set up, then each check's.
        var failure: Int32?
        var running = 0
        for app in apps {
            var session = CheckSession(configuration: app.line.configuration, json: json)
            session.serverWait = app.line.serverWait
            session.handsOver = true
            session.asksAtTerminal = false
            let herald: Herald
            do {
                herald = try session.makeHerald().herald
            } catch {
                failure = failure ?? error.rawValue
                continue
            }
            let reporter = EventReporter(json: json) {
                running -= 1
                if running == 0 { loop.quit() }
            }
            reporter.app = app.appID
            herald.delegate = reporter
            herald.handoverObserver = reporter
            do {
                for prompt in try app.line.loadPrompts() { herald.register(prompt) }
            } catch {
                EventReporter.complain("\(app.appID): \(error)")
            }
            heralds.append((herald, reporter))
        }
        guard !heralds.isEmpty else { return failure ?? ExitStatus.done.code }
        running = heralds.count
        let environment = ProcessEnvironment.read()
        let rendezvous = CheckRendezvous(apps: heralds.map(\.herald.configuration.appID),
                                         ledger: FileAttentionLedgerStore(environment: environment), clock: SystemClock(),
                                         deadline: deadline)
        var waiting = heralds.map(\.herald)[...]
        func startNext() {
            guard let herald = waiting.popFirst() else { return }
            herald.rendezvous = rendezvous
            herald.appLaunched()
        }
        rendezvous.onCome = { _ in MainContext.idle { startNext() } }
        let stop = StopRequest()
        SignalWatcher.start(store: nil) { signal in
            stop.signal = signal
            for (herald, _) in heralds { herald.closeShownMessages() }
            loop.quit()
        }
        SystemClock().schedule(after: .seconds(startDelay)) {
            for _ in 0..<Self.fetchesAtOnce { startNext() }
        }
        loop.run()
        for (herald, reporter) in heralds {
            herald.closeShownMessages()
            reporter.flush()
            if reporter.status != .done { failure = failure ?? reporter.status.code }
        }
        return (stop.signal ?? SignalWatcher.stopSignal.withLock { $0 }).map(ExitStatus.stopped(by:)) ?? failure ?? ExitStatus.done.code
    }
}
