import Foundation
import XCTest
@testable import herald

/// One table of exit codes: every code the program exits with is in `ExitStatus.table`, and the
/// codes a command's help names are read from it.
final class ExitStatusTests: XCTestCase {
    func testEveryExitCodeTheProgramThrowsIsInTheTable() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/herald")
        let codes = Set(ExitStatus.table.map(\.code))
        let literal = try NSRegularExpression(pattern: #"ExitCode\(([0-9]+)\)"#)
        var found = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            for match in literal.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let code = String(text[Range(match.range(at: 1), in: text)!])
                found += 1
                XCTAssertTrue(codes.contains(code), "\(name): ExitCode(\(code)) is not in ExitStatus.table")
            }
        }
        XCTAssertGreaterThan(found, 30, "the sources were read")
    }

    func testACommandsExitCodesAreNamedAsTheTableNamesThem() {
        XCTAssertEqual(ExitStatus.summary([0, 64, 66, 70, 78]), "Exit codes: 0 done, 64 usage, 66 no input, 70 software, 78 configuration.")
        XCTAssertEqual(CheckCommand.configuration.discussion,
                       "Exit codes: 0 done, 64 usage, 65 data, 66 no input, 69 unavailable, 73 cannot create, 75 temporary failure, 78 configuration.")
    }
}
