import ArgumentParser
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

/// `herald check`: one check of a feed, waiting on the main loop for the answers.
struct CheckCommand: ParsableCommand, UsageExample, ParsedCheckOptions {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a feed and show the messages this user has not answered.",
        discussion: RegisteredCheckCommand.usage + "\n\n" + ExitStatus.summary(exitStatuses)
    )

    /// The statuses a check exits with, besides a signal's.
    static let exitStatuses: [ExitStatus] = [.done, .usage, .data, .noInput, .unavailable, .cannotCreate, .temporaryFailure, .configuration]

    static let example = "herald check --feed https://example.org/feed.plist --app-id org.example.App"

    @OptionGroup var target: FeedCheckArguments

    @Option(help: "Wait a random 0...N seconds before the first request, so a fleet logging in together spreads out (at most \(NumberText.plain(CheckOptionLimits.startDelay.upper))).")
    var startDelay: Double = CheckCommandLine.Defaults.startDelay

    @Flag(help: ArgumentHelp(
        "Say for each message of the feed, and each prompt of --prompts, whether it would show now and, if not, why; show nothing and change no state.",
        discussion: "With --json, one object per message and prompt. The feed is fetched; the state is only read."))
    var explain = false

    func validate() throws {
        if let refusal = Self.refusal(startDelay: startDelay) { throw ValidationError(refusal) }
    }

    /// Why the command's own option is refused, or `nil`: the start delay's range.
    static func refusal(startDelay: Double) -> String? {
        CheckOptionLimits.startDelayRefusal(startDelay)
    }

    func run() throws {
        try Self.run(CheckCommandLine(parsed: self))
    }

    func give(to line: inout CheckCommandLine) {
        target.give(to: &line)
        line.startDelay = startDelay
        line.explain = explain
    }

    /// Runs the check these values ask for; the parser's and the plain reading's alike.
    static func run(_ line: CheckCommandLine) throws {
        try FeedArgument(line.feed).requireReadable()
        let prompts = try line.loadPrompts()
        if line.explain { throw ExitCode(MainContext.assumeIsolated { CheckExplanation(line: line, prompts: prompts).run() }) }
        var session = CheckSession(configuration: line.configuration, json: line.json)
        session.prompts = prompts
        session.promptsFile = line.prompts
        session.serverWait = line.serverWait
        session.handsOver = !line.noHandover
        let delay = StartDelay.seconds(upTo: line.startDelay)
        throw ExitCode(MainContext.assumeIsolated { session.run(force: line.force, startDelay: delay) })
    }

    /// Runs `herald check` when its arguments are all in their plain form and acceptable
    /// (`CheckCommandLine.init(plainArguments:)`), without building the parser's argument sets;
    /// returns otherwise, leaving them to the parser.
    static func runPlainArguments(_ arguments: [String]) throws {
        guard let line = CheckCommandLine(plainArguments: arguments), line.usageProblem == nil else { return }
        try run(line)
    }
}

/// What a check is about: the feed, the app, the check options and an optional prompts file.
/// Shared by `herald check` and the autostart entry that runs it.
struct FeedCheckArguments: ParsableArguments, ParsedCheckOptions {
    @Option(help: ArgumentHelp(
        "The feed: a file, - for standard input, or its URL (https, file, or http on this machine).",
        discussion: "A feed read from standard input is read once, never cached, and has no conditional request."), completion: .file())
    var feed: String

    @OptionGroup var app: AppOptions
    @OptionGroup var options: CheckOptions

    @Option(help: "A prompts file: its prompts are counted and shown after the feed's messages.", completion: .file())
    var prompts: String?

    func validate() throws {
        if let refusal = Self.feedRefusal(feed, rules: options.links.rules) { throw ValidationError(refusal) }
    }

    func give(to line: inout CheckCommandLine) {
        line.feed = feed
        app.give(to: &line)
        options.give(to: &line)
        line.prompts = prompts
    }

    /// Why a feed argument is refused under `rules`, or `nil`; standard input always passes.
    static func feedRefusal(_ feed: String, rules: URLRules) -> String? {
        if let refusal = FeedArgument.refusal(of: feed) { return refusal }
        let argument = FeedArgument(feed)
        guard !argument.isStandardInput, let refusal = rules.feedURLRefusal(argument.url) else { return nil }
        return "feed URL refused: \(refusal)"
    }
}

