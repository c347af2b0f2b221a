import Foundation
import HeraldTestSupport
import XCTest

/// A publisher's round with `herald feed`: add under a fresh id in the feed's own format with
/// every other byte kept, remove and retire the id, refuse a retired id, and preview on the
/// desktop without writing any state.
final class FeedWorkflowTests: XCTestCase {
    /// Today's id as `herald feed add` gives it: the date in UTC.
    var today: String { Self.today }

    static var today: String {
        let format = DateFormatter()
        format.timeZone = TimeZone(identifier: "UTC")
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "yyyy/MM/dd"
        return format.string(from: Date())
    }

    var retiredToday: String { String(today.replacingOccurrences(of: "/", with: "-")) }

    func write(_ session: DesktopSession, _ name: String, _ text: String) throws -> URL {
        let file = session.directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    func text(_ file: URL) throws -> String { try String(contentsOf: file, encoding: .utf8) }

    func testAddKeepsEveryOtherByteOfAnXMLAJSONAndAnOpenStepFeed() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feeds: [(name: String, text: String, entry: String)] = [
            ("feed.plist", Fixtures.xmlFeed(["2024/01/01": ["Title": "Old"]]).replacingOccurrences(of: "<dict>\n  <key>", with: "<dict>\n  <!-- kept -->\n  <key>"),
             "  <key>\(today)</key>\n  <dict>\n    <key>Title</key><string>New</string>\n    <key>Message</key><string>Text</string>\n  </dict>\n"),
            ("feed.json", "{\n    \"2024/01/01\": { \"Title\": \"Old\" }\n}\n",
             ",\n    \"\(today)\": {\"Title\": \"New\", \"Message\": \"Text\"}"),
            ("feed.strings", "/* kept */\n{\n\t\"2024/01/01\" = { Title = Old; };\n}\n",
             "\t\"\(today)\" = {Title = \"New\"; Message = \"Text\";};\n"),
        ]
        for (name, before, entry) in feeds {
            let file = try write(session, name, before)
            XCTAssertEqual(try session.run(["feed", "add", file.path, "--title", "New", "--message", "Text"]),
                           ToolRun(status: 0, output: "added \(today) to \(file.path)\n"), name)
            let after = try text(file)
            let inserted = try XCTUnwrap(after.range(of: entry), "\(name):\n\(after)")
            XCTAssertEqual(after.replacingCharacters(in: inserted, with: ""), before, "\(name): every other byte is kept")
            XCTAssertEqual(try session.run(["validate", file.path]), ToolRun(status: 0, output: """
                \(file.path): \(["plist": "xml-plist", "json": "json", "strings": "openstep-plist"][file.pathExtension]!), 2 messages, newest first:
                  \(today)  New
                  2024/01/01  Old
                no problems found

                """), name)
        }
    }

