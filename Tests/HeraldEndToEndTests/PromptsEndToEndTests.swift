import Foundation
import HeraldTestSupport
import XCTest

/// `herald prompts` against a private session bus and python3-dbusmock: iPrompt's launch-count
/// and days-of-use prompts as desktop notifications.
final class PromptsEndToEndTests: XCTestCase {
    let appID = "org.example.Prompted"

    func writePrompts(_ session: DesktopSession, _ json: String) throws -> String {
        let path = session.directory.appendingPathComponent("prompts.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func launch(_ session: DesktopSession, _ file: String, wait: String = "20", verbose: Bool = false,
                environment: [String: String] = [:]) throws -> ChildProcess {
        try session.herald(["prompts", "--app-id", appID, "--prompts", file, "--json", "--wait", wait] + (verbose ? ["--verbose"] : []),
                           environment: environment)
    }

    func events(_ run: ChildProcess, _ name: String) -> [[String: Any]] {
        run.events.filter { $0["event"] as? String == name }
    }

    func shownID(_ run: ChildProcess, _ name: String) throws -> Int {
        XCTAssertTrue(eventually { events(run, "prompt-shown").contains { $0["prompt"] as? String == name } }, run.output + run.errorOutput)
        return try XCTUnwrap(events(run, "prompt-shown").first { $0["prompt"] as? String == name }?["id"] as? Int)
    }

    func promptState(_ session: DesktopSession, _ name: String) throws -> [String: Any] {
        (try session.state(appID: appID)["prompts"] as? [String: [String: Any]])?[name] ?? [:]
    }

    func testAPromptsFileWithNothingUsableIsReportedAndExitsAtOnce() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        for (contents, problems) in [("{}", [String]()), (#"{"defaults": {"usesUntilPrompt": 1}}"#, []),
                                     (#"{"bad": {"title": "T", "usesUntilPrompt": -1}}"#, ["prompt 'bad'"])] {
            let file = try writePrompts(session, contents)
            let started = Date()
            let run = try launch(session, file, wait: "10")
            XCTAssertEqual(run.wait(seconds: 20), 65, contents)
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(contents): it does not wait the 10 s for answers that cannot come")
            let lines = run.errorOutput.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.last, "herald: \(file): holds no usable prompt", contents)
            XCTAssertEqual(lines.count, problems.count + 1, run.errorOutput)
            for (line, problem) in zip(lines, problems) { XCTAssertTrue(line.contains(problem), line) }
        }
    }

    func testAPromptsFileThatIsAFIFOOrTooLargeIsRefusedAtOnceWithoutReadingIt() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let fifo = session.directory.appendingPathComponent("prompts.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let huge = session.directory.appendingPathComponent("huge.json").path
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: nil))
        XCTAssertEqual(truncate(huge, off_t(5 << 20)), 0)
        for (file, reason) in [(fifo, "it is a FIFO, not a regular file"), (huge, "it is 5 MiB, more than the 4 MiB Herald reads of such a file")] {
            for arguments in [["prompts", "--app-id", appID, "--prompts", file, "--wait", "10"],
                              ["check", "--feed", "https://127.0.0.1:9/feed.plist", "--app-id", appID, "--prompts", file, "--wait", "10"]] {
                let started = Date()
                let run = try session.herald(arguments)
                XCTAssertEqual(run.wait(seconds: 20), 65, "\(arguments)")
                XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(arguments): a FIFO nobody writes to is not waited on")
                XCTAssertEqual(run.errorOutput, "herald: cannot read the prompts file \(file): \(reason)\n", "\(arguments)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.environment["XDG_STATE_HOME"]! + "/herald/\(appID).json"))
    }

    func testPromptBecomesDueOnTheThirdLaunchAndCancelEndsIt() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"{"pro": {"title": "Go Pro", "message": "More features", "usesUntilPrompt": 3, "daysUntilPrompt": 0, "cancelButton": "No thanks"}}"#)
        for expected in ["waits: 1 of 3 uses", "waits: 2 of 3 uses"] {
            let run = try launch(session, file, wait: "0.5")
            XCTAssertEqual(run.wait(), 0)
            XCTAssertEqual(events(run, "prompt-decision").first?["detail"] as? String, expected)
        }
        let third = try launch(session, file)
        let id = try shownID(third, "pro")
        let call = try XCTUnwrap(try session.notifyCalls().last)
        XCTAssertEqual(call.summary, "Go Pro")
        XCTAssertEqual(call.actions.map(\.id), ["default", "action", "remind", "cancel"])
        XCTAssertEqual(call.actions.last?.label, "No thanks")
        try session.invoke("cancel", on: id)
        XCTAssertEqual(third.wait(), 0)
        XCTAssertEqual(events(third, "prompt-answered").first?["button"] as? String, "cancel")
        XCTAssertEqual(try promptState(session, "pro")["cancelled"] as? Bool, true)
        let fourth = try launch(session, file, wait: "0.5")
        XCTAssertEqual(fourth.wait(), 0)
        XCTAssertEqual(events(fourth, "prompt-decision").first?["detail"] as? String, "is done: cancelled")
    }

    func testRemindWaitsTheRemindPeriod() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"{"rate": {"title": "Rate us", "usesUntilPrompt": 1, "daysUntilPrompt": 0, "remindPeriod": 1}}"#)
        let first = try launch(session, file)
        try session.invoke("remind", on: try shownID(first, "rate"))
        XCTAssertEqual(first.wait(), 0)
        XCTAssertNotNil(try promptState(session, "rate")["lastReminded"])
        let second = try launch(session, file, wait: "0.5")
        XCTAssertEqual(second.wait(), 0)
        XCTAssertTrue((events(second, "prompt-decision").first?["detail"] as? String ?? "").hasPrefix("waits: reminded 0 h ago, remind period 1 day"))
    }

