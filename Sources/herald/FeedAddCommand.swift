import ArgumentParser
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldPublishing

/// `herald feed add`: a new message under a fresh id, written into the feed as a publisher
/// would write it by hand.
struct FeedAddCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a message under a fresh id (today's date), keeping the rest of the file as it is.",
        discussion: """
            The id is today's date in UTC, YYYY/MM/DD; the day's next messages get -02, -03, … -99, \
            so each sorts after the day's earlier ones. An id that is in the feed or retired in \
            FEED.keys is never given out again. XML, JSON and OpenStep feeds get the entry as text, \
            indented like the others, with every other byte unchanged; a binary property list is \
            written anew. Sign the feed again afterwards. Every key of the feed format can be set; \
            --title-for, --message-for and --button-for give a language's text (--title is then \
            the en text, which users of other languages read). A value `herald validate` would \
            call an error (a version that is not dotted numbers, a minimum above the maximum, a \
            date that cannot be read, an unknown category, a number out of range…) is refused \
            in its words and nothing is written (exit \(ExitStatus.usage.code)); its warnings and notes are printed \
            after the message is added. Exit \(ExitStatus.data.code) when the feed cannot be used.
            """
    )

    static let example = """
        herald feed add messages.plist --title "Version 2 is out" --message "Faster sync." --url https://example.org/v2
        herald feed add messages.plist --title "Winter sale" --title-for de="Winterschlussverkauf" --message "Half price" \\
            --message-for de="Halber Preis" --languages en,de --start-date 2026-12-01 \\
            --category promotion --rollout 20 --max-shows 2 --min-days-between 7
        """

    @Argument(help: "The feed file (a path or a file: URL).", completion: .file())
    var feed: String

    @Option(help: "The message's title.")
    var title: String

    @Option(help: "The message's text.")
    var message: String

    @Option(help: "A link, offered with a view button.")
    var url: String?

    @Option(help: "The view button's label (with --url).")
    var button: String?

    @Option(help: "The lowest app version that shows it.")
    var minVersion: String?

    @Option(help: "The highest app version that shows it.")
    var maxVersion: String?

    @Option(help: ArgumentHelp("A language's title (repeatable); --title is then the en title.", valueName: "language=text"))
    var titleFor: [String] = []

    @Option(help: ArgumentHelp("A language's text (repeatable); --message is then the en text.", valueName: "language=text"))
    var messageFor: [String] = []

    @Option(help: ArgumentHelp("A language's button label (repeatable, with --url).", valueName: "language=text"))
    var buttonFor: [String] = []

    @Option(help: ArgumentHelp("Not shown before this date: 2026-12-01 or 2026-12-01T09:00+01:00 (UTC without an offset).", valueName: "date"))
    var startDate: String?

    @Option(help: ArgumentHelp("Not shown after this date; a date without a time lasts its whole day.", valueName: "date"))
    var endDate: String?

    @Option(help: ArgumentHelp("Only users of these languages (comma-separated codes: de,pt_BR).", valueName: "languages"))
    var languages: [String] = []

    @Option(help: ArgumentHelp("Only these desktops (comma-separated XDG_CURRENT_DESKTOP values: GNOME,KDE).", valueName: "desktops"))
    var desktops: [String] = []

    @Option(help: ArgumentHelp("The share of installs that see it, 0 to 100.", valueName: "percent"))
    var rollout: String?

    @Option(help: ArgumentHelp("Higher first when more are pending than one check shows (default 0; --priority=-1 for below).", valueName: "number"))
    var priority: String?

    @Option(help: ArgumentHelp("low, normal or critical (critical only where the app allows it).", valueName: "urgency"))
    var urgency: String?

    @Option(help: ArgumentHelp("A themed icon name in place of the app's.", valueName: "name"))
    var icon: String?

    @Option(help: ArgumentHelp("How many times in all it may be shown, reminders included (1 or more).", valueName: "count"))
    var maxShows: String?

    @Option(help: ArgumentHelp("The fewest days between two showings (above 0, at most 3650).", valueName: "days"))
    var minDaysBetween: String?

    @Option(help: ArgumentHelp("announcement (the default), tip, promotion, security or survey.", valueName: "category"))
    var category: String?

    @Option(help: "This id instead of today's date; refused when the feed has it or it is retired.")
    var key: String?

    @Option(name: .customLong("allow-scheme"), help: "A custom link scheme the app opens (repeatable).")
    var allowedSchemes: [String] = []

    @Flag(help: "Start the feed when the file is missing or empty: an XML property list for .plist or .xml, JSON for .json, OpenStep for .strings.")
    var create = false

    func validate() throws {
        if let url, let refusal = rules.actionURLRefusal(url) {
            throw ValidationError("--url refused: \(refusal)")
        }
        if button != nil || !buttonFor.isEmpty, url == nil {
            throw ValidationError("--\(button != nil ? "button" : "button-for") labels the link: give --url too")
        }
        if create, FeedEdits.newFormat(forName: feed) == nil {
            throw ValidationError("--create takes the format from the name: end it with .plist, .xml, .json or .strings")
        }
        if let key, !RetiredKeys.isWritable(key) {
            throw ValidationError("--key " + RetiredKeys.unwritableReason)
        }
        if let refused = try draft().findings(rules: rules).first(where: { $0.severity == .error }) {
            throw ValidationError("\(Self.option(for: refused)) refused: \(refused.sentence)")
        }
    }

    /// The links the app may offer.
    var rules: URLRules { URLRules(allowedCustomSchemes: Set(allowedSchemes)) }

    /// The message the options describe, each value as the feed will hold it.
    func draft() throws -> MessageDraft {
        var draft = MessageDraft()
        for (key, text) in [(FeedKey.title, title), (FeedKey.message, message), (FeedKey.actionURL, url), (FeedKey.actionButton, button),
                            (FeedKey.minVersion, minVersion), (FeedKey.maxVersion, maxVersion),
                            (TargetingKey.startDate, startDate), (TargetingKey.endDate, endDate), (TargetingKey.urgency, urgency),
                            (TargetingKey.icon, icon), (TargetingKey.category, category)] {
            draft.set(key, text: text)
        }
        for (key, text) in [(TargetingKey.rollout, rollout), (TargetingKey.priority, priority),
                            (TargetingKey.maxShows, maxShows), (TargetingKey.minDaysBetween, minDaysBetween)] {
            draft.set(key, number: text)
        }
        for (key, items) in [(TargetingKey.languages, languages), (TargetingKey.desktops, desktops)] where !items.isEmpty {
            draft.set(key, list: items.flatMap { $0.split(separator: ",", omittingEmptySubsequences: true).map(Self.trimmed) })
        }
        for (key, option, texts) in [(FeedKey.title, "--title-for", titleFor), (FeedKey.message, "--message-for", messageFor),
                                     (FeedKey.actionButton, "--button-for", buttonFor)] {
            for given in texts {
                guard let equals = given.firstIndex(of: "="), equals != given.startIndex else {
                    throw ValidationError("\(option) takes a language, = and the text, such as de=Neue Version")
                }
                do {
                    try draft.set(key, text: String(given[given.index(after: equals)...]), for: String(given[..<equals]))
                } catch {
                    throw ValidationError("\(option): \(error)")
                }
            }
        }
        return draft
    }

    /// The option that set the key a finding is about: `--title-for` for a language of a
    /// localised Title, `--title` for the Title itself.
    static func option(for finding: FeedFinding) -> String {
        let key = finding.key ?? FeedKey.title
        let name = options[key] ?? key
        let localised = [FeedKey.title, FeedKey.message, FeedKey.actionButton].contains(key) && finding.kind == .unknownLanguage
        return "--" + name + (localised ? "-for" : "")
    }

    /// The option of each key, as the options above are named.
    static let options = [
        FeedKey.title: "title", FeedKey.message: "message", FeedKey.actionURL: "url", FeedKey.actionButton: "button",
        FeedKey.minVersion: "min-version", FeedKey.maxVersion: "max-version", TargetingKey.startDate: "start-date",
        TargetingKey.endDate: "end-date", TargetingKey.languages: "languages", TargetingKey.desktops: "desktops",
        TargetingKey.rollout: "rollout", TargetingKey.priority: "priority", TargetingKey.urgency: "urgency", TargetingKey.icon: "icon",
        TargetingKey.maxShows: "max-shows", TargetingKey.minDaysBetween: "min-days-between", TargetingKey.category: "category",
    ]

    /// A list item without the spaces around it: "de, fr" names de and fr.
    static func trimmed(_ item: Substring) -> String {
        String(item.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    func run() throws {
        let file = try FeedArgument(feed).sharedFile(toDo: "adding a message", creatingFolder: create)
        // Read, choose the id and write as one step: two adds at once must not both take the
        // day's next id, nor one write over the other's message.
        try FeedEdits.locked(file) {
            let existing = try FeedArgument.read(file.path, named: feed)
            var created: FeedFormat?
            var bytes: [UInt8]
            if create, let format = FeedEdits.newFormat(forName: file.name), FeedEdits.isMissingOrBlank(existing) {
                created = format
                bytes = FeedEditor.emptyFeed(format)
            } else if let existing {
                bytes = Array(existing)
            } else {
                EventReporter.complain("\(feed): \(RegularFile.reason(ENOENT))")
                throw ExitCode(.noInput)
            }
            let retired = try FeedArgument.retiredKeys(ofFeedAt: file.path)
            let taken = FeedEdits.keys(of: bytes) + retired.dates.keys
            guard let key = key ?? MessageKeys.next(on: Date(), taken: taken) else {
                // Every id given out today must sort after the day's others: name the one in the way.
                let day = MessageKeys.day(of: Date())
                let today = taken.filter { $0.lowercased().hasPrefix(day) }
                let latest = VersionComparison.caseInsensitiveOrder(of: today).last.map { today[$0] }
                let blocking = latest.map { "'\($0)' sorts after every id \(day)-02 … -\(MessageKeys.lastSuffix) could be" } ?? "no id is left"
                EventReporter.complain("\(feed): no id left for today: \(blocking); give one with --key")
                throw ExitCode(.data)
            }
            if let refusal = retired.refusal(of: key) {
                EventReporter.complain("\(feed): not changed: '\(key)' \(refusal)")
                throw ExitCode(.data)
            }
            let draft = try draft()
            let result = try FeedEdits.edit(feed) { try FeedEditor.adding(draft.entry(key: key), to: bytes) }
            try FeedEdits.write(result.bytes, to: file)
            if let created { say("created \(feed): an empty \(created.documentName) feed") }
            say("added \(key) to \(feed)" + (result.edit == nil ? " (a binary property list: the file was written anew)" : ""))
            // What `herald validate` will say of it, short of an error (refused before).
            for finding in draft.findings(rules: rules) { EventReporter.complain("'\(key)': \(finding.severity.rawValue): \(finding.sentence)") }
            if created == nil { FeedEdits.noteSignature(of: feed, file: file, before: bytes) }
        }
    }
}

/// What `herald feed add` and `remove` share: reading the ids, refusing a bad feed, writing
/// the file, and saying when a signature no longer matches.
enum FeedEdits {
    /// The format a new feed gets from its file name, or `nil` when the name does not say.
    static func newFormat(forName name: String) -> FeedFormat? {
        let lowered = name.lowercased()
        if lowered.hasSuffix(".plist") || lowered.hasSuffix(".xml") { return .xmlPropertyList }
        if lowered.hasSuffix(".json") { return .json }
        if lowered.hasSuffix(".strings") { return .openStepPropertyList }
        return nil
    }

    /// Whether a feed is missing (`nil`), or only white space.
    static func isMissingOrBlank(_ bytes: Data?) -> Bool {
        bytes?.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? true
    }

    /// Runs `edit` under the lock of the feed's folder (`SharedFile`), or exits `.cannotCreate` when the
    /// lock cannot be taken.
    static func locked<Result>(_ file: SharedFile, _ edit: () throws -> Result) throws -> Result {
        do {
            return try file.withLock(edit)
        } catch let error as FileError {
            EventReporter.complain("\(error)")
            throw ExitCode(.cannotCreate)
        }
    }

    /// The ids of a feed, usable or not; none when it does not decode (the edit then says why).
    static func keys(of bytes: [UInt8]) -> [String] {
        guard let feed = try? FeedDecoder.decode(Data(bytes)) else { return [] }
        return Array(feed.entries.keys) + feed.problems.map(\.key)
    }

    /// Runs an edit; a refusal is one line and exit `.data`, the file untouched.
    static func edit(_ feed: String, _ change: () throws -> FeedEditor.Result) throws -> FeedEditor.Result {
        do {
            return try change()
        } catch let error as FeedEditError {
            let hint = error == .undecodable(.empty) ? " (--create starts a new feed)" : ""
            EventReporter.complain("\(feed): \(error)\(hint)")
            throw ExitCode(.data)
        }
    }

    /// Replaces the real feed in one step (a reader never sees half a file), keeping its mode; a
    /// new feed is readable by everyone, as a published file is.
    static func write(_ bytes: [UInt8], to file: SharedFile) throws {
        do throws(FileError) {
            try file.write(Data(bytes))
        } catch {
            EventReporter.complain("\(error)")
            throw ExitCode(.cannotCreate)
        }
    }

    /// Says so when the feed was signed: any changed byte breaks its signature.
    static func noteSignature(of feed: String, file: SharedFile, before bytes: [UInt8]) {
        var info = stat()
        let trailing = (try? FeedSignature.split(Data(bytes)).signature) != nil
        guard trailing || lstat(file.companion(".sig"), &info) == 0 else { return }
        say("\(feed) was signed: sign it again, since the old signature no longer matches")
    }
}
