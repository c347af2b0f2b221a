import Foundation
import HeraldTestSupport
import XCTest

/// Signed feeds (DESIGN.md D20), as a publisher makes them with `herald feed` and as an app
/// with the public key checks them: a missing or wrong signature fails closed.
final class FeedSigningEndToEndTests: XCTestCase {
    let appID = "org.example.Signed"
    let feed = Fixtures.xmlFeed(["2026/11/01": ["Title": "Signed news", "Message": "From the publisher"]])

    /// A session, a feed server, a key pair made by `herald feed keygen`, and the key's public half.
    func setUpPublisher() throws -> (session: DesktopSession, server: FeedServer, keyFile: String, publicKey: String) {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        let keyFile = session.directory.appendingPathComponent("feed.key").path
        let made = try session.heraldToCompletion(["feed", "keygen", "--private-key", keyFile])
        XCTAssertEqual(made.status, 0)
        return (session, server, keyFile, made.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func publishSigned(_ name: String, _ contents: String, on server: FeedServer, session: DesktopSession, keyFile: String,
                       detached: Bool = false) throws {
        try server.publish(name, contents)
        let signed = try session.heraldToCompletion(["feed", "sign", server.root.appendingPathComponent(name).path, "--private-key", keyFile]
                                                    + (detached ? ["--detached"] : []))
        XCTAssertEqual(signed.status, 0, signed.output)
    }

    func check(_ session: DesktopSession, _ url: String, key: String, _ extra: [String] = []) throws -> ChildProcess {
        try session.herald(["check", "--json", "--feed", url, "--app-id", appID, "--show-on-first-launch", "--force", "--wait", "20",
                            "--public-key", key] + extra)
    }

    func failure(_ run: ChildProcess) -> [String: String] {
        let failed = run.events.first { $0["event"] as? String == "failed" } ?? [:]
        return failed.compactMapValues { "\($0)" }
    }

    /// The check refused the feed: exit 65 with `message`, nothing shown, nothing marked.
    func assertRefused(_ session: DesktopSession, _ run: ChildProcess, message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(run.wait(), 65, run.output + run.errorOutput, file: file, line: line)
        XCTAssertEqual(failure(run), ["event": "failed", "kind": "signature", "message": message, "exitCode": "65"], file: file, line: line)
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing shown", file: file, line: line)
        let state = try session.state(appID: appID)
        XCTAssertNil(state["lastChecked"], "a bad signature is a failed check", file: file, line: line)
        XCTAssertEqual(state["viewed"] as? [String], [], file: file, line: line)
    }

    func testKeygenWritesThePrivateKeyForItsOwnerAloneAndPrintsThePublicKey() throws {
        let (session, _, keyFile, publicKey) = try setUpPublisher()
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(Data(base64Encoded: publicKey)?.count, 32)
        let again = try session.heraldToCompletion(["feed", "keygen", "--private-key", keyFile])
        XCTAssertEqual(again.status, 73, "an existing key is never replaced")
        // As the README has it, on a fresh machine: the folder is made, for its owner only.
        try session.useStandardBudget()
        let nested = session.directory.appendingPathComponent("config/herald/feed.key").path
        let fresh = try session.heraldToCompletion(["feed", "keygen", "--private-key", nested])
        XCTAssertEqual(fresh.status, 0, fresh.output)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: nested)[.posixPermissions] as? Int, 0o600)
        let folder = session.directory.appendingPathComponent("config/herald").path
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int, 0o700)
    }

    func testAGoodTrailingSignatureShowsTheFeedAndA304ReusesTheVerifiedCopy() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        try publishSigned("feed.plist", feed, on: server, session: session, keyFile: keyFile)
        let first = try check(session, server.url("feed.plist"), key: publicKey)
        XCTAssertTrue(eventually { first.events.contains { $0["event"] as? String == "shown" } }, first.output + first.errorOutput)
        first.signal(SIGTERM)
        XCTAssertEqual(first.wait(), 143, "128 + SIGTERM")
        let second = try check(session, server.url("feed.plist"), key: publicKey)
        XCTAssertTrue(eventually { second.events.contains { $0["event"] as? String == "shown" } }, second.output + second.errorOutput)
        second.signal(SIGTERM)
        XCTAssertEqual(second.wait(), 143, "128 + SIGTERM")
        XCTAssertEqual(second.events.first?["event"] as? String, "not-modified")
        XCTAssertEqual(server.requests.map(\.path), ["/feed.plist", "/feed.plist"], "no signature file is asked for")
    }

    func testAGoodDetachedSignatureShowsAJSONFeed() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        try publishSigned("feed.json", #"{"2026/11/01": {"Title": "Signed JSON"}}"#, on: server, session: session, keyFile: keyFile)
        XCTAssertTrue(FileManager.default.fileExists(atPath: server.root.appendingPathComponent("feed.json.sig").path))
        let run = try check(session, server.url("feed.json"), key: publicKey)
        XCTAssertTrue(eventually { run.events.contains { $0["event"] as? String == "shown" } }, run.output + run.errorOutput)
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(), 143, "128 + SIGTERM")
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Signed JSON"])
    }

    func testOneFlippedBitInTheFeedFailsClosedAndKeepsTheCachedCopy() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        try publishSigned("feed.plist", feed, on: server, session: session, keyFile: keyFile)
        let good = try check(session, server.url("feed.plist"), key: publicKey)
        XCTAssertTrue(eventually { good.events.contains { $0["event"] as? String == "shown" } })
        good.signal(SIGTERM)
        XCTAssertEqual(good.wait(), 143, "128 + SIGTERM")
        let cacheFile = session.environment["XDG_CACHE_HOME"]! + "/herald/\(appID).feed"
        let cachedBefore = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        let path = server.root.appendingPathComponent("feed.plist")
        var bytes = try Data(contentsOf: path)
        let title = bytes.firstRange(of: Data("Signed news".utf8))!
        bytes[title.lowerBound] ^= 0x01  // "Signed" becomes "Rigned"
        try bytes.write(to: path)
        _ = try session.heraldToCompletion(["state", "--app-id", appID, "--reset"])
        try Data(cachedBefore).write(to: URL(fileURLWithPath: cacheFile))
        let notifiedBefore = try session.notifyCalls().count
        let run = try check(session, server.url("feed.plist"), key: publicKey)
        XCTAssertEqual(run.wait(), 65)
        XCTAssertEqual(failure(run)["message"], "the feed's signature does not match its contents and the app's public key")
        XCTAssertEqual(try session.notifyCalls().count, notifiedBefore, "nothing shown")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cacheFile)), cachedBefore, "the cached copy is not replaced")
    }

    func testOneFlippedBitInTheSignatureFailsClosed() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        try publishSigned("feed.json", #"{"a": {"Title": "A"}}"#, on: server, session: session, keyFile: keyFile)
        let sigPath = server.root.appendingPathComponent("feed.json.sig")
        let words = try String(contentsOf: sigPath, encoding: .utf8).split(separator: " ")
        var signature = Data(base64Encoded: words.last!.trimmingCharacters(in: .whitespacesAndNewlines))!
        signature[5] ^= 0x04
        try (words.dropLast().joined(separator: " ") + " \(signature.base64EncodedString())\n").write(to: sigPath, atomically: true, encoding: .utf8)
        try assertRefused(session, try check(session, server.url("feed.json"), key: publicKey),
                          message: "the feed's signature does not match its contents and the app's public key")
    }

    func testASignatureMadeForAnotherFeedFailsClosed() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        try publishSigned("other.json", #"{"a": {"Title": "Other"}}"#, on: server, session: session, keyFile: keyFile)
        try server.publish("feed.json", #"{"a": {"Title": "Forged"}}"#)
        try FileManager.default.copyItem(at: server.root.appendingPathComponent("other.json.sig"), to: server.root.appendingPathComponent("feed.json.sig"))
        try assertRefused(session, try check(session, server.url("feed.json"), key: publicKey),
                          message: "the feed's signature does not match its contents and the app's public key")
    }

    func testAMissingSignatureFailsClosed() throws {
        let (session, server, _, publicKey) = try setUpPublisher()
        try server.publish("feed.plist", feed)
        try assertRefused(session, try check(session, server.url("feed.plist"), key: publicKey),
                          message: "the feed is not signed: it has no signature block at its end, and \(server.url("feed.plist.sig")) "
                              + "could not be read (the feed server answered HTTP 404)")
    }

    func testAKeyOfTheWrongLengthIsAUsageError() throws {
        let (session, server, keyFile, _) = try setUpPublisher()
        try publishSigned("feed.plist", feed, on: server, session: session, keyFile: keyFile)
        let short = Data(repeating: 1, count: 31).base64EncodedString()
        let result = try session.heraldToCompletion(["check", "--feed", server.url("feed.plist"), "--app-id", appID, "--public-key", short])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(server.requests.count, 0, "nothing is fetched")
    }

    func testWithoutAKeyASignedFeedStillShowsForAppsThatDoNotCheck() throws {
        let (session, server, keyFile, _) = try setUpPublisher()
        try publishSigned("feed.plist", feed, on: server, session: session, keyFile: keyFile)
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch", "--wait", "20"])
        XCTAssertTrue(eventually { run.events.contains { $0["event"] as? String == "shown" } }, run.output + run.errorOutput)
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(), 143, "128 + SIGTERM")
    }

    func testSigningReadsThePrivateKeyFromStandardInputAndVerifyAgrees() throws {
        let (session, server, keyFile, publicKey) = try setUpPublisher()
        try server.publish("feed.plist", feed)
        let path = server.root.appendingPathComponent("feed.plist").path
        let signed = try runToCompletion("/bin/sh", ["-c", "\"$0\" feed sign \"$1\" --private-key - < \"$2\"", TestPaths.herald, path, keyFile],
                                         environment: session.environment)
        XCTAssertEqual(signed.status, 0)
        XCTAssertEqual(signed.output, "signed \(path): the signature is at its end\n")
        let verified = try session.heraldToCompletion(["feed", "verify", path, "--public-key", publicKey])
        XCTAssertEqual(verified.status, 0)
        let version = try XCTUnwrap(Fixtures.signedVersion(of: try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(verified.output, "\(path): the signature matches (1 message): version \(version), for any app; verified with key 1 of 1\n")
        let other = try session.heraldToCompletion(["feed", "verify", path, "--public-key", Data(repeating: 9, count: 32).base64EncodedString()])
        XCTAssertEqual(other.status, 65)
    }
}
