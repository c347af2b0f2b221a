import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// Herald for one app: checks its message feed and shows what this user has not answered.
///
/// Create it once with a `Configuration`, set a delegate if you want the events, and call
/// `appLaunched()` at start-up. Everything else happens on the GLib default main context,
/// which a GTK or GLib app's loop already runs; nothing blocks the caller. `Herald` is
/// isolated to that context (`@MainContext`): calling it from another thread does not compile.
///
/// A `Herald` keeps itself alive while a check runs, until its last notification is answered
/// or closed, so one created as a local (in a GTK `activate` handler, say) still records every
/// answer. The delegate is held weakly: keep it alive for as long as you want its events.
///
/// ```swift
/// let herald = try Herald(configuration: .init(
///     feedURL: "https://example.com/messages.plist", appID: "org.example.App", appVersion: "1.4"))
/// herald.delegate = self
/// herald.appLaunched()
/// ```
@MainContext
public final class Herald {
    /// Everything an app sets up front (ORIGINALS.md §1.2 plus Herald's own limits).
    public struct Configuration {
        /// The feed: https, file, or http on this machine (others need `urlRules.allowPlainHTTPFeed`);
        /// `-` reads it once from standard input, uncached and without a conditional request;
        /// `nil` for an app that only shows local prompts. `{lang}` in it is filled with the
        /// user's languages in turn, then left out, and the URL that answered is asked alone at
        /// later checks.
        public var feedURL: String?
        /// The app's id, e.g. "org.example.App": names the state file and the `desktop-entry` hint.
        public var appID: String
        /// The name the notification server shows as the sender; also the summary of
        /// messages without Title.
        public var appName: String
        /// Check, remind, ordering and version settings.
        public var check: CheckConfiguration
        /// Which links and feed URLs are allowed.
        public var urlRules: URLRules
        /// Button labels; by default in the first of the audience's languages (`check.audience`)
        /// that has them, so the buttons speak the language the targeting sees.
        public var labels: Labels {
            get { givenLabels ?? Labels.forLanguages(check.audience?.languages ?? []) }
            set { givenLabels = newValue }
        }
        /// The labels set, `nil` for the audience's: chosen when a check shows something, so a
        /// check that is not due never reads the shipped translations.
        private var givenLabels: Labels?
        /// An icon name or `file://` URI shown with the messages.
        public var icon: String?
        /// The time the fetch may take, and the longest wait for the lock of the app's state or
        /// of the attention ledger that another process holds. Default 60 seconds.
        public var timeout: Duration
        /// Largest feed accepted, in bytes. Default 1 MiB.
        public var sizeLimit: Int
        /// A PEM file of the certificate authorities trusted for an https feed, in place of the
        /// system's store (a company's private CA); `nil` trusts the system's.
        public var caFile: String?
        /// The Ed25519 public keys (32 bytes each, base64, as Sparkle's `SUPublicEDKey`) the app
        /// trusts: the feed must be signed with one of them. Several let a publisher move to a new
        /// key without a flag day; none accepts unsigned feeds (DESIGN.md D20).
        public var publicKeys: [String]
        /// The time to wait for answers, counted from the check's first notification, before
        /// closing what is still shown; `nil` waits as long as the app runs.
        public var waitLimit: Duration?
        /// Whether `appLaunched()` checks (iNotify's `checkAtLaunch`). Default true.
        public var checkAtLaunch: Bool
        /// The environment read for XDG directories, the language and the desktop; by default
        /// the variables of the process that Herald reads (`ProcessEnvironment`).
        public var environment: [String: String]
        /// Whether a launch takes the answers given to handed-over messages since the app last
        /// ran and reports them (`HeraldEvent.answeredWhileAway`); the `herald` tool, which
        /// shares the app's state, leaves them for the app.
        package var reportsAnswersGivenAway = true
        /// Whether the app runs inside a Flatpak sandbox, where a D-Bus-activatable app posts its
        /// messages through the notification portal (`HandoverBus.route`).
        package var isSandboxed = Sandbox.isFlatpak

        /// Creates a configuration with iNotify's defaults.
        public init(
            feedURL: String?, appID: String, appVersion: String?, appName: String? = nil,
            check: CheckConfiguration? = nil, urlRules: URLRules = URLRules(), labels: Labels? = nil, icon: String? = nil,
            timeout: Duration = .seconds(60), sizeLimit: Int = 1 << 20, caFile: String? = nil,
            publicKeys: [String] = [], waitLimit: Duration? = nil, checkAtLaunch: Bool = true,
            environment: [String: String] = ProcessEnvironment.read()
        ) {
            self.feedURL = feedURL
            self.appID = appID
            self.appName = appName ?? appID
            var check = check ?? CheckConfiguration()
            check.appVersion = appVersion ?? check.appVersion
            // The user's languages are read once: the buttons speak the language the targeting sees.
            check.audience = check.audience ?? Audience(environment: environment)
            self.check = check
            self.urlRules = urlRules
            self.givenLabels = labels
            self.icon = icon
            self.timeout = timeout
            self.sizeLimit = sizeLimit
            self.caFile = caFile
            self.publicKeys = publicKeys
            self.waitLimit = waitLimit
            self.checkAtLaunch = checkAtLaunch
            self.environment = environment
        }

