import Foundation
import HeraldCore
import HeraldDesktop
import XCTest

/// A refused certificate says why, in words a person can act on (GIO's flags, never a code).
final class FetchErrorTests: XCTestCase {
    func testARefusedCertificateNamesEachReasonGIOReported() {
        XCTAssertEqual(FetchError.untrustedCertificate(CertificateProblem.problems(in: 8)).description,
                       "the feed server's certificate was refused: it has expired")
        XCTAssertEqual(FetchError.untrustedCertificate(CertificateProblem.problems(in: 1 | 2)).description,
                       "the feed server's certificate was refused: it is signed by an unknown certificate authority; it is for another host name")
        XCTAssertEqual(CertificateProblem.problems(in: 4), [.notYetValid])
        XCTAssertEqual(CertificateProblem.problems(in: 16 | 32 | 64), [.revoked, .insecure, .unverifiable])
    }

    func testACertificateRefusedWithoutAFlagStillGivesAReason() {
        XCTAssertEqual(CertificateProblem.problems(in: 0), [.unverifiable])
        XCTAssertEqual(FetchError.untrustedCertificate(CertificateProblem.problems(in: 0)).description,
                       "the feed server's certificate was refused: it could not be checked")
    }

    /// A fetch's timeout reads as every other number Herald writes (`NumberText`).
    func testATimeoutReadsAsEveryOtherNumber() {
        let expected: [(Double, String)] = [(3, "3"), (2.5, "2.5"), (0.1, "0.1"), (1e-7, "1e-07"),
                                            (999_999_999_999_999, "999999999999999"), (1e15, "1000000000000000.0"), (4e16, "4e+16")]
        for (value, text) in expected {
            XCTAssertEqual(NumberText.plain(value), text)
            XCTAssertEqual(FetchError.timedOut(seconds: value).description, "no answer from the feed server within \(text) s")
        }
    }

    /// A server that asked to wait is named, with the time it gave and its status in words.
    func testAServerThatAskedToWaitIsNamedWithItsTimeAndStatus() {
        let noon = Date(timeIntervalSince1970: 1_795_953_600)
        XCTAssertEqual(FetchError.askedToWait(host: "feeds.example.org", status: 429, until: noon).description,
                       "feeds.example.org asked to be asked again after 2026-11-29T12:00:00Z (429 Too Many Requests)")
        XCTAssertEqual(FetchError.askedToWait(host: "127.0.0.1:8080", status: 503, until: noon).description,
                       "127.0.0.1:8080 asked to be asked again after 2026-11-29T12:00:00Z (503 Service Unavailable)")
        XCTAssertEqual(FetchError.askedToWait(host: "feeds.example.org", status: 429, until: noon).retryAfter,
                       RetryAfter(host: "feeds.example.org", until: noon))
        XCTAssertNil(FetchError.httpStatus(429).retryAfter)
    }

    /// The server a `Retry-After` names: the host, and the port when the URL names one other
    /// than its scheme's own.
    func testTheServerOfAURLIsItsHostAndThePortItNamesOtherThanItsSchemesOwn() {
        XCTAssertEqual(FeedFetcher.server(of: "https://feeds.example.org/app/feed.plist"), "feeds.example.org")
        XCTAssertEqual(FeedFetcher.server(of: "http://127.0.0.1:8080/feed.plist"), "127.0.0.1:8080")
        XCTAssertEqual(FeedFetcher.server(of: "https://Feeds.Example.org/feed.plist"), "feeds.example.org", "a host is named in lower case")
        XCTAssertEqual(FeedFetcher.server(of: "https://feeds.example.org:443/feed.plist"), "feeds.example.org", "the scheme's own port is the same server")
        XCTAssertEqual(FeedFetcher.server(of: "http://feeds.example.org:80/feed.plist"), "feeds.example.org", "the scheme's own port is the same server")
        XCTAssertEqual(FeedFetcher.server(of: "http://feeds.example.org:443/feed.plist"), "feeds.example.org:443", "another scheme's port is named")
        XCTAssertNil(FeedFetcher.server(of: "file:///tmp/feed.plist"))
    }
}
