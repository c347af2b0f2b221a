/// What `herald`'s exit codes mean: one table for every command (the BSD `sysexits` codes),
/// printed at the end of `herald --help`, in the manual page made from it, and in
/// desktop/docs/cli.md ("Exit status").
enum ExitStatus {
    /// Each code and what it says, in order.
    static let table: [(code: String, meaning: String)] = [
        ("0", "done (also when nothing was due, or the check was deferred or muted)"),
        ("64", "usage: an option or argument that cannot be used"),
        ("65", "data: an unusable feed, prompts file or signature; a feed with errors"),
        ("66", "no input: a named file cannot be read or is not a regular file"),
        ("69", "unavailable: no notification server, or it refused the messages"),
        ("70", "software: the system gave no randomness for a new key"),
        ("73", "cannot create: the state, a cache, a feed or key file"),
        ("75", "temporary failure: the feed could not be fetched, or a lock stayed held"),
        ("77", "permission: a mute or budget ceiling the administrator set"),
        ("78", "configuration: a key file (herald.conf) that cannot be used"),
        ("128+n", "stopped by signal n (130 SIGINT, 143 SIGTERM, 129 SIGHUP)"),
    ]

    /// A command's codes as its help names them, each with the word before its meaning's colon:
    /// "Exit codes: 0 done, 64 usage, …". Every code is one of `table`'s.
    static func summary(_ codes: [Int32]) -> String {
        "Exit codes: " + codes.map { code in
            guard let row = table.first(where: { $0.code == String(code) }) else { preconditionFailure("\(code) is not in ExitStatus.table") }
            let name = row.meaning.prefix { $0 != ":" && $0 != "(" }
            return "\(code) " + String(name.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: ", ") + "."
    }

    /// The table as the help's discussion shows it: a heading, then one line per code, each
    /// short enough that the help's 80 columns do not wrap it.
    static var text: String {
        "EXIT STATUS:\n" + table.map { "  " + $0.code + String(repeating: " ", count: max(1, 7 - $0.code.count)) + $0.meaning }.joined(separator: "\n")
    }
}
