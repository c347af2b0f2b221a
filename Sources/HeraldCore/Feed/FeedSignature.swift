import FoundationEssentials

/// Where a signed feed keeps its Ed25519 signature, and how it is written (DESIGN.md D20).
///
/// A signature covers the feed's exact bytes. An XML property list carries it at its very end,
/// in a comment that older readers skip, as Sparkle 2.9 signs appcasts:
///
/// ```
/// …</plist>
/// <!-- herald-signature: ed25519 BASE64-OF-64-BYTES -->
/// ```
///
/// The signed bytes are everything before `<!-- herald-signature:`. Formats without comments
/// (JSON, binary plists) carry it beside the feed instead, in `<feed URL>.sig`, which holds
/// `ed25519 BASE64` (or the base64 alone).
public enum FeedSignature {
    /// The marker that opens a trailing signature block.
    public static let marker = "<!-- herald-signature:"
    /// An Ed25519 signature's length in bytes.
    public static let signatureLength = 64
    /// An Ed25519 public key's length in bytes.
    public static let publicKeyLength = 32

    /// A feed's bytes split into what a trailing block signs and the signature it carries.
    public struct Split: Sendable, Equatable {
        /// The bytes the signature covers: the whole feed when it has no trailing block.
        public var content: Data
        /// The signature, when a well-formed trailing block ends the feed.
        public var signature: Data?
    }

    /// Splits off a trailing signature block, if the feed ends with one.
    ///
    /// - Throws: `FeedSignatureProblem.malformed` when a block is there but cannot be read.
    public static func split(_ bytes: Data) throws(FeedSignatureProblem) -> Split {
        let markerBytes = Array(marker.utf8)
        guard let start = lastRange(of: markerBytes, in: bytes) else { return Split(content: bytes, signature: nil) }
        let tail = String(decoding: bytes[start...].dropFirst(markerBytes.count), as: UTF8.self)
        let words = tail.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        guard words.count == 3, words[0] == "ed25519", words[2] == "-->" else {
            throw .malformed("the trailing signature block is not '\(marker) ed25519 BASE64 -->' at the very end")
        }
        let signature = try decodeSignature(String(words[1]))
        return Split(content: Data(bytes[..<start]), signature: signature)
    }

    /// Reads a detached signature file: `ed25519 BASE64`, or the base64 alone.
    public static func detached(_ bytes: Data) throws(FeedSignatureProblem) -> Data {
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0.isWhitespace })
        switch words.count {
        case 1: return try decodeSignature(String(words[0]))
        case 2 where words[0] == "ed25519": return try decodeSignature(String(words[1]))
        default: throw .malformed("the signature file does not hold 'ed25519 BASE64'")
        }
    }

    /// The trailing block that carries `signature`, ready to append after the signed bytes.
    public static func block(for signature: Data) -> String {
        "\(marker) ed25519 \(signature.base64EncodedString()) -->\n"
    }

    /// The text of a detached signature file.
    public static func detachedText(for signature: Data) -> String {
        "ed25519 \(signature.base64EncodedString())\n"
    }

    /// A public key as an app configures it: 32 bytes in base64 (Sparkle's `SUPublicEDKey`).
    ///
    /// - Throws: `FeedSignatureProblem.badPublicKey` otherwise.
    public static func publicKey(base64 text: String) throws(FeedSignatureProblem) -> Data {
        guard let key = Data(base64Encoded: NotificationText.trimmed(text)), key.count == publicKeyLength else {
            throw .badPublicKey
        }
        return key
    }

    private static func decodeSignature(_ text: String) throws(FeedSignatureProblem) -> Data {
        guard let signature = Data(base64Encoded: text) else { throw .malformed("the signature is not base64") }
        guard signature.count == signatureLength else {
            throw .malformed("the signature is \(signature.count) bytes, not \(signatureLength)")
        }
        return signature
    }

    private static func lastRange(of needle: [UInt8], in haystack: Data) -> Data.Index? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.endIndex - needle.count
        while index >= haystack.startIndex {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }
}

/// Why a feed's signature was not accepted. A check with a key configured then fails closed:
/// nothing shown, nothing marked, the cached copy kept (DESIGN.md D20).
public enum FeedSignatureProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither a trailing block nor a signature file beside the feed.
    case missing(detachedURL: String, reason: String)
    /// A signature is there but cannot be read.
    case malformed(String)
    /// The signature does not match the feed's bytes and the configured key.
    case doesNotMatch
    /// The configured public key is not 32 bytes of base64.
    case badPublicKey
    /// The Ed25519 implementation could not be loaded.
    case unavailable(String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .missing(let url, let reason):
            return "the feed is not signed: it has no signature block at its end, and \(url) could not be read (\(reason))"
        case .malformed(let reason): return "the feed's signature cannot be read: \(reason)"
        case .doesNotMatch: return "the feed's signature does not match its contents and the app's public key"
        case .badPublicKey: return "the public key is not an Ed25519 key: expected 32 bytes in base64"
        case .unavailable(let reason): return "signatures cannot be checked on this system: \(reason)"
        }
    }
}