    func testAddingTwiceOnOneDayGivesDistinctIdsThatSortInOrder() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let file = session.directory.appendingPathComponent("feed.json")
        XCTAssertEqual(try session.run(["feed", "add", file.path, "--create", "--title", "First", "--message", "One"]),
                       ToolRun(status: 0, output: "created \(file.path): an empty JSON feed\nadded \(today) to \(file.path)\n"))
        XCTAssertEqual(try session.run(["feed", "add", file.path, "--title", "Second", "--message", "Two", "--url", "https://example.org/2",
                                        "--button", "Read", "--min-version", "1.2"]),
                       ToolRun(status: 0, output: "added \(today)-02 to \(file.path)\n"))
        XCTAssertEqual(try text(file), """
            {
                "\(today)": {
                    "Title": "First",
                    "Message": "One"
                },
                "\(today)-02": {
                    "Title": "Second",
                    "Message": "Two",
                    "ActionURL": "https://example.org/2",
                    "ActionButton": "Read",
                    "MinVersion": "1.2"
                }
            }

            """)
        XCTAssertEqual(try session.run(["validate", file.path]), ToolRun(status: 0, output: """
            \(file.path): json, 2 messages, newest first:
              \(today)-02  Second  -> https://example.org/2  [1.2...]
              \(today)  First
            no problems found

            """))
    }

    func testRemoveCutsTheEntryAndRetiresItsIdInTheLedgerBesideTheFeed() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let before = Fixtures.xmlFeed(["2024/01/01": ["Title": "Old"], "2024/02/01": ["Title": "Kept"]])
        let file = try write(session, "feed.plist", before)
        XCTAssertEqual(try session.run(["feed", "remove", file.path, "2024/01/01"]),
                       ToolRun(status: 0, output: "removed 2024/01/01 from \(file.path)\nretired 2024/01/01 in \(file.path).keys\n"))
        XCTAssertEqual(try text(file), Fixtures.xmlFeed(["2024/02/01": ["Title": "Kept"]]))
        XCTAssertEqual(try text(file.appendingPathExtension("keys")), """
            # Ids removed from feed.plist by herald feed remove: never use them again.
            \(retiredToday) 2024/01/01

            """)
        XCTAssertEqual(try session.run(["feed", "remove", file.path, "2024/01/01"]),
                       ToolRun(status: 65, output: "", errorOutput: "herald: \(file.path): no message '2024/01/01' in the feed\n"))
    }

    func testRemoveAndAddRefuseAnIdWithAControlCharacterInOneWording() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let before = Fixtures.xmlFeed(["2024/01/01": ["Title": "Kept"]])
        let file = try write(session, "feed.plist", before)
        let rule = "cannot hold a line break or another control character: FEED.keys keeps one id a line"
        XCTAssertEqual(try session.run(["feed", "remove", file.path, "2024/01/01\u{7}"]),
                       ToolRun(status: 65, output: "", errorOutput: "herald: \(file.path): not changed: the id \(rule)\n"))
        XCTAssertEqual(try session.run(["feed", "add", file.path, "--key", "2024/01/02\u{7}", "--title", "T", "--message", "M"]).errorOutput
                           .components(separatedBy: "\n").first, "herald: --key \(rule)")
        XCTAssertEqual(try text(file), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path + ".keys"))
    }

    func testAddAndValidateRefuseARetiredId() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let file = try write(session, "feed.plist", Fixtures.xmlFeed(["2024/01/01": ["Title": "Old"]]))
        XCTAssertEqual(try session.run(["feed", "remove", file.path, "2024/01/01"]).status, 0)
        let refusal = "'2024/01/01' was retired on \(retiredToday); an iNotify client that answered it will never show it again"
        XCTAssertEqual(try session.run(["feed", "add", file.path, "--key", "2024/01/01", "--title", "Again", "--message", "Reused"]),
                       ToolRun(status: 65, output: "", errorOutput: "herald: \(file.path): not changed: \(refusal)\n"))
        // Put back by hand, the retired id is a problem of the feed.
        try Data(Fixtures.xmlFeed(["2024/01/01": ["Title": "Again"]]).utf8).write(to: file)
        XCTAssertEqual(try session.run(["validate", file.path]), ToolRun(status: 65, output: """
            \(file.path): xml-plist, 1 message, newest first:
            ! 2024/01/01  Again
            1 error, no warnings:
              error: '2024/01/01': \(refusal.dropFirst("'2024/01/01' ".count))

            """))
        // Today's id is then the date, never the retired one.
        XCTAssertEqual(try session.run(["feed", "add", file.path, "--title", "New", "--message", "Fresh"]),
                       ToolRun(status: 0, output: "added \(today) to \(file.path)\n"))
    }

    func testAFeedThatDoesNotDecodeIsLeftAlone() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let broken = #"{"2024/01/01": {"Title": "Old"}"#
        let file = try write(session, "feed.json", broken)
        let run = try session.run(["feed", "add", file.path, "--title", "New", "--message", "Text"])
        XCTAssertEqual(run.status, 65, run.description)
        XCTAssertTrue(run.errorOutput.hasPrefix("herald: \(file.path): not changed, because the feed cannot be used: "), run.description)
        XCTAssertEqual(try text(file), broken)
        let empty = try write(session, "empty.plist", "")
        XCTAssertEqual(try session.run(["feed", "add", empty.path, "--title", "New", "--message", "Text"]), ToolRun(status: 65, output: "", errorOutput:
            "herald: \(empty.path): not changed, because the feed cannot be used: the feed is empty (--create starts a new feed)\n"))
    }

    func testAHandWrittenIdThatSortsAfterEveryGeneratedOneIsNamed() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let file = try write(session, "feed.json", #"{"\#(today)b": {"Title": "By hand"}}"#)
        XCTAssertEqual(try session.run(["feed", "add", file.path, "--title", "New", "--message", "Text"]), ToolRun(status: 65, output: "", errorOutput:
            "herald: \(file.path): no id left for today: '\(today)b' sorts after every id \(today)-02 … -99 could be; give one with --key\n"))
    }

    func testPreviewShowsTheMessagesOnTheDesktopAndWritesNoState() throws {
        let session = try DesktopSession()
        let file = try write(session, "feed.plist", Fixtures.xmlFeed([
            "2024/01/01": ["Title": "For everyone", "Message": "Hello"],
            "2024/02/01": ["Title": "For version 2", "Message": "New", "MinVersion": "2.0"],
            "2024/03/01": ["Title": "Newest", "Message": "Read me", "ActionURL": "https://example.org/3"],
        ]))
        let preview = try session.herald(["feed", "preview", file.path, "--app-version", "1.5", "--json"])
        XCTAssertTrue(eventually { preview.events.filter { $0["event"] as? String == "shown" }.count == 2 }, preview.output + preview.errorOutput)
        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.map(\.summary), ["Newest", "For everyone"])
        XCTAssertEqual(calls.map(\.appName), ["Herald preview", "Herald preview"])
        XCTAssertEqual(calls.map(\.actionIDs), [["default", "view", "remind", "ignore"], ["default", "ok"]])
        try session.invoke([(action: "ignore", id: 1), (action: "ok", id: 2)])
        XCTAssertEqual(preview.wait(), 0, preview.errorOutput)
        XCTAssertEqual(preview.output, """
            {"entries":3,"event":"fetched","format":"xml-plist","problems":[]}
            {"detail":"app version is below MinVersion 2.0","event":"skipped","key":"2024/02/01","reason":"below-min-version"}
            {"event":"detected","keys":["2024/03/01","2024/01/01"]}
            {"event":"shown","id":1,"key":"2024/03/01","title":"Newest"}
            {"event":"shown","id":2,"key":"2024/01/01","title":"For everyone"}
            {"action":"ignore","event":"answered","key":"2024/03/01"}
            {"action":"ok","event":"answered","key":"2024/01/01"}

            """)
        for variable in ["XDG_STATE_HOME", "XDG_CACHE_HOME"] {
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: session.environment[variable]!), [], "nothing written under \(variable)")
        }
    }
}

