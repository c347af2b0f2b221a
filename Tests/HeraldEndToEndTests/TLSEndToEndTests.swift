import Foundation
import HeraldTestSupport
import XCTest

/// `herald check` and `herald validate` over https against a loopback server whose certificate
/// comes from a test authority made with openssl (`Tests/support/test_ca.sh`). Herald is told
/// to trust that authority with `--ca-file` alone: the system's trust store is never touched.
final class TLSEndToEndTests: XCTestCase {
    let appID = "org.example.Secure"
    let feed = Fixtures.xmlFeed([
        "2024/01/10": ["Title": "Older tip", "Message": "Plain text"],
        "2024/02/20": ["Title": "New release", "Message": "See what's new", "ActionURL": "https://example.com/new"],
    ])
    var authority: TestCertificateAuthority!

    override func setUpWithError() throws {
        authority = try TestCertificateAuthority.shared()
    }

    /// An https server for the session, presenting `certificate`, serving the feed as "feed.plist".
    func httpsServer(_ session: DesktopSession, _ certificate: TestCertificateAuthority.Server) throws -> FeedServer {
        let server = try FeedServer(directory: session.directory, tls: authority.identity(named: certificate))
        try server.publish("feed.plist", feed)
        return server
    }

    /// `herald check` of `url`, trusting the test authority unless `caFile` says otherwise.
    func check(_ session: DesktopSession, _ url: String, json: Bool = true, caFile: String?? = .none, _ extra: [String] = []) throws -> ChildProcess {
        let trusted = caFile ?? authority.caFile
        return try session.herald(["check"] + (json ? ["--json"] : []) + ["--feed", url, "--app-id", appID, "--show-on-first-launch", "--force", "--wait", "20"]
                                  + (trusted.map { ["--ca-file", $0] } ?? []) + extra)
    }

    func events(_ run: ChildProcess, _ name: String) -> [[String: Any]] {
        run.events.filter { $0["event"] as? String == name }
    }

    /// The lines of an output, whole (a final newline ends the last line, it does not start another).
    func lines(_ text: String) -> [String] {
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return text.hasSuffix("\n") || text.isEmpty ? Array(all.dropLast()) : all
    }

