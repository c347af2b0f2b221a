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
    public func actionURLRefusal(_ text: String) -> String? {
        guard let scheme = Self.scheme(of: text), let url = URL(string: text) else { return "not a valid URL" }
        if Self.forbiddenSchemes.contains(scheme) { return "the \(scheme): scheme is never opened" }
        if scheme == "http" || scheme == "https" {
            guard let host = url.host, !host.isEmpty else { return "the URL has no host" }
            return nil
        }
        return allowedCustomSchemes.contains(scheme) ? nil : "the \(scheme): scheme is not allowed by the app"
    }

    /// Why a feed URL may not be fetched, or `nil` when it may.
    public func feedURLRefusal(_ text: String) -> String? {
        guard let scheme = Self.scheme(of: text), let url = URL(string: text) else { return "not a valid URL" }
        switch scheme {
        case "https", "file":
            return nil
        case "http":
            if allowPlainHTTPFeed || Self.isLoopback(host: url.host ?? "") { return nil }
            return "plain http is refused for feeds outside this machine (use https, or allow http)"
        default:
            return "feeds are fetched over https, http or file, not \(scheme):"
        }
    }

    /// Whether a redirect from `source` to `target` may be followed (DESIGN.md D15).
    public func redirectRefusal(from source: String, to target: String) -> String? {
        if Self.scheme(of: source) == "https", Self.scheme(of: target) != "https" {
            return "a redirect from https to \(Self.scheme(of: target) ?? "another scheme") is refused"
        }
        return feedURLRefusal(target)
    }

    /// The lower-cased scheme of a URL string, if it has a valid one.
    public static func scheme(of text: String) -> String? {
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
