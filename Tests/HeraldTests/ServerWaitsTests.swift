import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// Two apps whose feeds, `first.plist` and `second.plist`, are on one server of their own that
/// answers 429 with `Retry-After: seconds`; each app keeps its state in a folder of its own.
@MainContext
private func twoAppsOnAServerAskingToWait(_ seconds: Int) throws -> (server: FeedServer, first: Herald, second: Herald) {
    try twoAppsOnAServer(answering: "429\nRetry-After: \(seconds)\n")
}

/// Two apps whose feeds, `first.plist` and `second.plist`, are on one server of their own that
/// answers each with `status` (a status line and headers, as `feed_server.py` reads them).
@MainContext
private func twoAppsOnAServer(answering status: String) throws -> (server: FeedServer, first: Herald, second: Herald) {
    let directory = InProcessDesktop.session.directory.appendingPathComponent("server-waits-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let server = try FeedServer(directory: directory)
    let apps = try ["first", "second"].map { name in
        try server.publish("\(name).plist", Fixtures.xmlFeed(["a": ["Title": "A"]]))
        try server.publish("\(name).plist.status", status)
        let appID = "org.example.Wait-\(name)-\(UUID().uuidString.prefix(8))"
        return try Herald(configuration: .init(feedURL: server.url("\(name).plist"), appID: appID, appVersion: "1.0",
                                               check: CheckConfiguration(showOnFirstLaunch: true),
                                               environment: InProcessDesktop.environment(forApp: appID)))
    }
    return (server, apps[0], apps[1])
}

/// The delegate's line for the failure of a fetch from `server` that asked to wait until `until`.
private func askedToWait(_ server: FeedServer, until: Date) -> String {
    "failed 127.0.0.1:\(server.port) asked to be asked again after \(ISO8601Moment.text(until)) (429 Too Many Requests)"
}

/// Runs a check of `herald` (a launch, or `checkNow()` when `manual`) and returns what its
/// delegate heard.
@MainContext
private func events(ofCheckOf herald: Herald, manual: Bool = false) -> [String] {
    let recorder = EventRecorder(session: InProcessDesktop.session, answer: nil)
    herald.delegate = recorder
    if manual { herald.checkNow() } else { herald.appLaunched() }
    runLoop(until: recorder)
    return recorder.events
}

/// Within one process, a feed server that answered 429 with a `Retry-After` is not asked again
/// before its time, for any app (`ServerWaits`): two `Herald`s whose feeds are on one loopback
/// server, as one process checking every registered app has them.
final class ServerWaitsTests: XCTestCase {
    func testOneFetchAskedToWaitEndsTheOtherAppsLoadsOnThatServerWithoutARequest() throws {
        try MainContext.assumeIsolated {
            let (server, first, second) = try twoAppsOnAServerAskingToWait(120)
            let firstEvents = events(ofCheckOf: first)
            let asked = try XCTUnwrap(first.store.load().failure?.retryAfter, "\(firstEvents)")
            XCTAssertEqual(asked.host, "127.0.0.1:\(server.port)")
            let failure = askedToWait(server, until: asked.until)
            XCTAssertEqual(firstEvents, ["shouldCheck", failure, "finished"])
            XCTAssertEqual(events(ofCheckOf: second), ["shouldCheck", failure, "finished"], "the same failure, as if asked")
            XCTAssertEqual(server.requests.map(\.path), ["/first.plist"], "the second app's feed is not asked for")
            XCTAssertEqual(try second.store.load().failure?.retryAfter, asked, "each app's state keeps the server's time")
        }
    }

    /// A feed's own server that redirects to another, which asks to wait: the next app whose
    /// feed is on the first server is not sent there either.
    func testAWaitAskedAfterARedirectHoldsTheServerFirstAskedToo() throws {
        try MainContext.assumeIsolated {
            let (cdn, _, _) = try twoAppsOnAServerAskingToWait(120)
            let directory = InProcessDesktop.session.directory.appendingPathComponent("origin-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let origin = try FeedServer(directory: directory)
            let apps = try ["first", "second"].map { name in
                let target = cdn.url("\(name).plist").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let appID = "org.example.Redirected-\(name)-\(UUID().uuidString.prefix(8))"
                return try Herald(configuration: .init(feedURL: origin.url("to/\(target)"), appID: appID, appVersion: "1.0",
                                                       check: CheckConfiguration(showOnFirstLaunch: true),
                                                       environment: InProcessDesktop.environment(forApp: appID)))
            }
            let firstEvents = events(ofCheckOf: apps[0])
            let asked = try XCTUnwrap(apps[0].store.load().failure?.retryAfter, "\(firstEvents)")
            XCTAssertEqual(asked.host, "127.0.0.1:\(cdn.port)", "the server that asked")
            XCTAssertEqual(events(ofCheckOf: apps[1]), ["shouldCheck", askedToWait(cdn, until: asked.until), "finished"])
            XCTAssertEqual(origin.requests.count, 1, "the feeds' own server is asked once")
            XCTAssertEqual(cdn.requests.map(\.path), ["/first.plist"], "and the one it sends to, once")
        }
    }

    /// A 503 (or 429) without a `Retry-After` that asks for a wait is not a request to wait: the
    /// process asks the server again for the next app, as it did before the header was read.
    func testAServerThatAnsweredWithoutARetryAfterThatAsksForAWaitIsAskedForTheNextApp() throws {
        try MainContext.assumeIsolated {
            for status in ["503\n", "429\n", "503\nRetry-After: soon\n", "503\nRetry-After: 0\n"] {
                let (server, first, second) = try twoAppsOnAServer(answering: status)
                let code = status.prefix(3)
                XCTAssertEqual(events(ofCheckOf: first), ["shouldCheck", "failed the feed server answered HTTP \(code)", "finished"], status)
                XCTAssertEqual(events(ofCheckOf: second), ["shouldCheck", "failed the feed server answered HTTP \(code)", "finished"], status)
                XCTAssertEqual(server.requests.map(\.path), ["/first.plist", "/second.plist"], "both feeds asked for: \(status)")
                XCTAssertNil(try second.store.load().failure?.retryAfter, status)
            }
        }
    }

    func testAServerIsAskedAgainOnceItsTimeHasCome() throws {
        try MainContext.assumeIsolated {
            let (server, first, second) = try twoAppsOnAServerAskingToWait(2)
            let firstEvents = events(ofCheckOf: first)
            let until = try XCTUnwrap(first.store.load().failure?.retryAfter?.until, "\(firstEvents)")
            XCTAssertEqual(events(ofCheckOf: second, manual: true), [askedToWait(server, until: until), "finished"],
                           "a manual check before the time ends the same way, without a request")
            XCTAssertEqual(server.requests.map(\.path), ["/first.plist"])
            // The state keeps whole seconds: the server's time has come a second after the one kept.
            XCTAssertTrue(spin(5) { Date() >= until.addingTimeInterval(1) }, "the server's time comes within its 2 seconds")
            let events = events(ofCheckOf: second, manual: true)
            XCTAssertEqual(server.requests.map(\.path), ["/first.plist", "/second.plist"], "\(events)")
            let again = try XCTUnwrap(second.store.load().failure?.retryAfter?.until)
            XCTAssertGreaterThan(again, until, "the new answer's time is kept")
            XCTAssertEqual(events, [askedToWait(server, until: again), "finished"])
        }
    }
}
