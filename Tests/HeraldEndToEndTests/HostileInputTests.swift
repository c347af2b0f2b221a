import Foundation
import HeraldTestSupport
import XCTest

/// `herald check`, `validate`, `prompts` and `autostart` fed what an attacker would feed them:
/// each run ends with one of the documented exit codes (never a signal) and the sentence the
/// rule promises, or with the hostile entry skipped and the others shown.
final class HostileInputTests: XCTestCase {
    /// The exit codes `herald` documents: done, usage, bad feed, no server, state, fetch.
    static let documentedExitCodes: Set<Int32> = [0, 64, 65, 69, 73, 75]

    let appID = "org.example.Hostile"

    /// Waits for `run` to end and checks that it exited (was not killed by a signal) with
    /// `status`, a documented code, and that standard error holds exactly `errorLines`.
    func assertExit(_ run: ChildProcess, _ status: Int32, errorLines: [String], file: StaticString = #filePath, line: UInt = #line) {
        let code = run.wait(seconds: 60)
        XCTAssertEqual(run.process.terminationReason, .exit, "ended by signal \(code): \(run.errorOutput)", file: file, line: line)
        XCTAssertTrue(Self.documentedExitCodes.contains(code), "undocumented exit code \(code)", file: file, line: line)
        XCTAssertEqual(code, status, run.errorOutput, file: file, line: line)
        XCTAssertEqual(run.errorOutput.split(separator: "\n").map(String.init), errorLines, file: file, line: line)
    }

    /// A usage error: exit 64, and on standard error the sentence and where to read the help of
    /// `command` (e.g. "herald check"), each after "herald: ".
    func assertUsageError(_ run: ChildProcess, _ sentence: String, of command: String, file: StaticString = #filePath, line: UInt = #line) {
        assertExit(run, 64, errorLines: ["herald: " + sentence, "herald: see '\(command) --help'"], file: file, line: line)
    }

    func events(_ run: ChildProcess, _ name: String) -> [[String: Any]] {
        run.events.filter { $0["event"] as? String == name }
    }

    func write(_ session: DesktopSession, _ name: String, _ bytes: Data) throws -> String {
        let url = session.directory.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    func serve(_ session: DesktopSession, _ name: String, _ bytes: Data) throws -> (FeedServer, String) {
        let server = try FeedServer(directory: session.directory)
        try bytes.write(to: server.root.appendingPathComponent(name))
        return (server, server.url(name))
    }

    func check(_ session: DesktopSession, _ feed: String, _ extra: [String] = []) throws -> ChildProcess {
        try session.herald(["check", "--feed", feed, "--app-id", appID, "--force", "--wait", "20"] + extra)
    }

    // MARK: binary plists

    func testBinaryPlistThatContainsItselfFailsTheCheckWithBadFeed() throws {
        let session = try DesktopSession()
        let (server, url) = try serve(session, "feed.bplist", Fixtures.binaryPlist(objects: [BinaryPlistObject.array([0])]))
        defer { server.stop() }
        assertExit(try check(session, url), 65, errorLines: ["herald: \(url): byte 8: object 0 contains itself (binary property list)"])
        XCTAssertEqual(try session.notifyCalls().count, 0)
    }

    func testBinaryPlistWhoseSharedChildrenExpandExponentiallyIsRefusedAtOnce() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        var objects = [BinaryPlistObject.dictionary([(key: 1, value: 2)]), BinaryPlistObject.ascii("a")]
        for level in 0..<30 { objects.append(BinaryPlistObject.array([3 + level, 3 + level])) }
        objects.append(BinaryPlistObject.ascii("x"))
        let path = try write(session, "bomb.bplist", Fixtures.binaryPlist(objects: objects))
        assertExit(try session.herald(["validate", path]), 65, errorLines: [
            "herald: \(path): the document expands to more than 1,000,000 values (an object shared by several containers counts each time it is reached) (binary property list)",
        ])
    }

