import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// Herald for one app: checks its message feed and shows what this user has not answered.
///
/// Create it once with a `Configuration`, set a delegate if you want the events, and call
/// `appLaunched()` at start-up. Everything else happens on the GLib default main context,
/// which a GTK or GLib app's loop already runs; nothing blocks the caller.
///
/// ```swift
/// let herald = try Herald(configuration: .init(
///     feedURL: "https://example.com/messages.plist", appID: "org.example.App", appVersion: "1.4"))
/// herald.delegate = self
/// herald.appLaunched()
/// ```
public final class Herald {
    /// Everything an app sets up front (ORIGINALS.md §1.2 plus Herald's own limits).
    public struct Configuration {
        /// The feed: https, file, or http on this machine (others need `urlRules.allowPlainHTTPFeed`);
        /// `nil` for an app that only shows local prompts.
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
        /// Button labels; by default in the user's language.
        public var labels: Labels
        /// An icon name or `file://` URI shown with the messages.
        public var icon: String?
        /// Seconds the fetch may take. Default 60.
        public var timeout: Double
        /// Largest feed accepted, in bytes. Default 1 MiB.
        public var sizeLimit: Int
        /// Seconds to wait for answers before closing what is still shown; `nil` waits as long
        /// as the app runs.
        public var waitLimit: Double?
        /// Whether `appLaunched()` checks (iNotify's `checkAtLaunch`). Default true.
        public var checkAtLaunch: Bool
        /// The environment read for XDG directories and the language.
        public var environment: [String: String]

        /// Creates a configuration with iNotify's defaults.
        public init(
            feedURL: String?, appID: String, appVersion: String?, appName: String? = nil,
            check: CheckConfiguration? = nil, urlRules: URLRules = URLRules(), labels: Labels? = nil, icon: String? = nil,
            timeout: Double = 60, sizeLimit: Int = 1 << 20, waitLimit: Double? = nil, checkAtLaunch: Bool = true,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.feedURL = feedURL
            self.appID = appID
            self.appName = appName ?? appID
            var check = check ?? CheckConfiguration()
            check.appVersion = appVersion ?? check.appVersion
            self.check = check
            self.urlRules = urlRules
            self.labels = labels ?? Labels.forEnvironment(environment)
            self.icon = icon
            self.timeout = timeout
            self.sizeLimit = sizeLimit
            self.waitLimit = waitLimit
            self.checkAtLaunch = checkAtLaunch
            self.environment = environment
        }
    }

    /// The settings this Herald was made with.
    public let configuration: Configuration
    /// Receives the events; held weakly.
    public weak var delegate: HeraldDelegate?
    /// Shows the messages; the desktop's notification server unless replaced.
    public var presenter: MessagePresenter
    /// Opens view links and tells whether a link can be opened.
    public var linkOpener: LinkOpener = LinkOpener()
    /// The clock; replaced in tests.
    public var now: () -> Date = { Date() }
    /// The state store for this app.
    public let store: StateStore

    private lazy var fetcher = FeedFetcher(
        userAgent: "Herald/\(HeraldVersion.current) (\(configuration.appID)/\(configuration.check.appVersion ?? "unknown"))",
        timeout: configuration.timeout, sizeLimit: configuration.sizeLimit, rules: configuration.urlRules)
    private var checking = false
    private var shown: [String: (message: FeedEntry, handle: PresentedMessage)] = [:]
    private var waitTimer: UInt32 = 0
    /// The registered prompts, by name: registering a name again replaces it.
    var prompts: [String: Prompt] = [:]
    /// Prompts on screen, by name.
    var shownPrompts: [String: (prompt: Prompt, handle: PresentedMessage)] = [:]
    /// Whether this launch still has to show its due prompts, after the feed step.
    private var promptsDue = false
    /// Failures already reported in this check, so the prompts do not repeat the feed's.
    private var reportedFailures: Set<String> = []

    /// Creates Herald for an app.
    ///
    /// - Throws: `HeraldError.configuration` for an unusable app id or a refused feed URL.
    public init(configuration: Configuration) throws {
        if let feedURL = configuration.feedURL, let refusal = configuration.urlRules.feedURLRefusal(feedURL) {
            throw HeraldError.configuration("feed URL refused: \(refusal)")
        }
        do {
            store = StateStore(paths: try HeraldPaths(appID: configuration.appID, environment: configuration.environment))
        } catch let error as StateStoreError {
            throw HeraldError.configuration(error.description)
        }
        self.configuration = configuration
        presenter = DesktopPresenter(appName: configuration.appName, appID: configuration.appID, icon: configuration.icon)
    }

    /// The one call an app adds at start-up. Returns at once; on the main context it counts a
    /// use of every registered prompt, runs the feed check when due (iNotify's launch check),
    /// then shows the prompts that are due.
    public func appLaunched() {
        MainContext.idle { [self] in launch() }
    }

