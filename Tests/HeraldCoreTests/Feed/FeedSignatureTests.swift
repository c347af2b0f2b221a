import Foundation
import HeraldCore
import XCTest

/// DESIGN.md D20: where a signature sits, what it covers (the bytes and the signed version,
/// expiry and app), when a matching one is still refused, and how a bad one is described.
final class FeedSignatureTests: XCTestCase {
    let signature = Data(repeating: 7, count: 64)
    let feed = Data("<plist version=\"1.0\"><dict/></plist>\n".utf8)
    let expiry = Date(timeIntervalSince1970: 1_796_205_600)  // 2026-12-02T10:00:00Z
    var oldFormat: FeedSignature.Signature { FeedSignature.Signature(bytes: signature, metadata: nil) }
    var versioned: FeedSignature.Signature {
        FeedSignature.Signature(bytes: signature, metadata: .init(version: 1_764_000_000, expires: expiry, appID: "org.example.App"))
    }

    func testATrailingBlockSignsEverythingBeforeIt() throws {
        let signed = feed + Data(FeedSignature.block(for: oldFormat).utf8)
        let split = try FeedSignature.split(signed)
        XCTAssertEqual(split.content, feed)
        XCTAssertEqual(split.signature, oldFormat)
        XCTAssertEqual(FeedSignature.block(for: oldFormat), "<!-- herald-signature: ed25519 \(signature.base64EncodedString()) -->\n")
    }

    func testTheVersionExpiryAndAppTravelReadablyInTheBlockAndTheSignatureFile() throws {
        let base64 = signature.base64EncodedString()
        XCTAssertEqual(FeedSignature.block(for: versioned),
                       "<!-- herald-signature: ed25519 version=1764000000 expires=2026-12-02T10:00:00Z app=org.example.App \(base64) -->\n")
        XCTAssertEqual(FeedSignature.detachedText(for: versioned), "ed25519 version=1764000000 expires=2026-12-02T10:00:00Z app=org.example.App \(base64)\n")
        let split = try FeedSignature.split(feed + Data(FeedSignature.block(for: versioned).utf8))
        XCTAssertEqual(split.content, feed)
        XCTAssertEqual(split.signature, versioned)
        XCTAssertEqual(try FeedSignature.detached(Data(FeedSignature.detachedText(for: versioned).utf8)), versioned)
        let versionOnly = FeedSignature.Signature(bytes: signature, metadata: .init(version: 5))
        XCTAssertEqual(FeedSignature.detachedText(for: versionOnly), "ed25519 version=5 \(base64)\n")
        XCTAssertEqual(try FeedSignature.detached(Data(FeedSignature.detachedText(for: versionOnly).utf8)), versionOnly)
    }

    func testTheSignedMessageIsTheMetadataLinesThenABlankLineThenTheExactBytes() {
        XCTAssertEqual(FeedSignature.message(for: feed, metadata: versioned.metadata),
                       Data("herald-feed-signature v2\nversion 1764000000\nexpires 2026-12-02T10:00:00Z\napp org.example.App\n\n".utf8) + feed)
        XCTAssertEqual(FeedSignature.message(for: feed, metadata: .init(version: 7)), Data("herald-feed-signature v2\nversion 7\n\n".utf8) + feed)
        XCTAssertEqual(FeedSignature.message(for: feed, metadata: nil), feed, "the previous format signs the bytes alone")
    }

    func testAFeedWithoutABlockIsAllContent() throws {
        let split = try FeedSignature.split(feed)
        XCTAssertEqual(split.content, feed)
        XCTAssertNil(split.signature)
    }

    func testABlockThatIsNotLastOrNotEd25519IsMalformed() {
        let misplaced = feed + Data(FeedSignature.block(for: oldFormat).utf8) + Data("<!-- more -->".utf8)
        XCTAssertThrowsError(try FeedSignature.split(misplaced)) { error in
            XCTAssertEqual((error as? FeedSignatureProblem)?.description,
                           "the feed's signature cannot be read: the trailing signature block is not "
                               + "'<!-- herald-signature: ed25519 [version=N] [expires=T] [app=ID] BASE64 -->' at the very end")
        }
        let otherAlgorithm = feed + Data("<!-- herald-signature: rsa \(signature.base64EncodedString()) -->".utf8)
        XCTAssertThrowsError(try FeedSignature.split(otherAlgorithm))
        let short = feed + Data("<!-- herald-signature: ed25519 AAAA -->".utf8)
        XCTAssertThrowsError(try FeedSignature.split(short)) { error in
            XCTAssertEqual(error as? FeedSignatureProblem, .malformed("the signature is 3 bytes, not 64"))
        }
    }

