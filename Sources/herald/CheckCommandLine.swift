import FoundationEssentials
import Herald
import HeraldCore

/// What `herald check` is asked to do, as plain values: the feed, the app, the check options
/// and the start delay.
///
/// `options` is the one list of `herald check`'s options and where each one's value goes; the
/// plain reading (`init(plainArguments:)`) and the arguments an autostart entry runs
/// (`checkArguments`) go through it. The parser's option groups (`FeedCheckArguments`) say how
/// each option is shown in the help, the manual and the completions, and each gives the line
/// its values property by property (`init(parsed:)`); `CheckOptionDeclarationTests` proves that
/// every option the parser declares is in `options` and reaches the line either way.
///
/// The plain reading is for the command line an autostart entry runs at every login: building
/// the parser's argument sets reflects over every option and costs a check that is not due more
/// than the rest of its run. Whatever it does not read plainly it leaves to the parser, which
/// also reports every mistake.
struct CheckCommandLine: Sendable, Equatable {
    /// The feed as given: a path, `-` for standard input, or a URL.
    var feed: String
    /// The app's id.
    var appID: String
    /// The app's version, compared with MinVersion / MaxVersion.
    var appVersion: String?
    /// The name shown as the sender.
    var appName: String?
    /// A prompts file whose prompts are counted and shown after the feed's messages.
    var prompts: String?
    /// The longest random wait before the first request, in seconds.
    var startDelay = Defaults.startDelay
    /// Explain each message instead of showing it.
    var explain = false
    /// Days between checks.
    var checkPeriod = Defaults.checkPeriod
    /// Days a message waits after "remind me later".
    var remindPeriod = Defaults.remindPeriod
    /// Show the oldest pending message first.
    var showOldestFirst = false
    /// Check on the very first run too.
    var showOnFirstLaunch = false
    /// Ignore the periods and start over once every message was answered.
    var debug = false
    /// Skip the first-launch, check-period, failure-backoff and Retry-After gates.
    var force = false
    /// Most messages shown by one check.
    var max = Defaults.max
    /// Show answered messages too.
    var all = false
    /// Let `Urgency: critical` stay critical (and a critical security message pass the budget).
    var allowCriticalUrgency = false
    /// Show "What's new in <version>" once after an update, from the app's AppStream release notes.
    var whatsNew = false
    /// Seconds to wait for answers.
    var wait = Defaults.wait
    /// Seconds the fetch may take.
    var timeout = Defaults.timeout
    /// Seconds to wait for a notification server to appear on the session bus (at login).
    var serverWait = Defaults.serverWait
    /// Allow feeds over plain http from other machines.
    var allowHttp = false
    /// Custom link schemes the app opens.
    var allowedSchemes: [String] = []
    /// A PEM file of the certificate authorities to trust instead of the system's.
    var caFile: String?
    /// The Ed25519 public keys (base64) the app trusts; the feed must be signed with one.
    var publicKeys: [String] = []
    /// An icon name or file URI shown with the messages.
    var icon: String?
    /// One JSON object per event on stdout.
    var json = false
    /// Show and wait here, never handing a message over to outlive the check.
    var noHandover = false

    /// The values of the options left out: the library's own defaults where it has them.
    enum Defaults {
        /// The policy a `CheckConfiguration` has when nothing is given.
        private static let check = CheckConfiguration()
        /// `--start-delay` of `herald check`: none.
        static let startDelay = 0.0
        /// `--check-period`, in days: `CheckConfiguration`'s (half a day).
        static let checkPeriod = check.checkPeriod.seconds / 86_400
        /// `--remind-period`, in days: `CheckConfiguration`'s (one day).
        static let remindPeriod = check.remindPeriod.seconds / 86_400
        /// `--max`: `CheckConfiguration`'s (three messages).
        static let max = check.maxNotificationsPerCheck
        /// `--wait`: ten minutes.
        static let wait = 600.0
        /// `--timeout`: `Herald.Configuration`'s (one minute).
        static let timeout = Herald.Configuration(feedURL: nil, appID: "", appVersion: nil, environment: [:]).timeout.seconds
        /// `--server-wait`: half a minute, for a check started at login before the desktop's
        /// notification server.
        static let serverWait = 30.0
    }

