import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore
import HeraldDesktop

/// `herald check --registered`: one check of every registered app (`herald apps` lists them), in
/// one process (DESIGN.md D27). Read before the parser of `herald check`, which needs a feed
/// and an app.
struct RegisteredCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald check",
        abstract: "Check every registered app at once, in one process.")

    @Flag(help: "Check every app registered in herald/apps/ or by X-Herald- keys of its desktop entry (herald apps lists them).")
    var registered = false

    @Flag(help: "Print one JSON object per event on stdout, each with its app.")
    var json = false

    @Option(help: "Wait a random 0...N seconds before the first request.")
    var startDelay: Double = CheckCommandLine.Defaults.startDelay

    @Option(help: "Seconds the checks that have their feed wait for the others before the budget is decided without them.")
    var deadline: Double = 60

    @Flag(help: "Check nothing where the user's systemd manager (on the session bus) has herald-check.timer active, which checks at login itself: the login entry's run.")
    var unlessTimer = false

    /// How `herald check`'s help and manual tell of this command, which has none of its own.
    static let usage = """
        herald check --registered [--json] [--start-delay N] [--deadline S] [--unless-timer] checks every registered app \
        (herald apps lists them) in one process, as the systemd user timer herald-check.timer does at login \
        and twice a day: each app as its own check would, \
        one attention budget decision across them all, the desktop asked once for all of them (its quiet, \
        its notification server, where messages are handed over); it hands what it shows over and exits. \
        --deadline (default 60) is how long the apps whose feed came wait for the others before the \
        budget is decided without them. --unless-timer (the login entry's) checks nothing where the \
        user's systemd manager has herald-check.timer active, so a login runs one check. It exits with \
        the first app's failure, else 65 when a registration has a mistake, else 0.
        """

    /// The arguments of `herald check` that ask for this command.
    static func asks(_ arguments: ArraySlice<String>) -> Bool {
        arguments.first == "check" && arguments.dropFirst().contains("--registered")
    }

    /// Parses the arguments after `check` and runs the command; exits as `herald` does: help on
    /// stdout with 0, every error as `herald: …` on stderr with its status.
    static func main(_ arguments: [String]) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            exit()
        } catch let status as ExitCode {
            exit(withError: status)
        } catch {
            exit(reporting: error, arguments: arguments)
        }
    }

    func validate() throws {
        guard registered else { throw ValidationError("Missing --registered.") }
        if let refusal = CheckCommand.refusal(startDelay: startDelay) { throw ValidationError(refusal) }
        guard deadline > 0, deadline <= 3600 else { throw ValidationError("--deadline must be more than 0 and at most 3600 seconds.") }
    }

    func run() throws {
        let environment = ProcessEnvironment.read()
        if unlessTimer, MainContext.assumeIsolated({ SystemdUserManager.isActive(SystemdUserManager.checkTimer) }) {
            let timer = SystemdUserManager.checkTimer
            return say(json ? EventReporter.jsonLine("left-to-timer", ["timer": .string(timer)]).jsonText
                            : "\(timer) is active: it checks the registered apps, so this run checks nothing")
        }
        let found = AppRegistrations.read(environment: environment)
        for problem in found.problems { EventReporter.complain(problem.text) }
        let check = RegisteredCheck(apps: found.apps, json: json, deadline: .seconds(deadline))
        let status = MainContext.assumeIsolated { check.run(startDelay: StartDelay.seconds(upTo: startDelay)) }
        throw ExitCode(status != ExitStatus.done.code || found.problems.isEmpty ? status : ExitStatus.data.code)
    }
}
