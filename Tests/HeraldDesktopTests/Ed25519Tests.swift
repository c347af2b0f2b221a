import Foundation
import HeraldCore
import HeraldDesktop
import XCTest

/// Ed25519 through nettle, held to RFC 8032's own test vectors (section 7.1).
final class Ed25519Tests: XCTestCase {
    func hex(_ text: String) -> Data {
        Data(stride(from: 0, to: text.count, by: 2).map { offset in
            UInt8(text[text.index(text.startIndex, offsetBy: offset)...].prefix(2), radix: 16)!
        })
    }

    func testRFC8032VectorsSignAndVerify() throws {
        let vectors = [
            (seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
             key: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", message: "",
             signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
            (seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
             key: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", message: "72",
             signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ]
        for vector in vectors {
            XCTAssertEqual(try Ed25519.publicKey(seed: hex(vector.seed)), hex(vector.key))
            XCTAssertEqual(try Ed25519.sign(hex(vector.message), seed: hex(vector.seed)), hex(vector.signature))
            XCTAssertTrue(try Ed25519.isValid(signature: hex(vector.signature), of: hex(vector.message), publicKey: hex(vector.key)))
        }
    }

    func testOneFlippedBitInTheMessageOrTheSignatureIsRefused() throws {
        let seed = try Ed25519.newSeed()
        let key = try Ed25519.publicKey(seed: seed)
        let message = Data("<plist><dict/></plist>".utf8)
        let signature = try Ed25519.sign(message, seed: seed)
        XCTAssertTrue(try Ed25519.isValid(signature: signature, of: message, publicKey: key))
        var changedMessage = message
        changedMessage[3] ^= 1
        XCTAssertFalse(try Ed25519.isValid(signature: signature, of: changedMessage, publicKey: key))
        var changedSignature = signature
        changedSignature[10] ^= 0x80
        XCTAssertFalse(try Ed25519.isValid(signature: changedSignature, of: message, publicKey: key))
        XCTAssertFalse(try Ed25519.isValid(signature: signature, of: message, publicKey: try Ed25519.publicKey(seed: try Ed25519.newSeed())))
    }

    func testNewKeysDiffer() throws {
        XCTAssertNotEqual(try Ed25519.newSeed(), try Ed25519.newSeed())
    }
}
