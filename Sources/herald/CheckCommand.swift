import ArgumentParser
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

/// `herald check`: one check of a feed, waiting on the main loop for the answers.
struct CheckCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a feed and show the messages this user has not answered.",
        discussion: """
            Exit codes: 0 done (also when nothing was due), 64 usage, 65 bad feed, \
            69 no notification server, 73 state not writable, 75 fetch failed.
            """
    )

    static let example = "herald check --feed https://example.org/feed.plist --app-id org.example.App"

    @OptionGroup var target: FeedCheckArguments

    @Option(help: "Wait a random 0...N seconds before the first request, so a fleet logging in together spreads out (at most 86400).")
    var startDelay: Double = 0

    @Flag(help: ArgumentHelp(
        "Say for each message of the feed whether it would show now and, if not, why; show nothing and change no state.",
        discussion: "With --json, one object per message. The feed is fetched; the state is only read."))
    var explain = false

    func validate() throws {
        if let refusal = CheckOptionLimits.startDelayRefusal(startDelay) { throw ValidationError(refusal) }
    }

    func run() throws {
        try FeedArgument(target.feed).requireReadable()
        if explain { throw ExitCode(MainContext.assumeIsolated { CheckExplanation(target: target).run() }) }
        var session = CheckSession(configuration: target.configuration, json: target.options.json)
        session.prompts = try target.loadPrompts()
        let delay = StartDelay.seconds(upTo: startDelay)
        throw ExitCode(MainContext.assumeIsolated { session.run(force: target.options.force, startDelay: delay) })
    }
}

/// What a check is about: the feed, the app, the check options and an optional prompts file.
/// Shared by `herald check` and the autostart entry that runs it.
struct FeedCheckArguments: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The feed: a file, - for standard input, or its URL (https, file, or http on this machine).",
        discussion: "A feed read from standard input is read once, never cached, and has no conditional request."))
    var feed: String

    @OptionGroup var app: AppOptions
    @OptionGroup var options: CheckOptions

    @Option(help: "A prompts file: its prompts are counted and shown after the feed's messages.")
    var prompts: String?

    func validate() throws {
        let argument = FeedArgument(feed)
        if !argument.isStandardInput, let refusal = options.links.rules.feedURLRefusal(argument.url) {
            throw ValidationError("feed URL refused: \(refusal)")
        }
    }

    /// The library's configuration for these arguments; a path becomes an absolute `file:` URI.
    var configuration: Herald.Configuration { options.configuration(feed: FeedArgument(feed).url, app: app) }

    /// The prompts of the prompts file, if one is given.
    func loadPrompts() throws -> [Prompt] {
        guard let prompts else { return [] }
        return try PromptsCommand.load(prompts, rules: options.links.rules)
    }

    /// The same check as `herald check` arguments after "check", with a start delay, the feed
    /// as a URL (a path as an absolute `file:` URI), the prompts file by absolute path and only options that differ from their defaults.
    func checkArguments(startDelay: Double) -> [String] {
        var out = ["--feed", FeedArgument(feed).url, "--app-id", app.appID]
        if let version = app.appVersion { out += ["--app-version", version] }
        if let name = app.appName { out += ["--app-name", name] }
        out += ["--start-delay", CheckOptions.number(startDelay)]
        if let prompts { out += ["--prompts", prompts.hasPrefix("/") ? prompts : FileManager.default.currentDirectoryPath + "/" + prompts] }
        return out + options.arguments
    }
}

/// Which links and feeds are allowed, for the commands that fetch or open them.
struct URLRuleOptions: ParsableArguments {
    @Flag(help: "Allow feeds over plain http from other machines.")
    var allowHttp = false

    @Option(name: .customLong("allow-scheme"), help: "A custom link scheme the app opens (repeatable).")
    var allowedSchemes: [String] = []

    @Option(help: "A PEM file of the certificate authorities to trust for https feeds, instead of the system's.")
    var caFile: String?

    @Option(help: "The Ed25519 public key (base64) the feed must be signed with; unsigned or wrongly signed feeds then fail.")
    var publicKey: String?

    /// The rules these options ask for.
    var rules: URLRules { URLRules(allowedCustomSchemes: Set(allowedSchemes), allowPlainHTTPFeed: allowHttp) }

    func validate() throws {
        if let caFile, access(caFile, R_OK) != 0 {
            throw ValidationError("cannot read the CA file \(caFile): \(String(cString: strerror(errno)))")
        }
        if let publicKey {
            do { _ = try FeedSignature.publicKey(base64: publicKey) } catch { throw ValidationError(error.description) }
        }
    }

    /// The CA file by absolute path, for an entry that runs elsewhere (the autostart entry).
    var absoluteCAFile: String? {
        caFile.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
    }

