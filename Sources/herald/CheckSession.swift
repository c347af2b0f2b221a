import ArgumentParser
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

/// Runs one check on a GLib main loop of the tool's own, with the clean-up of DESIGN.md D18:
/// the loop runs until every shown message is answered or closed, or the wait limit passes;
/// SIGINT, SIGTERM and SIGHUP go through the loop; on the way out whatever is still shown is
/// closed, and a stop signal's run exits with 128 + its number.
struct CheckSession {
    let configuration: Herald.Configuration
    let json: Bool
    /// Prompts counted and shown at this launch.
    var prompts: [Prompt] = []
    /// The file `prompts` came from, named when they make the state too large.
    var promptsFile: String?
    /// Explain every prompt decision, not only those of prompts with `verboseLogging`.
    var verbose = false
    /// Where the answers go instead of the app's state file (a preview keeps them in memory).
    var store: (any StateStore)?
    /// Seconds to wait for a notification server to appear when there is something to show
    /// (`NotificationServer.waitForOwner`).
    var serverWait = 0.0
    /// Whether messages are handed over to outlive the check where the session allows it
    /// (`HandoverRoutePresenter`); a preview or a demo waits for its own answers.
    var handsOver = false
    /// Whether the desktop's do-not-disturb and the off switches hold the check back; a
    /// publisher's preview, asked for on purpose, shows its own feed anyway.
    var respectsQuietAndMutes = true
    /// Whether the messages are asked at the terminal when no notification server runs and
    /// someone is there; a run of every registered app never asks there.
    var asksAtTerminal = true
    /// Whether the person asked for quiet, when not the desktop's own answer asked at each check:
    /// a run of every registered app asks the desktop once for all its apps.
    var quietReason: (@MainContext () -> QuietReason?)?
    /// The notification server and the handover's route, when a run of every registered app
    /// asks them once for all its apps; `nil` for a check that asks for itself.
    var sessionAnswers: SessionAnswers?
    /// The person's attention ledger and inbox, when a run of every registered app shares one
    /// store of each, so that what one app's check read or wrote the next need not decode
    /// again; `nil` for a check that opens its own.
    var personsFiles: (ledger: FileAttentionLedgerStore, inbox: FileInboxStore)?
    /// What opens links, when a run of every registered app asks GIO about each scheme once for
    /// all its apps; `nil` for the desktop's default applications, asked by each check.
    var linkOpener: LinkOpener?
    /// Whether what it says on stderr begins with the app's id: a run of every registered app
    /// names the app of each line.
    var namesApp = false

    /// Runs the check and returns the exit code. Call it from the main thread: it runs the
    /// GLib main loop there until the check is over.
    @MainContext
    func run(force: Bool, startDelay: Double = 0) -> Int32 {
        let herald: Herald
        // The state file's store, whose claims the signal watcher releases if the loop is stuck.
        let file: FileStateStore?
        do {
            (herald, file) = try makeHerald()
        } catch {
            return error.rawValue
        }
        let loop = MainLoop()
        let reporter = EventReporter(json: json, verbose: verbose) { loop.quit() }
        reporter.promptsFile = promptsFile
        for prompt in prompts { herald.register(prompt) }
        herald.delegate = reporter
        herald.handoverObserver = reporter
        let stop = StopRequest()
        SignalWatcher.start(store: file) { signal in
            stop.signal = signal
            herald.closeShownMessages()
            loop.quit()
        }
        herald.clock.schedule(after: .seconds(startDelay)) {
            if force { herald.checkNow() } else { herald.appLaunched() }
        }
        loop.run()
        // What is still shown is closed here, once; libnotify is not shut down, since its
        // shut-down would close the same notifications a second time.
        herald.closeShownMessages()
        reporter.flush()
        // A stop signal ends the process as the shell expects of it: 128 + the signal's number.
        return (stop.signal ?? SignalWatcher.stopSignal.withLock { $0 }).map(ExitStatus.stopped(by:)) ?? reporter.status.code
    }
}

extension CheckSession {
    /// The `Herald` of this session's check, on the desktop's server (the terminal where there
    /// is none and someone can answer there), handing over where `handsOver` says; or the
    /// configuration's problem, said on stderr and thrown as its exit code.
    @MainContext
    func makeHerald() throws(ExitCode) -> (herald: Herald, file: FileStateStore?) {
        let waitLimit = configuration.waitLimit?.seconds
        let today = FallbackPresenter(
            primary: DesktopPresenter(appName: configuration.appName, appID: configuration.appID, icon: configuration.icon,
                                      environment: configuration.environment, shared: sessionAnswers),
            serverWait: serverWait,
            shared: sessionAnswers,
            fallback: asksAtTerminal && TerminalPresenter.isAvailable && !json ? TerminalPresenter(labels: configuration.labels) : nil,
            onServerInUse: { inUse in SignalWatcher.guardWaitLimit(inUse ? waitLimit : nil) })
        let handingOver = handsOver
            ? HandoverRoutePresenter(today: today, appName: configuration.appName, appID: configuration.appID, icon: configuration.icon,
                                     environment: configuration.environment, shared: sessionAnswers)
            : nil
        return try Self.makeHerald(configuration, store: store, presenter: today, handingOver: handingOver,
                                   respectsQuietAndMutes: respectsQuietAndMutes, quietReason: quietReason,
                                   personsFiles: personsFiles, linkOpener: linkOpener, naming: namesApp ? configuration.appID : nil)
    }

