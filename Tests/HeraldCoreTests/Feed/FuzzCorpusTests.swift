import Foundation
import HeraldTestSupport
import XCTest

/// Rule: whatever bytes arrive, the feed and prompts decoders (and the signature split) return or
/// throw; they never crash, overflow the stack or run away with the time.
///
/// Every seed of the fuzzers (`Tests/Fuzz/corpus/<target>/`) and every input a fuzzer ever
/// crashed on (`Tests/Fuzz/crashes/<target>/`, written by `Tests/scripts/fuzz.sh`) goes through
/// `herald-fuzz`, the fuzz targets' replay build, which runs the target's `FuzzTarget.run` (the
/// same function the fuzzer calls). Each file runs in a child process of its own, with the
/// fuzzer's fixed hash seed, so that a decoder that still crashes or hangs fails this test, naming
/// the file, instead of ending (or stalling) the whole test run.
final class FuzzCorpusTests: XCTestCase {
    static let fuzzRoot = TestPaths.packageRoot.appendingPathComponent("Tests/Fuzz")
    /// Generous: a debug build; fixed decoders take milliseconds per file.
    static let secondsPerFile = 30.0

    func testEverySeedOfEveryFuzzTargetIsDecodedOrRefusedWithoutCrashing() throws {
        let files = try inputs(in: "corpus")
        XCTAssertGreaterThan(files.count, 50, "the seed corpus is missing: run Tests/Fuzz/make_corpus.py")
        try replay(files)
    }

    func testEveryInputAFuzzerCrashedOnIsNowDecodedOrRefused() throws {
        try replay(try inputs(in: "crashes"))
    }

    func testEveryFuzzTargetHasSeedsAndADictionary() throws {
        let listed = try run(["--list"]).output.split(separator: "\n").map(String.init)
        XCTAssertEqual(Set(listed), ["xml", "binary", "openstep", "json", "prompts", "signature"])
        let seeded = try subdirectories(of: "corpus")
        XCTAssertEqual(Set(seeded), Set(listed), "Tests/Fuzz/corpus/<target> for every target, and no other")
        for target in listed {
            XCTAssertFalse(try inputs(in: "corpus/\(target)").isEmpty, "no seeds for \(target)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.fuzzRoot.appendingPathComponent("dicts/\(target).dict").path),
                          "no dictionary for \(target)")
        }
        for target in try subdirectories(of: "crashes") {
            XCTAssertTrue(listed.contains(target), "Tests/Fuzz/crashes/\(target) names no fuzz target")
        }
    }

    // MARK: - Replaying

    private func replay(_ files: [URL], file: StaticString = #filePath, line: UInt = #line) throws {
        for input in files {
            let result = try run([input.path])
            let name = input.path.replacingOccurrences(of: TestPaths.packageRoot.path + "/", with: "")
            switch result.ending {
            case .exited(0):
                XCTAssertTrue(result.output.contains(": returned") || result.output.contains(": threw"),
                              "\(name): no outcome in \(result.output)", file: file, line: line)
            case .exited(let status):
                XCTFail("\(name): herald-fuzz exited \(status)\(Self.tail(of: result.errorOutput))", file: file, line: line)
            case .signalled(let signal):
                XCTFail("\(name) crashed the decoder (signal \(signal))\(Self.tail(of: result.errorOutput))", file: file, line: line)
            case .timedOut:
                XCTFail("\(name): the decoder did not return within \(Int(Self.secondsPerFile)) s", file: file, line: line)
            }
        }
    }

    /// The end of what the child said on standard error, if anything.
    private static func tail(of errorOutput: String) -> String {
        errorOutput.isEmpty ? "" : ": " + errorOutput.suffix(600)
    }

    private enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
    }

    /// Runs the replay build of `herald-fuzz` with `arguments`, killing it after the time limit.
    private func run(_ arguments: [String]) throws -> (ending: Ending, output: String, errorOutput: String) {
        let executable = TestPaths.product("herald-fuzz")
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestSetupError("no herald-fuzz at \(executable): build it with `swift build --build-tests`")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        // A crash is reported by its exit; the runtime's backtracer would only make it slow.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // Dictionary order decides a decoder's path; the fuzzer runs with this fixed seed too
        // (Tests/scripts/fuzz.sh), so a saved input takes the path it crashed on.
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        let child = try ChildProcess(executable, arguments, environment: environment, directory: directory, name: "replay")
        let finished = eventually(within: Self.secondsPerFile) { !child.process.isRunning }
        if !finished {
            child.signal(SIGKILL)
            child.process.waitUntilExit()
            return (.timedOut, child.output, child.errorOutput)
        }
        child.process.waitUntilExit()
        let ending: Ending = child.process.terminationReason == .uncaughtSignal
            ? .signalled(child.process.terminationStatus) : .exited(child.process.terminationStatus)
        return (ending, child.output, child.errorOutput)
    }

    // MARK: - Files

    /// The regular files under `Tests/Fuzz/<folder>`, at any depth, sorted; none when it is absent.
    private func inputs(in folder: String) throws -> [URL] {
        let root = Self.fuzzRoot.appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles]) else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }

    private func subdirectories(of folder: String) throws -> [String] {
        let root = Self.fuzzRoot.appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: root.path).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }
}
