import Foundation
import HeraldTestSupport
import XCTest

/// `herald` keeps the conventions of a Unix tool: `--version` and `--help` print on stdout and
/// exit 0; run without the subcommand it needs, a command prints its usage on stderr and exits 64;
/// every usage error is `herald: …` and one line naming the help to read, exit 64; every
/// subcommand's help ends with an example that works as written; commands that only read create
/// no files.
final class ToolConventionsTests: XCTestCase {
    /// How one run of `herald` ended and everything it printed.
    struct Run: Equatable {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    func run(_ session: DesktopSession, _ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let child = try session.herald(arguments, environment: environment)
        let status = child.wait(seconds: 60)
        return Run(status: status, output: child.output, errorOutput: child.errorOutput)
    }

    /// The names listed under each SUBCOMMANDS heading of a help screen ("SUBCOMMANDS:",
    /// "PUBLISHERS' SUBCOMMANDS:"), in order.
    func subcommands(in help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.filter { lines[$0].hasSuffix("SUBCOMMANDS:") }.flatMap { start in
            lines[(start + 1)...].prefix { !$0.isEmpty }
                .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
                .compactMap { $0.split(separator: " ").first.map(String.init) }
        }
    }

    /// The example a help screen ends with, unindented; `nil` when it does not end with one.
    func example(in help: String) -> String? {
        var lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let heading = lines.lastIndex(of: "EXAMPLE:"), heading + 1 < lines.endIndex else { return nil }
        let example = lines[(heading + 1)...]
        guard example.allSatisfy({ $0.hasPrefix("  ") }) else { return nil }
        return example.map { String($0.dropFirst(2)) }.joined(separator: "\n")
    }

    /// Every command under `herald`, found from the help screens alone, with its help.
    func helpOfEverySubcommand(_ session: DesktopSession) throws -> [(path: [String], help: Run)] {
        var found: [(path: [String], help: Run)] = []
        var pending: [[String]] = [[]]
        while !pending.isEmpty {
            let path = pending.removeFirst()
            let help = try run(session, path + ["--help"])
            if !path.isEmpty { found.append((path, help)) }
            pending += subcommands(in: help.output).map { path + [$0] }
        }
        return found
    }

    /// Every file and folder under the session's XDG folders and home.
    func filesUnderTheUsersFolders(_ session: DesktopSession) -> [String] {
        ["XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "HOME"].flatMap { variable -> [String] in
            let root = session.environment[variable]!
            return (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).map { root + "/" + $0 }
        }.sorted()
    }

    func testVersionIsTheToolsNameAndVersionOnStandardOutput() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        XCTAssertEqual(try run(session, ["--version"]), Run(status: 0, output: "herald 0.1.0\n", errorOutput: ""))
    }

