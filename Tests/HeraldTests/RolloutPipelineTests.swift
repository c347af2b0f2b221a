import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import HeraldTesting
import XCTest

/// A rollout through the whole check, install by install: each `Herald` draws its number at its
/// first check of a feed with a `Rollout`, keeps it in its state, and a rollout raised later
/// reaches more installs without showing the message again to those that answered it.
final class RolloutPipelineTests: XCTestCase {
    func testARolloutRaisedFrom20To50Over1000InstallsReachesHalfAndNeverShowsItTwice() throws {
        let file = try Fixtures.temporaryDirectory("herald-rollout").appendingPathComponent("feed.json")
        func publish(rollout: Int) throws {
            try Data(#"{"2027/01/01": {"Title": "Version 2", "Rollout": \#(rollout)}}"#.utf8).write(to: file)
        }
        try MainContext.assumeIsolated {
            let installs = try (0..<1000).map { _ in
                try CheckPipelineTests.pipeline(file.absoluteString)
            }
            var shown = [Int](repeating: 0, count: installs.count)
            for share in [20, 50] {
                try publish(rollout: share)
                for (index, install) in installs.enumerated() {
                    let (_, presenter, herald, recorder) = install
                    recorder.answer = "view"
                    let before = presenter.shown.count
                    recorder.run { herald.checkNow() }
                    shown[index] += presenter.shown.count - before
                }
                let reached = shown.filter { $0 > 0 }.count
                XCTAssertEqual(Double(reached), Double(share) * 10, accuracy: 50, "\(share) %: \(reached) of 1000 installs")
            }
            XCTAssertEqual(shown.max(), 1, "no install saw it twice")
            let draws = installs.compactMap { $0.0.state.rolloutDraw }
            XCTAssertEqual(draws.count, 1000, "every install keeps its draw")
            XCTAssertEqual(Set(draws).count, 1000, "each its own")
        }
    }
}