    /// Checks now, skipping the first-launch, period and backoff gates and the delegate's
    /// `heraldShouldCheck` (iNotify's manual `checkForNotifications`).
    public func checkNow() {
        MainContext.idle { [self] in check(force: true) }
    }

    /// Whether a check is running or shown messages await answers.
    public var isBusy: Bool { checking }

    /// Takes every shown message off the screen, unanswered (DESIGN.md D18); they come back at
    /// the next due check. Call before the process exits.
    public func closeShownMessages() {
        let open = shown
        shown = [:]
        for (key, item) in open {
            release(key)
            delegate?.herald(self, didClose: item.message, reason: .closedByHerald)
            item.handle.close()
        }
        closeShownPrompts()
        if checking { finishIfAnswered() }
    }

    // MARK: - The check

    private func launch() {
        guard !checking else { return }
        promptsDue = countPromptUses()
        if configuration.feedURL != nil, configuration.checkAtLaunch {
            check(force: false)
        } else if promptsDue {
            checking = true
            feedStepEnded()
        }
    }

    private func check(force: Bool) {
        guard !checking, let feedURL = configuration.feedURL else { return }
        checking = true
        let now = now()
        let gate = updateState { state in
            let gate = CheckPolicy.gate(configuration.check, state: state, now: now, force: force)
            state = gate.state
            return gate
        }
        guard let (skip, state) = gate else { return feedStepEnded() }
        if let skip { return skipCheck(skip) }
        if !force, delegate?.heraldShouldCheck(self) == false { return skipCheck(.delegateDeclined) }

        // Conditional only when the cached copy is there to reuse; it is read on a 304 alone.
        let cached = state.cachedFeed.flatMap { $0.url == feedURL && store.hasCachedFeed ? $0 : nil }
        let validators = cached.map { FeedValidators(etag: $0.etag, lastModified: $0.lastModified) }
        fetcher.fetch(feedURL, validators: validators) { [self] result in
            feedArrived(result, feedURL: feedURL)
        }
    }

    private func skipCheck(_ reason: CheckSkipReason) {
        delegate?.herald(self, didSkipCheck: reason)
        feedStepEnded()
    }

    private func feedArrived(_ result: Result<FetchResult, FetchError>, feedURL: String) {
        let bytes: Data
        var validators: FeedValidators?
        switch result {
        case .failure(let error):
            return failCheck(.fetch(error))
        case .success(.notModified):
            guard let cachedCopy = store.cachedFeed() else { return failCheck(.fetch(.transport("HTTP 304 without a cached copy"))) }
            bytes = cachedCopy
        case .success(.fetched(let data, let received)):
            bytes = data
            validators = received
        }
        let feed: Feed
        do {
            feed = try FeedDecoder.decode(bytes)
        } catch {
            return failCheck(.feed(error as! FeedError))
        }
        delegate?.herald(self, didFetchFeed: feed, notModified: validators == nil)
        let now = now()
        if validators != nil {
            do { try store.storeCachedFeed(bytes) } catch { return fail(.state(error as! StateStoreError)) }
        }
        let selected = updateState { state in
            if let validators {
                state.cachedFeed = .init(url: feedURL, etag: validators.etag, lastModified: validators.lastModified)
            }
            let selection = CheckPolicy.select(feed, configuration: configuration.check, state: state, now: now,
                                               urlRules: configuration.urlRules, isShownElsewhere: Self.isHeldByAnotherProcess)
            state = selection.state
            return selection
        }
        guard let selection = selected else { return feedStepEnded() }
        for skipped in selection.skipped { delegate?.herald(self, didSkipMessage: skipped.key, reason: skipped.reason) }
        if selection.candidates.isEmpty {
            recordSuccess()
            delegate?.heraldDidNotDetectMessages(self)
            return feedStepEnded()
        }
        delegate?.herald(self, didDetectMessages: selection.candidates)
        present(selection.candidates)
    }

    private func present(_ candidates: [FeedEntry]) {
        var capabilities: Set<String>?
        var count = 0
        for message in candidates {
            if count >= configuration.check.maxNotificationsPerCheck {
                delegate?.herald(self, didSkipMessage: message.key, reason: .overCap)
                continue
            }
            if let url = message.actionURL, !linkOpener.canOpen(url) {
                delegate?.herald(self, didSkipMessage: message.key, reason: .noHandler(URLRules.scheme(of: url) ?? url))
                continue
            }
            if delegate?.herald(self, shouldDisplay: message) == false {
                delegate?.herald(self, didSkipMessage: message.key, reason: .delegateDeclined)
                continue
            }
            if capabilities == nil {
                do {
                    capabilities = try presenter.capabilities()
                } catch {
                    return failCheck(error as? HeraldError ?? .noNotificationServer)
                }
                recordSuccess()
            }
            if show(message, capabilities: capabilities ?? []) { count += 1 }
        }
        if capabilities == nil { recordSuccess() }
        feedStepEnded()
    }

