import Foundation
import HeraldCore
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

    /// Every key a publisher writes by hand, set from the command line: the message passes
    /// `herald validate` and reads back with every value.
    func testAddSetsEveryKeyAndTheMessagePassesValidateAndReadsBack() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let file = try write(session, "feed.json", "{\n    \"2024/01/01\": {\"Title\": \"Old\"}\n}\n")
        XCTAssertEqual(try session.run([
            "feed", "add", file.path, "--key", "2099/12/01", "--title", "Winter sale", "--title-for", "de=Winterschlussverkauf",
            "--message", "Half price", "--message-for", "de=Halber Preis", "--url", "https://example.com/sale", "--button", "Shop",
            "--button-for", "de=Kaufen", "--min-version", "1.5", "--max-version", "2.0", "--start-date", "2099-12-01",
            "--end-date", "2099-12-31T18:00:00+01:00", "--languages", "en,de", "--desktops", "GNOME,KDE", "--rollout", "12.5",
            "--priority=-1", "--urgency", "low", "--icon", "emblem-sale", "--max-shows", "2", "--min-days-between", "0.5",
            "--category", "promotion",
        ]), ToolRun(status: 0, output: "added 2099/12/01 to \(file.path)\n"))
        XCTAssertEqual(try text(file), """
            {
                "2024/01/01": {"Title": "Old"},
                "2099/12/01": {"Title": {"de": "Winterschlussverkauf", "en": "Winter sale"}, "Message": {"de": "Halber Preis", "en": "Half price"}, \
            "ActionURL": "https://example.com/sale", "ActionButton": {"de": "Kaufen", "en": "Shop"}, "MinVersion": "1.5", "MaxVersion": "2.0", \
            "StartDate": "2099-12-01", "EndDate": "2099-12-31T18:00:00+01:00", "Languages": ["en", "de"], "Desktops": ["GNOME", "KDE"], \
            "Rollout": 12.5, "Priority": -1, "Urgency": "low", "Icon": "emblem-sale", "MaxShows": 2, "MinDaysBetween": 0.5, "Category": "promotion"}
            }

            """)
        XCTAssertEqual(try session.run(["validate", file.path, "--strict"]), ToolRun(status: 0, output: """
            \(file.path): json, 2 messages, by priority, then newest first:
              2024/01/01  Old
              2099/12/01  Winter sale  -> https://example.com/sale  [1.5...2.0]  [en, de]  on GNOME, KDE  from 2099-12-01  \
            until 2099-12-31T18:00:00+01:00  rollout 12.5 %  priority -1  at most 2 shows  at least 0.5 days apart  category promotion
            no problems found

            """))
        // As the library reads it: every value of its own kind, the dates and shares Herald uses.
        let entry = try XCTUnwrap(try FeedDecoder.decode(Data(contentsOf: file)).entries["2099/12/01"])
        func localised(_ english: String, _ german: String) -> FeedValue { .dictionary(["en": .string(english), "de": .string(german)]) }
        XCTAssertEqual(entry.details, [
            "Title": localised("Winter sale", "Winterschlussverkauf"), "Message": localised("Half price", "Halber Preis"),
            "ActionURL": .string("https://example.com/sale"), "ActionButton": localised("Shop", "Kaufen"),
            "MinVersion": .string("1.5"), "MaxVersion": .string("2.0"),
            "StartDate": .string("2099-12-01"), "EndDate": .string("2099-12-31T18:00:00+01:00"),
            "Languages": .array([.string("en"), .string("de")]), "Desktops": .array([.string("GNOME"), .string("KDE")]),
            "Rollout": .real(12.5), "Priority": .integer(-1), "Urgency": .string("low"), "Icon": .string("emblem-sale"),
            "MaxShows": .integer(2), "MinDaysBetween": .real(0.5), "Category": .string("promotion"),
        ])
        XCTAssertEqual(entry.localised(to: ["de"]).title, "Winterschlussverkauf")
        XCTAssertEqual([entry.startDate, entry.endDate], [.moment(Date(timeIntervalSince1970: 4_099_766_400)), .moment(Date(timeIntervalSince1970: 4_102_419_600))])
        XCTAssertEqual(entry.minTimeBetweenShows, 43_200)
    }

    /// What `herald validate` calls an error, `feed add` refuses in the same words, writing
    /// nothing: not a byte of the feed changes.
    func testAddRefusesWhatValidateCallsAnErrorAndLeavesTheFileAsItWas() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let before = Fixtures.xmlFeed(["2024/01/01": ["Title": "Old"]])
        let file = try write(session, "feed.plist", before)
        let refusals: [([String], String)] = [
            (["--min-version", "1.x"], #"--min-version refused: MinVersion "1.x" is not dotted numbers such as 1.2: it compares above 1, so app version 1 does not see this message"#),
            (["--min-version", "3", "--max-version", "2.9"], "--min-version refused: MinVersion 3 is above MaxVersion 2.9: no version can match"),
            (["--start-date", "2026-12-02", "--end-date", "2026-12-01"], "--end-date refused: EndDate 2026-12-01 is before StartDate 2026-12-02: the message can never show"),
            (["--end-date", "soon"], #"--end-date refused: EndDate "soon" is not an ISO 8601 date or date-time such as 2026-12-01 or 2026-12-01T09:00Z: a check never shows the message"#),
            (["--category", "securty"], #"--category refused: Category "securty" is not announcement, tip, promotion, security or survey: read as promotion; did you mean security?"#),
            (["--urgency", "loud"], #"--urgency refused: Urgency "loud" is not low, normal or critical: the notification has normal urgency"#),
            (["--rollout", "150"], "--rollout refused: Rollout 150 is outside 0–100: a check never shows the message"),
            (["--rollout", "5%"], "--rollout refused: Rollout is a string (5%), not a number from 0 to 100: a check never shows the message"),
            (["--priority", "high"], "--priority refused: Priority is a string (high), not a number: read as 0"),
            (["--max-shows", "2.5"], "--max-shows refused: MaxShows 2.5 is not a whole number of at least 1: ignored, so the message may show any number of times"),
            (["--min-days-between", "0"], "--min-days-between refused: MinDaysBetween 0 is not above 0: ignored, so no time is kept between two showings"),
            (["--languages", "de,German"], #"--languages refused: Languages: "German" is not a language code such as de, pt_BR or zh_Hans, so no user's language matches it"#),
            (["--desktops", ","], "--desktops refused: Desktops is empty: no user sees it"),
            (["--icon", "/tmp/sale.png"], #"--icon refused: Icon "/tmp/sale.png" is a path: only themed icon names are used, so the app's icon is shown"#),
            (["--title-for", "German=Neu"], #"--title-for refused: Title: "German" is not a language code such as de, pt_BR or zh_Hans, so no user's language picks it"#),
            (["--message-for", "en=Again"], "--message-for: Message for en is given twice: the plain Message is its en text, for users of no listed language"),
            (["--title-for", "Neu"], "--title-for takes a language, = and the text, such as de=Neue Version"),
        ]
        for (options, refusal) in refusals {
            XCTAssertEqual(try session.run(["feed", "add", file.path, "--title", "T", "--message", "M"] + options),
                           ToolRun(status: 64, output: "", errorOutput: "herald: \(refusal)\nherald: see 'herald feed add --help'\n"), "\(options)")
            XCTAssertEqual(try Data(contentsOf: file), Data(before.utf8), "\(options): the feed is left byte for byte")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path + ".keys"))
    }

    /// A warning or a note does not keep a message out: it is added, and what validate will
    /// say of it is said at once.
    func testAddSaysTheWarningsAndNotesValidateWillGive() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let file = try write(session, "feed.json", "{\n}\n")
        XCTAssertEqual(try session.run(["feed", "add", file.path, "--key", "k", "--title", "T", "--message", "See www.example.org", "--urgency", "critical"]),
                       ToolRun(status: 0, output: "added k to \(file.path)\n", errorOutput: """
                        herald: 'k': warning: Message contains the link www.example.org: GNOME Shell makes it clickable outside Herald's link rules, \
                        and a click on it records no answer; put the link in ActionURL
                        herald: 'k': note: Urgency critical is shown as normal unless the app allows critical urgency

                        """))
        XCTAssertEqual(try session.run(["validate", file.path]).status, 0)
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