extension CheckCommandLine {
    /// The mistake the parser would report for these values, or `nil` when it would report none,
    /// for the plain reading, which leaves a command line with a mistake to the parser to report.
    ///
    /// Each option group's `validate()` only throws its own refusal function's answer; here are
    /// those functions, in the order the parser validates the groups (each nested group before
    /// the group holding it, the command last), so both readings refuse the same values with
    /// the same first message. A new check goes into its group's refusal function, never into a
    /// `validate()` itself.
    var usageProblem: String? {
        AppOptions.refusal(appID: appID)
            ?? URLRuleOptions.refusal(caFile: caFile, publicKeys: publicKeys)
            ?? numberRefusal
            ?? FeedCheckArguments.feedRefusal(feed, rules: rules)
            ?? CheckCommand.refusal(startDelay: startDelay)
    }

    /// The rules for the feed and the links.
    var rules: URLRules { URLRules(allowedCustomSchemes: Set(allowedSchemes), allowPlainHTTPFeed: allowHttp) }

    /// The library's configuration for these values; a path becomes an absolute `file:` URI.
    var configuration: Herald.Configuration {
        var configuration = Herald.Configuration(
            feedURL: FeedArgument(feed).url, appID: appID, appVersion: appVersion, appName: appName,
            check: CheckConfiguration(
                appVersion: appVersion, checkPeriod: .days(checkPeriod), remindPeriod: .days(remindPeriod),
                showOldestFirst: showOldestFirst, showOnFirstLaunch: showOnFirstLaunch, debug: debug,
                maxNotificationsPerCheck: max, showAnswered: all, allowsCriticalUrgency: allowCriticalUrgency),
            urlRules: rules,
            icon: icon, timeout: .seconds(timeout), caFile: caFile, publicKeys: publicKeys, waitLimit: .seconds(wait))
        configuration.whatsNew = whatsNew
        return configuration
    }

    /// The prompts of the prompts file, if one is given.
    func loadPrompts() throws -> [Prompt] {
        guard let prompts else { return [] }
        return try PromptsCommand.load(prompts, rules: rules)
    }
}

/// Which links and feeds are allowed, for the commands that fetch or open them.
struct URLRuleOptions: ParsableArguments, ParsedCheckOptions {
    @Flag(help: "Allow feeds over plain http from other machines.")
    var allowHttp = false

    /// Each `--allow-scheme` given.
    @Option(help: "A custom link scheme the app opens (repeatable).")
    var allowScheme: [String] = []

    @Option(help: "A PEM file of the certificate authorities to trust for https feeds, instead of the system's.", completion: .file())
    var caFile: String?

    /// Each `--public-key` given.
    @Option(help: "An Ed25519 public key (base64) the feed must be signed with (repeatable: any one of them will do); unsigned or wrongly signed feeds then fail.")
    var publicKey: [String] = []

    /// The rules these options ask for.
    var rules: URLRules { URLRules(allowedCustomSchemes: Set(allowScheme), allowPlainHTTPFeed: allowHttp) }

    func validate() throws {
        if let refusal = Self.refusal(caFile: caFile, publicKeys: publicKey) { throw ValidationError(refusal) }
    }

    /// Why a CA file or public key is refused, or `nil`: the file must be readable and the key
    /// an Ed25519 public key.
    static func refusal(caFile: String?, publicKeys: [String]) -> String? {
        if let caFile, access(caFile, R_OK) != 0 {
            return "cannot read the CA file \(caFile): \(String(cString: strerror(errno)))"
        }
        for publicKey in publicKeys {
            do { _ = try FeedSignature.publicKey(base64: publicKey) } catch { return error.description }
        }
        return nil
    }

    func give(to line: inout CheckCommandLine) {
        line.allowHttp = allowHttp
        line.allowedSchemes = allowScheme
        line.caFile = caFile
        line.publicKeys = publicKey
    }
}

/// Who the check is for.
struct AppOptions: ParsableArguments, ParsedCheckOptions {
    @Option(help: "The app's id, e.g. org.example.App (names the state file and the desktop-entry hint).")
    var appID: String

    @Option(help: "The app's version, compared with MinVersion / MaxVersion.")
    var appVersion: String?

    @Option(help: "The name shown as the sender (default: the app id).")
    var appName: String?

    func validate() throws { try Self.requireUsable(appID: appID) }

    func give(to line: inout CheckCommandLine) {
        line.appID = appID
        line.appVersion = appVersion
        line.appName = appName
    }

    /// A usage error unless the app id is usable (`refusal(appID:)`).
    static func requireUsable(appID: String) throws {
        if let refusal = refusal(appID: appID) { throw ValidationError(refusal) }
    }