    /// After the feed step (shown, nothing to show, skipped or failed): the launch's prompts,
    /// then wait for the answers or finish.
    private func feedStepEnded() {
        if promptsDue {
            promptsDue = false
            presentDuePrompts()
        }
        guard shown.isEmpty, shownPrompts.isEmpty else {
            if waitTimer == 0, let limit = configuration.waitLimit {
                waitTimer = MainContext.after(seconds: limit) { [self] in
                    waitTimer = 0
                    closeShownMessages()
                }
            }
            return
        }
        finishIfAnswered()
    }

    /// Shows one message; returns whether it reached the screen.
    private func show(_ message: FeedEntry, capabilities: Set<String>) -> Bool {
        let content = NotificationContent.make(for: message, labels: configuration.labels, capabilities: capabilities,
                                               fallbackSummary: configuration.appName)
        let claim = HeraldState.Presentation(processID: getpid(), until: now().addingTimeInterval(configuration.waitLimit ?? 86_400))
        guard updateState({ $0.presenting[message.key] = claim }) != nil else { return false }
        let handle: PresentedMessage
        do {
            handle = try presenter.present(content, link: message.actionURL) { [weak self] response in
                self?.responded(to: message.key, with: response)
            }
        } catch {
            release(message.key)
            delegate?.herald(self, didFailWithError: error as? HeraldError ?? .presentation("\(error)"))
            return false
        }
        if content.isInteractive {
            shown[message.key] = (message, handle)
            delegate?.herald(self, didShow: message, notificationID: handle.id)
        } else {
            // DESIGN.md D11: a server without actions cannot answer; showing is viewing.
            delegate?.herald(self, didShow: message, notificationID: handle.id)
            record(.view, for: message.key)
        }
        return true
    }

    private func responded(to key: String, with response: NotificationResponse) {
        guard let (message, _) = shown.removeValue(forKey: key) else { return }
        switch response {
        case .action(let id):
            if let answer = NotificationContent.answer(forActionID: id, entry: message) {
                answered(message, answer)
            } else {
                release(key)
                delegate?.herald(self, didClose: message, reason: .undefined)
            }
        case .closed(let reason):
            if let answer = CheckPolicy.answer(forClose: reason) { record(answer, for: key) } else { release(key) }
            delegate?.herald(self, didClose: message, reason: reason)
        }
        finishIfAnswered()
    }

    private func answered(_ message: FeedEntry, _ answer: Answer) {
        record(answer, for: message.key)
        switch answer {
        case .view:
            delegate?.herald(self, didView: message)
            if let url = message.actionURL {
                do { try linkOpener.open(url) } catch { delegate?.herald(self, didFailToOpen: url, reason: "\(error)") }
            }
        case .remind: delegate?.herald(self, didRequestReminder: message)
        case .ignore: delegate?.herald(self, didIgnore: message)
        case .ok: delegate?.herald(self, didAcknowledge: message)
        }
    }

    // MARK: - State

    /// Changes the state under its lock. A state that cannot be written is reported (once per
    /// check) rather than thrown: that change is lost, nothing else is.
    @discardableResult
    func updateState<Result>(_ change: (inout HeraldState) -> Result) -> Result? {
        do {
            return try store.update(change)
        } catch {
            reportOnce(.state(error as! StateStoreError))
            return nil
        }
    }

    private func record(_ answer: Answer, for key: String) {
        let now = now()
        updateState { $0 = CheckPolicy.apply(answer, to: key, state: $0, now: now) }
    }

    private func release(_ key: String) {
        updateState { $0.presenting[key] = nil }
    }

    private func recordSuccess() {
        let now = now()
        updateState { $0 = CheckPolicy.recordSuccess($0, now: now) }
    }

    private func failCheck(_ error: HeraldError) {
        let now = now()
        updateState { $0 = CheckPolicy.recordFailure($0, reason: error.description, now: now) }
        fail(error)
    }

    private func fail(_ error: HeraldError) {
        reportOnce(error)
        feedStepEnded()
    }

    /// Reports a failure unless this check already reported the same kind.
    func reportOnce(_ error: HeraldError) {
        guard reportedFailures.insert(error.kind).inserted else { return }
        delegate?.herald(self, didFailWithError: error)
    }

    /// Ends the check once nothing shown awaits an answer.
    func finishIfAnswered() {
        guard shown.isEmpty, shownPrompts.isEmpty else { return }
        MainContext.cancel(waitTimer)
        waitTimer = 0
        checking = false
        reportedFailures = []
        delegate?.heraldDidFinishCheck(self)
    }

    /// Whether another running process holds a message on screen.
    private static func isHeldByAnotherProcess(_ key: String, _ claim: HeraldState.Presentation) -> Bool {
        claim.processID != getpid() && (kill(claim.processID, 0) == 0 || errno == EPERM)
    }
}

/// Herald's own version, sent in the User-Agent.
public enum HeraldVersion {
    /// The release this build belongs to.
    public static let current = "0.1.0"
}
