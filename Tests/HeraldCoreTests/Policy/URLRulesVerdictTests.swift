import Foundation
@testable import HeraldCore
import XCTest

/// The URL rules as they read every URL with Foundation's parser: the oracle the rules'
/// byte-by-byte reading of plain URLs is held to.
private struct FoundationURLRules {
    var rules: URLRules

    func actionURLRefusal(_ text: String) -> String? {
        if let character = URLRules.unsafeCharacter(in: text) {
            return "the URL contains \(character): percent-encode it"
        }
        guard let scheme = Self.scheme(of: text), let url = URL(string: text) else { return "not a valid URL" }
        if URLRules.forbiddenSchemes.contains(scheme) { return "the \(scheme): scheme is never opened" }
        if scheme == "http" || scheme == "https" {
            guard let host = url.host, !host.isEmpty else { return "the URL has no host" }
            return nil
        }
        return rules.allowedCustomSchemes.contains(scheme) ? nil : "the \(scheme): scheme is not allowed by the app"
    }

    func feedURLRefusal(_ text: String) -> String? {
        if LanguageFeedURL.isTemplate(text) {
            return feedURLRefusal(LanguageFeedURL.filled(text, with: LocalisedText.fallbackLanguage))
                ?? feedURLRefusal(LanguageFeedURL.fallback(of: text))
        }
        guard let scheme = Self.scheme(of: text), let url = URL(string: text) else { return "not a valid URL" }
        switch scheme {
        case "https":
            return nil
        case "file":
            let host = url.host(percentEncoded: true) ?? ""
            if host.isEmpty || host.lowercased() == "localhost" { return nil }
            return "a file: feed must be on this machine (file:///path or file://localhost/path), not on host \(host)"
        case "http":
            if rules.allowPlainHTTPFeed || URLRules.isLoopback(host: url.host ?? "") { return nil }
            return "plain http is refused for feeds outside this machine (use https, or allow http)"
        default:
            return "feeds are fetched over https, http or file, not \(scheme):"
        }
    }

    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }
}

