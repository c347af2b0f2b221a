import HeraldCore
import XCTest

final class LabelsTests: XCTestCase {
    func testAllSixLanguagesShipCleanStrings() {
        XCTAssertEqual(Set(Labels.translations.keys), ["en", "fr", "de", "it", "es", "ja"])
        for (code, labels) in Labels.translations {
            for text in [labels.ok, labels.ignore, labels.remind, labels.moreInfo] {
                XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0 }, "\(code): \(text) has a NUL")
            }
        }
        XCTAssertEqual(Labels.translations["en"]?.ignore, "Ignore")
        XCTAssertEqual(Labels.translations["fr"]?.moreInfo, "Plus d'info")
        XCTAssertEqual(Labels.translations["de"]?.moreInfo, "Mehr info")
        XCTAssertEqual(Labels.translations["ja"]?.remind, "後で再度通知する。")
    }

    func testLanguageComesFromLanguageThenLocaleVariables() {
        XCTAssertEqual(Labels.languageCode(["LANGUAGE": "pt:de:fr", "LANG": "it_IT.UTF-8"]), "de")
        XCTAssertEqual(Labels.languageCode(["LC_ALL": "es_ES.UTF-8", "LANG": "fr_FR"]), "es")
        XCTAssertEqual(Labels.languageCode(["LC_MESSAGES": "ja_JP.UTF-8", "LANG": "fr_FR"]), "ja")
        XCTAssertEqual(Labels.languageCode(["LANG": "fr_FR.UTF-8"]), "fr")
        XCTAssertEqual(Labels.languageCode(["LANG": "pt_BR.UTF-8"]), "en")
        XCTAssertEqual(Labels.languageCode(["LANGUAGE": "de", "LANG": "C"]), "en", "LANGUAGE is ignored in the C locale")
        XCTAssertEqual(Labels.forEnvironment(["LANG": "de_DE.UTF-8"]).remind, "Mich später erinnern")
    }
}

final class NotificationTextTests: XCTestCase {
    func testBodyIsEscapedOnlyForServersThatReadMarkup() {
        XCTAssertEqual(NotificationText.body("Tom & <b>Jerry</b>", markup: true), "Tom &amp; &lt;b&gt;Jerry&lt;/b&gt;")
        XCTAssertEqual(NotificationText.body("Tom & <b>Jerry</b>", markup: false), "Tom & <b>Jerry</b>")
    }

    /// GNOME Shell decodes only `&amp; &quot; &apos; &lt; &gt;`; any other entity is shown as typed.
    func testEscapingUsesOnlyTheFiveEntitiesEveryServerDecodes() {
        XCTAssertEqual(NotificationText.body("Don't \"quote\" <b> & >", markup: true), "Don&apos;t &quot;quote&quot; &lt;b&gt; &amp; &gt;")
        XCTAssertFalse(NotificationText.escape("'\"&<>").contains("&#"))
    }

    func testControlAndDirectionCharactersAreRemoved() {
        XCTAssertEqual(NotificationText.summary("a\u{0}b\u{7}c\u{202E}d\ne"), "abcd e")
        XCTAssertEqual(NotificationText.body("line1\nline2\u{1B}[31m", markup: false), "line1\nline2[31m")
    }

    func testLengthsAreCapped() {
        XCTAssertEqual(NotificationText.summary(String(repeating: "x", count: 500)).count, NotificationText.summaryLimit)
        XCTAssertEqual(NotificationText.body(String(repeating: "y", count: 5000), markup: false).count, NotificationText.bodyLimit)
    }

    func testHyperlinkIsEscaped() {
        XCTAssertEqual(NotificationText.hyperlink("https://e.com/?a=1&b=\"2\""),
                       "<a href=\"https://e.com/?a=1&amp;b=&quot;2&quot;\">https://e.com/?a=1&amp;b=&quot;2&quot;</a>")
    }
}

final class URLRulesTests: XCTestCase {
    func testActionURLMayBeHTTPOrHTTPS() {
        XCTAssertNil(URLRules().actionURLRefusal("https://example.com/x"))
        XCTAssertNil(URLRules().actionURLRefusal("http://example.com/x"))
    }

    func testDangerousSchemesAreNeverOffered() {
        let rules = URLRules(allowedCustomSchemes: ["file", "javascript"])
        for url in ["file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "JavaScript:x"] {
            XCTAssertNotNil(rules.actionURLRefusal(url), url)
        }
    }

    func testCustomSchemesOnlyWhenTheAppAllowsThem() {
        XCTAssertNotNil(URLRules().actionURLRefusal("myapp://open"))
        XCTAssertNil(URLRules(allowedCustomSchemes: ["MyApp"]).actionURLRefusal("myapp://open"))
    }

    func testInvalidURLsAreRefused() {
        XCTAssertNotNil(URLRules().actionURLRefusal("not a url"))
        XCTAssertNotNil(URLRules().actionURLRefusal("https://"))
    }

    func testFeedMustBeHTTPSFileOrLoopbackHTTP() {
        let rules = URLRules()
        XCTAssertNil(rules.feedURLRefusal("https://example.com/feed.plist"))
        XCTAssertNil(rules.feedURLRefusal("file:///tmp/feed.plist"))
        XCTAssertNil(rules.feedURLRefusal("http://127.0.0.1:8000/feed"))
        XCTAssertNil(rules.feedURLRefusal("http://localhost/feed"))
        XCTAssertNil(rules.feedURLRefusal("http://[::1]:80/feed"))
        XCTAssertNotNil(rules.feedURLRefusal("http://example.com/feed"))
        XCTAssertNil(URLRules(allowPlainHTTPFeed: true).feedURLRefusal("http://example.com/feed"))
        XCTAssertNotNil(rules.feedURLRefusal("ftp://example.com/feed"))
    }

    func testRedirectFromHTTPSToHTTPIsRefused() {
        let rules = URLRules(allowPlainHTTPFeed: true)
        XCTAssertNotNil(rules.redirectRefusal(from: "https://a.com/f", to: "http://a.com/f"))
        XCTAssertNil(rules.redirectRefusal(from: "https://a.com/f", to: "https://b.com/f"))
        XCTAssertNil(rules.redirectRefusal(from: "http://127.0.0.1/f", to: "http://127.0.0.1/g"))
    }
}
