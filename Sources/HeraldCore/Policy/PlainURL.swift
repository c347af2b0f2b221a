import FoundationEssentials

/// A URL string's scheme and host, as the URL rules judge them.
///
/// Feed URLs and links are nearly always plain ASCII of one shape: a scheme, `//`, a host name
/// (letters, digits, dots and hyphens) with perhaps a port, then a path, query and fragment of
/// URL characters. That shape is read here byte by byte (`init(_:)`). Anything else (userinfo,
/// an IP literal, an empty host, a percent escape in the host, a bad escape anywhere, a long
/// port, non-ASCII text) is left to Foundation's parser (`init(parsing:)`), so the rules give
/// the same verdict whichever reader read the text; a test holds the two to the same answers.
struct PlainURL: Equatable {
    /// The scheme, lower-cased.
    var scheme: String
    /// The host as written, escapes kept (`URL.host(percentEncoded: true)`); `nil` without one.
    var encodedHost: String?
    /// The host with escapes decoded (`URL.host`); `nil` without one.
    var host: String?

    /// Reads a URL of the plain shape; `nil` for any other text, which `init(parsing:)` reads.
    init?(_ text: String) {
        var text = text
        guard let parts = text.withUTF8({ Self.plainParts(of: $0) }) else { return nil }
        scheme = parts.scheme
        encodedHost = parts.host
        host = parts.host
    }

    /// Reads any text with Foundation's parser; `nil` when it has no valid scheme or is not a URL.
    init?(parsing text: String) {
        guard let scheme = URLRules.characterScheme(of: text), let url = URL(string: text) else { return nil }
        self.scheme = scheme
        encodedHost = url.host(percentEncoded: true)
        host = url.host
    }

    /// What the bytes before a URL string's first colon say about its scheme.
    enum ASCIIScheme: Equatable {
        /// A valid scheme, lower-cased.
        case scheme(String)
        /// No valid scheme.
        case none
        /// The colon is followed by a non-ASCII character that may join it: read by characters.
        case undecided
    }

    /// The scheme of `text` read from its bytes, the way `URLRules.characterScheme(of:)` reads
    /// it by characters: a character that holds a byte other than a scheme's ASCII is never a
    /// scheme character, so only a colon that a following non-ASCII scalar could join is left
    /// undecided.
    static func asciiScheme(of text: String) -> ASCIIScheme {
        var text = text
        return text.withUTF8 { bytes in
            guard let colon = schemeEnd(in: bytes) else { return .none }
            if colon + 1 < bytes.count, bytes[colon + 1] >= 0x80 { return .undecided }
            return .scheme(lowercased(bytes, 0..<colon))
        }
    }

    /// The index of the colon that ends a valid scheme at the start of `bytes`, or `nil`.
    private static func schemeEnd(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return nil }
            index += 1
        }
        return nil
    }

    /// The scheme and host of a URL of the plain shape, or `nil`.
    private static func plainParts(of bytes: UnsafeBufferPointer<UInt8>) -> (scheme: String, host: String?)? {
        guard let colon = schemeEnd(in: bytes) else { return nil }
        let scheme = lowercased(bytes, 0..<colon)
        var index = colon + 1
        var host: String?
        let slash = UInt8(ascii: "/")
        if index + 1 < bytes.count, bytes[index] == slash, bytes[index + 1] == slash {
            index += 2
            let hostStart = index
            while index < bytes.count, isLetter(bytes[index]) || isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".") {
                index += 1
            }
            let hostEnd = index
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                let portStart = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard (1...5).contains(index - portStart) else { return nil }
            }
            // An empty host is plain only in `file:///path`.
            if hostEnd == hostStart {
                guard scheme == "file", index == hostStart, index < bytes.count, bytes[index] == slash else { return nil }
            }
            guard index == bytes.count || bytes[index] == slash || bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "#")
            else { return nil }
            // Foundation reads `file:///path` as having no host at all.
            if hostEnd > hostStart { host = String(decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), as: UTF8.self) }
        } else {
            // Without an authority only `file:/path` is plain.
            guard scheme == "file", index < bytes.count, bytes[index] == slash else { return nil }
        }
        var fragment = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return nil }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                if fragment { return nil }
                fragment = true
            } else if !isPathCharacter(byte) {
                return nil
            }
            index += 1
        }
        return (scheme, host)
    }

    /// The bytes in `range`, ASCII letters lower-cased, as a string.
    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { buffer in
            for (offset, byte) in bytes[range].enumerated() {
                buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            }
            return range.count
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }

    /// RFC 3986's path, query and fragment characters other than `%` and `#`: unreserved,
    /// sub-delims, `:`, `@`, `/` and `?`.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}
