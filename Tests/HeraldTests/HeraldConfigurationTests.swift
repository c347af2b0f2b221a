import Herald
import HeraldCore
import HeraldDesktop
import XCTest

/// `Herald.Configuration`'s durations are `Duration`s, with iNotify's defaults, and it checks
/// its own numbers (`validate()`).
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

    /// The buttons speak the language the targeting sees: a configuration reads the user's
    /// languages once, and its labels come from the very languages its audience holds.
    func testTheButtonsSpeakTheLanguageOfTheTargetingsAudience() {
        let given = Herald.Configuration(feedURL: nil, appID: "org.example.App", appVersion: "1",
                                         check: CheckConfiguration(audience: Audience(languages: ["de"])),
                                         environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertEqual(given.check.audience?.languages, ["de"])
        XCTAssertEqual(given.labels, Labels.translations["de"], "the audience's German, not the environment's French")

        let read = Herald.Configuration(feedURL: nil, appID: "org.example.App", appVersion: "1",
                                        environment: ["LANGUAGE": "eo:pt:de", "LANG": "it_IT.UTF-8"])
        XCTAssertEqual(read.check.audience?.languages, ["eo", "pt", "de"])
        XCTAssertEqual(read.labels, Labels.translations["de"], "the first of the targeting's languages with labels")
    }

    /// An audience an app sets after creating its configuration moves the buttons with it, and
    /// labels the app sets stay as set.
    func testTheButtonsFollowAnAudienceSetAfterCreation() {
        var configuration = Herald.Configuration(feedURL: nil, appID: "org.example.App", appVersion: "1",
                                                 environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertEqual(configuration.labels, Labels.translations["fr"])
        configuration.check.audience = Audience(languages: ["ja"])
        XCTAssertEqual(configuration.labels, Labels.translations["ja"], "the targeting's Japanese, not the French read at creation")

        let own = Labels(ok: "Yes", ignore: "No", remind: "", moreInfo: "Read")
        configuration.labels = own
        configuration.check.audience = Audience(languages: ["it"])
        XCTAssertEqual(configuration.labels, own)
    }

    func testAConfigurationValidatesItsNumbersNamingItsOwnFields() {
        var configuration = Herald.Configuration(feedURL: "https://example.com/feed.plist", appID: "org.example.App", appVersion: "1",
                                                 waitLimit: .seconds(600), environment: [:])
        XCTAssertEqual(configuration.problems, [])
        XCTAssertNoThrow(try configuration.validate())
        configuration.timeout = .zero
        configuration.waitLimit = .seconds(7 * 86_400 + 1)
        XCTAssertEqual(configuration.problems.map(\.description), [
            "timeout must be more than 0 and at most 3600 seconds, not 0",
            "waitLimit must be more than 0 and at most 604800 seconds, not 604801",
        ])
        XCTAssertThrowsError(try configuration.validate()) { error in
            XCTAssertEqual(error as? HeraldError, .configuration("timeout must be more than 0 and at most 3600 seconds, not 0"), "the first problem")
        }
        configuration.timeout = .seconds(3_600)
        configuration.waitLimit = nil
        XCTAssertEqual(configuration.problems, [], "the longest timeout, and no wait limit")
    }

    func testAConfigurationsLongestTimeoutIsTheFetchersLongest() {
        XCTAssertEqual(Herald.Configuration.range(of: .timeout).upper, FeedFetcher.longestTimeout)
        XCTAssertEqual(Herald.Configuration.problem(.timeout, seconds: FeedFetcher.longestTimeout), nil)
        XCTAssertEqual(Herald.Configuration.problem(.timeout, seconds: .nan)?.description, "timeout must be more than 0 and at most 3600 seconds, not nan")
    }
}
