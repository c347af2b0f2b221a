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
}
