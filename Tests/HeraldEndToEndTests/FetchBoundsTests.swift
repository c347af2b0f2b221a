import Foundation
import Herald
import HeraldTestSupport
import XCTest

/// What one `herald check` may cost a feed server and the user, whatever the server answers:
/// a fixed number of requests (`FeedSource.requestLimit`), a 304 believed only for the cached
/// copy it was asked about, one deadline for the whole fetch, and a state lock found unusable
/// before anything is fetched.
final class FetchBoundsTests: XCTestCase {
    let appID = "org.example.Bounds"
    let news = Fixtures.xmlFeed(["2026/11/01": ["Title": "Cached news"]])

    /// Runs `herald` to the end, at most `limit` seconds, and how long it took.
    func run(_ session: DesktopSession, _ arguments: [String], environment: [String: String] = [:], limit: Double = 30) throws
        -> (run: ToolRun, seconds: Double) {
        let timed = try session.timedRun(arguments, environment: environment, within: limit)
        XCTAssertLessThan(timed.seconds, limit, "still running after \(limit) s: \(timed.run.errorOutput.suffix(300))")
        return timed
    }

    func check(_ session: DesktopSession, _ url: String, appID: String? = nil, _ extra: [String] = [], environment: [String: String] = [:],
               limit: Double = 30) throws -> (run: ToolRun, seconds: Double) {
        try run(session, ["check", "--feed", url, "--app-id", appID ?? self.appID, "--show-on-first-launch", "--force"] + extra,
                environment: environment, limit: limit)
    }

    /// Makes `name` on `server` answer `status` to every request.
    func answer(_ status: Int, for name: String, on server: FeedServer) throws {
        try server.publish(name + ".status", String(status))
    }

    // MARK: requests per check

    func testEveryAnswerOfAServerCostsAtMostTheDocumentedNumberOfRequests() throws {
        let session = try DesktopSession(capabilities: "body")
        let server = try FeedServer(directory: session.directory)
        let limit = FeedSource.requestLimit(languages: 0)
        XCTAssertEqual(limit, 18, "the number The Feed Format gives for a feed URL without {lang}")
        var cases: [(url: String, status: Int32, line: String, requests: Int)] = []
        try server.publish("page.plist", "placeholder")
        try answer(200, for: "page.plist", on: server)
        cases.append((server.url("page.plist"), 65, "\(server.url("page.plist")):1:1: <html> is not a property list tag (XML property list)", 1))
        for status in [204, 404, 410, 429, 500, 503] {
            try answer(status, for: "s\(status).plist", on: server)
            cases.append((server.url("s\(status).plist"), 75, "the feed server answered HTTP \(status)", 1))
        }
        try answer(304, for: "s304.plist", on: server)
        cases.append((server.url("s304.plist"), 75, "the server answered 304 Not Modified to a request that named no cached copy", 1))
        for status in [301, 302, 303, 307, 308] {
            cases.append((server.url("loop/\(status)"), 75, "more than 5 redirects", 6))
        }
        for (index, item) in cases.enumerated() {
            let before = server.requests.count
            let (run, seconds) = try check(session, item.url, appID: "org.example.Answer\(index)", ["--timeout", "10"])
            let asked = server.requests.count - before
            XCTAssertEqual(run, ToolRun(status: item.status, output: "", errorOutput: "herald: \(item.line)\n"), item.url)
            XCTAssertEqual(asked, item.requests, item.url)
            XCTAssertLessThanOrEqual(asked, limit, item.url)
            XCTAssertLessThan(seconds, 10, item.url)
        }
        XCTAssertEqual(try session.notifyCalls().count, 0)
    }