    func testMetadataOutOfOrderRepeatedOrNotCanonicalIsMalformed() {
        let base64 = signature.base64EncodedString()
        let cases = [
            "expires=2026-12-02T10:00:00Z version=1": "'expires=2026-12-02T10:00:00Z' is not 'version=N', N a whole number without leading zeros",
            "version=01": "'version=01' is not 'version=N', N a whole number without leading zeros",
            "version=-1": "'version=-1' is not 'version=N', N a whole number without leading zeros",
            "version=9223372036854775808": "'version=9223372036854775808' is not 'version=N', N a whole number without leading zeros",
            "version=1 version=2": "'version=2' is not expected there: the words are version=, expires=, app=, in that order",
            "version=1 app=a.b expires=2026-12-02T10:00:00Z": "'expires=2026-12-02T10:00:00Z' is not expected there: the words are version=, expires=, app=, in that order",
            "version=1 expires=2026-12-02T10:00:00+01:00": "'expires=2026-12-02T10:00:00+01:00' is not 'expires=YYYY-MM-DDTHH:MM:SSZ'",
            "version=1 app=../x": "'app=../x' does not name an app id",
        ]
        for (words, reason) in cases {
            XCTAssertThrowsError(try FeedSignature.split(feed + Data("<!-- herald-signature: ed25519 \(words) \(base64) -->".utf8)), words) { error in
                XCTAssertEqual(error as? FeedSignatureProblem, .malformed(reason), words)
            }
            XCTAssertThrowsError(try FeedSignature.detached(Data("ed25519 \(words) \(base64)\n".utf8)), words) { error in
                XCTAssertEqual(error as? FeedSignatureProblem, .malformed(reason), words)
            }
        }
    }

    func testADetachedSignatureFileHoldsTheAlgorithmAndBase64OrTheBase64Alone() throws {
        XCTAssertEqual(try FeedSignature.detached(Data(FeedSignature.detachedText(for: oldFormat).utf8)), oldFormat)
        XCTAssertEqual(try FeedSignature.detached(Data((signature.base64EncodedString() + "\n").utf8)), oldFormat)
        XCTAssertThrowsError(try FeedSignature.detached(Data("<html>not found</html>".utf8)))
    }

    /// A signature with `metadata` over some bytes; `bytes` names which.
    func signed(_ metadata: FeedSignature.Metadata?, bytes: UInt8 = 1) -> FeedSignature.Signature {
        FeedSignature.Signature(bytes: Data(repeating: bytes, count: 64), metadata: metadata)
    }

    /// What the app accepted: `version`, with the signature over bytes `bytes` (`nil`: a state
    /// written before the signature was kept).
    func accepted(_ version: UInt64, bytes: UInt8? = 1) -> FeedSignature.Accepted {
        FeedSignature.Accepted(version: version, signature: bytes.map { Data(repeating: $0, count: 64) })
    }

    func testALowerVersionThanOneAcceptedIsAReplayAndTheSameFeedAgainIsNot() {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let feed = signed(FeedSignature.Metadata(version: 100))
        XCTAssertNil(FeedSignature.refusal(of: feed, accepted: nil, now: now, appID: "a.b"))
        XCTAssertNil(FeedSignature.refusal(of: feed, accepted: accepted(100), now: now, appID: "a.b"), "the same feed again (a 304)")
        XCTAssertNil(FeedSignature.refusal(of: feed, accepted: accepted(99, bytes: 2), now: now, appID: "a.b"))
        XCTAssertEqual(FeedSignature.refusal(of: feed, accepted: accepted(101), now: now, appID: "a.b"), .replayed(version: 100, accepted: 101))
        XCTAssertEqual(FeedSignatureProblem.replayed(version: 100, accepted: 101).description,
                       "the feed is signed as version 100, older than version 101 accepted before: an old feed served again is refused")
    }

    func testTheSameVersionOverOtherBytesThanTheOneAcceptedIsAReplay() {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let other = signed(FeedSignature.Metadata(version: 100), bytes: 2)
        XCTAssertEqual(FeedSignature.refusal(of: other, accepted: accepted(100), now: now, appID: "a.b"), .replayed(version: 100, accepted: 100))
        XCTAssertEqual(FeedSignatureProblem.replayed(version: 100, accepted: 100).description,
                       "the feed is signed as version 100, which was accepted before over other contents: an old feed served again is refused")
        XCTAssertNil(FeedSignature.refusal(of: other, accepted: accepted(100, bytes: nil), now: now, appID: "a.b"),
                     "a state that kept no signature judges by the version alone")
    }

