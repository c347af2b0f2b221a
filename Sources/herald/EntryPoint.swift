import ArgumentParser
import Glibc

/// A command whose help ends with an example of its use.
protocol UsageExample {
    /// Short command lines that work as written, in order, one per line.
    static var example: String { get }
}

extension HeraldCommand {
    /// Parses the arguments and runs the command they name, as Unix tools do: help and the
    /// version go to stdout with status 0; a command group without its subcommand prints its
    /// help on stderr and exits `.usage`; every error is `herald: …` on stderr, and a usage error
    /// adds one line naming the help to read and exits `.usage`.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if RegisteredCheckCommand.asks(arguments[...]) { RegisteredCheckCommand.main(Array(arguments.dropFirst())) }
            if arguments.first == "check" { try CheckCommand.runPlainArguments(Array(arguments.dropFirst())) }
            var command = try parseAsRoot(arguments)
            let named = type(of: command)
            if !named.configuration.subcommands.isEmpty {
                FileHandleOutput.standardError.write(help(for: named) + "\n")
                exit(withError: ExitCode.validationFailure)
            }
            try command.run()
        } catch let status as ExitCode {
            // A command that ends with a status has said what it had to say; building the
            // messages of `exit(reporting:)` would cost a `herald check` that is not due more
            // than the rest of its run.
            Glibc.exit(status.rawValue)
        } catch {
            exit(reporting: error, arguments: arguments)
        }
    }
}

extension ParsableCommand {
    /// Exits as `exit(withError:)` does, in Herald's words: a help screen gains its example,
    /// and a message becomes one `herald: …` line. `arguments` are those this command parsed,
    /// which names the command's own options when one is unknown.
    static func exit(reporting error: Error, arguments: [String]) -> Never {
        let code = exitCode(for: error)
        let path = commandPath(arguments)
        if code == .success, let command = path.last, fullMessage(for: error) == helpMessage(for: command) {
            print(help(for: command))
            exit()
        }
        // Help other than a command's (the version, a completion script) prints as it is, and an
        // ExitCode comes from a command that has said what went wrong already.
        var text = message(for: error)
        guard code != .success, !text.isEmpty else { exit(withError: error) }
        if code == .validationFailure, let command = path.last,
           let unknown = UnknownOption.first(in: arguments, of: command, depth: path.count - 1) {
            text = unknown.message
        }
        EventReporter.complain(sentence(text))
        if code == .validationFailure {
            EventReporter.complain("see '\(path.map { $0._commandName }.joined(separator: " ")) --help'")
        }
        exit(withError: code)
    }

    /// A command's help screen, ending with its example when it has one; herald's own ends
    /// with the exit codes, after its commands.
    static func help(for command: ParsableCommand.Type) -> String {
        let text = helpMessage(for: command)
        if command == HeraldCommand.self { return text + "\n" + ExitStatus.text + "\n" }
        guard let example = (command as? UsageExample.Type)?.example else { return text }
        // A command group's help ends without the blank line that follows other commands' options.
        let sections = text.hasSuffix("\n") ? text : text + "\n"
        return sections + "\nEXAMPLE:\n  " + example.split(separator: "\n").joined(separator: "\n  ") + "\n"
    }

    /// The commands the leading arguments name, this one first: `check --feed URL` names herald
    /// and check. argument-parser's `help` command is passed over, so `help check` names check.
    static func commandPath(_ arguments: [String]) -> [ParsableCommand.Type] {
        var path: [ParsableCommand.Type] = [self]
        for argument in arguments.drop(while: { $0 == "help" }) {
            guard let next = path.last?.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            path.append(next)
        }
        return path
    }

    /// argument-parser's messages begin with a capital ("Unknown option '--x'"); after a
    /// program's name, Herald's sentences and other Unix tools' do not.
    static func sentence(_ message: String) -> String {
        guard let first = message.first, first.isUppercase, message.dropFirst().first?.isLowercase == true else { return message }
        return first.lowercased() + message.dropFirst()
    }
}
