import Foundation
import HeraldTestSupport
import XCTest

/// The check's pipeline stays a set of rooms a reader takes in whole: one file per stage of a
/// check, none of them over 350 lines.
final class PipelineLayoutTests: XCTestCase {
    func testNoFileOfThePipelineIsLongerThan350Lines() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Sources/Herald/Pipeline")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertTrue(files.contains("Check.swift"), "the pipeline is read from \(folder.path)")
        var tooLong: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            if lines > 350 { tooLong.append("\(file): \(lines) lines") }
        }
        XCTAssertEqual(tooLong, [])
    }
}