    func testTheStateKeepsTheSignatureOfTheHighestVersionItAccepted() throws {
        var state = HeraldState()
        let url = "https://example.org/feed.plist"
        XCTAssertNil(state.acceptedSignature(from: url))
        state.acceptSignature(.init(version: 100), bytes: Data([1]), from: url)
        XCTAssertEqual(state.acceptedSignature(from: url), FeedSignature.Accepted(version: 100, signature: Data([1])))
        state.acceptSignature(.init(version: 99), bytes: Data([2]), from: url)
        state.acceptSignature(.init(version: 100), bytes: Data([3]), from: url)
        XCTAssertEqual(state.acceptedSignature(from: url), FeedSignature.Accepted(version: 100, signature: Data([1])), "neither lower nor equal replaces it")
        state.acceptSignature(.init(version: 101), bytes: Data([4]), from: url)
        XCTAssertEqual(state.acceptedSignature(from: url), FeedSignature.Accepted(version: 101, signature: Data([4])))
        XCTAssertEqual(StateFileFormat.decode(try StateFileFormat.encode(state))?.acceptedSignature(from: url), state.acceptedSignature(from: url))
    }

    func testAnUnversionedSignatureIsAcceptedUntilAVersionedOneWasThenItIsAReplay() {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        XCTAssertNil(FeedSignature.refusal(of: signed(nil), accepted: nil, now: now, appID: "a.b"))
        XCTAssertEqual(FeedSignature.refusal(of: signed(nil), accepted: accepted(5), now: now, appID: "a.b"), .replayed(version: nil, accepted: 5))
        XCTAssertEqual(FeedSignatureProblem.replayed(version: nil, accepted: 5).description,
                       "the feed's signature is unversioned, but version 5 was accepted before: an old feed served again is refused")
    }

    func testASignatureIsRefusedFromTheInstantItExpires() {
        let metadata = signed(FeedSignature.Metadata(version: 1, expires: expiry))
        XCTAssertNil(FeedSignature.refusal(of: metadata, accepted: nil, now: expiry.addingTimeInterval(-1), appID: nil))
        XCTAssertEqual(FeedSignature.refusal(of: metadata, accepted: nil, now: expiry, appID: nil), .expired(expiry))
        XCTAssertEqual(FeedSignatureProblem.expired(expiry).description,
                       "the feed's signature expired at 2026-12-02T10:00:00Z: a feed not signed again is refused")
    }

    func testASignatureForAnotherAppIsRefusedAndOneForNoAppIsAnyAppsFeed() {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let forOther = signed(FeedSignature.Metadata(version: 1, appID: "org.example.Other"))
        XCTAssertEqual(FeedSignature.refusal(of: forOther, accepted: nil, now: now, appID: "org.example.App"), .forAnotherApp("org.example.Other"))
        XCTAssertNil(FeedSignature.refusal(of: forOther, accepted: nil, now: now, appID: "org.example.Other"))
        XCTAssertNil(FeedSignature.refusal(of: signed(.init(version: 1)), accepted: nil, now: now, appID: "org.example.App"))
        XCTAssertEqual(FeedSignatureProblem.forAnotherApp("org.example.Other").description, "the feed is signed for another app, org.example.Other")
    }

    func testEverySigningRaisesTheVersionAboveTheLastAndToTheClock() {
        let now = Date(timeIntervalSince1970: 1_764_000_000.9)
        XCTAssertEqual(FeedSignature.nextVersion(after: nil, now: now), 1_764_000_000)
        XCTAssertEqual(FeedSignature.nextVersion(after: .init(version: 5), now: now), 1_764_000_000)
        XCTAssertEqual(FeedSignature.nextVersion(after: .init(version: 1_764_000_000), now: now), 1_764_000_001, "twice in one second")
        XCTAssertEqual(FeedSignature.nextVersion(after: .init(version: 1_900_000_000), now: now), 1_900_000_001, "a clock set back")
        XCTAssertEqual(FeedSignature.nextVersion(after: .init(version: FeedSignature.maximumVersion), now: now), FeedSignature.maximumVersion)
    }

    func testAPublicKeyIs32BytesOfBase64() throws {
        XCTAssertEqual(try FeedSignature.publicKey(base64: Data(repeating: 1, count: 32).base64EncodedString()).count, 32)
        for bad in ["", "AAAA", Data(repeating: 1, count: 31).base64EncodedString(), "not base64!"] {
            XCTAssertThrowsError(try FeedSignature.publicKey(base64: bad)) { error in
                XCTAssertEqual((error as? FeedSignatureProblem)?.description, "the public key is not an Ed25519 key: expected 32 bytes in base64")
            }
        }
    }
}
