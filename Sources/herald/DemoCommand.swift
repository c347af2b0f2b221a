import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore

/// `herald demo`: shows the bundled sample feed on this desktop.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show the messages of a bundled sample feed as desktop notifications.",
        discussion: "Runs in debug mode, so the samples come back once all are answered. Exit 69 without a notification server."
    )

    @Option(help: "Seconds to wait for answers.")
    var wait: Double = 120

    @Flag(help: "Print one JSON object per event on stdout.")
    var json = false

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let paths = try HeraldPaths(appID: Self.appID, environment: environment)
        let feedPath = String(paths.cachedFeedFile.dropLast(".feed".count)) + ".sample.plist"
        try StateStore.writeFeedFile(Data(Self.sampleFeed.utf8), to: feedPath)
        let configuration = Herald.Configuration(
            feedURL: "file://" + feedPath, appID: Self.appID, appVersion: HeraldVersion.current, appName: "Herald demo",
            check: CheckConfiguration(debug: true), icon: "dialog-information", waitLimit: wait, environment: environment)
        throw ExitCode(CheckSession(configuration: configuration, json: json).run(force: true))
    }

    static let appID = "org.herald.Demo"

    /// Three messages: one with a link and its own button label, one with a link and the
    /// default label, one plain tip answered with OK.
    static let sampleFeed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>2026/11/01</key>
            <dict>
                <key>Title</key><string>Herald 0.1 is out</string>
                <key>Message</key><string>Your app can now tell its users about new features, right on their desktop.</string>
                <key>ActionURL</key><string>https://example.org/herald/releases/0.1</string>
                <key>ActionButton</key><string>Release notes</string>
            </dict>
            <key>2026/11/10</key>
            <dict>
                <key>Title</key><string>Tip: remind me later</string>
                <key>Message</key><string>Not now? "Remind Me Later" brings a message back tomorrow; "Ignore" hides it for good.</string>
            </dict>
            <key>2026/11/20</key>
            <dict>
                <key>Title</key><string>Publish your own feed</string>
                <key>Message</key><string>One static plist or JSON file on any web server is all it takes.</string>
                <key>ActionURL</key><string>https://example.org/herald/feeds</string>
                <key>MinVersion</key><string>0.1</string>
            </dict>
        </dict>
        </plist>
        """
}
