import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore

/// `herald _man`: the manual page herald(1), in roff (man(7)), made from the program's own
/// declarations: the command tree and each command's options as the parser describes them, the
/// examples the commands' help ends with, and `ExitStatus.table`. Only the FILES and ENVIRONMENT
/// entries are written here. Hidden: packaging runs it, users read its output with `man`.
struct ManualCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_man",
        abstract: "Print the manual page herald(1) in roff.",
        shouldDisplay: false
    )

    /// The page's date (`2024-01-31`), so that the same sources make the same page.
    @Option(help: "The page's date.")
    var date = "1970-01-01"

    func run() throws {
        print(ManualPage.text(date: date), terminator: "")
    }
}

/// The sections of herald(1) and what they are made from.
enum ManualPage {
    /// The files herald reads and writes, each with what it is.
    static let files: [(path: String, meaning: String)] = [
        ("$XDG_STATE_HOME/herald/APP.json", "An app's state: the messages shown and answered, its prompts, the last check (default ~/.local/state/herald)."),
        ("$XDG_STATE_HOME/herald/APP.lock", "The lock that lets one process at a time change an app's state."),
        ("$XDG_STATE_HOME/herald/attention/ledger.json", "What every app showed the user over the last week and the messages waiting for room: the record the attention budget is kept against. Each app keeps at most the week's budget of messages waiting there, and the apps take turns; when it cannot be read or written, checks show as if no budget were set and say so."),
        ("$XDG_STATE_HOME/herald/inbox/inbox.json", "The text of every message that reached the user through Herald, per app, with when it first did and when its feed withdrew it, listed by herald inbox and an app's Herald.inbox(). A check adds to it under inbox.lock only when it has something new; a message goes 180 days after it reached the user once its feed no longer has it, and at most 200 per app are kept."),
        ("$XDG_CACHE_HOME/herald/APP.feed", "The last feed fetched for an app, sent back as a conditional request (default ~/.cache/herald)."),
        ("$XDG_CONFIG_HOME/herald/herald.conf", "The user's key file: which apps are muted (Muted) and which categories of message (MutedCategories), written by herald mute and herald unmute, and the attention budget ([budget] PerDay, PerWeek), written by herald budget and taken out by herald budget --reset (default ~/.config/herald/herald.conf)."),
        ("$XDG_CONFIG_DIRS/herald/herald.conf", "The administrator's key file: mutes the user cannot undo (Muted, MutedCategories), a ceiling on the attention budget ([budget] PerDay, PerWeek), and a mirror fetched instead of an app's own feed (FeedURL, read from this file only) (default /etc/xdg/herald/herald.conf)."),
        ("$XDG_DATA_HOME/herald/apps/APP.conf", "The user's registration of an app, checked at login, written by herald autostart enable and listed by herald apps (default ~/.local/share)."),
        ("$XDG_DATA_DIRS/herald/apps/APP.conf", "The registrations of the machine's apps; the user's comes first, then these in order (default /usr/local/share:/usr/share). An app's desktop entry in applications/ registers it too with X-Herald- keys."),
        ("$XDG_CONFIG_HOME/autostart/APP.herald.desktop", "A login entry that runs herald check for one app, as herald autostart enable wrote it before registrations; herald autostart enable moves it into a registration (default ~/.config/autostart)."),
    ]

    /// The variables herald reads, each with what it changes. `ProcessEnvironment.names` are the
    /// ones the program reads itself; GIO reads the session bus's address.
    static let environment: [(name: String, meaning: String)] = [
        ("HOME", "The folder the XDG defaults are under."),
        ("XDG_STATE_HOME", "Where the state and locks are (default ~/.local/state)."),
        ("XDG_CACHE_HOME", "Where fetched feeds are kept (default ~/.cache)."),
        ("XDG_CONFIG_HOME", "Where the user's key file and the autostart entries are (default ~/.config)."),
        ("XDG_CONFIG_DIRS", "Where the administrator's key file is, most important first (default /etc/xdg)."),
        ("XDG_DATA_HOME", "Where the user's registrations and installed desktop entries are looked up (default ~/.local/share)."),
        ("XDG_DATA_DIRS", "Where the system's registrations, installed desktop entries and AppStream metainfo are looked up (default /usr/local/share:/usr/share)."),
        ("XDG_CURRENT_DESKTOP", "The desktops a message may be targeted at (GNOME, KDE)."),
        ("LANGUAGE", "The user's languages, most wanted first, for the messages and their buttons; then LC_ALL, LC_MESSAGES and LANG."),
        ("LC_ALL", "The user's language when LANGUAGE is not set."),
        ("LC_MESSAGES", "The user's language when neither LANGUAGE nor LC_ALL is set."),
        ("LANG", "The user's language when none of the above is set."),
        ("DBUS_SESSION_BUS_ADDRESS", "The session bus the notification server is reached on."),
    ]