    /// Why an app id is refused, or `nil`: it must be a plain file name, as it names the state
    /// file and the autostart entry, and an id such as `../../x` would reach outside their folders.
    static func refusal(appID: String) -> String? {
        HeraldPaths.isValid(appID: appID) ? nil : StateStoreError.invalidAppID(appID).description
    }
}

/// Options mirroring Herald's configuration.
struct CheckOptions: ParsableArguments, ParsedCheckOptions {
    @Option(help: "Days between checks (fractional).")
    var checkPeriod: Double = CheckCommandLine.Defaults.checkPeriod

    @Option(help: "Days a message waits after 'remind me later' (fractional).")
    var remindPeriod: Double = CheckCommandLine.Defaults.remindPeriod

    @Flag(help: "Show the oldest pending message first.")
    var showOldestFirst = false

    @Flag(help: "Check on the very first run too.")
    var showOnFirstLaunch = false

    @Flag(help: "Ignore the periods and start over once every message was answered (for publishers).")
    var debug = false

    @Flag(help: "Check now: skip the first-launch, check-period, failure-backoff and Retry-After gates.")
    var force = false

    @Option(help: "Most messages shown by one check.")
    var max: Int = CheckCommandLine.Defaults.max

    @Flag(help: "Show answered messages too (viewed, ignored, put off), keeping the answers.")
    var all = false

    @Flag(help: ArgumentHelp(
        "Let a message with Urgency critical stay critical: it stays on screen until answered, and a security message so marked may pass the attention budget.",
        discussion: "Without it, a critical message is shown with normal urgency and counts against the budget like any other."))
    var allowCriticalUrgency = false

    @Flag(help: ArgumentHelp(
        "After an update, show \"What's new in <version>\" once, from the release notes of the app's AppStream metainfo since the version Herald last saw.",
        discussion: "Needs --app-version (a registration without Version takes the metainfo's). The first run only records the version; the message is an announcement, counted against the attention budget and muted with that category (herald mute --category announcement)."))
    var whatsNew = false

    @Option(help: "Seconds to wait for answers before closing what is still shown.")
    var wait: Double = CheckCommandLine.Defaults.wait

    @Option(help: ArgumentHelp(
        "Seconds the fetch may take, and the longest wait for a lock another process holds.",
        discussion: "A check whose app state or attention ledger another process keeps locked for longer stops with a sentence naming that process, and exit \(ExitStatus.temporaryFailure.code)."))
    var timeout: Double = CheckCommandLine.Defaults.timeout

    @Option(help: ArgumentHelp(
        "Seconds to wait for the desktop's notification server to appear, when there is something to show and none is running yet (at most \(NumberText.plain(CheckOptionLimits.serverWait.upper))).",
        discussion: "A check started at login may come before the desktop's server; Herald waits for it instead of starting a server the desktop did not choose."))
    var serverWait: Double = CheckCommandLine.Defaults.serverWait

    @OptionGroup var links: URLRuleOptions

    @Option(help: "An icon name or file URI shown with the messages (default: the Icon of the app's desktop entry, else Herald's, org.herald.Herald).")
    var icon: String?

    @Flag(help: "Print one JSON object per event on stdout.")
    var json = false

    @Flag(help: ArgumentHelp(
        "Show the messages and wait for their answers here, as the only process that hears them, instead of handing them over.",
        discussion: "Without it, where the session bus can start the Herald agent (org.herald.Agent), each message is handed over to outlive the check: to the desktop's own list (GNOME Shell) or to the agent, which holds it on screen; the check then exits at once."))
    var noHandover = false

    /// Refuses numbers outside `CheckOptionLimits` (NaN and infinity included) before they reach
    /// the fetcher, the timers or an autostart entry.
    func validate() throws {
        if let refusal = CheckCommandLine(parsed: self).numberRefusal { throw ValidationError(refusal) }
    }

    func give(to line: inout CheckCommandLine) {
        line.checkPeriod = checkPeriod
        line.remindPeriod = remindPeriod
        line.showOldestFirst = showOldestFirst
        line.showOnFirstLaunch = showOnFirstLaunch
        line.debug = debug
        line.force = force
        line.max = max
        line.all = all
        line.allowCriticalUrgency = allowCriticalUrgency
        line.whatsNew = whatsNew
        line.wait = wait
        line.timeout = timeout
        line.serverWait = serverWait
        links.give(to: &line)
        line.icon = icon
        line.json = json
        line.noHandover = noHandover
    }
}
