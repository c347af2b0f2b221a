import Foundation
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// Signed feeds that cannot be replayed or frozen (DESIGN.md D20): the signature covers a
/// version that `herald feed sign` raises every time, an optional expiry and app id; a check
/// keeps the highest version it accepted per feed URL and refuses a lower one, an expired feed
/// and another app's, each failing closed as a bad signature does. Apps may trust several keys.
final class SignedFeedReplayTests: XCTestCase {
    let appID = "org.example.Replay"
    static let both = ["2026/11/01": ["Title": "Kept news"], "2026/11/02": ["Title": "Retracted news"]]

    /// A session, a feed server, a private key made by `herald feed keygen` and its public half.
    func setUpPublisher() throws -> (session: DesktopSession, server: FeedServer, keyFile: String, publicKey: String) {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        let (keyFile, publicKey) = try makeKey(session, "feed.key")
        return (session, server, keyFile, publicKey)
    }

    func makeKey(_ session: DesktopSession, _ name: String) throws -> (file: String, publicKey: String) {
        let keyFile = session.directory.appendingPathComponent(name).path
        let made = try session.heraldToCompletion(["feed", "keygen", "--private-key", keyFile])
        XCTAssertEqual(made.status, 0)
        return (keyFile, made.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Publishes `entries` as feed.plist and signs it in place with `herald feed sign`; returns the signed bytes.
    @discardableResult
    func publishSigned(_ entries: [String: [String: String]], on server: FeedServer, session: DesktopSession, keyFile: String,
                       _ options: [String] = []) throws -> Data {
        let path = server.root.appendingPathComponent("feed.plist")
        if !FileManager.default.fileExists(atPath: path.path) { try server.publish("feed.plist", Fixtures.xmlFeed(entries)) }
        let signed = try session.heraldToCompletion(["feed", "sign", path.path, "--private-key", keyFile] + options)
        XCTAssertEqual(signed.status, 0, signed.output)
        return try Data(contentsOf: path)
    }

    /// The version in a signed feed's trailing block.
    func version(of bytes: Data) throws -> UInt64 {
        try XCTUnwrap(Fixtures.signedVersion(of: bytes), "a versioned signature comment")
    }

    func check(_ session: DesktopSession, _ url: String, keys: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try session.herald(["check", "--json", "--feed", url, "--app-id", appID, "--show-on-first-launch", "--force", "--wait", "20"]
                           + keys.flatMap { ["--public-key", $0] }, environment: environment)
    }

    /// A check that shows what it was given and is then stopped; returns the titles shown.
    func checkShows(_ session: DesktopSession, _ url: String, keys: [String], count: Int, environment: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let before = try session.notifyCalls().count
        let run = try check(session, url, keys: keys, environment: environment)
        XCTAssertTrue(eventually { run.events.filter { $0["event"] as? String == "shown" }.count == count },
                      run.output + run.errorOutput, file: file, line: line)
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(), 143, "128 + SIGTERM", file: file, line: line)
        return try session.notifyCalls().dropFirst(before).map(\.summary)
    }

    /// The check `start` starts is refused as `kind` with `message`: exit 65 within 10 s, nothing
    /// shown, nothing marked, lastChecked kept, the failure recorded for the backoff, the cached
    /// copy kept. What it must keep is read before it starts.
    func assertRefused(_ session: DesktopSession, _ start: @autoclosure () throws -> ChildProcess, kind: String, message: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let cacheFile = session.environment["XDG_CACHE_HOME"]! + "/herald/\(appID).feed"
        let cachedBefore = try? Data(contentsOf: URL(fileURLWithPath: cacheFile))
        let stateBefore = try session.state(appID: appID)
        let notifiedBefore = try session.notifyCalls().count
        let started = Date()
        let run = try start()
        XCTAssertEqual(run.wait(seconds: 10), 65, run.output + run.errorOutput, file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, file: file, line: line)
        let failed = run.events.filter { $0["event"] as? String == "failed" }.map { $0.compactMapValues { "\($0)" } }
        XCTAssertEqual(failed, [["event": "failed", "kind": kind, "message": message, "exitCode": "65"]], file: file, line: line)
        XCTAssertEqual(run.events.filter { $0["event"] as? String == "shown" }.count, 0, file: file, line: line)
        XCTAssertEqual(try session.notifyCalls().count, notifiedBefore, "nothing shown", file: file, line: line)
        let state = try session.state(appID: appID)
        XCTAssertEqual(state["lastChecked"] as? String, stateBefore["lastChecked"] as? String, "a refused feed is a failed check", file: file, line: line)
        XCTAssertEqual(state["viewed"] as? [String], stateBefore["viewed"] as? [String], file: file, line: line)
        XCTAssertEqual(state["feedVersions"] as? [String: Int], stateBefore["feedVersions"] as? [String: Int], file: file, line: line)
        XCTAssertEqual((state["failure"] as? [String: Any])?["reason"] as? String, message, "the backoff holds the next check", file: file, line: line)
        XCTAssertEqual(try? Data(contentsOf: URL(fileURLWithPath: cacheFile)), cachedBefore, "the cached copy is kept", file: file, line: line)
    }

    func testAnOlderSignedFeedServedAfterANewerOneIsRefusedAsReplayed() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        let older = try publishSigned(Self.both, on: server, session: session, keyFile: keyFile)
        // The publisher retracts a message and signs again.
        let path = server.root.appendingPathComponent("feed.plist")
        try Data(String(decoding: older, as: UTF8.self).replacingOccurrences(of: "Retracted news", with: "Corrected news").utf8).write(to: path)
        let newer = try publishSigned(Self.both, on: server, session: session, keyFile: keyFile)
        let (oldVersion, newVersion) = (try version(of: older), try version(of: newer))
        XCTAssertGreaterThan(newVersion, oldVersion)
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [publicKey], count: 2).sorted(), ["Corrected news", "Kept news"])
        XCTAssertEqual(try session.state(appID: appID)["feedVersions"] as? [String: Int], [server.url("feed.plist"): Int(newVersion)],
                       "the state keeps the version for the next run")
        // An attacker (or a stale mirror) serves the older, validly signed bytes.
        try older.write(to: path)
        try assertRefused(session, try check(session, server.url("feed.plist"), keys: [publicKey]), kind: "feed-replayed",
                          message: "the feed is signed as version \(oldVersion), older than version \(newVersion) accepted before: "
                              + "an old feed served again is refused")
    }

    func testTheAcceptedVersionOutlivesTheRunThatAcceptedItAndTheSameVersionIsShownAgain() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        let older = try publishSigned(Self.both, on: server, session: session, keyFile: keyFile)
        let newer = try publishSigned(Self.both, on: server, session: session, keyFile: keyFile)
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [publicKey], count: 2).count, 2)
        // The same version served again: accepted, not a replay.
        try Data(newer).write(to: server.root.appendingPathComponent("feed.plist"))
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [publicKey], count: 2).count, 2)
        try older.write(to: server.root.appendingPathComponent("feed.plist"))
        try assertRefused(session, try check(session, server.url("feed.plist"), keys: [publicKey]), kind: "feed-replayed",
                          message: "the feed is signed as version \(try version(of: older)), older than version \(try version(of: newer)) "
                              + "accepted before: an old feed served again is refused")
    }

    func testAFeedSignedWithTheVersionAcceptedButOtherContentsIsRefusedAsReplayed() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        // Two feeds signed in the same second, with the same version: the older still holds the
        // message the newer retracted.
        let version: UInt64 = 1_764_000_000
        let seed = try seed(keyFile)
        func signed(_ entries: [String: [String: String]]) throws -> Data {
            let content = Data(Fixtures.xmlFeed(entries).utf8)
            let metadata = FeedSignature.Metadata(version: version)
            let signature = try Ed25519.sign(FeedSignature.message(for: content, metadata: metadata), seed: seed)
            return content + Data(FeedSignature.block(for: .init(bytes: signature, metadata: metadata)).utf8)
        }
        let older = try signed(Self.both)
        let newer = try signed(["2026/11/01": ["Title": "Kept news"]])
        let path = server.root.appendingPathComponent("feed.plist")
        try newer.write(to: path)
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [publicKey], count: 1), ["Kept news"])
        try older.write(to: path)
        try assertRefused(session, try check(session, server.url("feed.plist"), keys: [publicKey]), kind: "feed-replayed",
                          message: "the feed is signed as version \(version), which was accepted before over other contents: "
                              + "an old feed served again is refused")
        // The accepted feed itself, served again, is no replay.
        try newer.write(to: path)
        let again = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--force", "--wait", "1",
                                        "--public-key", publicKey])
        XCTAssertEqual(again.wait(seconds: 20), 0, again.output + again.errorOutput)
    }

    func testAFeedWrittenAnewAndSignedAgainWithinTheSameSecondGetsAHigherVersion() throws {
        let (session, server, keyFile, _) = try setUpPublisher()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime") else {
            throw XCTSkip("the clock is held still with faketime (apt-get install faketime, Tests/scripts/setup.sh --tests)")
        }
        let path = server.root.appendingPathComponent("feed.plist")
        // A publisher's build writes the feed from a template, without the old signature, and
        // signs it, the clock set to `time` (faketime starts it there); the second signing's
        // clock is behind the first's, as in the same second or on a machine whose clock is late.
        func signFromTemplate(_ title: String, at time: String) throws -> UInt64 {
            try Fixtures.xmlFeed(["2026/11/01": ["Title": title]]).write(to: path, atomically: true, encoding: .utf8)
            let signed = try runToCompletion("/usr/bin/faketime", [time, TestPaths.herald, "feed", "sign", path.path, "--private-key", keyFile],
                                             environment: session.environment.merging(["TZ": "UTC"]) { _, new in new })
            XCTAssertEqual(signed.status, 0, signed.output)
            return try version(of: try Data(contentsOf: path))
        }
        let first = try signFromTemplate("First", at: "2026-11-29 10:00:30")
        XCTAssertTrue((1_795_946_430...1_795_946_460).contains(first), "the clock's seconds at 2026-11-29T10:00:30Z: \(first)")
        let second = try signFromTemplate("Second", at: "2026-11-29 10:00:00")
        XCTAssertEqual(second, first + 1, "above the last version given, which FEED.keys keeps")
        XCTAssertEqual(try String(contentsOf: server.root.appendingPathComponent("feed.plist.keys"), encoding: .utf8),
                       "# Ids removed from feed.plist by herald feed remove: never use them again.\n# last signed version \(second)\n")
    }

    func testAnExpiredFeedIsRefusedEvenWhenTheServerSaysItIsUnchanged() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        // Signed as `herald feed sign --expires-in` would, for a lifetime of a few seconds.
        let content = Data(Fixtures.xmlFeed(Self.both).utf8)
        let expires = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 4).rounded(.down))
        let metadata = FeedSignature.Metadata(version: 1, expires: expires)
        let signature = try Ed25519.sign(FeedSignature.message(for: content, metadata: metadata), seed: try seed(keyFile))
        try (content + Data(FeedSignature.block(for: .init(bytes: signature, metadata: metadata)).utf8))
            .write(to: server.root.appendingPathComponent("feed.plist"))
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [publicKey], count: 2).count, 2)
        // Past the expiry the server still answers 304 for the same bytes: a frozen feed.
        Thread.sleep(until: expires.addingTimeInterval(0.5))
        let asked = server.requests.count
        try assertRefused(session, try check(session, server.url("feed.plist"), keys: [publicKey]), kind: "feed-expired",
                          message: "the feed's signature expired at \(expires.formatted(.iso8601)): a feed not signed again is refused")
        XCTAssertEqual(server.requests.dropFirst(asked).first?.headers.keys.contains { $0.lowercased() == "if-none-match" },
                       true, "the check asked for the copy it had, and the server said it is unchanged")
    }

    /// The private key's seed, as `herald feed keygen` wrote it.
    func seed(_ keyFile: String) throws -> Data {
        try XCTUnwrap(Data(base64Encoded: try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    func testAFeedSignedForAnotherAppIsRefused() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        try publishSigned(Self.both, on: server, session: session, keyFile: keyFile, ["--app-id", "org.example.Other"])
        try assertRefused(session, try check(session, server.url("feed.plist"), keys: [publicKey]), kind: "feed-for-another-app",
                          message: "the feed is signed for another app, org.example.Other")
        try publishSigned(Self.both, on: server, session: session, keyFile: keyFile, ["--app-id", appID])
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [publicKey], count: 2).count, 2)
    }

    func testAFeedSignedWithTheNewKeyIsShownByAnAppTrustingTheOldAndTheNew() throws {
        let (session, server, oldKeyFile, oldKey) = try setUpPublisher()
        let (newKeyFile, newKey) = try makeKey(session, "new.key")
        try publishSigned(Self.both, on: server, session: session, keyFile: oldKeyFile)
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [oldKey, newKey], count: 2).count, 2)
        let signed = try publishSigned(Self.both, on: server, session: session, keyFile: newKeyFile)
        _ = try session.heraldToCompletion(["state", "--app-id", appID, "--reset"])
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [oldKey, newKey], count: 2).count, 2)
        let path = server.root.appendingPathComponent("feed.plist").path
        let verified = try session.heraldToCompletion(["feed", "verify", path, "--public-key", oldKey, "--public-key", newKey])
        XCTAssertEqual(verified.status, 0)
        XCTAssertEqual(verified.output, "\(path): the signature matches (2 messages): version \(try version(of: signed)), for any app; "
                           + "verified with key 2 of 2\n")
        // An app that still trusts the old key alone refuses the new signature.
        let oldOnly = try session.heraldToCompletion(["feed", "verify", path, "--public-key", oldKey])
        XCTAssertEqual(oldOnly.status, 65)
    }

    func testAnOldFormatSignatureStillVerifiesAsUnversionedUntilAVersionedFeedWasAccepted() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        // The previous format: the bytes alone are signed, the block has no metadata.
        let content = Data(Fixtures.xmlFeed(Self.both).utf8)
        let signature = try Ed25519.sign(content, seed: try seed(keyFile))
        let oldSigned = content + Data("<!-- herald-signature: ed25519 \(signature.base64EncodedString()) -->\n".utf8)
        let path = server.root.appendingPathComponent("feed.plist")
        try oldSigned.write(to: path)
        let verified = try session.heraldToCompletion(["feed", "verify", path.path, "--public-key", publicKey])
        XCTAssertEqual(verified.status, 0)
        XCTAssertEqual(verified.output, "\(path.path): the signature matches (2 messages): unversioned (the previous format); verified with key 1 of 1\n")
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [publicKey], count: 2).count, 2)
        XCTAssertNil(try session.state(appID: appID)["feedVersions"], "nothing versioned accepted yet")
        let versioned = try publishSigned(Self.both, on: server, session: session, keyFile: keyFile)
        _ = try session.heraldToCompletion(["state", "--app-id", appID, "--reset"])
        XCTAssertEqual(try checkShows(session, server.url("feed.plist"), keys: [publicKey], count: 2).count, 2)
        // Going back to the unversioned feed would be a rollback.
        try oldSigned.write(to: path)
        try assertRefused(session, try check(session, server.url("feed.plist"), keys: [publicKey]), kind: "feed-replayed",
                          message: "the feed's signature is unversioned, but version \(try version(of: versioned)) was accepted before: "
                              + "an old feed served again is refused")
    }

    func testSigningTwiceGivesRisingVersionsAndVerifySaysThemWithTheExpiryAndApp() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        let before = UInt64(Date().timeIntervalSince1970)
        let first = try version(of: try publishSigned(Self.both, on: server, session: session, keyFile: keyFile))
        let second = try version(of: try publishSigned(Self.both, on: server, session: session, keyFile: keyFile))
        let third = try publishSigned(Self.both, on: server, session: session, keyFile: keyFile, ["--expires-in", "7d", "--app-id", appID])
        XCTAssertGreaterThanOrEqual(first, before, "at least the time of signing")
        XCTAssertGreaterThan(second, first)
        XCTAssertGreaterThan(try version(of: third), second)
        let expires = try XCTUnwrap(String(decoding: third, as: UTF8.self).components(separatedBy: "expires=").last?.prefix(20))
        let path = server.root.appendingPathComponent("feed.plist").path
        let verified = try session.heraldToCompletion(["feed", "verify", path, "--public-key", publicKey])
        XCTAssertEqual(verified.status, 0)
        XCTAssertEqual(verified.output, "\(path): the signature matches (2 messages): version \(try version(of: third)), expires \(expires), "
                           + "for \(appID); verified with key 1 of 1\n")
        // Detached signatures rise too, from the trailing block's version.
        let json = server.root.appendingPathComponent("feed.json").path
        try server.publish("feed.json", #"{"a": {"Title": "A"}}"#)
        for _ in 0..<2 { XCTAssertEqual(try session.heraldToCompletion(["feed", "sign", json, "--private-key", keyFile]).status, 0) }
        let sig = try String(contentsOfFile: json + ".sig", encoding: .utf8)
        XCTAssertTrue(sig.hasPrefix("ed25519 version="), sig)
        let refused = try session.heraldToCompletion(["feed", "sign", path, "--private-key", keyFile, "--expires-in", "7 days"])
        XCTAssertEqual(refused.status, 64, "a lifetime that does not read is a usage error")
    }
}
