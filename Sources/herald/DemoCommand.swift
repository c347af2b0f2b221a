import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// `herald demo`: shows the bundled sample feed on this desktop.
struct DemoCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show the messages of a bundled sample feed as desktop notifications.",
        discussion: "Runs in debug mode, so the samples come back once all are answered. Exit \(ExitStatus.unavailable.code) without a notification server."
    )

    static let example = "herald demo --all"

    @Option(help: "Seconds to wait for answers.")
    var wait: Double = 120

    @Option(help: "The app id to show the samples for (a demo app's own id, for its launcher actions).")
    var appID = "org.herald.Demo"

    @Flag(help: "Show every sample again, answered or not.")
    var all = false

    @Flag(help: "Print one JSON object per event on stdout.")
    var json = false

    func validate() throws {
        try AppOptions.requireUsable(appID: appID)
        if let refusal = CheckOptionLimits.waitRefusal(wait) { throw ValidationError(refusal) }
    }

    func run() throws {
        let environment = ProcessEnvironment.read()
        let feedURL: String
        do {
            feedURL = try SampleFeed.install(appID: appID, environment: environment)
        } catch {
            EventReporter.complain("\(error)")
            throw ExitCode(.cannotCreate)
        }
        let configuration = Herald.Configuration(
            feedURL: feedURL, appID: appID, appVersion: HeraldVersion.current, appName: "Herald demo",
            check: CheckConfiguration(debug: true, showAnswered: all), icon: SampleFeed.icon, waitLimit: .seconds(wait), environment: environment)
        if !LinkOpener().canOpen("https://example.org/") {
            EventReporter.complain("""
                no application opens https: links here, so the samples with a link are skipped; register a browser, \
                e.g. xdg-settings set default-web-browser firefox-esr.desktop
                """)
        }
        let session = CheckSession(configuration: configuration, json: json)
        throw ExitCode(MainContext.assumeIsolated { session.run(force: true) })
    }
}
