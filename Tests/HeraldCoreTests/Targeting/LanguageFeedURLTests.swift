import HeraldCore
import XCTest

/// `{lang}` in a feed URL: which URLs are asked, in which order, and what the last one is.
final class LanguageFeedURLTests: XCTestCase {
    func testEachLanguageIsAskedInGettextOrderThenTheURLWithoutOne() {
        XCTAssertEqual(LanguageFeedURL.candidates(for: "https://example.com/messages.{lang}.plist", languages: ["de_AT", "de"]), [
            "https://example.com/messages.de_AT.plist", "https://example.com/messages.de.plist", "https://example.com/messages.plist",
        ])
    }

    func testTheSeparatorBeforeThePlaceholderGoesWithItInTheFallback() {
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/messages.{lang}.plist"), "https://example.com/messages.plist")
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/messages-{lang}.json"), "https://example.com/messages.json")
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/messages_{lang}.json"), "https://example.com/messages.json")
    }

    func testAWholePathSegmentGoesWithItsSlash() {
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/{lang}/feed.plist"), "https://example.com/feed.plist")
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/feeds/{lang}"), "https://example.com/feeds")
    }

    func testAtTheStartOfASegmentOrHostTheSeparatorAfterItGoes() {
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/{lang}-feed.plist"), "https://example.com/feed.plist")
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://{lang}.example.com/feed.plist"), "https://example.com/feed.plist")
    }

    func testAQueryParameterOfThePlaceholderGoesWhole() {
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/feed.plist?lang={lang}"), "https://example.com/feed.plist")
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/feed.plist?lang={lang}&v=2"), "https://example.com/feed.plist?v=2")
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/feed.plist?v=2&lang={lang}"), "https://example.com/feed.plist?v=2")
        XCTAssertEqual(LanguageFeedURL.fallback(of: "https://example.com/feed.plist?v=2&lang={lang}&w=3"), "https://example.com/feed.plist?v=2&w=3")
    }

    func testThePercentEncodedPlaceholderOfAPathIsAPlaceholderToo() {
        let template = "file:///srv/feeds/messages.%7Blang%7D.plist"
        XCTAssertTrue(LanguageFeedURL.isTemplate(template))
        XCTAssertEqual(LanguageFeedURL.candidates(for: template, languages: ["fr"]),
                       ["file:///srv/feeds/messages.fr.plist", "file:///srv/feeds/messages.plist"])
    }

    func testWithoutLanguagesOnlyTheFallbackIsAsked() {
        XCTAssertEqual(LanguageFeedURL.candidates(for: "https://example.com/messages.{lang}.plist", languages: []),
                       ["https://example.com/messages.plist"])
    }

    func testANameThatIsNotALanguageCodeNeverReachesTheURL() {
        XCTAssertEqual(LanguageFeedURL.candidates(for: "https://example.com/{lang}/feed.plist", languages: ["../admin", "de", "x y"]),
                       ["https://example.com/de/feed.plist", "https://example.com/feed.plist"])
    }

    func testAURLWithoutThePlaceholderIsItsOwnOnlyCandidate() {
        XCTAssertFalse(LanguageFeedURL.isTemplate("https://example.com/messages.plist"))
        XCTAssertEqual(LanguageFeedURL.candidates(for: "https://example.com/messages.plist", languages: ["de"]), ["https://example.com/messages.plist"])
    }

    func testTheURLRulesJudgeATemplateByTheURLsItStandsFor() {
        let rules = URLRules()
        XCTAssertNil(rules.feedURLRefusal("https://example.com/messages.{lang}.plist"))
        XCTAssertNil(rules.feedURLRefusal("http://127.0.0.1:8080/{lang}/feed.plist"))
        XCTAssertEqual(rules.feedURLRefusal("http://example.com/messages.{lang}.plist"),
                       "plain http is refused for feeds outside this machine (use https, or allow http)")
    }
}