        /// The User-Agent of this app's feed requests: Herald's version, the app's id and version.
        public var userAgent: String {
            "Herald/\(HeraldVersion.current) (\(appID)/\(check.appVersion ?? "unknown"))"
        }
    }

    /// The settings this Herald was made with.
    public let configuration: Configuration
    /// Receives the events; held weakly.
    public weak var delegate: HeraldDelegate?
    /// Shows the messages: the desktop's notification server unless another was given.
    public var presenter: MessagePresenter { route.presenter }
    /// How every check's messages reach the person, chosen once, here.
    let route: PresentationRoute
    /// Where `appWillQuit()` hands the messages still on screen: the agent or the desktop's
    /// list, for a Herald on the desktop's own server outside a sandbox; `nil` closes them.
    private let quitRoute: HandingOverPresenter?
    /// Hears where each handed-over message went, instead of the delegate's `didShow`.
    package weak var handoverObserver: HandoverObserving?
    /// The run of several apps' checks this `Herald`'s checks meet before they plan, so that
    /// one budget decision weighs every app's messages (`herald check --registered`).
    package var rendezvous: CheckRendezvous?
    /// The checks of this Herald still running: whose claims still hold.
    let running = RunningChecks()
    /// Opens view links and tells whether a link can be opened.
    package let linkOpener: any LinkOpening
    /// The time, and the timers of a check (its wait limit).
    package let clock: any HeraldClock
    /// Whether the person at the desktop asked for quiet, asked once per check, when the check
    /// has something to show; by default the desktop's do-not-disturb.
    public let quietReason: @MainContext () -> QuietReason?
    /// Whether the user or the administrator muted this app, and the administrator's mirror of
    /// its feed, asked at the start of every check, before anything is counted, fetched or
    /// shown; by default the key files of `OffSwitchFiles`, read from `configuration.environment`.
    package let offSwitches: @MainContext () throws(OffSwitchFileError) -> OffSwitchDecision
    /// Where this app's answers and cached feed are kept.
    package let store: any StateStore

    /// The source made last, kept while the checks fetch the same URL (its cached copy's
    /// validators go with it).
    private var madeFeedSource: FeedSource?

    /// Where the last check's feed came from: the app's own URL, the administrator's mirror, or
    /// the language a `{lang}` feed answered in; `nil` before any fetch.
    public var lastFeedURL: String? { madeFeedSource?.answeredURL }

    /// The source (fetch, cache, decode) of the feed a check fetches: the app's own, or the
    /// administrator's mirror of it.
    func feedSource(for url: String) -> FeedSource {
        if let made = madeFeedSource, made.url == url { return made }
        let source = feedSource(for: url, cache: store)
        madeFeedSource = source
        return source
    }

    /// A new source of the feed at `url`, loaded as a check loads it (the configuration's
    /// limits, rules, keys and languages), keeping its cached copy in `cache`; `nil` for none,
    /// so no request is conditional and nothing is cached (`herald check --explain`).
    package func feedSource(for url: String, cache: (any StateStore)?) -> FeedSource {
        FeedSource(
            url: url, userAgent: configuration.userAgent,
            timeout: configuration.timeout.seconds, sizeLimit: configuration.sizeLimit, rules: configuration.urlRules,
            caFile: configuration.caFile, publicKeys: signingKeys, appID: configuration.appID,
            now: { [weak self] in self?.now() ?? Date() }, languages: configuration.check.audience?.languages ?? [], cache: cache)
    }
    /// The person's attention ledger.
    let ledger: any AttentionLedgerStore
    /// The person's inbox.
    let inboxStore: any InboxStore
    /// The configured public keys, read once at creation.
    private let signingKeys: [Data]
    /// The check running now, if any: it holds this `Herald` until its last answer.
    private(set) var check: Check?
    /// The app's `app.herald-answer` action, added when its messages go through the portal.
    private var portalAction: ApplicationAction?
    /// The messages this process posted through the portal, by key, until answered: whose
    /// answers the delegate hears at once.
    var postedThroughPortal: [String: FeedEntry] = [:]
    /// The registered prompts, by name: registering a name again replaces it.
    var prompts: [String: Prompt] = [:]

