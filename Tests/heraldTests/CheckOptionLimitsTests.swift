import Herald
import XCTest
@testable import herald

/// The ranges of `herald check`'s numbers are the tool's, but for `--timeout` and `--wait`,
/// which set fields of `Herald.Configuration` and take its ranges: the configuration's problem
/// is said as the option's refusal.
final class CheckOptionLimitsTests: XCTestCase {
    func testTimeoutMustBeFiniteAndAtMostAnHour() {
        XCTAssertEqual(CheckOptionLimits.timeoutRefusal(4_294_967_296), "--timeout must be more than 0 and at most 3600 seconds, not 4294967296")
        XCTAssertEqual(CheckOptionLimits.timeoutRefusal(.infinity), "--timeout must be more than 0 and at most 3600 seconds, not inf")
        XCTAssertEqual(CheckOptionLimits.timeoutRefusal(.nan), "--timeout must be more than 0 and at most 3600 seconds, not nan")
        XCTAssertEqual(CheckOptionLimits.timeoutRefusal(0), "--timeout must be more than 0 and at most 3600 seconds, not 0")
        XCTAssertNil(CheckOptionLimits.timeoutRefusal(3_600))
        XCTAssertNil(CheckOptionLimits.timeoutRefusal(0.5))
    }

    func testWaitStartDelayServerWaitPeriodsAndMaxHaveLimits() {
        XCTAssertEqual(CheckOptionLimits.waitRefusal(1e9), "--wait must be more than 0 and at most 604800 seconds, not 1000000000")
        XCTAssertNil(CheckOptionLimits.waitRefusal(604_800))
        XCTAssertEqual(CheckOptionLimits.startDelayRefusal(.infinity), "--start-delay must be from 0 to 86400 seconds, not inf")
        XCTAssertEqual(CheckOptionLimits.startDelayRefusal(-1), "--start-delay must be from 0 to 86400 seconds, not -1")
        XCTAssertNil(CheckOptionLimits.startDelayRefusal(0))
        XCTAssertEqual(CheckOptionLimits.serverWaitRefusal(601), "--server-wait must be from 0 to 600 seconds, not 601")
        XCTAssertNil(CheckOptionLimits.serverWaitRefusal(0))
        XCTAssertEqual(CheckOptionLimits.periodRefusal("--check-period", 3_650.5), "--check-period must be from 0 to 3650 days, not 3650.5")
        XCTAssertEqual(CheckOptionLimits.periodRefusal("--remind-period", -.infinity), "--remind-period must be from 0 to 3650 days, not -inf")
        XCTAssertNil(CheckOptionLimits.periodRefusal("--check-period", 0))
        XCTAssertEqual(CheckOptionLimits.maxRefusal(0), "--max must be at least 1")
        XCTAssertNil(CheckOptionLimits.maxRefusal(1))
    }

    func testEachProblemOfTheConfigurationIsSaidOfTheOptionThatSetsItsField() {
        var line = CheckCommandLine(feed: "https://example.org/feed.plist", appID: "org.example.App")
        line.timeout = 0
        line.wait = .infinity
        var configuration = Herald.Configuration(feedURL: line.feed, appID: line.appID, appVersion: nil, environment: [:])
        configuration.timeout = .zero
        configuration.waitLimit = .seconds(Int64.max)
        XCTAssertEqual(configuration.problems.map(CheckOptionLimits.refusal), [
            "--timeout must be more than 0 and at most 3600 seconds, not 0",
            "--wait must be more than 0 and at most 604800 seconds, not 9.223372036854776e+18",
        ])
        XCTAssertEqual(line.numberRefusal, "--wait must be more than 0 and at most 604800 seconds, not inf", "the options in the order the parser validates them")
        XCTAssertEqual(Herald.Configuration.Problem.Field.allCases.map(CheckOptionLimits.option(for:)), ["--timeout", "--wait"])
    }
}
