import Foundation
import HeraldTestSupport
import XCTest

/// `herald check` against a feed server that answers 429 with a `Retry-After`: the failure says
/// until when the server asked to wait, the next check without `--force` makes no request and
/// says why, and `--force` asks all the same.
final class RetryAfterEndToEndTests: XCTestCase {
    let appID = "org.example.AskedToWait"

    /// A session and a server whose feed answers 429 with `Retry-After: seconds`.
    func serverAskingToWait(_ seconds: Int) throws -> (DesktopSession, FeedServer) {
        let session = try DesktopSession()
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "A"]]))
        try server.publish("feed.plist.status", "429\nRetry-After: \(seconds)\n")
        return (session, server)
    }

    func check(_ session: DesktopSession, _ server: FeedServer, _ extra: [String] = []) throws -> ChildProcess {
        try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch"] + extra)
    }

    /// The `failed` line of a check whose server asked to wait until `until` (as written).
    func failedLine(_ server: FeedServer, until: String) -> String {
        let host = "127.0.0.1:\(server.port)"
        return #"{"event":"failed","exitCode":75,"host":"\#(host)","kind":"fetch","message":"\#(host) asked to be asked again after \#(until) (429 Too Many Requests)","until":"\#(until)"}"#
            + "\n"
    }

    /// The time the server's wait ends, as the first check's failure wrote it, once it is
    /// `seconds` (give or take the check's own second) after the check.
    func askedUntil(_ run: ChildProcess, seconds: Double, from start: Date) throws -> String {
        let until = try XCTUnwrap(run.events.first?["until"] as? String, run.output + run.errorOutput)
        let date = try XCTUnwrap(ISO8601DateFormatter().date(from: until), until)
        XCTAssertEqual(date.timeIntervalSince(start), seconds, accuracy: 2, until)
        return until
    }

    func testTheFailureSaysWhenTheServerAskedToBeAskedAgainAndTheNextCheckWaitsUnlessForced() throws {
        let (session, server) = try serverAskingToWait(60)
        let first = try check(session, server)
        XCTAssertEqual(first.wait(), 75)
        let until = try askedUntil(first, seconds: 60, from: Date())
        XCTAssertEqual(first.output, failedLine(server, until: until))
        let failure = try XCTUnwrap(try session.state(appID: appID)["failure"] as? [String: Any])
        XCTAssertEqual(failure["retryAfter"] as? [String: String], ["host": "127.0.0.1:\(server.port)", "until": until])

        // The backoff's 15 minutes are later than the server's minute: the next attempt is the later.
        let lastAttempt = try XCTUnwrap(ISO8601DateFormatter().date(from: failure["lastAttempt"] as? String ?? ""))
        let nextAttempt = ISO8601DateFormatter().string(from: lastAttempt.addingTimeInterval(15 * 60))
        let second = try check(session, server)
        XCTAssertEqual(second.wait(), 0)
        XCTAssertEqual(second.output, #"{"detail":"the last check failed; next attempt at \#(nextAttempt)","event":"check-skipped","reason":"failure-backoff"}"#
                       + "\n")
        XCTAssertEqual(server.requests.count, 1, "the second check asks nothing")

        let forced = try check(session, server, ["--force"])
        XCTAssertEqual(forced.wait(), 75)
        XCTAssertEqual(forced.output, failedLine(server, until: try askedUntil(forced, seconds: 60, from: Date())))
        XCTAssertEqual(server.requests.count, 2, "--force skips the gates: it asks")
    }

    /// A 429 or 503 whose `Retry-After` is missing, asks for no wait, or does not read is the
    /// failure it was before the header was read: the status in the message, no `host` nor
    /// `until`, nothing kept in the state but the failure, and the backoff alone after it.
    func testA429Or503WithoutARetryAfterThatAsksForAWaitIsAnOrdinaryFailureAsBefore() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "A"]]))
        for (index, (status, header)) in [("503", nil), ("429", nil), ("503", "soon"), ("503", "0"), ("429", "Sun, 06 Nov 1994 08:49:37 GMT"),
                                          ("503", "-60")].enumerated() {
            let name = "feed-\(index).plist", appID = "org.example.NoWait\(index)"
            try server.publish(name, Fixtures.xmlFeed(["a": ["Title": "A"]]))
            try server.publish(name + ".status", status + "\n" + (header.map { "Retry-After: \($0)\n" } ?? ""))
            let arguments = ["check", "--json", "--feed", server.url(name), "--app-id", appID, "--show-on-first-launch"]
            let first = try session.herald(arguments)
            XCTAssertEqual(first.wait(), 75)
            XCTAssertEqual(first.output, #"{"event":"failed","exitCode":75,"kind":"fetch","message":"the feed server answered HTTP \#(status)"}"# + "\n",
                           "\(status) with Retry-After \(header ?? "missing")")
            let failure = try XCTUnwrap(try session.state(appID: appID)["failure"] as? [String: Any])
            XCTAssertEqual(failure.keys.sorted(), ["count", "lastAttempt", "reason"], "no server's time is kept")
            XCTAssertEqual(failure["reason"] as? String, "the feed server answered HTTP \(status)")
            let lastAttempt = try XCTUnwrap(ISO8601DateFormatter().date(from: failure["lastAttempt"] as? String ?? ""))
            let nextAttempt = ISO8601DateFormatter().string(from: lastAttempt.addingTimeInterval(15 * 60))
            let second = try session.herald(arguments)
            XCTAssertEqual(second.wait(), 0)
            XCTAssertEqual(second.output,
                           #"{"detail":"the last check failed; next attempt at \#(nextAttempt)","event":"check-skipped","reason":"failure-backoff"}"# + "\n")
        }
        XCTAssertEqual(server.requests.map(\.path), (0..<6).map { "/feed-\($0).plist" }, "each feed asked once, by its first check")
    }

    func testAServerThatAskedForLongerThanTheBackoffIsTheReasonTheNextCheckGives() throws {
        let (session, server) = try serverAskingToWait(7200)
        let first = try check(session, server)
        XCTAssertEqual(first.wait(), 75)
        let until = try askedUntil(first, seconds: 7200, from: Date())
        let second = try check(session, server)
        XCTAssertEqual(second.wait(), 0)
        let host = "127.0.0.1:\(server.port)"
        XCTAssertEqual(second.output,
                       #"{"detail":"\#(host) asked to be asked again after \#(until)","event":"check-skipped","host":"\#(host)","reason":"retry-after","until":"\#(until)"}"#
                        + "\n")
        XCTAssertEqual(server.requests.count, 1)
    }
}
