import HeraldCore
import XCTest

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
