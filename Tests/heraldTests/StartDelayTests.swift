import HeraldFleet
import XCTest
@testable import herald

/// The random wait before a login check (DESIGN.md D19), drawn by the tool, and drawn the same
/// way by the fleet simulation that models its login entries (whose repeatable generator the
/// tests draw with).
final class StartDelayTests: XCTestCase {
    func testLoginChecksSpreadOverTheWholeDelayWindow() {
        var generator = FleetRandom(seed: 42, install: 0)
        let delays = (0..<1000).map { _ in StartDelay.seconds(upTo: 120, using: &generator) }
        XCTAssertTrue(delays.allSatisfy { $0 >= 0 && $0 <= 120 })
        XCTAssertLessThan(delays.min()!, 10)
        XCTAssertGreaterThan(delays.max()!, 110)
        let firstMinute = delays.filter { $0 < 60 }.count
        XCTAssertTrue((400...600).contains(firstMinute), "about half in each half: \(firstMinute)")
    }

    func testNoDelayAsksForNoWait() {
        var generator = FleetRandom(seed: 1, install: 0)
        XCTAssertEqual(StartDelay.seconds(upTo: 0, using: &generator), 0)
    }

    func testTheFleetSimulationWaitsAsTheLoginEntryItModels() {
        XCTAssertEqual(FleetScenario.autostartStartDelay, StartDelay.loginDefault)
        for limit in [0, 0.5, 120, 86_400] {
            var tool = FleetRandom(seed: 7, install: 0), fleet = FleetRandom(seed: 7, install: 0)
            let drawn = (0..<100).map { _ in StartDelay.seconds(upTo: limit, using: &tool) }
            XCTAssertEqual((0..<100).map { _ in SessionPattern.loginDelay(upTo: limit, using: &fleet) }, drawn, "\(limit)")
        }
    }
}