    func testHelpIsOnStandardOutputWithStatus0() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let help = try run(session, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.errorOutput, "")
        XCTAssertTrue(help.output.hasPrefix("OVERVIEW: Show an app's messages"), help.output)
        XCTAssertEqual(try run(session, ["help"]), help)
        XCTAssertEqual(try run(session, ["check", "--help"]), try run(session, ["help", "check"]))
    }

    /// The commands first, grouped by who runs them, then one table of exit codes: the help's
    /// (which the manual page is made from) is the one desktop/docs/cli.md shows.
    func testTheHelpListsTheCommandsByWhoRunsThemThenTheExitCodeTableTheCommandsPageShows() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let output = try run(session, ["--help"]).output
        let help = output.split(separator: "\n").map(String.init)
        let headings = help.filter { $0.hasSuffix(":") && !$0.hasPrefix(" ") }
        XCTAssertEqual(headings, ["OPTIONS:", "APP DEVELOPERS' SUBCOMMANDS:", "PUBLISHERS' SUBCOMMANDS:", "THE PERSON'S SUBCOMMANDS:", "EXIT STATUS:"])
        XCTAssertEqual(subcommands(in: output),
                       ["check", "prompts", "autostart", "apps", "demo", "validate", "feed", "inbox", "state", "mute", "unmute", "budget"])
        XCTAssertEqual(help.last, "  128+n  stopped by signal n (130 SIGINT, 143 SIGTERM, 129 SIGHUP)")
        let start = try XCTUnwrap(help.firstIndex(of: "EXIT STATUS:"))
        let helpRows = help[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { line -> [String] in
            let code = line.dropFirst(2).prefix { $0 != " " }
            return [String(code), String(line.dropFirst(2 + code.count).drop { $0 == " " })]
        }
        let page = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("desktop/docs/cli.md"), encoding: .utf8)
        let table = try XCTUnwrap(page.components(separatedBy: "<!-- exit-status -->").dropFirst().first?.components(separatedBy: "<!-- /exit-status -->").first)
        let pageRows = table.split(separator: "\n").dropFirst(2).map { row in
            row.split(separator: "|").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(helpRows.map(\.first), ["0", "64", "65", "66", "69", "70", "73", "75", "77", "78", "128+n"])
        XCTAssertEqual(pageRows, helpRows)
    }

    func testTheAgentRefusesArgumentsWithTheToolsUsageStatus() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let agent = try ChildProcess(TestPaths.agent, ["--feed", "x"], environment: session.environment, directory: session.directory, name: "agent-usage")
        XCTAssertEqual(Run(status: agent.wait(seconds: 60), output: agent.output, errorOutput: agent.errorOutput),
                       Run(status: 64, output: "", errorOutput: "herald-agent: takes no arguments: D-Bus starts it as the service org.herald.Agent\n"))
        XCTAssertEqual(try run(session, ["check", "--feed", "x"]).status, 64, "herald's own usage status")
    }

    func testHeraldWithoutASubcommandPrintsItsUsageOnStandardErrorAndExits64() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        for group in [[], ["autostart"], ["feed"]] {
            let help = try run(session, group + ["--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.output.contains("\nUSAGE: \((["herald"] + group).joined(separator: " ")) <subcommand>\n"), help.output)
            XCTAssertEqual(try run(session, group), Run(status: 64, output: "", errorOutput: help.output), "\(group)")
        }
    }

    func testEveryUsageErrorIsOneHeraldLineAndAPointerToTheHelpAndExits64() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let check = ["check", "--feed", "file:///feed.plist", "--app-id", "org.example.App"]
        let cases: [(arguments: [String], sentence: String, command: String)] = [
            (["--bogus"], "unknown option '--bogus'", "herald"),
            (["bogus"], "unexpected argument 'bogus'", "herald"),
            (["state", "--app-id", "org.example.App", "--bogus"], "unknown option '--bogus'", "herald state"),
            (["check", "--app-id", "org.example.App", "--feed"], "missing value for '--feed <feed>'", "herald check"),
            (["autostart", "status"], "missing expected argument '--app-id <app-id>'", "herald autostart status"),
            (check + ["--max", "many"], "the value 'many' is invalid for '--max <max>'", "herald check"),
            (check + ["--max", "0"], "--max must be at least 1", "herald check"),
            (["feed", "verify", "feed.plist"], "give the key to check with: --public-key KEY", "herald feed verify"),
            (["state", "--app-id", "a/b"], "app id 'a/b' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)", "herald state"),
            (["mute"], "give one app with --app-id ID, or --all", "herald mute"),
            (["unmute", "--all", "--app-id", "org.example.App"], "give one app with --app-id ID, or --all", "herald unmute"),
            (["state", "--all", "--app-id", "org.example.App"], "give one app with --app-id ID, or --all", "herald state"),
            (["budget", "--per-day", "1001"], "--per-day must be a whole number from 0 to 1000, not 1001", "herald budget"),
            // An unknown option is named even when a required one is missing too, with the one
            // it was probably meant to be.
            (["check", "--fed", "feed.plist", "--app-id", "org.example.App"], "unknown option '--fed'. Did you mean '--feed'?", "herald check"),
            (["check", "--app-id", "org.example.App", "--feed=feed.plist", "--timout", "3"], "unknown option '--timout'. Did you mean '--timeout'?", "herald check"),
            (["validate", "--strcit", "feed.plist"], "unknown option '--strcit'. Did you mean '--strict'?", "herald validate"),
            (["feed", "add", "feed.plist", "--titel", "T", "--message", "M"], "unknown option '--titel'. Did you mean '--title'?", "herald feed add"),
            (["autostart", "status", "--ap-id", "org.example.App"], "unknown option '--ap-id'. Did you mean '--app-id'?", "herald autostart status"),
            (["state", "--zzzzz"], "unknown option '--zzzzz'", "herald state"),
            // An empty feed argument names no feed.
            (["check", "--feed", "", "--app-id", "org.example.App"], "the feed argument is empty: give a file, - for standard input, or a URL", "herald check"),
            (["check", "--explain", "--feed", "", "--app-id", "org.example.App"], "the feed argument is empty: give a file, - for standard input, or a URL", "herald check"),
            (["validate", ""], "the feed argument is empty: give a file, - for standard input, or a URL", "herald validate"),
            (["feed", "preview", ""], "the feed argument is empty: give a file, - for standard input, or a URL", "herald feed preview"),
            (["feed", "add", "", "--title", "T", "--message", "M"], "the feed argument is empty: give a file, - for standard input, or a URL", "herald feed add"),
            (["feed", "remove", "", "2024/01/01"], "the feed argument is empty: give a file, - for standard input, or a URL", "herald feed remove"),
            (["feed", "sign", "", "--private-key", "feed.key"], "the feed argument is empty: give a file, - for standard input, or a URL", "herald feed sign"),
        ]
        for (arguments, sentence, command) in cases {
            XCTAssertEqual(try run(session, arguments), Run(status: 64, output: "", errorOutput: "herald: \(sentence)\nherald: see '\(command) --help'\n"),
                           arguments.joined(separator: " "))
        }
    }

    func testEverySubcommandsHelpEndsWithAnExampleOfItself() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let screens = try helpOfEverySubcommand(session)
        XCTAssertEqual(screens.map { $0.path.joined(separator: " ") }, [
            "check", "prompts", "autostart", "apps", "demo", "validate", "feed", "inbox", "state", "mute", "unmute", "budget",
            "autostart enable", "autostart disable", "autostart status", "feed add", "feed remove", "feed preview", "feed keygen", "feed sign",
            "feed verify", "inbox list", "inbox show", "inbox view", "inbox ignore",
        ])
        for (path, help) in screens {
            let command = (["herald"] + path).joined(separator: " ")
            XCTAssertEqual(help.status, 0, command)
            XCTAssertEqual(help.errorOutput, "", command)
            let example = self.example(in: help.output)
            XCTAssertTrue(example?.hasPrefix(command + " ") ?? false, "\(command) --help ends with\n\(help.output.suffix(300))")
        }
    }

    /// The examples run in one folder, in this order, as a publisher would type them. `check`'s
    /// fetches example.org, and `demo`'s and `feed preview`'s wait for answers on a desktop, so those three are left out.
    func testTheExamplesWorkAsWritten() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let folder = session.directory.appendingPathComponent("examples")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["feed.plist", "messages.plist"] {
            try Data(Fixtures.xmlFeed(["2024/01/01": ["Title": "Hello"]]).utf8).write(to: folder.appendingPathComponent(name))
        }
        try Data(#"{"rate": {"Title": "Rate us", "ActionURL": "https://example.org/rate"}}"#.utf8).write(to: folder.appendingPathComponent("prompts.plist"))
        let examples = Dictionary(uniqueKeysWithValues: try helpOfEverySubcommand(session).map { ($0.path.joined(separator: " "), example(in: $0.help.output) ?? "") })
        // The groups' examples are their subcommands' own, so running the groups' runs those too.
        // The feed group's round leaves out the preview, which waits for answers on a desktop.
        XCTAssertEqual(examples["feed"], ["feed add", "feed keygen", "feed sign", "feed verify", "feed remove"].compactMap { examples[$0] }.joined(separator: "\n"))
        XCTAssertEqual(examples["autostart"], examples["autostart enable"])
        let toolFolder = URL(fileURLWithPath: TestPaths.herald).deletingLastPathComponent().path
        var environment = session.environment
        environment["PATH"] = toolFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        for name in ["feed", "validate", "state", "autostart", "autostart status", "autostart disable", "prompts", "mute", "unmute", "budget"] {
            let script = try XCTUnwrap(examples[name], name)
            let shell = try ChildProcess("/bin/sh", ["-e", "-c", "cd '\(folder.path)'\n" + script], environment: environment,
                                         directory: session.directory, name: "example-" + name.replacingOccurrences(of: " ", with: "-"))
            XCTAssertEqual(shell.wait(seconds: 60), 0, "\(script)\n\(shell.output)\(shell.errorOutput)")
            XCTAssertEqual(shell.errorOutput, "", script)
        }
    }

    func testReadOnlyCommandsCreateNoFiles() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = session.directory.appendingPathComponent("feed.plist").path
        try Data(Fixtures.xmlFeed(["2024/01/01": ["Title": "Hello"]]).utf8).write(to: URL(fileURLWithPath: feed))
        let key = session.directory.appendingPathComponent("feed.key").path
        let keygen = try run(session, ["feed", "keygen", "--private-key", key])
        XCTAssertEqual(try run(session, ["feed", "sign", feed, "--private-key", key]).status, 0)
        let server = try session.serveFeed(Fixtures.xmlFeed(["2024/01/01": ["Title": "Hello"]]))
        defer { server.stop() }
        // GLib's settings (dconf, read for the proxy when fetching) keep a flag file in the login
        // session's runtime folder, /run/user/UID on a desktop, and only without one in the cache.
        let runtime = session.directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let readOnly = { (arguments: [String]) in try self.run(session, arguments, environment: ["XDG_RUNTIME_DIR": runtime.path]) }
        let before = filesUnderTheUsersFolders(session)
        let app = "org.example.Unknown"
        let stateFile = session.environment["XDG_STATE_HOME"]! + "/herald/\(app).json"
        let noState = ["state file: \(stateFile)", "muted: no", "first launch: not yet", "last check: never", "viewed: none", "ignored: none", "reminded: none"]
        XCTAssertEqual(try readOnly(["state", "--app-id", app]), Run(status: 0, output: noState.map { $0 + "\n" }.joined(), errorOutput: ""))
        XCTAssertEqual(try readOnly(["state", "--app-id", app, "--json"]).status, 0)
        XCTAssertEqual(try readOnly(["state", "--all", "--json"]).status, 0)
        XCTAssertEqual(try readOnly(["budget"]).status, 0)
        XCTAssertEqual(try readOnly(["inbox"]), Run(status: 0, output: "no message reached you through Herald in the last 180 days\n", errorOutput: ""))
        XCTAssertEqual(try readOnly(["inbox", "--json"]), Run(status: 0, output: "", errorOutput: ""))
        let entry = session.environment["XDG_CONFIG_HOME"]! + "/autostart/\(app).herald.desktop"
        let registration = session.environment["XDG_DATA_HOME"]! + "/herald/apps/\(app).conf"
        XCTAssertEqual(try readOnly(["autostart", "status", "--app-id", app]),
                       Run(status: 0, output: "off: not registered (no \(registration)), and no login entry (no \(entry))\n", errorOutput: ""))
        XCTAssertEqual(try readOnly(["apps"]).errorOutput, "")
        XCTAssertEqual(try readOnly(["validate", feed]).status, 0)
        XCTAssertEqual(try readOnly(["validate", server.url("feed.plist")]).status, 0)
        let publicKey = keygen.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try readOnly(["feed", "verify", feed, "--public-key", publicKey]),
                       Run(status: 0, output: "\(feed): the signature matches (1 message): version \(try XCTUnwrap(Fixtures.signedVersion(of: Data(contentsOf: URL(fileURLWithPath: feed))))), for any app; "
                           + "verified with key 1 of 1\n", errorOutput: ""))
        XCTAssertEqual(filesUnderTheUsersFolders(session), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.environment["XDG_STATE_HOME"]! + "/herald"))
    }
}