    /// The check failed with exit 75 and exactly `message`: one `herald: message` line on
    /// stderr, or with `--json` exactly one `failed` event on stdout.
    func assertFailed(_ run: ChildProcess, json: Bool, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.wait(), 75, "stdout: \(run.output) stderr: \(run.errorOutput)", file: file, line: line)
        if json {
            XCTAssertEqual(lines(run.output).count, 1, run.output, file: file, line: line)
            XCTAssertEqual(run.events.first as NSDictionary?,
                           ["event": "failed", "kind": "fetch", "message": message, "exitCode": 75] as NSDictionary, run.output, file: file, line: line)
            XCTAssertEqual(lines(run.errorOutput), [], "with --json the failure is said once, on stdout", file: file, line: line)
        } else {
            XCTAssertEqual(lines(run.errorOutput), ["herald: \(message)"], file: file, line: line)
        }
    }

    /// Nothing was shown and nothing marked: the failed check is not a check.
    func assertNothingShownOrMarked(_ session: DesktopSession, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try session.notifyCalls().count, 0, "no Notify call", file: file, line: line)
        let state = try session.state(appID: appID)
        XCTAssertNil(state["lastChecked"], "a failed check is not a check", file: file, line: line)
        XCTAssertEqual(state["viewed"] as? [String], [], file: file, line: line)
    }

    /// A server presenting `certificate` is refused for `reason`, in text and in JSON, before any
    /// request reaches it.
    func assertRefused(_ certificate: TestCertificateAuthority.Server, caFile: String?? = .none, _ reason: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let session = try DesktopSession()
        let server = try httpsServer(session, certificate)
        for json in [false, true] {
            let run = try check(session, server.url("feed.plist"), json: json, caFile: caFile)
            assertFailed(run, json: json, "the feed server's certificate was refused: \(reason)", file: file, line: line)
        }
        XCTAssertEqual(server.requests.map(\.path), [], "no request is sent to a server whose certificate is refused", file: file, line: line)
        try assertNothingShownOrMarked(session, file: file, line: line)
    }

    func testTrustedCertificateFromTheConfiguredAuthorityShowsTheFeedAndAReCheckIsA304() throws {
        let session = try DesktopSession()
        let server = try httpsServer(session, .good)
        let first = try check(session, server.url("feed.plist"), ["--wait", "0.5"])
        XCTAssertEqual(first.wait(), 0, first.output + first.errorOutput)
        XCTAssertEqual(events(first, "fetched").count, 1, first.output)
        XCTAssertEqual(events(first, "shown").compactMap { $0["key"] as? String }, ["2024/02/20", "2024/01/10"])
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["New release", "Older tip"])
        XCTAssertNotNil(try session.state(appID: appID)["lastChecked"])

        let second = try check(session, server.url("feed.plist"), ["--wait", "0.5"])
        XCTAssertEqual(second.wait(), 0, second.output + second.errorOutput)
        XCTAssertEqual(events(second, "not-modified").count, 1, second.output)
        XCTAssertEqual(events(second, "shown").count, 2, "the unanswered messages show again from the cached copy")
        let requests = server.requests
        XCTAssertEqual(requests.map(\.path), ["/feed.plist", "/feed.plist"])
        XCTAssertNil(requests[0].headers["If-None-Match"])
        XCTAssertNotNil(requests[1].headers["If-None-Match"])
        XCTAssertEqual(lines(first.errorOutput) + lines(second.errorOutput), [], "nothing to complain about")
    }

    func testCertificateFromAnUnknownAuthorityIsRefusedWithThatReason() throws {
        try assertRefused(.untrusted, "it is signed by an unknown certificate authority")
    }

    func testExpiredCertificateIsRefusedWithThatReason() throws {
        try assertRefused(.expired, "it has expired")
    }

    func testCertificateNotYetValidIsRefusedWithThatReason() throws {
        try assertRefused(.future, "it is not valid yet")
    }

    func testCertificateForAnotherHostIsRefusedWithThatReason() throws {
        try assertRefused(.otherhost, "it is for another host name")
    }

    func testCertificateSignedWithSHA1IsRefusedAsInsecure() throws {
        try assertRefused(.insecure, "it uses an insecure algorithm")
    }

    func testWithoutTheCAFileTheSystemStoreDoesNotTrustTheTestAuthority() throws {
        try assertRefused(.good, caFile: .some(nil), "it is signed by an unknown certificate authority")
    }

    func testEveryProblemOfACertificateIsNamedInTheOneLine() throws {
        // glib-networking's GnuTLS backend reports every flag it finds (GLib only promises one).
        try assertRefused(.expired, caFile: .some(nil), "it is signed by an unknown certificate authority; it has expired")
    }

    func testTheCAFileReplacesTheTrustedAuthoritiesItDoesNotAddToThem() throws {
        // The unrelated CA's file trusts the certificate it signed, and no longer the test CA's.
        let session = try DesktopSession()
        let trusted = try httpsServer(session, .untrusted)
        let run = try check(session, trusted.url("feed.plist"), caFile: authority.otherCAFile, ["--wait", "0.5"])
        XCTAssertEqual(run.wait(), 0, run.output + run.errorOutput)
        XCTAssertEqual(events(run, "shown").count, 2, run.output)
        try assertRefused(.good, caFile: authority.otherCAFile, "it is signed by an unknown certificate authority")
    }

    func testRelativeCAFilePathIsReadFromTheWorkingDirectory() throws {
        let session = try DesktopSession()
        let server = try httpsServer(session, .good)
        // env -C runs herald in the authority's folder, where "ca.pem" is the test CA.
        let run = try ChildProcess("/usr/bin/env", ["-C", authority.directory.path, TestPaths.herald, "check", "--json", "--feed", server.url("feed.plist"),
                                                    "--app-id", appID, "--show-on-first-launch", "--wait", "0.5", "--ca-file", "ca.pem"],
                                   environment: session.environment, directory: session.directory, name: "herald-relative-ca")
        XCTAssertEqual(run.wait(), 0, run.output + run.errorOutput)
        XCTAssertEqual(events(run, "shown").count, 2, run.output)
        XCTAssertEqual(lines(run.errorOutput), [])
    }

    func testUnreadableCAFileIsAUsageError() throws {
        let session = try DesktopSession()
        let missing = session.directory.appendingPathComponent("no-such-ca.pem").path
        let run = try check(session, "https://127.0.0.1:9/feed.plist", caFile: missing)
        XCTAssertEqual(run.wait(), 64, run.errorOutput)
        XCTAssertEqual(lines(run.errorOutput), ["herald: cannot read the CA file \(missing): No such file or directory", "herald: see 'herald check --help'"])
        XCTAssertEqual(try session.notifyCalls().count, 0)
    }

    func testRedirectFromHttpsToHttpIsRefused() throws {
        let session = try DesktopSession()
        let plain = try session.serveFeed(feed)
        let secure = try httpsServer(session, .good)
        let source = secure.redirect(to: plain.url("feed.plist"))
        for json in [false, true] {
            assertFailed(try check(session, source, json: json), json: json, "feed URL refused: a redirect from https to http is refused")
        }
        XCTAssertEqual(secure.requests.count, 2, "the redirect itself came over https")
        XCTAssertEqual(plain.requests.map(\.path), [], "the http URL is never fetched")
        try assertNothingShownOrMarked(session)
    }

    func testRedirectWithinHttpsIsFollowed() throws {
        let session = try DesktopSession()
        let server = try httpsServer(session, .good)
        let run = try check(session, server.url("redirect/2/feed.plist"), ["--wait", "0.5"])
        XCTAssertEqual(run.wait(), 0, run.output + run.errorOutput)
        XCTAssertEqual(events(run, "shown").count, 2, run.output)
        XCTAssertEqual(server.requests.map(\.path), ["/redirect/2/feed.plist", "/redirect/1/feed.plist", "/feed.plist"])
    }

    func testRedirectLoopEndsAfterFiveRedirects() throws {
        let session = try DesktopSession()
        let server = try httpsServer(session, .good)
        for json in [false, true] {
            assertFailed(try check(session, server.redirectLoop, json: json), json: json, "more than 5 redirects")
        }
        XCTAssertEqual(server.requests.map(\.path), Array(repeating: "/loop", count: 12), "the first request and five redirects, twice")
        try assertNothingShownOrMarked(session)
    }

    func testValidateTrustsTheSameCAFile() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let server = try httpsServer(session, .good)
        let url = server.url("feed.plist")
        let trusted = try session.herald(["validate", url, "--ca-file", authority.caFile])
        XCTAssertEqual(trusted.wait(), 0, trusted.errorOutput)
        XCTAssertEqual(lines(trusted.output), ["\(url): xml-plist, 2 messages, newest first:",
                                               "  2024/02/20  New release  -> https://example.com/new",
                                               "  2024/01/10  Older tip",
                                               "no problems found"])
        XCTAssertEqual(lines(trusted.errorOutput), [])

        let withoutCA = try session.herald(["validate", url])
        XCTAssertEqual(withoutCA.wait(), 75)
        XCTAssertEqual(lines(withoutCA.errorOutput), ["herald: the feed server's certificate was refused: it is signed by an unknown certificate authority"])

        let expired = try httpsServer(session, .expired)
        let refused = try session.herald(["validate", expired.url("feed.plist"), "--ca-file", authority.caFile])
        XCTAssertEqual(refused.wait(), 75)
        XCTAssertEqual(lines(refused.errorOutput), ["herald: the feed server's certificate was refused: it has expired"])
        XCTAssertEqual(expired.requests.count, 0)
    }
}
