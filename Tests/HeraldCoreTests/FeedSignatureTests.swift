import Foundation
import HeraldCore
import XCTest

/// DESIGN.md D20: where a signature sits, what it covers, and how a bad one is described.
final class FeedSignatureTests: XCTestCase {
    let signature = Data(repeating: 7, count: 64)
    let feed = Data("<plist version=\"1.0\"><dict/></plist>\n".utf8)

    func testATrailingBlockSignsEverythingBeforeIt() throws {
        let signed = feed + Data(FeedSignature.block(for: signature).utf8)
        let split = try FeedSignature.split(signed)
        XCTAssertEqual(split.content, feed)
        XCTAssertEqual(split.signature, signature)
        XCTAssertEqual(FeedSignature.block(for: signature), "<!-- herald-signature: ed25519 \(signature.base64EncodedString()) -->\n")
    }

    func testAFeedWithoutABlockIsAllContent() throws {
        let split = try FeedSignature.split(feed)
        XCTAssertEqual(split.content, feed)
        XCTAssertNil(split.signature)
    }

    func testABlockThatIsNotLastOrNotEd25519IsMalformed() {
        let misplaced = feed + Data(FeedSignature.block(for: signature).utf8) + Data("<!-- more -->".utf8)
        XCTAssertThrowsError(try FeedSignature.split(misplaced)) { error in
            XCTAssertEqual((error as? FeedSignatureProblem)?.description,
                           "the feed's signature cannot be read: the trailing signature block is not '<!-- herald-signature: ed25519 BASE64 -->' at the very end")
        }
        let otherAlgorithm = feed + Data("<!-- herald-signature: rsa \(signature.base64EncodedString()) -->".utf8)
        XCTAssertThrowsError(try FeedSignature.split(otherAlgorithm))
        let short = feed + Data("<!-- herald-signature: ed25519 AAAA -->".utf8)
        XCTAssertThrowsError(try FeedSignature.split(short)) { error in
            XCTAssertEqual(error as? FeedSignatureProblem, .malformed("the signature is 3 bytes, not 64"))
        }
    }

    func testADetachedSignatureFileHoldsTheAlgorithmAndBase64OrTheBase64Alone() throws {
        XCTAssertEqual(try FeedSignature.detached(Data(FeedSignature.detachedText(for: signature).utf8)), signature)
        XCTAssertEqual(try FeedSignature.detached(Data((signature.base64EncodedString() + "\n").utf8)), signature)
        XCTAssertThrowsError(try FeedSignature.detached(Data("<html>not found</html>".utf8)))
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
