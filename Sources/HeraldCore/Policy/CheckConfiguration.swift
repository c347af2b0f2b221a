/// The settings that decide when Herald checks and what it shows (ORIGINALS.md §1.2).
public struct CheckConfiguration: Sendable, Equatable {
    /// The app's version, compared with MinVersion / MaxVersion. `nil` skips version filtering.
    public var appVersion: String?
    /// The time between checks. Default 12 hours.
    public var checkPeriod: Duration
    /// The time a message waits after "remind me later". Default 1 day.
    public var remindPeriod: Duration
    /// Show the oldest pending message first instead of the newest. Default false.
    public var showOldestFirst: Bool
    /// Check on the very first launch too. Default false: the first launch only marks itself.
    public var showOnFirstLaunch: Bool
    /// Skip the first-launch, check-period and remind gates, and start over once every message
    /// has been answered. For publishers trying out a feed.
    public var debug: Bool
    /// How many messages one check may show (DESIGN.md D3). Default 3; 1 is iNotify's behaviour.
    public var maxNotificationsPerCheck: Int
    /// Show answered messages too (viewed, ignored, put off), without forgetting the answers:
    /// a launcher's "Show all messages". Default false.
    public var showAnswered: Bool
    /// Who this install is, for the feed's `Languages`, `Desktops` and localised text. `nil`
    /// until set: `Herald` reads it from its environment; the policy then reads C-locale English
    /// on no known desktop.
    package var audience: Audience?
    /// Whether a message may ask for critical urgency (`Urgency: critical`), which keeps a
    /// notification on screen until answered. Default false: such messages show as normal.
    public var allowsCriticalUrgency: Bool

    /// Creates a configuration with iNotify's defaults.
    public init(
        appVersion: String? = nil, checkPeriod: Duration = .seconds(43_200), remindPeriod: Duration = .seconds(86_400),
        showOldestFirst: Bool = false, showOnFirstLaunch: Bool = false, debug: Bool = false,
        maxNotificationsPerCheck: Int = 3, showAnswered: Bool = false, allowsCriticalUrgency: Bool = false
    ) {
        self.init(appVersion: appVersion, checkPeriod: checkPeriod, remindPeriod: remindPeriod, showOldestFirst: showOldestFirst,
                  showOnFirstLaunch: showOnFirstLaunch, debug: debug, maxNotificationsPerCheck: maxNotificationsPerCheck,
                  showAnswered: showAnswered, audience: nil, allowsCriticalUrgency: allowsCriticalUrgency)
    }

    /// `init(appVersion:…)` with the audience given rather than read by `Herald` from its
    /// environment.
    package init(
        appVersion: String? = nil, checkPeriod: Duration = .seconds(43_200), remindPeriod: Duration = .days(1),
        showOldestFirst: Bool = false, showOnFirstLaunch: Bool = false, debug: Bool = false,
        maxNotificationsPerCheck: Int = 3, showAnswered: Bool = false, audience: Audience?,
        allowsCriticalUrgency: Bool = false
    ) {
        self.audience = audience
        self.allowsCriticalUrgency = allowsCriticalUrgency
        self.appVersion = appVersion
        self.checkPeriod = checkPeriod
        self.remindPeriod = remindPeriod
        self.showOldestFirst = showOldestFirst
        self.showOnFirstLaunch = showOnFirstLaunch
        self.debug = debug
        self.maxNotificationsPerCheck = maxNotificationsPerCheck
        self.showAnswered = showAnswered
    }
}