    /// These options as arguments, leaving out defaults.
    var arguments: [String] {
        (allowHttp ? ["--allow-http"] : []) + allowedSchemes.flatMap { ["--allow-scheme", $0] }
            + (absoluteCAFile.map { ["--ca-file", $0] } ?? []) + (publicKey.map { ["--public-key", $0] } ?? [])
    }
}

/// Who the check is for.
struct AppOptions: ParsableArguments {
    @Option(help: "The app's id, e.g. org.example.App (names the state file and the desktop-entry hint).")
    var appID: String

    @Option(help: "The app's version, compared with MinVersion / MaxVersion.")
    var appVersion: String?

    @Option(help: "The name shown as the sender (default: the app id).")
    var appName: String?

    func validate() throws { try Self.requireUsable(appID: appID) }

    /// A usage error unless the app id is a plain file name: it names the state file and the
    /// autostart entry, and an id such as `../../x` would reach outside their folders.
    static func requireUsable(appID: String) throws {
        guard HeraldPaths.isValid(appID: appID) else { throw ValidationError(StateStoreError.invalidAppID(appID).description) }
    }
}

/// Options mirroring Herald's configuration.
struct CheckOptions: ParsableArguments {
    @Option(help: "Days between checks (fractional).")
    var checkPeriod: Double = 0.5

    @Option(help: "Days a message waits after 'remind me later' (fractional).")
    var remindPeriod: Double = 1

    @Flag(help: "Show the oldest pending message first.")
    var showOldestFirst = false

    @Flag(help: "Check on the very first run too.")
    var showOnFirstLaunch = false

    @Flag(help: "Ignore the periods and start over once every message was answered (for publishers).")
    var debug = false

    @Flag(help: "Check now: skip the first-launch, check-period and failure-backoff gates.")
    var force = false

    @Option(help: "Most messages shown by one check.")
    var max: Int = 3

    @Flag(help: "Show answered messages too (viewed, ignored, put off), keeping the answers.")
    var all = false

    @Option(help: "Seconds to wait for answers before closing what is still shown.")
    var wait: Double = 600

    @Option(help: "Seconds the fetch may take.")
    var timeout: Double = 60

    @OptionGroup var links: URLRuleOptions

    @Option(help: "An icon name or file URI shown with the messages (default: Herald's, org.herald.Herald).")
    var icon: String?

    @Flag(help: "Print one JSON object per event on stdout.")
    var json = false

    /// Refuses numbers outside `CheckOptionLimits` (NaN and infinity included) before they reach
    /// the fetcher, the timers or an autostart entry.
    func validate() throws {
        let refusals = [
            CheckOptionLimits.periodRefusal("--check-period", checkPeriod), CheckOptionLimits.periodRefusal("--remind-period", remindPeriod),
            CheckOptionLimits.waitRefusal(wait), CheckOptionLimits.timeoutRefusal(timeout),
        ]
        if let refusal = refusals.compactMap({ $0 }).first { throw ValidationError(refusal) }
        guard max >= 1 else { throw ValidationError("--max must be at least 1") }
    }

    /// These options as `herald check` arguments, leaving out defaults (for the autostart entry).
    var arguments: [String] {
        var out: [String] = []
        if checkPeriod != 0.5 { out += ["--check-period", Self.number(checkPeriod)] }
        if remindPeriod != 1 { out += ["--remind-period", Self.number(remindPeriod)] }
        if showOldestFirst { out.append("--show-oldest-first") }
        if showOnFirstLaunch { out.append("--show-on-first-launch") }
        if debug { out.append("--debug") }
        if force { out.append("--force") }
        if max != 3 { out += ["--max", String(max)] }
        if all { out.append("--all") }
        if wait != 600 { out += ["--wait", Self.number(wait)] }
        if timeout != 60 { out += ["--timeout", Self.number(timeout)] }
        out += links.arguments
        if let icon { out += ["--icon", icon] }
        if json { out.append("--json") }
        return out
    }

    /// A number as an argument: whole numbers without ".0".
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    func configuration(feed: String, app: AppOptions) -> Herald.Configuration {
        Herald.Configuration(
            feedURL: feed, appID: app.appID, appVersion: app.appVersion, appName: app.appName,
            check: CheckConfiguration(
                appVersion: app.appVersion, checkPeriod: checkPeriod, remindPeriod: remindPeriod,
                showOldestFirst: showOldestFirst, showOnFirstLaunch: showOnFirstLaunch, debug: debug,
                maxNotificationsPerCheck: max, showAnswered: all),
            urlRules: links.rules,
            icon: icon ?? SampleFeed.icon, timeout: timeout, caFile: links.caFile, publicKey: links.publicKey, waitLimit: wait)
    }
}
