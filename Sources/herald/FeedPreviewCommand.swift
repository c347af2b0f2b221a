import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// `herald feed preview`: a feed's messages on the publisher's own desktop, shown as a check
/// shows them, with the answers kept in memory.
struct FeedPreviewCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show a feed's messages on this desktop as its users would see them, without touching any app's state.",
        discussion: """
            Every message the app version would see is shown, newest first, through the same \
            notifications as 'herald check'. Answers are kept in memory and forgotten at exit: no \
            state or cached feed is written. Exit codes as 'herald check'.
            """
    )

    static let example = "herald feed preview messages.plist --app-version 1.4"

    @Argument(help: "The feed: a file, - for standard input, or its URL.", completion: .file())
    var feed: String

    @Option(help: "The app version to preview for: messages outside its MinVersion / MaxVersion are left out.")
    var appVersion: String?

    @Option(help: "The app id for the notifications' desktop-entry hint (its state is not read or written).")
    var appID = "org.herald.Preview"

    @Option(help: "The name shown as the sender.")
    var appName = "Herald preview"

    @Option(help: "Most messages shown (default: all).")
    var max: Int?

    @Option(help: "Seconds to wait for answers before closing what is still shown.")
    var wait: Double = CheckCommandLine.Defaults.wait

    @OptionGroup var links: URLRuleOptions

    @Flag(help: "Print one JSON object per event on stdout.")
    var json = false

    func validate() throws {
        if let refusal = FeedArgument.refusal(of: feed) { throw ValidationError(refusal) }
        try AppOptions.requireUsable(appID: appID)
        if let refusal = CheckOptionLimits.waitRefusal(wait) ?? max.flatMap(CheckOptionLimits.maxRefusal) { throw ValidationError(refusal) }
        if let refusal = FeedCheckArguments.feedRefusal(feed, rules: links.rules) { throw ValidationError(refusal) }
    }

    func run() throws {
        let argument = FeedArgument(feed)
        try argument.requireReadable()
        let configuration = Herald.Configuration(
            feedURL: argument.url, appID: appID, appVersion: appVersion, appName: appName,
            check: CheckConfiguration(showOnFirstLaunch: true, maxNotificationsPerCheck: max ?? Int.max),
            urlRules: links.rules, icon: SampleFeed.icon, sizeLimit: FeedArgument.sizeLimit, caFile: links.caFile, publicKeys: links.publicKey, waitLimit: .seconds(wait))
        var session = CheckSession(configuration: configuration, json: json)
        // The answers of a preview are kept in memory: a preview never touches an app's state.
        session.store = MemoryStateStore()
        session.respectsQuietAndMutes = false
        throw ExitCode(MainContext.assumeIsolated { session.run(force: true) })
    }
}
