import Herald
import XCTest

/// `Herald.Configuration`'s durations are `Duration`s, with iNotify's defaults.
final class HeraldConfigurationTests: XCTestCase {
    func testDurationsDefaultToAMinutesFetchNoWaitLimitAndINotifysPeriods() {
        let configuration = Herald.Configuration(feedURL: "https://example.com/feed.plist", appID: "org.example.App", appVersion: "1",
                                                 environment: [:])
        XCTAssertEqual(configuration.timeout, .seconds(60))
        XCTAssertNil(configuration.waitLimit, "waits as long as the app runs")
        XCTAssertEqual(configuration.check.checkPeriod, .seconds(12 * 3600), "12 hours")
        XCTAssertEqual(configuration.check.remindPeriod, .seconds(24 * 3600), "1 day")
    }

    func testDurationsGivenInAnyUnitAreKeptAsGiven() {
        let configuration = Herald.Configuration(
            feedURL: "https://example.com/feed.plist", appID: "org.example.App", appVersion: "1",
            check: CheckConfiguration(checkPeriod: .seconds(3 * 86_400), remindPeriod: .milliseconds(90 * 60_000)),
            timeout: .milliseconds(2_500), waitLimit: .seconds(90), environment: [:])
        XCTAssertEqual(configuration.timeout.seconds, 2.5)
        XCTAssertEqual(configuration.waitLimit, .seconds(90))
        XCTAssertEqual(configuration.check.checkPeriod, .seconds(259_200))
        XCTAssertEqual(configuration.check.remindPeriod, .seconds(5_400))
    }
}