    /// Creates Herald for an app. Every seam is set here, once: what is not given is the desktop's.
    ///
    /// - Parameters:
    ///   - configuration: the feed, the app and the settings.
    ///   - presenter: what shows messages; by default the desktop's notification server.
    ///   - quietReason: whether the person asked for quiet; by default the desktop's do-not-disturb.
    /// - Throws: `HeraldError.configuration` for an unusable app id, a refused feed URL, a
    ///   number out of its range (`Configuration.validate()`) or a public key (any of them)
    ///   that is not 32 bytes of base64.
    public convenience init(configuration: Configuration, presenter: MessagePresenter? = nil,
                            quietReason: (@MainContext () -> QuietReason?)? = nil) throws {
        try self.init(configuration: configuration, store: nil, presenter: presenter, linkOpener: nil, clock: nil,
                      quietReason: quietReason, offSwitches: nil)
    }

    /// `init(configuration:presenter:quietReason:)` with the seams only the package's own tools
    /// and HeraldTesting (`TestDesktop`) replace.
    ///
    /// - Parameters:
    ///   - store: where answers are kept; by default the state file of `configuration.appID`.
    ///   - clock: the time and the check's timers; by default the system's.
    ///   - linkOpener: what opens view links; by default the desktop's default applications.
    ///   - offSwitches: the mutes and the administrator's mirror; by default the key files of
    ///     `OffSwitchFiles` under `configuration.environment`.
    ///   - ledger: the attention ledger the budget is kept in; by default the user's, shared by
    ///     every app, when the state is the app's own file too, and one in memory when `store`
    ///     is given (a store of its own is a run apart from the user's).
    ///   - inbox: the person's inbox the checks add to; by default the user's when the state is
    ///     the app's own file too, and one in memory when `store` is given.
    ///   - handingOver: hands each check's messages over to outlive it, showing through
    ///     `presenter` what it does not (`herald check`); `nil` shows them through `presenter`.
    package init(configuration: Configuration, store: (any StateStore)?, presenter: MessagePresenter? = nil, handingOver: HandingOverPresenter? = nil,
                 linkOpener: (any LinkOpening)? = nil, clock: (any HeraldClock)? = nil,
                 quietReason: (@MainContext () -> QuietReason?)? = nil,
                 offSwitches: (@MainContext () throws(OffSwitchFileError) -> OffSwitchDecision)? = nil,
                 ledger: (any AttentionLedgerStore)? = nil, inbox: (any InboxStore)? = nil) throws {
        if let feedURL = configuration.feedURL, feedURL != FeedSource.standardInput, let refusal = configuration.urlRules.feedURLRefusal(feedURL) {
            throw HeraldError.configuration("feed URL refused: \(refusal)")
        }
        try configuration.validate()
        do {
            signingKeys = try configuration.publicKeys.map { key throws(FeedSignatureProblem) in try FeedSignature.publicKey(base64: key) }
        } catch {
            throw HeraldError.configuration(error.description)
        }
        // No lock is waited on longer than the fetch may take: a stuck process holding one
        // fails the check with `StateStoreError.locked` instead of hanging the app.
        let lockWait = configuration.timeout.seconds
        self.ledger = ledger ?? (store == nil ? FileAttentionLedgerStore(environment: configuration.environment, lockWait: lockWait)
                                              : MemoryAttentionLedgerStore())
        inboxStore = inbox ?? (store == nil ? FileInboxStore(environment: configuration.environment, lockWait: lockWait) : MemoryInboxStore())
        if let store {
            self.store = store
        } else {
            do {
                self.store = FileStateStore(paths: try HeraldPaths(appID: configuration.appID, environment: configuration.environment),
                                            lockWait: lockWait)
            } catch {
                throw HeraldError.configuration(StateStoreError(error, writing: "the state").description)
            }
        }
        self.configuration = configuration
        self.clock = clock ?? SystemClock()
        self.linkOpener = linkOpener ?? LinkOpener()
        self.quietReason = quietReason ?? DesktopQuiet.reason
        if let offSwitches {
            self.offSwitches = offSwitches
        } else {
            // The configuration's environment cannot change, so neither can the files' paths.
            let systemFiles = OffSwitchFiles.systemFiles(environment: configuration.environment)
            let userFile = OffSwitchFiles.userFile(environment: configuration.environment)
            self.offSwitches = { [appID = configuration.appID] () throws(OffSwitchFileError) in
                try OffSwitchFiles.read(systemFiles: systemFiles, userFile: userFile).decision(for: appID)
            }
        }
        let desktop = presenter ?? DesktopPresenter(appName: configuration.appName, appID: configuration.appID, icon: configuration.icon,
                                                    environment: configuration.environment)
        // A D-Bus-activatable app in a Flatpak sandbox posts its messages through the portal, its
        // buttons its own `app.herald-answer`, which reaches this Herald even after a restart.
        // Asked only in a sandbox: elsewhere making a Herald loads no library and asks no bus.
        let throughPortal = presenter == nil && configuration.isSandboxed
            && HandoverBus.route(appID: configuration.appID, environment: configuration.environment, sandboxed: true) == .portal
        if throughPortal {
            route = .handingOver(DesktopListPresenter(today: desktop, place: .portal, appName: configuration.appName, appID: configuration.appID,
                                                      icon: configuration.icon, environment: configuration.environment))
        } else if let handingOver {
            route = .handingOver(handingOver)
        } else {
            route = .onScreen(desktop)
        }
        // In a sandbox the agent is out of reach, and the portal is taken from the start or not at all.
        quitRoute = presenter == nil && !configuration.isSandboxed
            ? HandoverRoutePresenter(today: desktop, appName: configuration.appName, appID: configuration.appID, icon: configuration.icon,
                                     environment: configuration.environment)
            : nil
        if throughPortal {
            // (app id, key, answer, token). A click on a message an earlier Herald posted, whose target
            // holds no token, is refused by GIO for its type; its handover lapses after one remind
            // period, and a check shows the message again.
            portalAction = ApplicationAction(name: HandoverBus.appAction, parameterType: "(ssss)") { [weak self] target in
                self?.answeredThroughPortal(target)
            }
        }
    }

