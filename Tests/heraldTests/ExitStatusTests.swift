import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import XCTest
@testable import herald

/// One list of exit statuses (`ExitStatus`): the help, the manual and cli.md's table are written
/// from it, a check's failure maps onto it, and no other place in the sources writes a status's
/// number.
final class ExitStatusTests: XCTestCase {
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheStatusesAreSysexitsInOrderWithTheirNamesAndMeanings() {
        XCTAssertEqual(ExitStatus.table.map { "\($0.code) \($0.meaning)" }, [
            "0 done (also when nothing was due, or the check was deferred or muted)",
            "64 usage: an option or argument that cannot be used",
            "65 data: an unusable feed, prompts file, signature or registration",
            "66 no input: a named file cannot be read or is not a regular file",
            "69 unavailable: no notification server, or it refused the messages",
            "70 software: the system gave no randomness for a new key",
            "73 cannot create: the state, a cache, a feed or key file",
            "75 temporary failure: the feed could not be fetched, or a lock stayed held",
            "77 permission: a mute or budget ceiling the administrator set",
            "78 configuration: a key file (herald.conf) that cannot be used",
            "128+n stopped by signal n (130 SIGINT, 143 SIGTERM, 129 SIGHUP)",
        ])
        XCTAssertEqual(ExitStatus.stopped(by: SIGTERM), 143)
    }

    func testCliMarkdownsExitStatusTableIsTheOneTheStatusesWrite() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("desktop/docs/cli.md"), encoding: .utf8)
        let table = try XCTUnwrap(page.components(separatedBy: "<!-- exit-status -->\n").dropFirst().first?.components(separatedBy: "<!-- /exit-status -->").first)
        XCTAssertEqual(table, ExitStatus.markdownTable, "desktop/docs/cli.md's table, between its markers, is ExitStatus.markdownTable")
    }

    func testHeraldsHelpEndsWithTheTable() {
        XCTAssertTrue(HeraldCommand.help(for: HeraldCommand.self).hasSuffix("""

            EXIT STATUS:
              0      done (also when nothing was due, or the check was deferred or muted)
              64     usage: an option or argument that cannot be used
              65     data: an unusable feed, prompts file, signature or registration
              66     no input: a named file cannot be read or is not a regular file
              69     unavailable: no notification server, or it refused the messages
              70     software: the system gave no randomness for a new key
              73     cannot create: the state, a cache, a feed or key file
              75     temporary failure: the feed could not be fetched, or a lock stayed held
              77     permission: a mute or budget ceiling the administrator set
              78     configuration: a key file (herald.conf) that cannot be used
              128+n  stopped by signal n (130 SIGINT, 143 SIGTERM, 129 SIGHUP)

            """))
    }

    func testACommandsExitCodesAreNamedAsTheTableNamesThem() {
        XCTAssertEqual(ExitStatus.summary([.done, .usage, .noInput, .software, .configuration]),
                       "Exit codes: 0 done, 64 usage, 66 no input, 70 software, 78 configuration.")
        XCTAssertEqual(CheckCommand.configuration.discussion, RegisteredCheckCommand.usage + "\n\n"
                       + "Exit codes: 0 done, 64 usage, 65 data, 66 no input, 69 unavailable, 73 cannot create, 75 temporary failure, 78 configuration.")
    }

    func testAFailedCheckExitsWithTheStatusOfItsKindOfFailure() {
        let statuses: [(HeraldError, ExitStatus)] = [
            (.configuration("feed URL refused"), .usage),
            (.feed(.empty), .data),
            (.signature(.doesNotMatch), .data),
            (.noNotificationServer, .unavailable),
            (.presentation("refused"), .unavailable),
            (.libraryUnavailable("cannot load libsoup-3.0.so.0"), .unavailable),
            (.state(.locked(path: "/state.json", what: "the state", holder: nil, seconds: 60)), .temporaryFailure),
            (.state(.unwritable(path: "/state.json", reason: "Read-only file system")), .cannotCreate),
            (.fetch(.timedOut(seconds: 60)), .temporaryFailure),
            (.keyFile("herald.conf: line 1 is not a key"), .configuration),
        ]
        for (error, status) in statuses {
            XCTAssertEqual(ExitStatus(error), status, "\(error.kind)")
        }
    }

    /// A status's number is written only by `ExitStatus` (through sysexits.h's names), so a
    /// literal exit, `ExitCode(…)` or status number anywhere else in the sources is a second copy.
    func testNoSourceButExitStatusWritesAStatusNumber() throws {
        let literal = try NSRegularExpression(pattern: #"(\bExitCode|\bexit|_exit)\(\s*[0-9]|\bstatus( =|:) [0-9]|return (6[4-9]|7[0-8])\b|exitCode: \[?[0-9]"#)
        let sources = packageRoot.appendingPathComponent("Sources")
        var read = 0
        for case let path as String in FileManager.default.enumerator(atPath: sources.path)! where path.hasSuffix(".swift") && !path.hasSuffix("herald/ExitStatus.swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            read += 1
            for match in literal.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                XCTFail("\(path): \(text[Range(match.range, in: text)!]) writes an exit status's number; name an ExitStatus (or sysexits.h's EX_…) instead")
            }
        }
        XCTAssertGreaterThan(read, 100, "the sources were read")
    }
}
