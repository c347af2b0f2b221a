import ArgumentParser
import Glibc
import Herald

/// What `herald`'s exit statuses mean: one list for every command (the BSD `sysexits` codes,
/// named as sysexits.h names them), from which `herald --help`'s last section, the manual
/// page's EXIT STATUS and desktop/docs/cli.md's table ("Exit status") are all written. No
/// place in the sources writes a status's number (`ExitStatusTests`).
enum ExitStatus: CaseIterable, Sendable {
    /// The command did what it was asked, or found nothing to do.
    case done
    /// The command line cannot be used.
    case usage
    /// A document cannot be used.
    case data
    /// A named file cannot be read.
    case noInput
    /// A service the command needs is not there.
    case unavailable
    /// The system failed the program.
    case software
    /// Something cannot be written.
    case cannotCreate
    /// Trying again later may work.
    case temporaryFailure
    /// The administrator's word stands in the way.
    case permission
    /// A key file cannot be used.
    case configuration

    /// The process's status: sysexits.h's number, which `herald-agent` and the GTK demo name
    /// there too.
    var code: Int32 {
        switch self {
        case .done: EX_OK
        case .usage: EX_USAGE
        case .data: EX_DATAERR
        case .noInput: EX_NOINPUT
        case .unavailable: EX_UNAVAILABLE
        case .software: EX_SOFTWARE
        case .cannotCreate: EX_CANTCREAT
        case .temporaryFailure: EX_TEMPFAIL
        case .permission: EX_NOPERM
        case .configuration: EX_CONFIG
        }
    }

    /// The status of a process a signal stopped: the shell's 128 + the signal's number.
    static func stopped(by signal: Int32) -> Int32 { signalBase + signal }

    /// What a signal's status adds its number to.
    private static let signalBase: Int32 = 128

    /// The status as the docs print it before its meaning: "no input".
    var name: String {
        switch self {
        case .done: "done"
        case .usage: "usage"
        case .data: "data"
        case .noInput: "no input"
        case .unavailable: "unavailable"
        case .software: "software"
        case .cannotCreate: "cannot create"
        case .temporaryFailure: "temporary failure"
        case .permission: "permission"
        case .configuration: "configuration"
        }
    }

    /// When a command exits with the status, after its name.
    var meaning: String {
        switch self {
        case .done: "also when nothing was due, or the check was deferred or muted"
        case .usage: "an option or argument that cannot be used"
        case .data: "an unusable feed, prompts file, signature or registration"
        case .noInput: "a named file cannot be read or is not a regular file"
        case .unavailable: "no notification server, or it refused the messages"
        case .software: "the system gave no randomness for a new key"
        case .cannotCreate: "the state, a cache, a feed or key file"
        case .temporaryFailure: "the feed could not be fetched, or a lock stayed held"
        case .permission: "a mute or budget ceiling the administrator set"
        case .configuration: "a key file (herald.conf) that cannot be used"
        }
    }

    /// The status a check that failed with `error` exits with: a configuration that cannot
    /// work is a usage error, a feed or signature that cannot be used is data, a missing server
    /// or library is unavailable, a lock held past the timeout and a failed fetch pass (try
    /// again later), state that cannot be written cannot be created, and a key file that cannot
    /// be used is configuration.
    init(_ error: HeraldError) {
        switch error {
        case .configuration: self = .usage
        case .feed, .signature: self = .data
        case .noNotificationServer, .presentation, .libraryUnavailable: self = .unavailable
        case .state(.locked), .fetch: self = .temporaryFailure
        case .state: self = .cannotCreate
        case .keyFile: self = .configuration
        }
    }

    /// Every status and what it says, in order, as the help, the manual and cli.md show them:
    /// "64" and "usage: an option or argument that cannot be used"; the last row is a signal's.
    static var table: [(code: String, meaning: String)] {
        allCases.map { status in
            (String(status.code), status == .done ? "\(status.name) (\(status.meaning))" : "\(status.name): \(status.meaning)")
        } + [("\(signalBase)+n", "stopped by signal n (\(stopped(by: SIGINT)) SIGINT, \(stopped(by: SIGTERM)) SIGTERM, \(stopped(by: SIGHUP)) SIGHUP)")]
    }

    /// A command's statuses as its help names them: "Exit codes: 0 done, 64 usage, …".
    static func summary(_ statuses: [ExitStatus]) -> String {
        "Exit codes: " + statuses.map { "\($0.code) \($0.name)" }.joined(separator: ", ") + "."
    }

    /// The table as the help's discussion shows it: a heading, then one line per status, each
    /// short enough that the help's 80 columns do not wrap it.
    static var text: String {
        "EXIT STATUS:\n" + table.map { "  " + $0.code + String(repeating: " ", count: max(1, 7 - $0.code.count)) + $0.meaning }.joined(separator: "\n")
    }

    /// The table as cli.md's "Exit status" section holds it, between its two markers.
    static var markdownTable: String {
        "| code | meaning |\n|---|---|\n" + table.map { "| \($0.code) | \($0.meaning) |" }.joined(separator: "\n") + "\n"
    }
}

extension ExitCode {
    /// The process's status for `status`.
    init(_ status: ExitStatus) {
        self.init(status.code)
    }
}