    /// Values for a feed and an app, every option at its default.
    init(feed: String, appID: String) {
        self.feed = feed
        self.appID = appID
    }

    /// The values the parser read into `groups` (`herald check` itself, or an option group of
    /// it), each group giving its own (`ParsedCheckOptions.give(to:)`); what no group gives
    /// keeps its default.
    init(parsed groups: any ParsedCheckOptions...) {
        self.init(feed: "", appID: "")
        for group in groups { group.give(to: &self) }
    }

    /// Every option of `herald check`, each once: its long name, what it takes and which value
    /// it sets. The order is the order `checkArguments` writes them in. Made once, on first use;
    /// never changed after (its closures hold only names and key paths), so every thread may read it.
    nonisolated(unsafe) static let options: [CheckOption] = {
        [
            .feed("--feed", \.feed), .text("--app-id", \.appID), .text("--app-version", \.appVersion), .text("--app-name", \.appName),
            .number("--start-delay", \.startDelay, alwaysWritten: true), .path("--prompts", \.prompts), .flag("--explain", \.explain),
            .number("--check-period", \.checkPeriod), .number("--remind-period", \.remindPeriod),
            .flag("--show-oldest-first", \.showOldestFirst), .flag("--show-on-first-launch", \.showOnFirstLaunch),
            .flag("--debug", \.debug), .flag("--force", \.force), .number("--max", \.max), .flag("--all", \.all),
            .flag("--allow-critical-urgency", \.allowCriticalUrgency), .flag("--whats-new", \.whatsNew),
            .number("--wait", \.wait), .number("--timeout", \.timeout), .number("--server-wait", \.serverWait),
            .flag("--allow-http", \.allowHttp), .texts("--allow-scheme", \.allowedSchemes), .path("--ca-file", \.caFile),
            .texts("--public-key", \.publicKeys), .text("--icon", \.icon), .flag("--json", \.json), .flag("--no-handover", \.noHandover),
        ]
    }()

    /// Reads the arguments after `check` when every one is in its plain form: `--name value` or
    /// `--flag`, each option once (`--allow-scheme` and `--public-key` any number of times), numbers as the
    /// parser reads them, `--feed` and `--app-id` given.
    ///
    /// Anything else is `nil` and goes to the parser: `--name=value`, a value beginning with
    /// `-`, `--`, short options, help, an unknown word, a repeated option, a missing value or
    /// a number that does not read. The parser then gives its own answer, an error or the
    /// same values.
    init?(plainArguments arguments: [String]) {
        let options = Self.options
        var given: [(option: CheckOption, value: String)] = []
        var seen: Set<String> = []
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard let option = options.first(where: { $0.name == name }) else { return nil }
            index += 1
            guard option.kind == .repeatedValue || seen.insert(name).inserted else { return nil }
            if option.kind == .flag {
                given.append((option, ""))
                continue
            }
            guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
            given.append((option, arguments[index]))
            index += 1
        }
        guard seen.contains("--feed"), seen.contains("--app-id") else { return nil }
        self.init(feed: "", appID: "")
        for (option, value) in given {
            guard option.read(&self, value) else { return nil }
        }
    }

    /// The same check as `herald check` arguments after "check", with the feed as a URL (a
    /// path as an absolute `file:` URI), the prompts and CA files by absolute path, the start
    /// delay, and only the other options that differ from their defaults.
    var checkArguments: [String] { Self.options.flatMap { $0.write(self) } }

    /// Why the numbers are refused, or `nil`: the ranges of `CheckOptionLimits`. The start
    /// delay is the command's own (`CheckCommand.refusal(startDelay:)`).
    var numberRefusal: String? {
        let refusals = [
            CheckOptionLimits.periodRefusal("--check-period", checkPeriod), CheckOptionLimits.periodRefusal("--remind-period", remindPeriod),
            CheckOptionLimits.waitRefusal(wait), CheckOptionLimits.timeoutRefusal(timeout),
            CheckOptionLimits.serverWaitRefusal(serverWait),
        ]
        return refusals.compactMap({ $0 }).first ?? CheckOptionLimits.maxRefusal(max)
    }
}
