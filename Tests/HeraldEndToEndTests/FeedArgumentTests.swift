import Foundation
import HeraldTestSupport
import XCTest

/// One feed argument everywhere: a path (relative too), `-` for standard input, a `file:` URL
/// and loopback `http:` work for check and validate alike; a missing or unreadable file exits
/// 66 with the system's reason, whichever command was given it.
final class FeedArgumentTests: XCTestCase {
    let feed = Fixtures.xmlFeed(["2024/01/01": ["Title": "Hello"], "2024/02/01": ["Title": "Again"]])

    /// A session with the feed at `pub/feed.plist` and on a loopback server, and every form of
    /// argument naming it, with the folder each runs in.
    func setUpForms(_ session: DesktopSession) throws -> (forms: [(argument: String, input: URL?)], folder: URL, server: FeedServer) {
        let folder = session.directory.appendingPathComponent("pub")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("feed.plist")
        try Data(feed.utf8).write(to: file)
        let server = try session.serveFeed(feed)
        let forms: [(String, URL?)] = [(file.path, nil), ("feed.plist", nil), ("-", file), ("file://" + file.path, nil), (server.url("feed.plist"), nil)]
        return (forms, folder, server)
    }

    func testValidateReadsAPathARelativePathStandardInputAFileURLAndLoopbackHTTP() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let (forms, folder, server) = try setUpForms(session)
        defer { server.stop() }
        for (argument, input) in forms {
            XCTAssertEqual(try session.run(["validate", argument], standardInput: input, workingDirectory: folder),
                           ToolRun(status: 0, output: "\(argument): xml-plist, 2 messages, newest first:\n  2024/02/01  Again\n  2024/01/01  Hello\nno problems found\n"),
                           argument)
        }
    }

    func testCheckReadsAPathARelativePathStandardInputAFileURLAndLoopbackHTTP() throws {
        let session = try DesktopSession()
        let (forms, folder, server) = try setUpForms(session)
        defer { server.stop() }
        for (number, form) in forms.enumerated() {
            let run = try session.run(["check", "--feed", form.argument, "--app-id", "org.example.Form\(number)", "--show-on-first-launch", "--max", "1", "--wait", "1"],
                                      standardInput: form.input, workingDirectory: folder)
            XCTAssertEqual(run, ToolRun(status: 0, output: """
                fetched 2 messages
                2 pending: 2024/02/01, 2024/01/01
                shown 2024/02/01: Again
                skipped 2024/01/01: more messages than one check shows
                2024/02/01: closed (closed-by-herald)

                """), form.argument)
        }
        XCTAssertEqual(try session.notifyCalls().map(\.summary), Array(repeating: "Again", count: forms.count))
    }

    func testAFeedFromStandardInputIsNeitherCachedNorRemembered() throws {
        let session = try DesktopSession()
        let (forms, folder, server) = try setUpForms(session)
        defer { server.stop() }
        // The same check of the file keeps a copy and its record; of standard input, neither.
        for (appID, argument, cached) in [("org.example.File", forms[0].argument, true), ("org.example.Piped", "-", false)] {
            let run = try session.run(["check", "--feed", argument, "--app-id", appID, "--show-on-first-launch", "--max", "1", "--wait", "1"],
                                      standardInput: forms[2].input, workingDirectory: folder)
            XCTAssertEqual(run.status, 0, run.description)
            let cache = session.environment["XDG_CACHE_HOME"]! + "/herald/\(appID).feed"
            XCTAssertEqual(FileManager.default.fileExists(atPath: cache), cached, argument)
            XCTAssertEqual(try session.state(appID: appID)["cachedFeed"] != nil, cached, argument)
        }
    }

    /// Standard input has the size limit of any feed, and is read in chunks that stop at it:
    /// 200 MB of zeros on the pipe cost no more memory than a small feed.
    func testAFeedOnStandardInputStopsAtTheSizeLimitWithoutBeingReadWhole() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let script = "head -c 200000000 /dev/zero | /usr/bin/time -f 'peak %M kB' \"$0\" check --force --feed - --app-id org.example.Piped"
        let run = try runToCompletion("/bin/sh", ["-c", script + " 2>&1", TestPaths.herald], environment: session.environment)
        let lines = run.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "herald: the feed is larger than 1048576 bytes", run.output)
        let peak = try XCTUnwrap(lines.last.flatMap { Int($0.dropFirst("peak ".count).dropLast(" kB".count)) }, run.output)
        XCTAssertLessThan(peak, 80_000, "kB at the peak: the pipe is not read whole")
    }

    func testAMissingOrUnreadableFileExits66WithTheSystemsReasonForEveryCommand() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let folder = session.directory
        let key = folder.appendingPathComponent("feed.key").path
        XCTAssertEqual(try session.run(["feed", "keygen", "--private-key", key]).status, 0)
        let commands: [[String]] = [
            ["check", "--feed", "missing.plist", "--app-id", "org.example.A"],
            ["validate", "missing.plist"],
            ["feed", "verify", "missing.plist", "--public-key", String(repeating: "A", count: 43) + "="],
            ["feed", "sign", "missing.plist", "--private-key", key],
            ["feed", "add", "missing.plist", "--title", "T", "--message", "M"],
            ["feed", "remove", "missing.plist", "2024/01/01"],
            ["feed", "preview", "missing.plist"],
            ["autostart", "enable", "--feed", "missing.plist", "--app-id", "org.example.A"],
        ]
        for arguments in commands {
            XCTAssertEqual(try session.run(arguments, workingDirectory: folder),
                           ToolRun(status: 66, output: "", errorOutput: "herald: missing.plist: No such file or directory\n"), arguments.joined(separator: " "))
        }
        XCTAssertEqual(try session.run(["validate", folder.path]), ToolRun(status: 66, output: "", errorOutput: "herald: \(folder.path): it is a directory, not a regular file\n"))
        let locked = folder.appendingPathComponent("locked.plist")
        try Data(feed.utf8).write(to: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        if getuid() != 0 {
            XCTAssertEqual(try session.run(["check", "--feed", locked.path, "--app-id", "org.example.A"]),
                           ToolRun(status: 66, output: "", errorOutput: "herald: \(locked.path): Permission denied\n"))
        }
    }

    func testAKeyOnStandardInputLargerThanAKeyFileIsRefusedWith66() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = session.directory.appendingPathComponent("feed.plist")
        try Data(Fixtures.xmlFeed(["2024/01/01": ["Title": "T"]]).utf8).write(to: feed)
        let before = try Data(contentsOf: feed)
        let input = session.directory.appendingPathComponent("huge.key")
        try Data(repeating: UInt8(ascii: "A"), count: 8 << 20).write(to: input)
        XCTAssertEqual(try session.run(["feed", "sign", feed.path, "--private-key", "-"], standardInput: input), ToolRun(status: 66, output: "", errorOutput: """
            herald: cannot read the private key from standard input: it is more than the 0.1 MiB Herald reads of a key

            """))
        XCTAssertEqual(try Data(contentsOf: feed), before, "nothing was signed")
    }

    func testAnAutostartEntryThatIsAFIFOIsRefusedAtOnceWith66() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let appID = "org.example.Login"
        let folder = session.environment["XDG_CONFIG_HOME"]! + "/autostart"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let entry = folder + "/\(appID).herald.desktop"
        XCTAssertEqual(mkfifo(entry, 0o600), 0)
        let (run, seconds) = try session.timedRun(["autostart", "status", "--app-id", appID], within: 10)
        XCTAssertLessThan(seconds, 5, "a FIFO nobody writes to is not waited on")
        XCTAssertEqual(run, ToolRun(status: 66, output: "", errorOutput: "herald: cannot read \(entry): it is a FIFO, not a regular file\n"))
    }

    func testARegistrationNamesARelativeFeedByItsAbsoluteFileURI() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let (_, folder, server) = try setUpForms(session)
        server.stop()
        let appID = "org.example.Login"
        let registration = session.environment["XDG_DATA_HOME"]! + "/herald/apps/\(appID).conf"
        XCTAssertEqual(try session.run(["autostart", "enable", "--feed", "feed.plist", "--app-id", appID], workingDirectory: folder),
                       ToolRun(status: 0, output: "registered: \(registration)\n"))
        XCTAssertEqual(try String(contentsOfFile: registration, encoding: .utf8), "[Herald]\nFeed=file://\(folder.path)/feed.plist\n")
        XCTAssertEqual(try session.run(["autostart", "status", "--app-id", appID]), ToolRun(status: 0, output: "registered: \(registration)\n"))
        XCTAssertEqual(try session.run(["autostart", "enable", "--feed", "-", "--app-id", appID]), ToolRun(status: 64, output: "", errorOutput: """
            herald: a registration has no standard input to read a feed from
            herald: see 'herald autostart enable --help'

            """))
    }
}
