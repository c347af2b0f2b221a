/// What `herald check` is asked to do, as plain values: the feed, the app, the check options
/// and the start delay.
///
/// The command-line parser declares these options once, with their help, and hands its result
/// over as this value. `init(plainArguments:)` reads the same options without the parser, for
/// the command line an autostart entry runs at every login: building the parser's argument
/// sets reflects over every option and costs a check that is not due more than the rest of
/// its run. Whatever it does not read plainly it leaves to the parser, which also reports
/// every mistake.
public struct CheckCommandLine: Sendable, Equatable {
    /// The feed as given: a path, `-` for standard input, or a URL.
    public var feed: String
    /// The app's id.
    public var appID: String
    /// The app's version, compared with MinVersion / MaxVersion.
    public var appVersion: String?
    /// The name shown as the sender.
    public var appName: String?
    /// A prompts file whose prompts are counted and shown after the feed's messages.
    public var prompts: String?
    /// The longest random wait before the first request, in seconds.
    public var startDelay = Defaults.startDelay
    /// Explain each message instead of showing it.
    public var explain = false
    /// Days between checks.
    public var checkPeriod = Defaults.checkPeriod
    /// Days a message waits after "remind me later".
    public var remindPeriod = Defaults.remindPeriod
    /// Show the oldest pending message first.
    public var showOldestFirst = false
    /// Check on the very first run too.
    public var showOnFirstLaunch = false
    /// Ignore the periods and start over once every message was answered.
    public var debug = false
    /// Skip the first-launch, check-period and failure-backoff gates.
    public var force = false
    /// Most messages shown by one check.
    public var max = Defaults.max
    /// Show answered messages too.
    public var all = false
    /// Seconds to wait for answers.
    public var wait = Defaults.wait
    /// Seconds the fetch may take.
    public var timeout = Defaults.timeout
    /// Seconds to wait for a notification server to appear on the session bus (at login).
    public var serverWait = Defaults.serverWait
    /// Allow feeds over plain http from other machines.
    public var allowHttp = false
    /// Custom link schemes the app opens.
    public var allowedSchemes: [String] = []
    /// A PEM file of the certificate authorities to trust instead of the system's.
    public var caFile: String?
    /// The Ed25519 public keys (base64) the app trusts; the feed must be signed with one.
    public var publicKeys: [String] = []
    /// An icon name or file URI shown with the messages.
    public var icon: String?
    /// One JSON object per event on stdout.
    public var json = false

    /// The values of the options left out.
    public enum Defaults {
        /// `--start-delay` of `herald check`: none.
        public static let startDelay = 0.0
        /// `--check-period`: half a day.
        public static let checkPeriod = 0.5
        /// `--remind-period`: one day.
        public static let remindPeriod = 1.0
        /// `--max`: three messages.
        public static let max = 3
        /// `--wait`: ten minutes.
        public static let wait = 600.0
        /// `--timeout`: one minute.
        public static let timeout = 60.0
        /// `--server-wait`: half a minute, for a check started at login before the desktop's
        /// notification server.
        public static let serverWait = 30.0
    }

    /// Values for a feed and an app, every option at its default.
    public init(feed: String, appID: String) {
        self.feed = feed
        self.appID = appID
    }

    /// What an option of `herald check` takes after its name.
    public enum OptionKind: Sendable, Equatable {
        /// Nothing: the option is a flag.
        case flag
        /// One value, given once.
        case value
        /// One value, given any number of times.
        case repeatedValue
    }

    /// Every option of `herald check` by its long name, and what it takes. A list, not a
    /// dictionary: a search of 24 names costs less than the hashing it would save.
    public static let options: [(name: String, kind: OptionKind)] = [
        ("--feed", .value), ("--app-id", .value), ("--app-version", .value), ("--app-name", .value), ("--prompts", .value),
        ("--start-delay", .value), ("--explain", .flag), ("--check-period", .value), ("--remind-period", .value),
        ("--show-oldest-first", .flag), ("--show-on-first-launch", .flag), ("--debug", .flag), ("--force", .flag),
        ("--max", .value), ("--all", .flag), ("--wait", .value), ("--timeout", .value), ("--server-wait", .value), ("--allow-http", .flag),
        ("--allow-scheme", .repeatedValue), ("--ca-file", .value), ("--public-key", .repeatedValue), ("--icon", .value), ("--json", .flag),
    ]

    /// Reads the arguments after `check` when every one is in its plain form: `--name value` or
    /// `--flag`, each option once (`--allow-scheme` and `--public-key` any number of times), numbers as the
    /// parser reads them, `--feed` and `--app-id` given.
    ///
    /// Anything else is `nil` and goes to the parser: `--name=value`, a value beginning with
    /// `-`, `--`, short options, help, an unknown word, a repeated option, a missing value or
    /// a number that does not read. The parser then gives its own answer, an error or the
    /// same values.
    public init?(plainArguments arguments: [String]) {
        var values: [String: String] = [:]
        var repeated: [String: [String]] = [:]
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard let kind = Self.options.first(where: { $0.name == name })?.kind else { return nil }
            index += 1
            if kind == .flag {
                guard values.updateValue("", forKey: name) == nil else { return nil }
                continue
            }
            guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
            if kind == .repeatedValue {
                repeated[name, default: []].append(arguments[index])
            } else if values.updateValue(arguments[index], forKey: name) != nil {
                return nil
            }
            index += 1
        }
        guard let feed = values["--feed"], let appID = values["--app-id"] else { return nil }
        self.init(feed: feed, appID: appID)
        appVersion = values["--app-version"]
        appName = values["--app-name"]
        prompts = values["--prompts"]
        allowedSchemes = repeated["--allow-scheme"] ?? []
        caFile = values["--ca-file"]
        publicKeys = repeated["--public-key"] ?? []
        icon = values["--icon"]
        explain = values["--explain"] != nil
        showOldestFirst = values["--show-oldest-first"] != nil
        showOnFirstLaunch = values["--show-on-first-launch"] != nil
        debug = values["--debug"] != nil
        force = values["--force"] != nil
        all = values["--all"] != nil
        allowHttp = values["--allow-http"] != nil
        json = values["--json"] != nil
        guard Self.read(values["--start-delay"], into: &startDelay), Self.read(values["--check-period"], into: &checkPeriod),
              Self.read(values["--remind-period"], into: &remindPeriod), Self.read(values["--wait"], into: &wait),
              Self.read(values["--timeout"], into: &timeout), Self.read(values["--server-wait"], into: &serverWait)
        else { return nil }
        if let text = values["--max"] {
            guard let number = Int(text) else { return nil }
            max = number
        }
    }

    /// Reads a number as the parser does (`Double(_:)`); a missing option keeps the default.
    private static func read(_ text: String?, into number: inout Double) -> Bool {
        guard let text else { return true }
        guard let value = Double(text) else { return false }
        number = value
        return true
    }

    /// Why the numbers are refused, or `nil`: the ranges of `CheckOptionLimits`, and at least
    /// one message per check. The start delay is the command's own (`startDelayRefusal`).
    public var numberRefusal: String? {
        let refusals = [
            CheckOptionLimits.periodRefusal("--check-period", checkPeriod), CheckOptionLimits.periodRefusal("--remind-period", remindPeriod),
            CheckOptionLimits.waitRefusal(wait), CheckOptionLimits.timeoutRefusal(timeout),
            CheckOptionLimits.serverWaitRefusal(serverWait),
        ]
        if let refusal = refusals.compactMap({ $0 }).first { return refusal }
        return max >= 1 ? nil : "--max must be at least 1"
    }
}