    /// A `Herald` for `configuration` on `store`, or on the app's state file (returned too)
    /// when `store` is `nil`. A configuration that cannot work is said on stderr and thrown as
    /// its exit code, after the app's id when `app` is given.
    @MainContext
    static func makeHerald(_ configuration: Herald.Configuration, store: (any StateStore)?, presenter: MessagePresenter? = nil,
                           handingOver: HandingOverPresenter? = nil, respectsQuietAndMutes: Bool = true,
                           quietReason: (@MainContext () -> QuietReason?)? = nil,
                           personsFiles: (ledger: FileAttentionLedgerStore, inbox: FileInboxStore)? = nil,
                           linkOpener: LinkOpener? = nil, naming app: String? = nil) throws(ExitCode) -> (herald: Herald, file: FileStateStore?) {
        let named = app.map { "\($0): " } ?? ""
        do {
            var file: FileStateStore?
            if store == nil {
                let paths = try HeraldPaths(appID: configuration.appID, environment: configuration.environment)
                file = FileStateStore(paths: paths, lockWait: configuration.timeout.seconds, onCorruptFile: EventReporter.reportCorruptStateFile)
            }
            // A preview or a demo shows whatever the desktop's quiet, a mute or the budget says.
            var quiet = quietReason
            var ignoresMutes: (@MainContext () throws(OffSwitchFileError) -> OffSwitchDecision)?
            if !respectsQuietAndMutes {
                quiet = { nil }
                ignoresMutes = { .none }
            }
            var configuration = configuration
            configuration.reportsAnswersGivenAway = false
            // The person's budget and inbox hold every check of the user's state; a preview or
            // a demo keeps its own, in memory.
            let ledger: any AttentionLedgerStore = file != nil && respectsQuietAndMutes
                ? personsFiles?.ledger ?? FileAttentionLedgerStore(environment: configuration.environment, lockWait: configuration.timeout.seconds,
                                                                   remembering: true)
                : MemoryAttentionLedgerStore()
            let inbox: any InboxStore = file != nil && respectsQuietAndMutes
                ? personsFiles?.inbox ?? FileInboxStore(environment: configuration.environment, lockWait: configuration.timeout.seconds,
                                                        remembering: true)
                : MemoryInboxStore()
            let herald = try Herald(configuration: configuration, store: store ?? file, presenter: presenter, handingOver: handingOver,
                                    linkOpener: linkOpener,
                                    quietReason: quiet, offSwitches: ignoresMutes, ledger: ledger, inbox: inbox)
            return (herald, file)
        } catch let error as HeraldError {
            EventReporter.complain(named + error.description)
            throw ExitCode(ExitStatus(error))
        } catch {
            EventReporter.complain(named + StateStoreError(error, writing: "the state").description)
            throw ExitCode(.usage)
        }
    }
}

/// The stop signal the session was ended by, if any.
@MainContext
final class StopRequest {
    var signal: Int32?
}

/// Uses the notification server, or the terminal when there is none (DESIGN.md D12).
///
/// Tells `onServerInUse` when the check first turns to the server (`true`, before the first
/// call, which may not return for a while) and when it turns to the terminal instead (`false`).
final class FallbackPresenter: MessagePresenter {
    private var active: MessagePresenter
    private let fallback: MessagePresenter?
    private var onServerInUse: ((Bool) -> Void)?
    private let serverWait: Double
    private let shared: SessionAnswers?

    /// - Parameters:
    ///   - serverWait: seconds to wait for a notification server to appear before the first
    ///     message, when none is running yet and there is no terminal to fall back to.
    ///   - shared: the run's answers: once a check of the run found the server, no other waits.
    init(primary: MessagePresenter, serverWait: Double = 0, shared: SessionAnswers? = nil, fallback: MessagePresenter?,
         onServerInUse: @escaping (Bool) -> Void = { _ in }) {
        active = primary
        self.serverWait = serverWait
        self.shared = shared
        self.fallback = fallback
        self.onServerInUse = onServerInUse
    }

    func capabilities() throws -> Set<String> {
        if let onServerInUse {
            self.onServerInUse = nil
            // Nobody at a terminal to answer instead (a check at login): wait for the desktop's
            // own server, and start none. The main loop runs meanwhile, so the wait limit's guard
            // starts after it.
            let serverAppeared = fallback != nil || serverWait == 0 || shared?.foundServer == true
                || NotificationServer.waitForOwner(seconds: serverWait)
            onServerInUse(true)
            do {
                guard serverAppeared else { throw HeraldError.noNotificationServer }
                return try active.capabilities()
            } catch HeraldError.noNotificationServer where fallback != nil {
                onServerInUse(false)
                EventReporter.complain("no notification server is running; asking here instead")
                active = fallback!
            }
        }
        return try active.capabilities()
    }

    func present(_ content: NotificationContent, link: String?, respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage {
        try active.present(content, link: link, respond: respond)
    }
}
