import Foundation
import HeraldTestSupport

/// Runs a program to its end with both of its outputs, kept apart; one still running after
/// `seconds` (half an hour unless given: a build) is stopped.
func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
              within seconds: Double = 1800) throws -> (status: Int32, output: String, errors: String) {
    let folder = try Fixtures.temporaryDirectory("herald-run")
    defer { try? FileManager.default.removeItem(at: folder) }
    let child = try ChildProcess(executable, arguments, environment: environment, directory: folder, name: "run")
    let status = child.wait(seconds: seconds)
    return (status, child.output, child.errorOutput)
}

/// What bash offers for `herald st<Tab>` with an installed completion file, sourced and called as
/// bash-completion does: the `complete` line the file registers, then one offer a line.
func bashCompletionOfHeraldSt(file: String) throws -> (status: Int32, output: String, errors: String) {
    try runToEnd("/bin/bash", ["-c", """
        source "$0" && complete -p herald
        COMP_WORDS=(herald st); COMP_CWORD=1; COMP_LINE='herald st'; COMP_POINT=9
        _herald herald st herald && printf '%s\\n' "${COMPREPLY[@]}"
        """, file], environment: ["PATH": "/usr/bin:/bin"])
}

/// The names of herald's subcommands with their abstracts, as the program describes itself:
/// those a user runs (not hidden ones, nor the parser's `help`, which is `--help`).
func heraldSubcommands(_ herald: String) throws -> [(name: String, abstract: String)] {
    let tree = try JSONSerialization.jsonObject(with: Data(try runToEnd(herald, ["--experimental-dump-help"]).output.utf8)) as? [String: Any]
    let subcommands = (tree?["command"] as? [String: Any])?["subcommands"] as? [[String: Any]] ?? []
    return subcommands.filter { $0["shouldDisplay"] as? Bool != false && $0["commandName"] as? String != "help" }.map { ($0["commandName"] as? String ?? "?", $0["abstract"] as? String ?? "") }
}

/// Whether a manual page, as `man` printed it, describes each subcommand with its abstract
/// (white space and line breaks aside); returns the subcommands it does not describe.
func subcommandsMissing(from page: String, of herald: String) throws -> [String] {
    let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    let text = words(page)
    let subcommands = try heraldSubcommands(herald)
    guard !subcommands.isEmpty else { return ["(herald listed no subcommand)"] }
    return subcommands.filter { !text.contains("\($0.name) \(words($0.abstract))") }.map(\.name)
}
