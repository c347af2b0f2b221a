import FoundationEssentials

/// Where a signed feed keeps its Ed25519 signature, what it covers, and how it is written
/// (DESIGN.md D20).
///
/// A signature covers the feed's exact bytes and the signed metadata: a version that only rises,
/// an optional expiry and an optional app id. An XML property list carries it at its very end,
/// in a comment that older readers skip, as Sparkle 2.9 signs appcasts:
///
/// ```
/// …</plist>
/// <!-- herald-signature: ed25519 version=1764000000 expires=2026-12-02T10:00:00Z app=org.example.App BASE64 -->
/// ```
///
/// The signed bytes are everything before `<!-- herald-signature:`. Formats without comments
/// (JSON, binary plists) carry the same words beside the feed instead, in `<feed URL>.sig`:
/// `ed25519 version=… [expires=…] [app=…] BASE64`.
///
/// The message signed is `message(for:metadata:)`: the line `herald-feed-signature v2`, then
/// `version N`, `expires T` and `app ID` lines (the last two only when given), a blank line,
/// then the feed's bytes. A signature without metadata (`ed25519 BASE64`, or the base64 alone
/// in a `.sig` file) is the previous format: it covers the bytes alone, and the feed is
/// unversioned.
package enum FeedSignature {
    /// The marker that opens a trailing signature block.
    package static let marker = "<!-- herald-signature:"
    /// An Ed25519 signature's length in bytes.
    package static let signatureLength = 64
    /// An Ed25519 public key's length in bytes.
    package static let publicKeyLength = 32
    /// The first line of every message signed with metadata: no feed's bytes are taken for a
    /// versioned message, nor a versioned message for a feed (a feed never starts with it).
    package static let messagePrefix = "herald-feed-signature v2\n"
    /// The highest version a signature may carry: `Int64.max`, so every tool that reads JSON
    /// numbers as signed 64-bit integers reads it in the state.
    package static let maximumVersion = UInt64(Int64.max)

    /// What a signature says besides the bytes it covers.
    package struct Metadata: Sendable, Equatable {
        /// Raised by every signing, never reused: a feed with a lower version than one an app
        /// accepted is a replay.
        package var version: UInt64
        /// After this instant (whole seconds, UTC) the feed is refused as frozen; `nil` never.
        package var expires: Date?
        /// The app the feed is for; `nil` for any app.
        package var appID: String?

        /// Creates the metadata of a signature.
        package init(version: UInt64, expires: Date? = nil, appID: String? = nil) {
            self.version = version
            self.expires = expires.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
            self.appID = appID
        }

        /// The words between `ed25519` and the signature: `version=N [expires=T] [app=ID]`.
        package var words: [String] {
            ["version=\(version)"] + (expires.map { ["expires=\(ISO8601Moment.text($0))"] } ?? []) + (appID.map { ["app=\($0)"] } ?? [])
        }

        /// The readable description `herald feed verify` prints: `version N, expires T, for ID`.
        package var description: String {
            (["version \(version)"] + (expires.map { ["expires \(ISO8601Moment.text($0))"] } ?? [])
                + [appID.map { "for \($0)" } ?? "for any app"]).joined(separator: ", ")
        }
    }

    /// A signature and what it signs besides the bytes.
    package struct Signature: Sendable, Equatable {
        /// The 64 signature bytes.
        package var bytes: Data
        /// The signed metadata; `nil` for the previous format, which signs the bytes alone.
        package var metadata: Metadata?

        /// Creates a signature.
        package init(bytes: Data, metadata: Metadata?) {
            self.bytes = bytes
            self.metadata = metadata
        }
    }

    /// A feed's bytes split into what a trailing block signs and the signature it carries.
    package struct Split: Sendable, Equatable {
        /// The bytes the signature covers: the whole feed when it has no trailing block.
        package var content: Data
        /// The signature, when a well-formed trailing block ends the feed.
        package var signature: Signature?
    }

    /// The exact message a signature covers: the bytes alone without metadata, else the
    /// prefix line, one line per field given, a blank line and the bytes.
    package static func message(for content: Data, metadata: Metadata?) -> Data {
        guard let metadata else { return content }
        var header = messagePrefix + "version \(metadata.version)\n"
        if let expires = metadata.expires { header += "expires \(ISO8601Moment.text(expires))\n" }
        if let appID = metadata.appID { header += "app \(appID)\n" }
        return Data((header + "\n").utf8) + content
    }

    /// Splits off a trailing signature block, if the feed ends with one.
    ///
    /// - Throws: `FeedSignatureProblem.malformed` when a block is there but cannot be read.
    package static func split(_ bytes: Data) throws(FeedSignatureProblem) -> Split {
        let markerBytes = Array(marker.utf8)
        guard let start = lastRange(of: markerBytes, in: bytes) else { return Split(content: bytes, signature: nil) }
        let tail = String(decoding: bytes[start...].dropFirst(markerBytes.count), as: UTF8.self)
        let words = tail.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        guard words.count >= 3, words.count <= 6, words[0] == "ed25519", words.last == "-->",
              words.dropFirst().dropLast(2).allSatisfy({ $0.contains("=") }) else {
            throw .malformed("the trailing signature block is not '\(marker) ed25519 [version=N] [expires=T] [app=ID] BASE64 -->' at the very end")
        }
        let metadata = try self.metadata(words.dropFirst().dropLast(2))
        let signature = try decodeSignature(String(words[words.count - 2]))
        return Split(content: Data(bytes[..<start]), signature: Signature(bytes: signature, metadata: metadata))
    }

    /// Reads a detached signature file: `ed25519 [version=N] [expires=T] [app=ID] BASE64`, or
    /// the base64 alone.
    package static func detached(_ bytes: Data) throws(FeedSignatureProblem) -> Signature {
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0.isWhitespace })
        if words.count == 1 { return Signature(bytes: try decodeSignature(String(words[0])), metadata: nil) }
        guard words.count >= 2, words.count <= 5, words[0] == "ed25519", words.dropFirst().dropLast().allSatisfy({ $0.contains("=") }) else {
            throw .malformed("the signature file does not hold 'ed25519 [version=N] [expires=T] [app=ID] BASE64'")
        }
        let metadata = try self.metadata(words.dropFirst().dropLast())
        return Signature(bytes: try decodeSignature(String(words[words.count - 1])), metadata: metadata)
    }

    /// The metadata words, in their one order: `version=` (required when any is given), then
    /// `expires=` and `app=`, each at most once; `nil` when there are none (the previous format).
    private static func metadata(_ words: ArraySlice<Substring>) throws(FeedSignatureProblem) -> Metadata? {
        guard let first = words.first else { return nil }
        guard first.hasPrefix("version="), let version = canonicalNumber(first.dropFirst("version=".count)) else {
            throw .malformed("'\(first)' is not 'version=N', N a whole number without leading zeros")
        }
        var metadata = Metadata(version: version)
        var rest = words.dropFirst()
        if let word = rest.first, word.hasPrefix("expires=") {
            let text = String(word.dropFirst("expires=".count))
            guard let date = ISO8601Moment.parseWritten(text) else {
                throw .malformed("'\(word)' is not 'expires=YYYY-MM-DDTHH:MM:SSZ'")
            }
            metadata.expires = date
            rest = rest.dropFirst()
        }
        if let word = rest.first, word.hasPrefix("app=") {
            let appID = String(word.dropFirst("app=".count))
            guard HeraldPaths.isValid(appID: appID) else { throw .malformed("'\(word)' does not name an app id") }
            metadata.appID = appID
            rest = rest.dropFirst()
        }
        if let word = rest.first { throw .malformed("'\(word)' is not expected there: the words are version=, expires=, app=, in that order") }
        return metadata
    }

    /// A decimal number as written by `String(_:)`: digits only, no leading zero, at most
    /// `maximumVersion`.
    private static func canonicalNumber(_ text: Substring) -> UInt64? {
        guard let number = UInt64(text), String(number) == text, number <= maximumVersion else { return nil }
        return number
    }

    /// The trailing block that carries `signature`, ready to append after the signed bytes.
    package static func block(for signature: Signature) -> String {
        "\(marker) \(words(of: signature)) -->\n"
    }

    /// The text of a detached signature file.
    package static func detachedText(for signature: Signature) -> String {
        words(of: signature) + "\n"
    }

    private static func words(of signature: Signature) -> String {
        (["ed25519"] + (signature.metadata?.words ?? []) + [signature.bytes.base64EncodedString()]).joined(separator: " ")
    }

    /// The version for the next signing of a feed last signed as `previous`: above every
    /// earlier one, and the current time in seconds when that is higher, so that a publisher
    /// who lost the old signature (or signs on two machines) still signs above it.
    package static func nextVersion(after previous: Metadata?, now: Date) -> UInt64 {
        let clock = UInt64(max(0, now.timeIntervalSince1970.rounded(.down)))
        guard let previous else { return min(clock, maximumVersion) }
        return min(max(previous.version + 1, clock), maximumVersion)
    }

    /// The newest signature an app accepted from a feed URL: its version and, where the state
    /// recorded it, its bytes. Ed25519 signs deterministically, so the same bytes signed with the
    /// same metadata give the same signature, and other bytes under the same version another.
    package struct Accepted: Sendable, Equatable {
        /// The highest version accepted.
        package var version: UInt64
        /// The signature accepted with that version; `nil` in a state written before it was kept.
        package var signature: Data?

        /// The record of an accepted signature.
        package init(version: UInt64, signature: Data?) {
            self.version = version
            self.signature = signature
        }
    }

    /// Why a verified signature is still refused, or `nil` to accept it.
    ///
    /// - Parameters:
    ///   - signature: the verified signature (its metadata and bytes).
    ///   - accepted: the newest signature the app accepted from this feed URL; a lower version,
    ///     the same version with another signature (other bytes), or an unversioned signature
    ///     once a versioned one was accepted, is a replay.
    ///   - now: the check's clock; at or after `expires` the feed is frozen.
    ///   - appID: the app checking; a feed signed for another app is refused.
    package static func refusal(of signature: Signature, accepted: Accepted?, now: Date, appID: String?) -> FeedSignatureProblem? {
        guard let metadata = signature.metadata else { return accepted.map { .replayed(version: nil, accepted: $0.version) } }
        if let accepted, metadata.version < accepted.version { return .replayed(version: metadata.version, accepted: accepted.version) }
        if let accepted, metadata.version == accepted.version, let bytes = accepted.signature, bytes != signature.bytes {
            return .replayed(version: metadata.version, accepted: accepted.version)
        }
        if let expires = metadata.expires, now >= expires { return .expired(expires) }
        if let appID, let signedFor = metadata.appID, signedFor != appID { return .forAnotherApp(signedFor) }
        return nil
    }

    /// A public key as an app configures it: 32 bytes in base64 (Sparkle's `SUPublicEDKey`).
    ///
    /// - Throws: `FeedSignatureProblem.badPublicKey` otherwise.
    package static func publicKey(base64 text: String) throws(FeedSignatureProblem) -> Data {
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
    /// A signature that matches, of a version below one the app accepted from this feed, of
    /// the same version as one accepted over other bytes, or unversioned (`version` `nil`)
    /// after a versioned one: an older feed served again.
    case replayed(version: UInt64?, accepted: UInt64)
    /// A signature that matches, whose expiry has passed: a feed held at an old version.
    case expired(Date)
    /// A signature that matches, made for another app (its id).
    case forAnotherApp(String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .missing(let url, let reason):
            return "the feed is not signed: it has no signature block at its end, and \(url) could not be read (\(reason))"
        case .malformed(let reason): return "the feed's signature cannot be read: \(reason)"
        case .doesNotMatch: return "the feed's signature does not match its contents and the app's public key"
        case .badPublicKey: return "the public key is not an Ed25519 key: expected 32 bytes in base64"
        case .unavailable(let reason): return "signatures cannot be checked on this system: \(reason)"
        case .replayed(.some(let version), let accepted) where version == accepted:
            return "the feed is signed as version \(version), which was accepted before over other contents: an old feed served again is refused"
        case .replayed(.some(let version), let accepted):
            return "the feed is signed as version \(version), older than version \(accepted) accepted before: an old feed served again is refused"
        case .replayed(nil, let accepted):
            return "the feed's signature is unversioned, but version \(accepted) was accepted before: an old feed served again is refused"
        case .expired(let date): return "the feed's signature expired at \(ISO8601Moment.text(date)): a feed not signed again is refused"
        case .forAnotherApp(let appID): return "the feed is signed for another app, \(appID)"
        }
    }
}
