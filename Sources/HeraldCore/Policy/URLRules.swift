import FoundationEssentials

/// Which URLs Herald fetches feeds from and offers behind a "view" button (DESIGN.md D14).
public struct URLRules: Sendable, Equatable {
    /// Custom schemes the app opens itself (e.g. "myapp"); http and https are always allowed.
    public var allowedCustomSchemes: Set<String>
    /// Fetch feeds over plain http from any host, not only loopback.
    public var allowPlainHTTPFeed: Bool

    /// Schemes never offered, whatever the app allows: they run code, read local files or
    /// hide their target.
    public static let forbiddenSchemes: Set<String> = [
        "file", "javascript", "data", "vbscript", "about", "blob", "filesystem", "jar", "view-source", "resource", "chrome",
    ]

    /// Creates rules; by default only http(s) links and https, file or loopback-http feeds.
    public init(allowedCustomSchemes: Set<String> = [], allowPlainHTTPFeed: Bool = false) {
        self.allowedCustomSchemes = Set(allowedCustomSchemes.map { $0.lowercased() })
        self.allowPlainHTTPFeed = allowPlainHTTPFeed
    }

    /// Why an ActionURL may not be offered, or `nil` when it may.
    ///
    /// The link handed to the browser is exactly this text, so the text itself must be a URL:
    /// one with white space, control or invisible characters, or a backslash, is refused rather
    /// than repaired. Foundation would check a percent-encoded copy (`a%0Ab`) while the browser
    /// received the raw text, and browsers read `\` as `/` where Foundation does not, so the host
    /// the rules saw could differ from the one opened.
    public func actionURLRefusal(_ text: String) -> String? {
        if let character = Self.unsafeCharacter(in: text) {
            return "the URL contains \(character): percent-encode it"
        }
        guard let parts = PlainURL(text) ?? PlainURL(parsing: text) else { return "not a valid URL" }
        let scheme = parts.scheme
        if Self.forbiddenSchemes.contains(scheme) { return "the \(scheme): scheme is never opened" }
        if scheme == "http" || scheme == "https" {
            guard let host = parts.host, !host.isEmpty else { return "the URL has no host" }
            return nil
        }
        return allowedCustomSchemes.contains(scheme) ? nil : "the \(scheme): scheme is not allowed by the app"
    }

    /// Why a feed URL may not be fetched, or `nil` when it may.
    ///
    /// A `file:` URL must name this machine: no host, or `localhost`. GIO ignores the host of
    /// a file URI and reads the local path, so `file://evil.example/etc/passwd` would read
    /// this machine's `/etc/passwd` while looking like a remote file.
    ///
    /// A URL with `{lang}` is judged as the URLs it stands for: with a language in its place,
    /// and without it (`LanguageFeedURL`). The fetcher judges each URL again as it asks it.
    public func feedURLRefusal(_ text: String) -> String? {
        if LanguageFeedURL.isTemplate(text) {
            return feedURLRefusal(LanguageFeedURL.filled(text, with: LocalisedText.fallbackLanguage))
                ?? feedURLRefusal(LanguageFeedURL.fallback(of: text))
        }
        guard let parts = PlainURL(text) ?? PlainURL(parsing: text) else { return "not a valid URL" }
        switch parts.scheme {
        case "https":
            return nil
        case "file":
            let host = parts.encodedHost ?? ""
            if host.isEmpty || host.lowercased() == "localhost" { return nil }
            return "a file: feed must be on this machine (file:///path or file://localhost/path), not on host \(host)"
        case "http":
            if allowPlainHTTPFeed || Self.isLoopback(host: parts.host ?? "") { return nil }
            return "plain http is refused for feeds outside this machine (use https, or allow http)"
        default:
            return "feeds are fetched over https, http or file, not \(parts.scheme):"
        }
    }

    /// Whether a redirect from `source` to `target` may be followed (DESIGN.md D15).
    public func redirectRefusal(from source: String, to target: String) -> String? {
        if Self.scheme(of: source) == "https", Self.scheme(of: target) != "https" {
            return "a redirect from https to \(Self.scheme(of: target) ?? "another scheme") is refused"
        }
        return feedURLRefusal(target)
    }

    /// The first character of `text` that a link may not hold as it is, described for people
    /// ("a line break", "a space", "U+200B"), or `nil` when there is none: white space, control
    /// and format (invisible) characters, and the backslash.
    public static func unsafeCharacter(in text: String) -> String? {
        // Printable ASCII other than the backslash is safe: most links are only that.
        if text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x5C }) { return nil }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return "a line break"
            case 0x20: return "a space"
            case 0x09: return "a tab"
            case 0x5C: return "a backslash"
            default:
                let properties = scalar.properties
                if properties.isWhitespace || properties.generalCategory == .control || properties.generalCategory == .format
                    || NotificationText.isHidden(scalar) {
                    return "U+" + JSONFeedReader.hex(scalar.value, width: 4)
                }
            }
        }
        return nil
    }

    /// The lower-cased scheme of a URL string, if it has a valid one.
    public static func scheme(of text: String) -> String? {
        switch PlainURL.asciiScheme(of: text) {
        case .scheme(let scheme): return scheme
        case .none: return nil
        case .undecided: return characterScheme(of: text)
        }
    }

    /// `scheme(of:)` read by characters: for a colon that may join the character after it.
    static func characterScheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    /// Whether a host names this machine: localhost, 127.0.0.0/8 or ::1.
    public static func isLoopback(host: String) -> Bool {
        let host = host.filter { $0 != "[" && $0 != "]" }.lowercased()
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