    func testRecurringPromptComesBackAfterTheActionAndOpensItsLink() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"{"sync": {"title": "Try sync", "usesUntilPrompt": "1", "daysUntilPrompt": "0", "remindPeriod": 0, "recurring": true, "actionURL": "https://example.com/sync"}}"#)
        let first = try launch(session, file)
        try session.invoke("default", on: try shownID(first, "sync"))
        XCTAssertEqual(first.wait(), 0)
        XCTAssertEqual(events(first, "prompt-answered").first?["button"] as? String, "action")
        XCTAssertTrue(eventually { session.openedLinks == ["https://example.com/sync"] })
        XCTAssertEqual(try promptState(session, "sync")["viewed"] as? Bool, false)
        let second = try launch(session, file, wait: "0.5")
        XCTAssertEqual(second.wait(), 0)
        XCTAssertEqual(events(second, "prompt-shown").count, 1, "recurring: shown again")
    }

    func testPreviewModeShowsOnEveryLaunch() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"{"new": {"title": "Preview", "previewMode": true}}"#)
        for _ in 0..<2 {
            let run = try launch(session, file)
            try session.invoke("action", on: try shownID(run, "new"))
            XCTAssertEqual(run.wait(), 0)
            XCTAssertEqual(events(run, "prompt-decision").first?["decision"] as? String, "preview")
        }
        XCTAssertEqual(try session.notifyCalls().count, 2)
    }

    func testDefaultsEntryIsInheritedAndLabelsAreGerman() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"{"defaults": {"usesUntilPrompt": 1, "daysUntilPrompt": 0, "cancelButton": "Nie"}, "a": {"title": "A"}}"#)
        let run = try launch(session, file, wait: "0.5", environment: ["LANG": "de_DE.UTF-8"])
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(try session.notifyCalls().first?.actions.map(\.label), ["OK", "OK", "Mich später erinnern", "Nie"])
    }

    func testDismissedPromptCountsAsRemindLater() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"{"a": {"title": "A", "usesUntilPrompt": 1, "daysUntilPrompt": 0}}"#)
        let run = try launch(session, file)
        try session.close(try shownID(run, "a"), reason: 2)
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(events(run, "prompt-closed").first?["reason"] as? String, "dismissed")
        XCTAssertNotNil(try promptState(session, "a")["lastReminded"])
    }

    func testBadPromptIsNamedWithItsKeyAndTheOthersStillShow() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"{"bad": {"title": "B", "usesUntilPrompt": [1]}, "good": {"title": "G", "usesUntilPrompt": 1, "daysUntilPrompt": 0, "colour": "red"}}"#)
        let run = try launch(session, file, wait: "0.5")
        XCTAssertEqual(run.wait(), 0)
        XCTAssertTrue(run.errorOutput.contains("prompt 'bad', key 'usesUntilPrompt': is a array"), run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains("prompt 'good', key 'colour': is not a prompt setting (key ignored)"), run.errorOutput)
        XCTAssertEqual(events(run, "prompt-shown").compactMap { $0["prompt"] as? String }, ["good"])
    }

    func testPromptsFileWhoseRootIsNotADictionaryExits65() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"["not", "prompts"]"#)
        let run = try launch(session, file)
        XCTAssertEqual(run.wait(), 65)
        XCTAssertTrue(run.errorOutput.contains("root is an array"), run.errorOutput)
    }

    func testVerboseExplainsEachDecisionInOneLine() throws {
        let session = try DesktopSession()
        let file = try writePrompts(session, #"{"pro": {"title": "P", "usesUntilPrompt": 10, "daysUntilPrompt": 0}, "rate": {"title": "R", "daysUntilPrompt": 3}}"#)
        let result = try session.heraldToCompletion(["prompts", "--app-id", appID, "--prompts", file, "--verbose", "--wait", "0.5"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("'pro' waits: 1 of 10 uses"), result.output)
        XCTAssertTrue(result.output.contains("'rate' waits: used for 0 days of 3 days"), result.output)
    }

    func testPromptsShowAfterTheFeedsMessages() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "Feed message"]]))
        let file = try writePrompts(session, #"{"p": {"title": "Prompt", "usesUntilPrompt": 1, "daysUntilPrompt": 0}}"#)
        let run = try session.herald(["check", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch",
                                      "--prompts", file, "--wait", "0.5", "--json"])
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Feed message", "Prompt"])
        let state = try session.heraldToCompletion(["state", "--app-id", appID])
        XCTAssertTrue(state.output.contains("prompt 'p': 1 uses since"), state.output)
    }
}