    func testBinaryPlistNestedTooDeepIsRefusedByValidate() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let objects = (0..<40).map { BinaryPlistObject.array([$0 + 1]) } + [BinaryPlistObject.ascii("x")]
        let path = try write(session, "deep.bplist", Fixtures.binaryPlist(objects: objects))
        assertExit(try session.herald(["validate", path]), 65, errorLines: ["herald: \(path): the document nests deeper than 32 levels (binary property list)"])
    }

    func testDamagedBinaryPlistIsRefusedByValidate() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let path = try write(session, "damaged.bplist", Fixtures.binaryPlist(objects: [BinaryPlistObject.array([9])]))
        assertExit(try session.herald(["validate", path]), 65,
                   errorLines: ["herald: \(path): byte 9: object 0 refers to object 9, which does not exist (binary property list)"])
    }

    // MARK: JSON

    func testJSONEntriesWithALoneSurrogateOrAHugeNumberAreSkippedAndTheOthersShow() throws {
        let session = try DesktopSession()
        let feed = #"{"2024/01/01": {"Title": "Good"}, "2024/01/02": {"Title": "\ud800"}, "2024/01/03": {"Title": "Big", "Weight": 1e400}}"#
        let (server, url) = try serve(session, "feed.json", Data(feed.utf8))
        defer { server.stop() }
        let run = try check(session, url, ["--json"])
        XCTAssertTrue(eventually { !events(run, "shown").isEmpty }, run.output + run.errorOutput)
        XCTAssertEqual(events(run, "fetched").first?["problems"] as? [String], [
            #"'2024/01/02': Title holds a lone UTF-16 surrogate (\uD800), which is not text"#,
            "'2024/01/03': Weight is the number 1e400, beyond the range of a double",
        ])
        XCTAssertEqual(events(run, "shown").compactMap { $0["key"] as? String }, ["2024/01/01"])
        try session.invoke("ok", on: try XCTUnwrap(events(run, "shown").first?["id"] as? Int))
        assertExit(run, 0, errorLines: [])
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Good"])
    }

    func testJSONSyntaxErrorIsReportedAsJSONNotOpenStep() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let path = try write(session, "feed.json", Data("{\"a\": {\"Title\": \"x\"}\n\"b\": {}}".utf8))
        assertExit(try session.herald(["validate", path]), 65, errorLines: [
            "herald: \(path):2:1: expected ',' or '}' after a value in an object: a ',' is missing before this key (JSON)",
        ])
    }

    func testDeeplyNestedJSONIsRefusedNotACrash() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let path = try write(session, "deep.json", Data((String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)).utf8))
        assertExit(try session.herald(["validate", path]), 65, errorLines: ["herald: \(path): the document nests deeper than 32 levels (JSON)"])
    }

    // MARK: XML and OpenStep

    func testTruncatedXMLIsASentenceNotCocoaErrorText() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let xml = #"<?xml version="1.0"?>"# + "\n<plist version=\"1.0\">\n<dict><key>a</key><dict><key>Title</key><string>cut"
        let path = try write(session, "feed.plist", Data(xml.utf8))
        assertExit(try session.herald(["validate", path]), 65,
                   errorLines: ["herald: \(path):3:41: the document ends before this <string> is closed (XML property list)"])
    }

    func testXMLWithAWrongCloseTagNamesTheLine() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let xml = "<plist version=\"1.0\">\n<dict>\n<key>a</key>\n<dict><key>Title</key><string>x</title></dict>\n</dict>\n</plist>\n"
        let path = try write(session, "feed.plist", Data(xml.utf8))
        assertExit(try session.herald(["validate", path]), 65, errorLines: [
            "herald: \(path):4:32: </title> does not close <string> from line 4 (XML property list)",
        ])
    }

    func testDeeplyNestedXMLIsRefusedNotAStackOverflow() throws {
        let session = try DesktopSession()
        // 900 kB, under the 1 MiB fetch limit; Foundation's scanner overflowed the stack at
        // about 10,000 levels.
        let xml = "<plist version=\"1.0\">" + String(repeating: "<array>", count: 60_000) + String(repeating: "</array>", count: 60_000) + "</plist>"
        let (server, url) = try serve(session, "feed.plist", Data(xml.utf8))
        defer { server.stop() }
        assertExit(try check(session, url), 65, errorLines: ["herald: \(url): the document nests deeper than 32 levels (XML property list)"])
    }

    func testDeeplyNestedOpenStepIsRefused() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let path = try write(session, "feed.strings", Data(String(repeating: "(", count: 50_000).utf8))
        assertExit(try session.herald(["validate", path]), 65, errorLines: ["herald: \(path): the document nests deeper than 32 levels (OpenStep property list)"])
    }

    // MARK: text

    func testTitleOfCombiningMarksIsCappedBeforeItReachesTheServer() throws {
        let session = try DesktopSession()
        let title = "ab" + "e" + String(repeating: "\u{0301}", count: 200_000)
        let (server, url) = try serve(session, "feed.plist", Data(Fixtures.xmlFeed(["a": ["Title": title, "Message": "Body"]]).utf8))
        defer { server.stop() }
        let run = try check(session, url, ["--json"])
        XCTAssertTrue(eventually { !events(run, "shown").isEmpty }, run.output + run.errorOutput)
        try session.invoke("ok", on: try XCTUnwrap(events(run, "shown").first?["id"] as? Int))
        assertExit(run, 0, errorLines: [])
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["ab…"])
    }

    func testInvisibleCharactersNeverReachTheServerAndABlankTitleFallsBack() throws {
        let session = try DesktopSession()
        let feed = Fixtures.xmlFeed([
            "2024/01/02": ["Title": "\u{202E}Sale\u{200B} \u{2066}ends\u{2069}\u{00AD}", "Message": "line\u{2028}two\u{E0041}"],
            "2024/01/01": ["Title": "\u{3164}\u{115F}\u{200D}\u{FEFF}", "Message": "m"],
        ])
        let (server, url) = try serve(session, "feed.plist", Data(feed.utf8))
        defer { server.stop() }
        let run = try check(session, url, ["--json", "--app-name", "Example"])
        XCTAssertTrue(eventually { events(run, "shown").count == 2 }, run.output + run.errorOutput)
        try session.invoke(events(run, "shown").compactMap { ($0["id"] as? Int).map { (action: "ok", id: $0) } })
        assertExit(run, 0, errorLines: [])
        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.map(\.summary), ["Sale ends", "Example"])
        XCTAssertEqual(calls.first?.body, "line\ntwo")
    }

    // MARK: links and feed URLs

    func testActionURLWithANewlineIsSkippedAsRefusedURL() throws {
        let session = try DesktopSession()
        let feed = Fixtures.xmlFeed([
            "2024/01/02": ["Title": "Trap", "ActionURL": "https://example.com/\nhttps://evil.example/"],
            "2024/01/01": ["Title": "Fine", "ActionURL": "https://example.com/fine"],
        ])
        let (server, url) = try serve(session, "feed.plist", Data(feed.utf8))
        defer { server.stop() }
        let run = try check(session, url, ["--json"])
        XCTAssertTrue(eventually { !events(run, "shown").isEmpty }, run.output + run.errorOutput)
        let skipped = events(run, "skipped").first
        XCTAssertEqual(skipped?["key"] as? String, "2024/01/02")
        XCTAssertEqual(skipped?["reason"] as? String, "refused-url")
        XCTAssertEqual(skipped?["detail"] as? String, "ActionURL refused: the URL contains a line break: percent-encode it")
        try session.invoke("view", on: try XCTUnwrap(events(run, "shown").first?["id"] as? Int))
        assertExit(run, 0, errorLines: [])
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Fine"])
        XCTAssertTrue(eventually { session.openedLinks == ["https://example.com/fine"] }, "\(session.openedLinks)")
    }

    func testFileFeedURLNamingAnotherHostIsAUsageError() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        assertUsageError(try session.herald(["check", "--feed", "file://evil.example/etc/passwd", "--app-id", appID, "--force"]),
                         "feed URL refused: a file: feed must be on this machine (file:///path or file://localhost/path), not on host evil.example",
                         of: "herald check")
    }

    // MARK: paths

    func testAutostartDisableWithAPathAsAppIDRemovesNothing() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        // $XDG_CONFIG_HOME/autostart/../../x.herald.desktop is this file, outside the folder.
        let decoy = session.directory.appendingPathComponent("x.herald.desktop")
        try Data("[Desktop Entry]\n".utf8).write(to: decoy)
        assertUsageError(try session.herald(["autostart", "disable", "--app-id", "../../x"]),
                         "app id '../../x' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)", of: "herald autostart disable")
        XCTAssertTrue(FileManager.default.fileExists(atPath: decoy.path))
    }

    func testAutostartStatusWithAPathAsAppIDSaysWhatStateSays() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let sentence = "app id '../x' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)"
        assertUsageError(try session.herald(["autostart", "status", "--app-id", "../x"]), sentence, of: "herald autostart status")
        assertUsageError(try session.herald(["state", "--app-id", "../x"]), sentence, of: "herald state")
    }

    func testAutostartEnableWithAPathAsAppIDWritesNothing() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        assertUsageError(try session.herald(["autostart", "enable", "--app-id", "../../x", "--feed", "https://example.com/feed"]),
                         "app id '../../x' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)", of: "herald autostart enable")
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.directory.appendingPathComponent("x.herald.desktop").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.directory.appendingPathComponent("x.conf").path))
    }

    // MARK: numbers

    func testCheckRefusesNonFiniteAndAbsurdNumbersAsUsageErrors() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let cases: [([String], String)] = [
            (["--timeout", "4294967296"], "--timeout must be more than 0 and at most 3600 seconds, not 4294967296"),
            (["--timeout", "inf"], "--timeout must be more than 0 and at most 3600 seconds, not inf"),
            (["--timeout", "nan"], "--timeout must be more than 0 and at most 3600 seconds, not nan"),
            (["--wait", "1e300"], "--wait must be more than 0 and at most 604800 seconds, not 1e+300"),
            (["--start-delay", "inf"], "--start-delay must be from 0 to 86400 seconds, not inf"),
            (["--check-period", "nan"], "--check-period must be from 0 to 3650 days, not nan"),
            (["--remind-period=-1"], "--remind-period must be from 0 to 3650 days, not -1"),
        ]
        for (options, sentence) in cases {
            assertUsageError(try session.herald(["check", "--feed", "file:///nonexistent", "--app-id", appID] + options), sentence, of: "herald check")
        }
    }

    func testAutostartEnableRefusesNumbersACheckWouldRefuseAndWritesNoRegistration() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let registrations = URL(fileURLWithPath: session.environment["XDG_DATA_HOME"]!).appendingPathComponent("herald/apps")
        let base = ["autostart", "enable", "--app-id", appID, "--feed", "https://example.com/feed"]
        let enable = "herald autostart enable"
        assertUsageError(try session.herald(base + ["--timeout", "inf"]), "--timeout must be more than 0 and at most 3600 seconds, not inf", of: enable)
        assertUsageError(try session.herald(base + ["--start-delay", "inf"]), "--start-delay must be from 0 to 86400 seconds, not inf", of: enable)
        assertUsageError(try session.herald(base + ["--wait", "nan"]), "--wait must be more than 0 and at most 604800 seconds, not nan", of: enable)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: registrations.path)) ?? [], [])
    }

    func testPromptNumbersBeyondIntLeaveThosePromptsOutAndTheOthersShow() throws {
        let session = try DesktopSession()
        let prompts = #"""
            {"days": {"title": "D", "daysUntilPrompt": 1e19, "usesUntilPrompt": 1},
             "uses": {"title": "U", "usesUntilPrompt": 1e30},
             "rate": {"title": "Rate us", "usesUntilPrompt": 1, "daysUntilPrompt": 0}}
            """#
        let path = try write(session, "prompts.json", Data(prompts.utf8))
        let run = try session.herald(["prompts", "--app-id", appID, "--prompts", path, "--json", "--verbose", "--wait", "20"])
        XCTAssertTrue(eventually { !events(run, "prompt-shown").isEmpty }, run.output + run.errorOutput)
        try session.invoke("remind", on: try XCTUnwrap(events(run, "prompt-shown").first?["id"] as? Int))
        assertExit(run, 0, errorLines: [
            "herald: \(path): prompt 'days', key 'daysUntilPrompt': must be a number of days from 0 to 3650, not 1e+19 (prompt left out)",
            "herald: \(path): prompt 'uses', key 'usesUntilPrompt': must be a whole number of uses from 0 to 1,000,000,000, not 1e+30 (prompt left out)",
        ])
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Rate us"])
    }

    // MARK: D-Bus peers

    func testAnUnknownActionFromAPeerIsOneEscapedLineAndAnswersNothing() throws {
        let session = try DesktopSession()
        let (server, url) = try serve(session, "feed.plist", Data(Fixtures.xmlFeed(["a": ["Title": "Kept"]]).utf8))
        defer { server.stop() }
        let run = try check(session, url, ["--json"])
        XCTAssertTrue(eventually { !events(run, "shown").isEmpty }, run.output + run.errorOutput)
        let id = try XCTUnwrap(events(run, "shown").first?["id"] as? Int)
        try session.invoke([(action: "bogus\u{1B}[2J\nherald: forged", id: id), (action: "ok", id: id)])
        assertExit(run, 0, errorLines: [#"herald: libnotify warning: Received unknown action bogus\u001B[2J\nherald: forged"#])
        XCTAssertEqual(events(run, "answered").map { $0["action"] as? String }, ["ok"], "the unknown action answered nothing")
    }
}
