import Foundation
@preconcurrency import Glibc
import Herald
import HeraldCore
import HeraldDesktop
import XCTest

/// DESIGN.md D16: a claim holds while the check that made it runs. Whose checks run is a
/// registry each `Herald` owns and hands to its checks, not a process-wide variable.
final class RunningChecksTests: XCTestCase {
    /// When the claims in these tests lapse: long after the tests run.
    static let until = Date(timeIntervalSince1970: 1_900_000_000)

    func testAClaimHoldsWhileItsCheckRunsAndNotOnceItEnded() {
        MainContext.assumeIsolated {
            let running = RunningChecks()
            let check = running.start()
            XCTAssertTrue(running.isLive(check.claim(until: Self.until)))
            running.ended(check)
            XCTAssertFalse(running.isLive(check.claim(until: Self.until)))
        }
    }

    func testEachCheckHasANameOfItsOwnAcrossTheHeraldsOfAProcess() {
        MainContext.assumeIsolated {
            let first = RunningChecks(), second = RunningChecks()
            let names = [first.start(), first.start(), second.start()].map(\.check)
            XCTAssertEqual(Set(names).count, 3)
        }
    }

    func testAClaimOfAnotherHeraldsRunningCheckInThisProcessHolds() {
        MainContext.assumeIsolated {
            let mine = RunningChecks(), other = RunningChecks()
            XCTAssertTrue(mine.isLive(other.start().claim(until: Self.until)))
        }
    }

    func testAClaimAnEarlierProcessWithThisProcessIDLeftDoesNotHold() {
        MainContext.assumeIsolated {
            let running = RunningChecks()
            XCTAssertFalse(running.isLive(HeraldState.Claim(processID: getpid(), check: "earlierprocess.x.1", until: Self.until)))
        }
    }

    func testAClaimOfAnotherProcessHoldsWhileThatProcessLives() {
        MainContext.assumeIsolated {
            let running = RunningChecks()
            XCTAssertTrue(running.isLive(HeraldState.Claim(processID: getppid(), check: "parent.x.1", until: Self.until)))
            XCTAssertFalse(running.isLive(HeraldState.Claim(processID: Int32.max, check: "gone.x.1", until: Self.until)))
        }
    }

    func testAClaimOfAProcessThatEndedAndWaitsForItsParentDoesNotHold() throws {
        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { free(arguments[0]) }
        XCTAssertEqual(posix_spawn(&child, "/bin/true", nil, nil, arguments, environ), 0)
        defer { var status: Int32 = 0; waitpid(child, &status, 0) }
        // Not waited for yet: once it has exited, the child is a zombie with its process id still taken.
        var info = siginfo_t()
        XCTAssertEqual(waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT), 0)
        MainContext.assumeIsolated {
            XCTAssertFalse(RunningChecks().isLive(HeraldState.Claim(processID: child, check: "child.x.1", until: Self.until)))
        }
    }
}
