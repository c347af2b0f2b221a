import Foundation
import HeraldTestSupport
import XCTest

/// Nothing from a feed reaches a terminal raw: every line `herald` prints shows escape
/// sequences, carriage returns, line separators and bidi overrides as escapes (`\u001B`,
/// `\r`, `\u202E`), so a feed cannot clear the screen, set the window's title, forge a line or
/// reverse one; JSON lines escape the same characters and stay JSON.
final class TerminalTextTests: XCTestCase {
    let appID = "org.example.Terminal"

    /// An id that would reverse what follows and forge a `muted: no` line (an id with a control
    /// character, an escape or a line feed, is refused at decode), a title that would set the
    /// window's title, ring the bell, go back to the line's start, reverse what follows, break the
    /// line three ways and delete; a message that would turn the terminal red.
    static let hostileKey = "a\u{202E}[2J\u{2028}muted: no"
    static let hostileTitle = "T\u{1B}]0;pwned\u{7}itle\r\u{202E}evil\u{2028}x\u{85}y\u{7F}z\u{2029}"
    static let feed = #"{"a\u202e[2J\u2028muted: no": {"Title": "T\u001b]0;pwned\u0007itle\r\u202eevil\u2028x\u0085y\u007fz\u2029", "Message": "m\u001b[31mred"}}"#

    /// The id and title as the tool prints them.
    static let visibleKey = #"a\u202E[2J\u2028muted: no"#
    static let visibleTitle = #"T\u001B]0;pwned\u0007itle\r\u202Eevil\u2028x\u0085y\u007Fz\u2029"#

    /// The characters no output may hold raw; a line break only ends a line.
    static func assertNothingRaw(_ output: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let raw = output.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: return false
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
        XCTAssertEqual(raw.map { String($0.value, radix: 16) }, [], "\(name) printed raw: \(output)", file: file, line: line)
    }

    func writeFeed(_ session: DesktopSession) throws -> String {
        let url = session.directory.appendingPathComponent("feed.json")
        try Data(Self.feed.utf8).write(to: url)
        return url.path
    }

    func testValidatePrintsAFeedsIdAndTitleWithTheirControlCharactersEscaped() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = try writeFeed(session)
        let run = try session.run(["validate", feed])
        XCTAssertEqual(run.status, 0, run.description)
        Self.assertNothingRaw(run.output + run.errorOutput, "validate")
        XCTAssertEqual(run.output.split(separator: "\n").map(String.init), [
            "\(feed): json, 1 message, newest first:",
            "  \(Self.visibleKey)  \(Self.visibleTitle)",
            "no problems found",
        ])
    }

    func testExplainPrintsOneLinePerMessageAndJSONThatReadsBackAsTheFeedsText() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let feed = try writeFeed(session)
        let text = try session.run(["check", "--explain", "--feed", feed, "--app-id", appID, "--force"])
        XCTAssertEqual(text.status, 0, text.description)
        Self.assertNothingRaw(text.output + text.errorOutput, "check --explain")
        XCTAssertEqual(text.output, "\(Self.visibleKey)  \(Self.visibleTitle): shows\n")

        let json = try session.run(["check", "--explain", "--json", "--feed", feed, "--app-id", appID, "--force"])
        XCTAssertEqual(json.status, 0, json.description)
        Self.assertNothingRaw(json.output + json.errorOutput, "check --explain --json")
        let lines = json.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, json.output)
        let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(event["key"] as? String, Self.hostileKey)
        XCTAssertEqual(event["title"] as? String, Self.hostileTitle)
    }

    func testCheckPrintsWhatItShowsEscapedAndItsShownEventCarriesTheTextTheServerGot() throws {
        // Without actions, showing is the answer, so the check ends once it has shown.
        let session = try DesktopSession(capabilities: "body")
        let feed = try writeFeed(session)
        let text = try session.run(["check", "--feed", feed, "--app-id", appID, "--force"])
        XCTAssertEqual(text.status, 0, text.description)
        Self.assertNothingRaw(text.output + text.errorOutput, "check")
        let summary = try XCTUnwrap(try session.notifyCalls().first?.summary)
        XCTAssertEqual(summary, "T]0;pwneditle evil x yz", "what the server got: controls removed, breaks made spaces")
        XCTAssertTrue(text.output.split(separator: "\n").contains("shown \(Self.visibleKey): \(summary)"), text.output)

        let again = try session.run(["check", "--json", "--feed", feed, "--app-id", appID + "2", "--force"])
        XCTAssertEqual(again.status, 0, again.description)
        Self.assertNothingRaw(again.output + again.errorOutput, "check --json")
        let shown = again.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "shown" }
        XCTAssertEqual(shown.count, 1, again.output)
        XCTAssertEqual(shown.first?["key"] as? String, Self.hostileKey)
        XCTAssertEqual(shown.first?["title"] as? String, summary)
    }

    func testStateShowsAnIdThatHoldsALineBreakOnOneLineSoItCannotForgeTheMutedLine() throws {
        let session = try DesktopSession(capabilities: "body")
        let feed = try writeFeed(session)
        XCTAssertEqual(try session.run(["check", "--feed", feed, "--app-id", appID, "--force"]).status, 0)
        let run = try session.run(["state", "--app-id", appID])
        XCTAssertEqual(run.status, 0, run.description)
        Self.assertNothingRaw(run.output + run.errorOutput, "state")
        let lines = run.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("muted:") }, ["muted: no"])
        XCTAssertTrue(lines.contains("viewed: \(Self.visibleKey)"), run.output)

        let json = try session.run(["state", "--app-id", appID, "--json"])
        XCTAssertEqual(json.status, 0, json.description)
        Self.assertNothingRaw(json.output + json.errorOutput, "state --json")
        let state = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        XCTAssertEqual(state["viewed"] as? [String], [Self.hostileKey])
    }
}