/// README.md's "Publishing a feed, from an empty file", run as written in an empty folder.
final class ReadmePublishingTests: XCTestCase {
    func testTheReadmesPublishingStepsWorkAsWritten() throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### Publishing a feed, from an empty file\n").dropFirst().first)
        let script = try XCTUnwrap(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```\n").first)
        let session = try DesktopSession(capabilities: nil, bus: false)
        let folder = session.directory.appendingPathComponent("publisher")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = session.environment
        environment["PATH"] = URL(fileURLWithPath: TestPaths.herald).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let started = Date().timeIntervalSince1970
        let shell = try ChildProcess("/bin/sh", ["-e", "-c", script], environment: environment, directory: session.directory, name: "readme-publishing",
                                     workingDirectory: folder)
        XCTAssertEqual(shell.wait(seconds: 60), 0, shell.output + shell.errorOutput)
        XCTAssertEqual(shell.errorOutput, "")
        let feed = folder.appendingPathComponent("feed.plist").path
        XCTAssertEqual(try session.run(["validate", feed, "--strict"]), ToolRun(status: 0, output: """
            \(feed): xml-plist, 1 message, newest first:
              \(FeedWorkflowTests.today)-02  Version 2 is out  -> https://example.com/releases/2  [1.5...]
            no problems found

            """))
        let key = try String(contentsOfFile: session.environment["HOME"]! + "/.config/herald/feed.key", encoding: .utf8)
        XCTAssertEqual(Data(base64Encoded: key.trimmingCharacters(in: .whitespacesAndNewlines))?.count, 32)
        let publicKey = try String(contentsOf: folder.appendingPathComponent("feed.pub"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // Signed again after the removal: its version is the time of that signing in seconds, or
        // one more than the signing before when both fell in one second.
        let verified = try session.run(["feed", "verify", feed, "--public-key", publicKey])
        let head = "\(feed): the signature matches (1 message): version "
        let tail = ", for any app; verified with key 1 of 1\n"
        XCTAssertEqual(verified.status, 0, verified.description)
        XCTAssertTrue(verified.output.hasPrefix(head) && verified.output.hasSuffix(tail), verified.description)
        let version = try XCTUnwrap(UInt64(verified.output.dropFirst(head.count).dropLast(tail.count)), verified.description)
        XCTAssertGreaterThanOrEqual(Double(version), started.rounded(.down))
        XCTAssertLessThanOrEqual(Double(version), Date().timeIntervalSince1970 + 2)
    }
}
