import Foundation
import HeraldTestSupport
import XCTest

/// `herald check` reads a command line in its plain forms without the argument parser, and
/// a command line runs the same whichever of them reads it. The parser reads `--name=value`, which the plain reading leaves
/// to it, so each run here is made twice, once in each form.
final class CheckCommandLineEndToEndTests: XCTestCase {
    let appID = "org.example.Lines"

    /// The long names of `herald check`'s flags, from the parser's own description of the
    /// command, asked once for all the tests of the class.
    static let flags = Result { () throws -> Set<String> in
        let dump = try runToCompletion(TestPaths.herald, ["check", "--experimental-dump-help"], environment: ["PATH": "/usr/bin:/bin"])
        guard dump.status == 0 else { throw DumpHelpFailure(status: dump.status, output: dump.output) }
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        let command = try XCTUnwrap(root["command"] as? [String: Any])
        let arguments = try XCTUnwrap(command["arguments"] as? [[String: Any]])
        return Set(arguments.filter { $0["kind"] as? String == "flag" }.flatMap { argument in
            (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String == "long" ? "--" + ($0["name"] as! String) : nil }
        })
    }

    /// `herald check --experimental-dump-help` ended with a status other than 0.
    struct DumpHelpFailure: Error {
        let status: Int32
        let output: String
    }

    /// `arguments` with every `--name value` written `--name=value`, which only the parser reads.
    func parserForm(_ arguments: [String], flags: Set<String>) -> [String] {
        var out: [String] = []
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            if !flags.contains(name), index + 1 < arguments.count {
                out.append(name + "=" + arguments[index + 1])
                index += 2
            } else {
                out.append(name)
                index += 1
            }
        }
        return out
    }

    /// Runs `check` with `arguments` in both forms and says how each ended.
    func runBothForms(_ session: DesktopSession, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> ToolRun {
        let plain = try session.run(["check"] + arguments)
        let parsed = try session.run(["check"] + parserForm(arguments, flags: Self.flags.get()))
        XCTAssertEqual(plain, parsed, "\(arguments)", file: file, line: line)
        return plain
    }

    func testACheckThatIsNotDueSaysTheSameInBothForms() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let lastChecked = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down))
        try Data(#"{"ignored": [], "lastChecked": "\#(lastChecked.formatted(.iso8601))"}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/\(appID).json"))
        let feed = ["--feed", "http://127.0.0.1:9/feed.plist", "--app-id", appID]
        // The period sets the next check's time, so it is read in both forms.
        let run = try runBothForms(session, feed + ["--check-period", "2", "--app-version", "1.0", "--wait", "30", "--timeout", "5",
                                                    "--allow-scheme", "example", "--allow-scheme", "other", "--icon", "dialog-information"])
        XCTAssertEqual(run, ToolRun(status: 0, output: "no check: checked recently; next check due \(lastChecked.addingTimeInterval(2 * 86_400).formatted(.iso8601))\n"))
        let json = try runBothForms(session, feed + ["--json", "--check-period", "0.25"])
        XCTAssertEqual(json, ToolRun(status: 0, output: """
            {"detail":"checked recently; next check due \(lastChecked.addingTimeInterval(21_600).formatted(.iso8601))","event":"check-skipped","reason":"check-period"}

            """))
    }

    func testAnExplanationIsTheSameInBothForms() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = session.directory.appendingPathComponent("feed.json")
        try Data(#"{"2027/01/02": {"Title": "Needs 3", "MinVersion": "3"}, "2027/01/01": {"Title": "For all"}}"#.utf8).write(to: feed)
        let base = ["--explain", "--json", "--feed", feed.path, "--app-id", appID]
        let shows = #"{"decision":"shows","detail":null,"event":"explained","key":"2027/01/01","reason":null,"title":"For all"}"#
        XCTAssertEqual(try runBothForms(session, base + ["--app-version", "3.1", "--show-on-first-launch"]), ToolRun(status: 0, output: """
            {"decision":"shows","detail":null,"event":"explained","key":"2027/01/02","reason":null,"title":"Needs 3"}
            \(shows)

            """))
        XCTAssertEqual(try runBothForms(session, base + ["--app-version", "2"]), ToolRun(status: 0, output: """
            {"detail":"first launch: nothing is fetched until the next one","event":"check-skipped","reason":"first-launch"}
            {"decision":"not-shown","detail":"app version is below MinVersion 3","event":"explained","key":"2027/01/02","reason":"below-min-version","title":"Needs 3"}
            \(shows)

            """))
    }

    func testEveryMistakeIsReportedByTheParserInBothForms() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = ["--feed", "http://127.0.0.1:9/feed.plist", "--app-id", appID]
        let mistakes: [([String], String?)] = [
            (feed + ["--max", "0"], "--max must be at least 1"),
            (feed + ["--start-delay", "90000"], "--start-delay must be from 0 to 86400 seconds, not 90000"),
            (feed + ["--wait", "nan"], "--wait must be more than 0 and at most 604800 seconds, not nan"),
            (feed + ["--timeout", "0"], "--timeout must be more than 0 and at most 3600 seconds, not 0"),
            (feed + ["--remind-period", "4000"], "--remind-period must be from 0 to 3650 days, not 4000"),
            (["--feed", "http://example.org/feed.plist", "--app-id", appID],
             "feed URL refused: plain http is refused for feeds outside this machine (use https, or allow http)"),
            (["--feed", "http://127.0.0.1:9/feed.plist", "--app-id", "../x"], nil),
            (feed + ["--ca-file", "/nonexistent/ca.pem"], "cannot read the CA file /nonexistent/ca.pem: No such file or directory"),
            (feed + ["--public-key", "not base64"], nil),
        ]
        for (arguments, sentence) in mistakes {
            let run = try runBothForms(session, arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run)")
            XCTAssertEqual(run.output, "")
            let lines = run.errorOutput.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.count, 2, "\(run)")
            if let sentence { XCTAssertEqual(lines.first, "herald: " + sentence) }
            XCTAssertEqual(lines.last, "herald: see 'herald check --help'")
        }
    }
}