    func testA304ToAConditionalRequestWhoseCopyIsDamagedCostsOneRequestMoreThenFails() throws {
        let session = try DesktopSession(capabilities: "body")
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.plist", news)
        XCTAssertEqual(try check(session, server.url("feed.plist")).run.status, 0)
        let cache = session.environment["XDG_CACHE_HOME"]! + "/herald/\(appID).feed"
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: cache))
        try answer(304, for: "feed.plist", on: server)
        let before = server.requests.count
        let (run, seconds) = try check(session, server.url("feed.plist"), limit: 20)
        XCTAssertEqual(run, ToolRun(status: 75, output: "",
                                    errorOutput: "herald: the server answered 304 Not Modified to a request that named no cached copy\n"))
        XCTAssertEqual(server.requests.dropFirst(before).map { $0.headers["If-None-Match"] != nil }, [true, false],
                       "the conditional request, then one unconditional one")
        XCTAssertLessThan(seconds, 10)
        XCTAssertEqual(try String(contentsOfFile: cache, encoding: .utf8), "damaged", "nothing cached from a 304")
    }

    // MARK: a 304 never brings out another URL's copy

    func testA304ForAnotherLanguageNeverShowsTheCachedCopyOfTheFirst() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.de.plist", Fixtures.xmlFeed(["2026/11/01": ["Title": "Willkommen"]]))
        let template = server.url("feed.{lang}.plist")
        // Closed by its wait limit, unanswered: the German message would show again at the next check.
        let german = try check(session, template, ["--wait", "1"], environment: ["LANG": "de_DE.UTF-8"])
        XCTAssertEqual(german.run.status, 0, german.run.description)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Willkommen"])
        try answer(304, for: "feed.fr_FR.plist", on: server)
        let before = server.requests.count
        let french = try check(session, template, ["--wait", "1"], environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertEqual(french.run, ToolRun(status: 75, output: "",
                                           errorOutput: "herald: the server answered 304 Not Modified to a request that named no cached copy\n"))
        XCTAssertEqual(server.requests.dropFirst(before).map(\.path), ["/feed.fr_FR.plist"])
        XCTAssertNil(server.requests.last?.headers["If-None-Match"], "the German copy's validators are not sent for French")
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Willkommen"], "the German copy is not shown to the French user")
    }

    func testA304FromANewFeedURLNeverShowsTheOldURLsCopy() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("old.plist", news)
        XCTAssertEqual(try check(session, server.url("old.plist"), ["--wait", "1"]).run.status, 0)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Cached news"])
        try server.publish("new.plist", news)
        try answer(304, for: "new.plist", on: server)
        let moved = try check(session, server.url("new.plist"), ["--wait", "1"])
        XCTAssertEqual(moved.run, ToolRun(status: 75, output: "",
                                          errorOutput: "herald: the server answered 304 Not Modified to a request that named no cached copy\n"))
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Cached news"], "the old URL's copy is not shown for the new one")
    }

    // MARK: one deadline for the whole fetch

    func testTheTimeoutBoundsEveryLanguageOfAFeedTogether() throws {
        let session = try DesktopSession(capabilities: "body")
        let server = try FeedServer(directory: session.directory)
        // Six languages and the URL without one, each answering 404 after 2.5 s.
        let environment = ["LANG": "de_DE.UTF-8", "LANGUAGE": "de_DE:fr_FR:it_IT"]
        let (run, seconds) = try check(session, server.url("slow/2.5/feed.{lang}.plist"), ["--timeout", "3"], environment: environment)
        XCTAssertEqual(run, ToolRun(status: 75, output: "", errorOutput: "herald: no answer from the feed server within 3 s\n"))
        XCTAssertLessThan(seconds, 4.5, "one deadline of 3 s, not 3 s for each of seven URLs")
        XCTAssertEqual(server.requests.map(\.path), ["/slow/2.5/feed.de_DE.plist", "/slow/2.5/feed.de.plist"])
    }

    func testTheTimeoutBoundsTheFeedAndItsSignatureFileTogether() throws {
        let session = try DesktopSession(capabilities: "body")
        let server = try FeedServer(directory: session.directory)
        let keyFile = session.directory.appendingPathComponent("feed.key").path
        let made = try session.heraldToCompletion(["feed", "keygen", "--private-key", keyFile])
        XCTAssertEqual(made.status, 0)
        try server.publish("feed.plist", news)
        let signed = try session.heraldToCompletion(["feed", "sign", server.root.appendingPathComponent("feed.plist").path,
                                                     "--private-key", keyFile, "--detached"])
        XCTAssertEqual(signed.status, 0, signed.output)
        let key = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let (run, seconds) = try check(session, server.url("slow/2/feed.plist"), ["--timeout", "3", "--public-key", key])
        XCTAssertEqual(run.status, 65, run.description)
        XCTAssertEqual(run.output, "")
        XCTAssertTrue(run.errorOutput.hasSuffix("(no answer from the feed server within 3 s)\n"), run.errorOutput)
        XCTAssertEqual(run.errorOutput.split(separator: "\n").count, 1, run.errorOutput)
        XCTAssertLessThan(seconds, 4.5, "the signature file gets what is left of the 3 s, not 3 s more")
        XCTAssertEqual(server.requests.map(\.path), ["/slow/2/feed.plist", "/slow/2/feed.plist.sig"])
        XCTAssertEqual(try session.notifyCalls().count, 0)
    }

    // MARK: the state lock, before the fetch

    func testALockFileThatCannotBeUsedStopsTheCheckBeforeTheServerIsAsked() throws {
        let session = try DesktopSession(capabilities: "body")
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.plist", news)
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cases: [(appID: String, make: (String) throws -> Void, reason: String)] = [
            ("org.example.LockFolder", { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) },
             "it is a directory, not a regular file"),
            ("org.example.LockFifo", { XCTAssertEqual(mkfifo($0, 0o600), 0) }, "it is a FIFO, not a regular file"),
        ]
        for item in cases {
            let lock = folder + "/\(item.appID).lock"
            try item.make(lock)
            let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
            let (run, seconds) = try check(session, server.url("feed.plist"), appID: item.appID)
            XCTAssertEqual(run, ToolRun(status: 73, output: "", errorOutput: "herald: cannot lock \(lock): \(item.reason)\n"), item.appID)
            XCTAssertLessThan(seconds, 10)
            XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder)), before, "\(item.appID): nothing written")
        }
        XCTAssertEqual(server.requests.count, 0, "nothing is fetched when the state cannot be locked")
        XCTAssertEqual(try session.notifyCalls().count, 0)
    }

    func testAPromptsFileTooLargeForTheStateIsNamedAndNoStateFileIsSaidToExist() throws {
        let session = try DesktopSession(capabilities: "body")
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.plist", news)
        let prompts = session.directory.appendingPathComponent("prompts.json")
        let entries = (0..<40_000).map { #""prompt-\#($0)-\#(String(repeating: "x", count: 60))": {"title": "Rate us"}"# }
        try Data(("{" + entries.joined(separator: ",") + "}").utf8).write(to: prompts)
        let state = session.environment["XDG_STATE_HOME"]! + "/herald/\(appID).json"
        let (run, seconds) = try run(session, ["check", "--feed", server.url("feed.plist"), "--app-id", appID, "--prompts", prompts.path],
                                     limit: 60)
        XCTAssertEqual(run.status, 73, run.description)
        XCTAssertEqual(run.output, "")
        let line = try XCTUnwrap(run.errorOutput.split(separator: "\n").last.map(String.init))
        XCTAssertTrue(line.hasPrefix("herald: \(prompts.path) has more prompts than the state can keep: cannot write \(state): it would be "), line)
        XCTAssertTrue(line.hasSuffix(" MiB, more than the 4 MiB a state file may hold"), line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: state), "no state file was written")
        XCTAssertLessThan(seconds, 60)
    }

    // MARK: a Rollout Herald cannot read

    func testARolloutHeraldCannotReadKeepsTheMessageBackAndValidateSaysSo() throws {
        let session = try DesktopSession(capabilities: "body")
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.json", #"{"2026/11/02": {"Title": "Staged", "Rollout": "5%"}, "2026/11/01": {"Title": "Everyone"}}"#)
        let (checked, _) = try check(session, server.url("feed.json"))
        XCTAssertEqual(checked, ToolRun(status: 0, output: """
            fetched 2 messages
            skipped 2026/11/02: Rollout is not a number from 0 to 100 Herald can read
            1 pending: 2026/11/01
            shown 2026/11/01: Everyone

            """))
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Everyone"])
        let (validated, _) = try run(session, ["validate", server.url("feed.json")])
        XCTAssertEqual(validated, ToolRun(status: 65, output: """
            \(server.url("feed.json")): json, 2 messages (1 not shown), newest first:
            ! 2026/11/02  Staged  (not shown: Rollout is a string (5%), not a number from 0 to 100: a check never shows the message)
              2026/11/01  Everyone
            1 error, no warnings:
              error: '2026/11/02': Rollout is a string (5%), not a number from 0 to 100: a check never shows the message

            """))
    }
}
