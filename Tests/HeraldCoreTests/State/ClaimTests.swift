import Foundation
import HeraldCore
import XCTest

/// DESIGN.md D16: a claim holds a message or prompt until it lapses, or until the check that
/// made it has ended — whichever comes first. One rule, asked by the check's plan, the
/// attention budget and the person's inbox alike.
final class ClaimTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let claimant = Claimant(processID: 4242, check: "token.registry.1")

    func testAClaimHoldsBeforeItLapsesWhileItsCheckRuns() {
        let claim = claimant.claim(until: now.addingTimeInterval(1))
        XCTAssertTrue(claim.holds(at: now, isLive: { _ in true }))
    }

    func testAClaimHoldsNothingOnceItLapsedEvenWhileItsCheckRuns() {
        let claim = claimant.claim(until: now)
        XCTAssertFalse(claim.holds(at: now, isLive: { _ in true }))
        XCTAssertFalse(claim.holds(at: now.addingTimeInterval(60), isLive: { _ in true }))
    }

    func testAClaimHoldsNothingOnceItsCheckEnded() {
        let claim = claimant.claim(until: now.addingTimeInterval(3600))
        var asked: [HeraldState.Claim] = []
        XCTAssertFalse(claim.holds(at: now, isLive: { asked.append($0); return false }))
        XCTAssertEqual(asked, [claim])
    }

    func testClaimsOfOneCheckAreItsWhateverTheyLastAndNoOtherChecks() {
        let early = claimant.claim(until: now), late = claimant.claim(until: now.addingTimeInterval(600))
        XCTAssertTrue(early.isMade(bySameCheckAs: late))
        XCTAssertTrue(late.isHeld(by: claimant))
        XCTAssertFalse(late.isMade(bySameCheckAs: Claimant(processID: 4242, check: "token.registry.2").claim(until: now)))
        XCTAssertFalse(late.isMade(bySameCheckAs: Claimant(processID: 4243, check: claimant.check).claim(until: now)))
        XCTAssertFalse(late.isMade(bySameCheckAs: HeraldState.Claim(processID: 4242, check: nil, until: now)))
    }
}