/// Hostile and ordinary URL texts: hand-picked, then every scheme with every authority and
/// every rest, then random strings of URL pieces.
private let urlTexts: [String] = {
    var texts = [
        "", ":", "//", "https:", "http:", "file:", "https://", "http://", "file://", "file:///", "file:/", "file:",
        "https://example.com", "https://example.com/", "https://example.com/feed.plist", "HTTPS://EXAMPLE.COM/Feed",
        "hTTp://localhost/feed", "http://localhost./feed", "http://LOCALHOST/feed", "http://127.0.0.1/feed",
        "http://127.0.0.1:8080/feed", "http://127.1/feed", "http://0x7f.1/feed", "http://0x7f000001/feed", "http://2130706433/",
        "http://127.0.0.256/", "http://127.0.0.1.evil.example/", "http://[::1]/feed", "http://[::1]:80/feed", "http://[0:0:0:0:0:0:0:1]/",
        "http://[::ffff:127.0.0.1]/", "http://[fe80::1%25eth0]/", "http://[::1/", "http://::1/", "http://user@127.0.0.1/",
        "http://user:pass@127.0.0.1/", "http://127.0.0.1@evil.example/", "http://evil.example@127.0.0.1/",
        "http://127.0.0.1:/", "http://127.0.0.1:0/", "http://127.0.0.1:65535/", "http://127.0.0.1:65536/", "http://127.0.0.1:99999/",
        "http://127.0.0.1:123456/", "http://127.0.0.1:-1/", "http://127.0.0.1:8o/", "http://:80/", "http:///feed", "https:///feed",
        "http://%31%32%37.0.0.1/", "http://127%2E0.0.1/", "http://loc%61lhost/", "https://example.com/%", "https://example.com/%2",
        "https://example.com/%zz", "https://example.com/%41", "https://example.com/a b", "https://example.com/a\\b",
        "https://ex ample.com/", "https://example.com/#a#b", "https://example.com/?a=1#frag", "https://example.com?x",
        "https://example.com#x", "https://exa_mple.com/", "https://exa~mple.com/", "https://-example.com/", "https://example..com/",
        "https://.", "https://..", "https://example.com./", "https://ex%41mple.com/", "https://bücher.example/", "https://example.com/ü",
        "file:///tmp/feed.plist", "file://localhost/tmp/feed.plist", "file://LOCALHOST/tmp/feed.plist", "file://localhost./tmp/x",
        "file://evil.example/etc/passwd", "file://127.0.0.1/etc/passwd", "file:/tmp/feed.plist", "file:tmp/feed.plist",
        "file://localhost:80/tmp/x", "file://user@localhost/tmp/x", "file://%6Cocalhost/tmp/x", "file://[::1]/tmp/x", "file:////tmp/x",
        "file://", "FILE:///tmp/x", "ftp://example.com/feed", "data:text/plain,hello", "javascript:alert(1)", "myapp://open?x=1",
        "MyApp://open", "myapp:open", "mailto:a@example.com", "about:blank", "a+b-c.d://host/", "1http://host/", "+http://host/",
        "ht tp://host/", "ht\u{301}tp://host/", "http:\u{301}//127.0.0.1/", "http:é//127.0.0.1/", "http\u{301}://127.0.0.1/",
        ":\u{301}http://127.0.0.1/", "http://127.0.0.1/\u{200B}", "http://127.0.0.1\n/", "http://127.0.0.1/\r\n", "https://example.com/{lang}/feed",
        "https://example.com/feed.{lang}.plist", "http://127.0.0.1/{lang}", "http://evil.example/{lang}", "file:///tmp/{lang}.plist",
        "https://example.com:443/feed", "https://example.com:/feed", "https://example.com:4 43/", "https://example.com:44a/",
        "https://example.com/a:b@c!$&'()*+,;=~_-./?q", "https://example.com/[x]", "https://example.com/a|b", "https://example.com/a^b",
        "https://example.com/\"x\"", "https://example.com/<x>", "https://example.com/`x`", "http://a.b.c.d.e/", "http://0/",
        "http://127.0.0.1#", "http://127.0.0.1?", "http://127.0.0.1", "http:127.0.0.1", "http:/127.0.0.1/", "https:example.com",
    ]
    let schemes = ["https", "http", "file", "HTTP", "Https", "ftp", "myapp", "javascript", "data", "x-y.z+w"]
    let authorities = [
        "", "example.com", "localhost", "localhost.", "LocalHost", "127.0.0.1", "127.1", "0x7f.1", "127.0.0.1:8080", "localhost:80",
        "[::1]", "[::1]:8080", "user@localhost", "u:p@127.0.0.1", "%6c%6f%63%61%6c%68%6f%73%74", "127.0.0.1:", ":80", "ex ample",
        "127.0.0.1:123456", "example.com:99999", "-", ".", "a-b.c", "exa%mple", "[::1", "::1",
    ]
    let rests = ["", "/", "/feed.plist", "/a/../b", "?q=1", "#f", "/p?q#f", "/%7E", "/%", "/a b", "/#a#b", "/é", "//x", "/a:b", "/a@b"]
    for scheme in schemes {
        for authority in authorities {
            for rest in rests {
                texts.append("\(scheme)://\(authority)\(rest)")
                if authority.isEmpty { texts.append("\(scheme):\(rest)") }
            }
        }
    }
    // Random strings of pieces, the same on every run.
    let pieces = ["http", "https", "file", ":", "//", "/", "localhost", "127", ".", "0", "1", "x7f", "@", "[", "]", "::", "%", "2E",
                  "?", "#", "a", "Z", "-", "_", "~", " ", "é", "\u{301}", "8080", "{lang}", "\\", "=", "!"]
    var generator = SeededGenerator(seed: 0x4845_5241_4C44)
    for _ in 0..<20_000 {
        let count = Int(generator.next() % 12) + 1
        texts.append((0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
    }
    return texts
}()

/// The URL rules read plain URLs without Foundation's parser, and give the verdicts they gave
/// when every URL went through it.
final class URLRulesVerdictTests: XCTestCase {
    private let ruleSets = [
        URLRules(), URLRules(allowPlainHTTPFeed: true), URLRules(allowedCustomSchemes: ["myapp", "FTP"]),
    ]

    func testFeedURLVerdictsAreThoseOfFoundationsParser() {
        for rules in ruleSets {
            let oracle = FoundationURLRules(rules: rules)
            for text in urlTexts {
                XCTAssertEqual(rules.feedURLRefusal(text), oracle.feedURLRefusal(text), "feed URL \(text.debugDescription)")
            }
        }
    }

    func testActionURLVerdictsAreThoseOfFoundationsParser() {
        for rules in ruleSets {
            let oracle = FoundationURLRules(rules: rules)
            for text in urlTexts {
                XCTAssertEqual(rules.actionURLRefusal(text), oracle.actionURLRefusal(text), "action URL \(text.debugDescription)")
            }
        }
    }

    func testRedirectVerdictsAreThoseOfFoundationsParser() {
        let rules = URLRules()
        let oracle = FoundationURLRules(rules: rules)
        for source in ["https://example.com/feed", "http://127.0.0.1/feed", "HTTPS:x"] {
            for target in urlTexts.prefix(3_000) {
                let expected = FoundationURLRules.scheme(of: source) == "https" && FoundationURLRules.scheme(of: target) != "https"
                    ? "a redirect from https to \(FoundationURLRules.scheme(of: target) ?? "another scheme") is refused"
                    : oracle.feedURLRefusal(target)
                XCTAssertEqual(rules.redirectRefusal(from: source, to: target), expected, "redirect to \(target.debugDescription)")
            }
        }
    }

    func testSchemeIsReadAsCharactersReadIt() {
        for text in urlTexts {
            XCTAssertEqual(URLRules.scheme(of: text), FoundationURLRules.scheme(of: text), text.debugDescription)
        }
    }

    /// The byte reader takes only what Foundation reads the same way: where it answers, its
    /// scheme and host are Foundation's.
    func testPlainReadingAgreesWithFoundationWhereverItAnswers() {
        var answered = 0
        for text in urlTexts {
            guard let plain = PlainURL(text) else { continue }
            answered += 1
            XCTAssertEqual(plain, PlainURL(parsing: text), text.debugDescription)
        }
        XCTAssertGreaterThan(answered, 500)
    }

    func testOrdinaryFeedURLsAreReadWithoutFoundation() {
        for text in ["https://example.com/feed.plist", "http://127.0.0.1:8080/feed?x=1#top", "file:///tmp/feed.plist",
                     "file://localhost/tmp/a%20b.json", "file:/tmp/feed.plist", "HTTPS://Example.COM/%7Efeed"] {
            XCTAssertNotNil(PlainURL(text), text)
        }
    }

    func testHostileURLsAreLeftToFoundation() {
        for text in ["http://user@127.0.0.1/", "http://[::1]/", "http://127.0.0.1:/", "http://127.0.0.1:123456/", "http:///x",
                     "https://example.com/%zz", "https://bücher.example/", "http://%31%32%37.0.0.1/", "http:127.0.0.1", "mailto:a@b"] {
            XCTAssertNil(PlainURL(text), text)
        }
    }
}