    /// The one call an app adds at start-up. Returns at once; on the main context it counts a
    /// use of every registered prompt, runs the feed check when due (iNotify's launch check),
    /// then shows the prompts that are due.
    public func appLaunched() {
        MainContext.idle { [self] in begin(launch: true, force: false) }
    }

    /// Checks now, skipping the first-launch, period and backoff gates and the delegate's
    /// `heraldShouldCheck` (iNotify's manual `checkForNotifications`).
    public func checkNow() {
        MainContext.idle { [self] in
            guard configuration.feedURL != nil else { return }
            begin(launch: false, force: true)
        }
    }

    /// The time now, on this Herald's clock.
    public func now() -> Date { clock.now }

    /// Whether a check is running or shown messages await answers.
    public var isBusy: Bool { check != nil }

    /// Takes every shown message and prompt off the screen, unanswered (DESIGN.md D18); they
    /// come back at the next due check.
    public func closeShownMessages() {
        check?.closeAll()
    }

    /// The call an app makes as it quits. Messages still on the desktop's screen are handed to
    /// the Herald agent (DESIGN.md D23), where the session can start it, so that they stay there
    /// and can still be answered after the app has gone: into GNOME Shell's list, or held by the
    /// agent on other desktops. Their answers are recorded in the app's state as they come, and
    /// reach the delegate at the next launch (`HeraldEvent.answeredWhileAway`). Prompts, messages
    /// in the app's own presenter, and every message where no agent can run are closed, as
    /// `closeShownMessages()` closes them. Returns when it is done: the process may exit.
    public func appWillQuit() {
        guard let check else { return }
        if let quitRoute { check.handOverShown(through: quitRoute) }
        check.closeAll()
    }

    private func begin(launch: Bool, force: Bool) {
        guard check == nil else { return }
        let inputs = CheckInputs(
            configuration: configuration, store: store, route: route, linkOpener: linkOpener, clock: clock, running: running,
            quietReason: quietReason, offSwitches: offSwitches, prompts: { [unowned self] in Array(prompts.values) },
            feedSource: { [unowned self] url in feedSource(for: url) },
            withdraw: { [appID = configuration.appID] key, handover in HandoverBus.withdraw(appID: appID, key: key, handover) },
            ledger: ledger, inbox: inboxStore, rendezvous: rendezvous)
        let check = Check(for: self, inputs: inputs, launch: launch, force: force)
        self.check = check
        check.start()
    }

    /// What the policy decides this app's messages against at `now`: the check settings, the
    /// URL rules, which checks still run, and what the key files say of categories and the
    /// attention budget.
    func policyContext(at now: Date, offSwitches: OffSwitchDecision = .none) -> PolicyContext {
        PolicyContext(configuration: configuration.check, now: now, urlRules: configuration.urlRules, isLive: running.isLive,
                      runningProcess: RunningProcess.find, mutedCategories: offSwitches.mutedCategories, budget: offSwitches.budget)
    }

    /// Called by the check when it is over.
    func checkEnded(_ ended: Check) {
        if check === ended { check = nil }
    }
}

/// Herald's own version, sent in the User-Agent.
package enum HeraldVersion {
    /// The release this build belongs to.
    package static let current = "0.1.0"
}