    /// The whole page.
    static func text(date: String) -> String {
        var page = """
            .TH HERALD 1 "\(date)" "\(escape(HeraldVersion.current))" "User Commands"
            .nh
            .ad l
            .SH NAME
            herald \\- \(escape(HeraldCommand.configuration.abstract))

            """
        let commands = Self.commands
        page += ".SH SYNOPSIS\n"
        for command in commands { page += synopsis(command) }
        page += ".SH DESCRIPTION\n" + paragraph(HeraldCommand.configuration.abstract)
        page += paragraph("Each command is described below with its options; herald \\fIcommand\\fR \\fB\\-\\-help\\fR prints the same.", escaped: true)
        for command in commands {
            page += ".SS " + quoted(command.path.joined(separator: " ")) + "\n"
            page += paragraph(command.abstract)
            if let discussion = command.discussion, !discussion.isEmpty { page += paragraph(discussion) }
            for argument in command.arguments {
                page += ".TP\n" + argumentName(argument) + "\n" + escape(argument.abstract ?? "") + "\n"
            }
        }
        page += ".SH \"EXIT STATUS\"\n"
        for row in ExitStatus.table { page += ".TP\n.B " + escape(row.code) + "\n" + escape(row.meaning) + "\n" }
        page += ".SH FILES\n"
        for file in files { page += ".TP\n.I " + escape(file.path) + "\n" + escape(file.meaning) + "\n" }
        page += ".SH ENVIRONMENT\n"
        for variable in environment { page += ".TP\n.B " + escape(variable.name) + "\n" + escape(variable.meaning) + "\n" }
        page += ".SH EXAMPLES\n"
        for command in commands where !command.isGroup {
            guard let example = command.example else { continue }
            page += ".PP\n" + escape(command.abstract) + "\n.PP\n.RS 4\n.nf\n" + escape(example) + "\n.fi\n.RE\n"
        }
        page += ".SH \"SEE ALSO\"\n.BR notify\\-send (1)\n"
        return page
    }

    /// A command of the tree, with the words that name it and its own options.
    struct Command {
        /// `["herald", "feed", "add"]`.
        var path: [String]
        var abstract: String
        var discussion: String?
        var arguments: [Argument]
        var example: String?
        /// Whether it only groups other commands.
        var isGroup: Bool
    }

    /// An option, flag or positional argument as the parser describes it (`--experimental-dump-help`).
    struct Argument: Decodable {
        struct Name: Decodable { var kind: String; var name: String }
        var kind: String
        var names: [Name]?
        var valueName: String?
        var isOptional: Bool
        var isRepeating: Bool
        var abstract: String?
        var shouldDisplay: Bool
    }

    private struct Help: Decodable {
        struct Command: Decodable { var abstract: String?; var discussion: String?; var arguments: [Argument]? }
        var command: Command
    }

    /// Every command users see, depth first, the root's subcommands in the order they are declared.
    static var commands: [Command] {
        var found: [Command] = []
        func walk(_ type: ParsableCommand.Type, path: [String]) {
            let configuration = type.configuration
            guard configuration.shouldDisplay else { return }
            let help = try? JSONDecoder().decode(Help.self, from: Data(type._dumpHelp().utf8))
            let arguments = (help?.command.arguments ?? []).filter { argument in
                argument.shouldDisplay && !(argument.names ?? []).contains { ["help", "version"].contains($0.name) }
            }
            let subcommands = configuration.subcommands.filter { $0.configuration.shouldDisplay }
            if path.count > 1 {
                found.append(Command(path: path, abstract: configuration.abstract, discussion: configuration.discussion,
                                     arguments: arguments, example: (type as? UsageExample.Type)?.example, isGroup: !subcommands.isEmpty))
            }
            for subcommand in subcommands { walk(subcommand, path: path + [subcommand._commandName]) }
        }
        walk(HeraldCommand.self, path: [HeraldCommand._commandName])
        return found
    }

    /// A command's synopsis (`.SY`): its words, then its arguments, wrapped lines indented.
    static func synopsis(_ command: Command) -> String {
        var usages: [String] = []
        if command.isGroup { usages.append("\\fIcommand\\fR") }
        for argument in command.arguments where !command.isGroup {
            var usage = argumentName(argument, inline: true)
            if argument.isRepeating { usage += " \\&..." }
            usages.append(argument.isOptional ? "[" + usage + "]" : usage)
        }
        return ".SY " + quoted(command.path.joined(separator: " ")) + "\n" + usages.joined(separator: "\n") + "\n.YS\n"
    }

    /// An argument as it is written: `--feed url` (or `-q, --quiet`), an option's name in bold
    /// and its value in italics; a positional argument's name in italics.
    static func argumentName(_ argument: Argument, inline: Bool = false) -> String {
        let value = "\\fI" + escape(argument.valueName ?? "value") + "\\fR"
        if argument.kind == "positional" { return value }
        let names = (argument.names ?? []).map { "\\fB" + ($0.kind == "long" ? "\\-\\-" : "\\-") + escape($0.name) + "\\fR" }
        let written = inline ? (names.last ?? "") : names.joined(separator: ", ")
        return argument.kind == "option" ? written + " " + value : written
    }

    /// Text as a paragraph, one roff line per line of the text.
    static func paragraph(_ text: String, escaped: Bool = false) -> String {
        ".PP\n" + (escaped ? text : escape(text)) + "\n"
    }

    /// A macro's argument in double quotes.
    static func quoted(_ text: String) -> String { "\"" + escape(text) + "\"" }

    /// Text that roff prints as it is: a backslash is `\e`, a minus `\-`, a character beyond
    /// ASCII its Unicode name (`\[u2026]`), and a line that
    /// begins with a control character (`.` or `'`) begins with `\&`.
    static func escape(_ text: String) -> String {
        var plain = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": plain += "\\e"
            case "-": plain += "\\-"
            case _ where scalar.isASCII: plain.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                plain += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        var lines: [String] = []
        for line in plain.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                lines.append(".sp")
            } else if line.first == "." || line.first == "'" {
                lines.append("\\&" + line)
            } else {
                lines.append(String(line))
            }
        }
        return lines.joined(separator: "\n")
    }
}
