import Foundation
import Herald
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import HeraldTesting
import XCTest

/// Signed feeds in a check (DESIGN.md D20), with a manual clock: the expiry is read on the
/// check's clock, the accepted version is written with the check's success, and an app trusts
/// every key it lists.
final class SignedFeedPipelineTests: XCTestCase {
    static let seed = Data(repeating: 3, count: 32)
    static let otherSeed = Data(repeating: 5, count: 32)

    /// A feed file signed with `seed` and `metadata`, as a `file://` URL.
    func signedFeed(_ metadata: FeedSignature.Metadata?, seed: Data) throws -> String {
        let content = Data(Fixtures.xmlFeed(["a": ["Title": "Title a"]]).utf8)
        let signature = try Ed25519.sign(FeedSignature.message(for: content, metadata: metadata), seed: seed)
        let file = try Fixtures.temporaryDirectory("herald-signed").appendingPathComponent("feed.plist")
        try (content + Data(FeedSignature.block(for: .init(bytes: signature, metadata: metadata)).utf8)).write(to: file)
        return file.absoluteString
    }

    @MainContext
    static func pipeline(_ feed: String, keys: [Data], clock: ManualClock) throws -> (InMemoryStateStore, Herald, PipelineRecorder) {
        let store = InMemoryStateStore(CheckPipelineTests.launched)
        let presenter = RecordingPresenter(capabilities: ["actions", "body"])
        let herald = try Herald(configuration: .init(feedURL: feed, appID: "org.example.Pipeline", appVersion: "1",
                                                     publicKeys: keys.map { $0.base64EncodedString() }, waitLimit: .seconds(1)),
                                store: store, presenter: presenter, clock: clock, quietReason: { nil }, offSwitches: { .none })
        let recorder = PipelineRecorder(presenter)
        recorder.answer = "ok"
        herald.delegate = recorder
        return (store, herald, recorder)
    }

    func testAFeedIsShownUntilItsExpiryOnTheChecksClockAndRefusedFromThen() throws {
        let clock = ManualClock()
        let feed = try signedFeed(.init(version: 9, expires: clock.now.addingTimeInterval(60)), seed: Self.seed)
        let key = try Ed25519.publicKey(seed: Self.seed)
        try MainContext.assumeIsolated {
            let (store, herald, recorder) = try Self.pipeline(feed, keys: [key], clock: clock)
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
            XCTAssertEqual(store.state.feedVersions, [feed: 9], "the accepted version is kept with the check's success")
            let before = store.state
            clock.now = clock.now.addingTimeInterval(60)
            recorder.events = []
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["failed feed-expired", "finished"])
            XCTAssertEqual(store.state.lastChecked, before.lastChecked, "an expired feed is a failed check")
            XCTAssertEqual(store.state.viewed, before.viewed)
            XCTAssertEqual(store.state.feedVersions, [feed: 9])
            XCTAssertEqual(store.state.failure?.reason, "the feed's signature expired at 2023-11-14T22:14:20Z: a feed not signed again is refused")
        }
    }

    func testAnAppTrustsEveryKeyItListsAndTheSingleKeyConfigurationStillReads() throws {
        let clock = ManualClock()
        let feed = try signedFeed(.init(version: 1), seed: Self.otherSeed)
        let keys = [try Ed25519.publicKey(seed: Self.seed), try Ed25519.publicKey(seed: Self.otherSeed)]
        try MainContext.assumeIsolated {
            let (_, herald, recorder) = try Self.pipeline(feed, keys: keys, clock: clock)
            recorder.run { herald.checkNow() }
            XCTAssertEqual(recorder.events, ["fetched", "shown a", "ok a", "finished"])
            let (_, oldOnly, refused) = try Self.pipeline(feed, keys: [keys[0]], clock: clock)
            refused.run { oldOnly.checkNow() }
            XCTAssertEqual(refused.events, ["failed signature", "finished"])
        }
        var configuration = Herald.Configuration(feedURL: nil, appID: "org.example.App", appVersion: nil, publicKeys: ["A", "B"])
        XCTAssertEqual(configuration.publicKeys, ["A", "B"])
        configuration.publicKeys = ["C"]
        XCTAssertEqual(configuration.publicKeys, ["C"])
        XCTAssertEqual(Herald.Configuration(feedURL: nil, appID: "org.example.App", appVersion: nil, publicKeys: ["A"]).publicKeys, ["A"])
    }
}
