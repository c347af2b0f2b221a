import ArgumentParser
import FoundationEssentials
import HeraldCore

/// An option on a command line that the command does not have, and the one it was probably
/// meant to be. The parser names a missing required option before an unknown one, so
/// `herald check --fed feed.plist --app-id a.b` would say "missing --feed" and never name the
/// typo; a usage error names the first unknown option instead, with a suggestion where one is
/// close (`Spelling.nearest`).
struct UnknownOption: Equatable {
    /// The option as typed, without a `=value`.
    var typed: String
    /// The option it was probably meant to be, as it is written (`--feed`).
    var meant: String?

    /// The sentence a usage error gives, in the parser's words.
    var message: String {
        "unknown option '\(typed)'" + (meant.map { ". Did you mean '\($0)'?" } ?? "")
    }

    /// Options every command takes, which the parser adds itself.
    static let builtIn: Set<String> = ["-h", "--help", "--version", "--experimental-dump-help", "--generate-completion-script"]

    /// The first argument after the command's name that names none of its options; an option's
    /// value is passed over, and so is everything after `--`.
    ///
    /// - Parameter arguments: the command line after the program's name, the command's own
    ///   arguments following the names of `command` and its parents.
    static func first(in arguments: [String], of command: ParsableCommand.Type, depth: Int) -> UnknownOption? {
        guard let options = options(of: command) else { return nil }
        var index = depth
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return nil }
            guard argument.hasPrefix("-"), argument != "-" else { continue }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            // A negative number is a value, not an option.
            if Double(name) != nil { continue }
            if builtIn.contains(name) { continue }
            guard let takesValue = options[name] else {
                return UnknownOption(typed: name, meant: Spelling.nearest(to: name, among: options.keys.filter { $0.hasPrefix("--") }.sorted()))
            }
            if takesValue, !argument.contains("=") { index += 1 }
        }
        return nil
    }

    /// Every name of the command's options (`--feed`, `-h`), and whether it takes a value; `nil`
    /// when the parser's description of the command cannot be read.
    static func options(of command: ParsableCommand.Type) -> [String: Bool]? {
        struct Help: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable {
                struct Name: Decodable { var kind: String; var name: String }
                var kind: String
                var names: [Name]?
            }
            var command: Command
        }
        guard let help = try? JSONDecoder().decode(Help.self, from: Data(command._dumpHelp().utf8)) else { return nil }
        var options: [String: Bool] = [:]
        for argument in help.command.arguments ?? [] where argument.kind != "positional" {
            for name in argument.names ?? [] {
                options[(name.kind == "long" ? "--" : "-") + name.name] = argument.kind == "option"
            }
        }
        return options
    }
}
