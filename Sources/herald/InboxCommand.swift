import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// `herald inbox`: every message that reached the person through Herald in the last 180 days,
/// per app, newest first, with where it stands; one in full; and answers given from here.
struct InboxCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "List the messages that reached you in the last 180 days, show one, and view or ignore it.",
        discussion: """
            Every message an app's check kept for you is listed, whatever happened next: shown, \
            answered (viewed, ignored, remind me later), waiting for room in the attention \
            budget (with when there is room again), held back while the desktop asked for \
            quiet, of a muted app or in a muted category (yours, the desktop's switch for the \
            app, or the administrator's), or withdrawn by its publisher. Messages never meant \
            for you (another app version, language, desktop or rollout) are not. Exit codes: \(ExitStatus.done.code) done, \(ExitStatus.usage.code) usage (an unknown id, or one two \
            apps share without --app-id), \(ExitStatus.cannotCreate.code) the inbox or a state file cannot be read or written.
            """,
        subcommands: [InboxListCommand.self, InboxShowCommand.self, InboxViewCommand.self, InboxIgnoreCommand.self],
        defaultSubcommand: InboxListCommand.self
    )

    static let example = ["herald inbox --app-id org.example.App", InboxShowCommand.example, InboxViewCommand.example].joined(separator: "\n")
}

/// `herald inbox list` (or `herald inbox`): every app's messages, or one app's.
struct InboxListCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the messages of the last 180 days, per app, newest first, with their state."
    )

    static let example = "herald inbox list --app-id org.example.App --json"

    @Option(help: "Only this app's messages.")
    var appID: String?

    @Flag(help: "Print one JSON object a line.")
    var json = false

    @Flag(help: "Open the inbox window (herald-inbox, installed beside herald) instead.")
    var window = false

    func validate() throws {
        if window, json || appID != nil { throw ValidationError("--window opens the whole inbox: give it alone") }
        if let appID { try AppOptions.requireUsable(appID: appID) }
    }

    func run() throws {
        if window { try InboxWindow.open() }
        let listing = try InboxReading().listing(of: appID)
        list(listing.messages)
        // The apps left out are named already; the status says the list is not whole.
        guard listing.leftOut.isEmpty else { throw ExitCode(.cannotCreate) }
    }

    /// Prints `messages`, each app's under its id, or one JSON object each.
    private func list(_ messages: [InboxMessage]) {
        if json { return messages.forEach { say(InboxReading.jsonLine($0)) } }
        if messages.isEmpty {
            return say("no message " + (appID.map { "of \($0) " } ?? "") + "reached you through Herald in the last 180 days")
        }
        var app: String?
        for message in messages {
            if message.appID != app { say(message.appID) }
            app = message.appID
            for line in InboxReading.summary(message) { say(line.allSatisfy { $0 == " " } ? "" : "  " + line) }
        }
    }
}

/// What the inbox commands read: the person's inbox, and each app's state, the attention
/// ledger and the off switches, which say where each message stands (`InboxPolicy.messages`).
struct InboxReading {
    let environment = ProcessEnvironment.read()
    let now = Date()

    /// The person's inbox, its files and its answers (`PersonInbox`).
    var inbox: PersonInbox { PersonInbox(environment: environment, now: now) }

    /// The messages of `appID`, or of every app in app id order, each app's newest first.
    func messages(of appID: String?) throws -> [InboxMessage] {
        try listing(of: appID).messages
    }

    /// The messages of `appID`, or of every app in app id order, each app's newest first; exits
    /// `.cannotCreate` naming what cannot be read. Key files that cannot be read are named, and
    /// the messages listed as though nothing were muted; so is each app whose state cannot be
    /// read, and the others listed without it.
    func listing(of appID: String?) throws -> PersonInbox.Listing {
        let switches: OffSwitches?
        do throws(OffSwitchFileError) { switches = try OffSwitchFiles.read(environment: environment) } catch {
            EventReporter.complain(error.description)
            switches = nil
        }
        do throws(PersonInboxError) {
            let listing = try inbox.messages(of: appID, switches: switches)
            for leftOut in listing.leftOut { EventReporter.complain(leftOut.description) }
            return listing
        } catch {
            EventReporter.complain(error.description)
            throw ExitCode(.cannotCreate)
        }
    }

    /// The one message `id` names: of `appID` when given, else of the one app that has it.
    /// An id no app has, or two apps share without `appID`, is a usage error said in words.
    func message(_ id: String, of appID: String?) throws -> InboxMessage {
        let found = try messages(of: appID).filter { $0.id == id }
        guard let message = found.first else {
            EventReporter.complain("no message \(id) " + (appID.map { "of \($0) " } ?? "") + "is in your inbox; 'herald inbox' lists them")
            throw ExitCode(.usage)
        }
        guard found.count == 1 else {
            EventReporter.complain("\(found.count) apps have a message \(id) (\(found.map(\.appID).joined(separator: ", "))): "
                                   + "say which with --app-id ID")
            throw ExitCode(.usage)
        }
        return message
    }

    /// A message's lines in the list: its id and state, when it reached the person and was
    /// last shown, then its title, text and link, indented.
    static func summary(_ message: InboxMessage) -> [String] {
        var head = "\(message.id): \(message.state.description); reached \(ISO8601Moment.text(message.reached))"
        if let shown = message.lastShown { head += ", last shown \(ISO8601Moment.text(shown))" }
        let text = message.message.isEmpty ? [] : message.message.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        return [head, "  " + message.title] + text + (message.link.map { ["  " + $0] } ?? [])
    }

    /// A message as one JSON object on one line: `app`, `id`, `title`, `message`, `link` and
    /// `button` (or null), `category`, `reached`, `lastShown` (or null), `state` (its name),
    /// `detail` (the state for people), and the state's time (`until` or `since`) or `mutedBy`.
    static func jsonLine(_ message: InboxMessage) -> String {
        func text(_ value: String?) -> FeedValue { value.map(FeedValue.string) ?? .null }
        var fields: [String: FeedValue] = [
            "app": .string(message.appID), "id": .string(message.id), "title": .string(message.title), "message": .string(message.message),
            "link": text(message.link), "button": text(message.button), "category": .string(message.category),
            "reached": .string(ISO8601Moment.text(message.reached)), "lastShown": text(message.lastShown.map(ISO8601Moment.text)),
            "state": .string(message.state.name), "detail": .string(message.state.description),
        ]
        switch message.state {
        case .remindLater(let until): fields["until"] = .string(ISO8601Moment.text(until))
        case .waitingForRoom(let until): fields["until"] = text(until.map(ISO8601Moment.text))
        case .withdrawn(let since): fields["since"] = .string(ISO8601Moment.text(since))
        case .categoryMuted(let byAdministrator), .appMuted(let byAdministrator):
            fields["mutedBy"] = .string(byAdministrator ? "administrator" : "user")
        case .due, .shown, .viewed, .ignored, .deferredForQuiet: break
        }
        return FeedValue.dictionary(fields).jsonText
    }
}
