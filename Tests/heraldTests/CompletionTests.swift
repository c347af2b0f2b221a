import ArgumentParser
import Foundation
import XCTest
@testable import herald

/// The shell completions offer file names where an argument is a file.
final class CompletionTests: XCTestCase {
    /// What bash's completion of `words` (the last one being completed) offers in `folder`.
    func bashCompletes(_ words: [String], in folder: URL) throws -> [String] {
        let script = folder.appendingPathComponent("herald.bash")
        try Data(HeraldCommand.completionScript(for: .bash).utf8).write(to: script)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.currentDirectoryURL = folder
        process.arguments = ["-c", """
            source herald.bash
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _herald herald "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testFeedKeyPromptsAndCAFileArgumentsCompleteFileNames() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("herald-completion-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent("feed.plist").path, contents: Data()))
        let cases: [[String]] = [
            ["herald", "check", "--feed", ""], ["herald", "check", "--prompts", ""], ["herald", "check", "--ca-file", ""],
            ["herald", "autostart", "enable", "--feed", ""], ["herald", "prompts", "--prompts", ""], ["herald", "validate", ""],
            ["herald", "feed", "sign", ""], ["herald", "feed", "sign", "feed.plist", "--private-key", ""], ["herald", "feed", "keygen", "--private-key", ""],
            ["herald", "feed", "add", ""], ["herald", "feed", "remove", ""], ["herald", "feed", "preview", ""], ["herald", "feed", "verify", ""],
        ]
        for words in cases {
            XCTAssertTrue(try bashCompletes(words, in: folder).contains("feed.plist"), "\(words.joined(separator: " ")) offers no file names")
        }
    }
}
