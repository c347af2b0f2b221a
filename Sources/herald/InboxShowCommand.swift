import ArgumentParser
import HeraldCore

/// `herald inbox show ID`: one message of the inbox in full.
struct InboxShowCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print one message of the inbox in full: its state, title, text, link and button."
    )

    static let example = "herald inbox show 2026/05/01 --app-id org.example.App"

    @Argument(help: "The message's id, as 'herald inbox' lists it.")
    var id: String

    @Option(help: "The app whose message it is; needed when two apps have a message with this id.")
    var appID: String?

    @Flag(help: "Print it as one JSON object, as 'herald inbox --json' does.")
    var json = false

    func validate() throws { if let appID { try AppOptions.requireUsable(appID: appID) } }

    func run() throws {
        let message = try InboxReading().message(id, of: appID)
        if json { return say(InboxReading.jsonLine(message)) }
        var lines = ["app: \(message.appID)", "id: \(message.id)", "state: \(message.state.description)",
                     "reached: \(ISO8601Moment.text(message.reached))",
                     "last shown: \(message.lastShown.map(ISO8601Moment.text) ?? "never")", "category: \(message.category)",
                     "title: \(message.title)"]
        if let link = message.link { lines.append("link: \(link)") }
        if let button = message.button { lines.append("button: \(button)") }
        lines.append("message:")
        lines += message.message.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        for line in lines { say(line) }
    }
}
