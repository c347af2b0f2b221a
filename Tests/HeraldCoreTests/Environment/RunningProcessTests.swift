import Foundation
import Glibc
import HeraldCore
import XCTest

/// A process is known by its PID and its start time, and a zombie is no running process.
final class RunningProcessTests: XCTestCase {
    /// A `/proc/PID/stat` line: `state` is field 3, `startTime` field 22, after a command that
    /// holds spaces and parentheses.
    private func stat(state: String, startTime: UInt64) -> String {
        "77 (my (odd) name) " + ([state] + Array(repeating: "0", count: 18) + ["\(startTime)"] + Array(repeating: "0", count: 30)).joined(separator: " ") + "\n"
    }

    func testTheStartTimeIsField22CountedAfterTheCommand() {
        XCTAssertEqual(RunningProcess.parse(stat: stat(state: "S", startTime: 4242)), RunningProcess(startTime: 4242))
        XCTAssertEqual(RunningProcess.parse(stat: stat(state: "R", startTime: 1)), RunningProcess(startTime: 1))
        XCTAssertEqual(RunningProcess.parse(stat: "something else"), RunningProcess(startTime: nil))
    }

    func testAZombieOrADeadProcessIsNotRunning() {
        XCTAssertNil(RunningProcess.parse(stat: stat(state: "Z", startTime: 4242)))
        XCTAssertNil(RunningProcess.parse(stat: stat(state: "X", startTime: 4242)))
    }

    func testThisProcessIsFoundWithItsStartTimeAndAnEndedChildIsNotEvenBeforeItIsReaped() throws {
        let own = try XCTUnwrap(RunningProcess.find(getpid()))
        XCTAssertNotNil(own.startTime)
        XCTAssertEqual(own, RunningProcess.find(getpid()), "the same process, the same start time")
        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { arguments.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&child, "/bin/true", nil, nil, arguments, environ), 0)
        // Not reaped yet: a zombie, whose PID is still taken.
        var zombie = false
        for _ in 0..<200 where !zombie {
            usleep(10_000)
            zombie = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.contains(") Z ") ?? false
        }
        XCTAssertTrue(zombie)
        XCTAssertNil(RunningProcess.find(child), "a zombie")
        var status: Int32 = 0
        waitpid(child, &status, 0)
        XCTAssertNil(RunningProcess.find(child), "gone")
        XCTAssertNil(RunningProcess.find(0))
    }
}
