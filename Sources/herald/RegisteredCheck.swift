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
        let run = Run()
        let environment = ProcessEnvironment.read()
        // One store of each for every app: what one check read, the next need not decode again
        // while the file is as it was. No app's check waits for a lock longer than its own would.
        let lockWait = apps.map(\.line.configuration.timeout.seconds).min() ?? FileStateStore.defaultLockWait
        let personsFiles = (ledger: FileAttentionLedgerStore(environment: environment, lockWait: lockWait, remembering: true),
                            inbox: FileInboxStore(environment: environment, lockWait: lockWait, remembering: true))
        let linkOpener = LinkOpener(rememberingIn: SchemeHandlers())
        for app in apps {
            var session = CheckSession(configuration: app.line.configuration, json: json)
            session.serverWait = app.line.serverWait
            session.handsOver = true
            session.asksAtTerminal = false
            session.quietReason = { run.quiet }
            session.sessionAnswers = run.sessionAnswers
            session.namesApp = true
            session.personsFiles = personsFiles
            session.linkOpener = linkOpener
            let herald: Herald
            do {
                herald = try session.makeHerald().herald
            } catch {
                run.failed(error.rawValue)
                continue
            }
            let reporter = EventReporter(json: json) { run.ended() }
            reporter.app = app.appID
            herald.delegate = reporter
            herald.handoverObserver = reporter
            do {
                for prompt in try app.line.loadPrompts() { herald.register(prompt) }
            } catch {
                EventReporter.complain("\(app.appID): \(error)")
            }
            run.checks.append((herald, reporter))
        }
        guard !run.checks.isEmpty else { return run.failure ?? ExitStatus.done.code }
        run.waiting = run.checks[...]
        SystemClock().schedule(after: .seconds(startDelay)) { [deadline] in
            let rendezvous = CheckRendezvous(apps: run.checks.map(\.herald.configuration.appID),
                                             ledger: personsFiles.ledger, clock: SystemClock(),
                                             deadline: deadline)
            rendezvous.onCome = { _ in MainContext.idle { run.startNext(meeting: rendezvous) } }
            SystemClock().schedule(after: deadline) { run.giveUpWaiting() }
            for _ in 0..<Self.fetchesAtOnce { run.startNext(meeting: rendezvous) }
        }
        let stop = StopRequest()
        SignalWatcher.start(store: nil) { signal in
            stop.signal = signal
            for (herald, _) in run.checks { herald.closeShownMessages() }
            run.loop.quit()
        }
        run.loop.run()
        for (herald, reporter) in run.checks {
            herald.closeShownMessages()
            reporter.flush()
            if reporter.status != .done { run.failed(reporter.status.code) }
        }
        return (stop.signal ?? SignalWatcher.stopSignal.withLock { $0 }).map(ExitStatus.stopped(by:)) ?? run.failure ?? ExitStatus.done.code
    }

    /// What a run keeps track of on its loop.
    @MainContext
    final class Run {
        /// The one main loop every check of the run runs on.
        let loop = MainLoop()
        /// Every app's `Herald`, with the reporter of its events.
        var checks: [(herald: Herald, reporter: EventReporter)] = []
        /// The checks not yet started, in app-id order.
        var waiting: ArraySlice<(herald: Herald, reporter: EventReporter)> = []
        /// The checks started and not yet ended.
        var running = 0
        /// The first failure's status: an app that could not be set up, then each check's.
        private(set) var failure: Int32?
        /// Whether the person asked for quiet: the desktop is asked once, by the first check
        /// with something to show, and its answer holds for the run's few seconds.
        lazy var quiet: QuietReason? = DesktopQuiet.reason()
        /// The notification server and the handover's route, asked once for every check.
        let sessionAnswers = SessionAnswers()

        /// Keeps `status` as the run's, unless a failure came before it.
        func failed(_ status: Int32) { failure = failure ?? status }

        /// Starts the next app's check, meeting the others at `rendezvous`.
        func startNext(meeting rendezvous: CheckRendezvous) {
            guard let next = waiting.popFirst() else { return }
            running += 1
            next.herald.rendezvous = rendezvous
            next.herald.appLaunched()
        }

        /// A check ended: the run is over once none runs and none waits to start.
        func ended() {
            running -= 1
            if running == 0, waiting.isEmpty { loop.quit() }
        }

        /// The run's one deadline, counted once the start delay has passed: the checks that
        /// have their feed stop waiting for the others (their rendezvous has the same deadline),
        /// and an app whose check has not started by then is left to the next run.
        func giveUpWaiting() {
            for left in waiting {
                EventReporter.complain("\(left.herald.configuration.appID): not checked: the run's deadline passed before its turn; the next run checks it")
                failed(ExitStatus.temporaryFailure.code)
            }
            waiting = []
            if running == 0 { loop.quit() }
        }
    }
}
