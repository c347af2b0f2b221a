/// Makes feed text safe to show (DESIGN.md D13): text is text, never markup or control codes.
public enum NotificationText {
    /// The longest summary kept, in characters; the spec asks for short summaries.
    public static let summaryLimit = 120
    /// The longest body kept, in characters.
    public static let bodyLimit = 1_000

    /// A plain summary: one line, no control or direction-override characters, capped.
    public static func summary(_ text: String?) -> String {
        cap(clean(text ?? "", keepNewlines: false), to: summaryLimit)
    }

    /// A body: line breaks kept, other control characters removed, capped; escaped when the
    /// server reads body markup, so `<b>` in a feed shows as text and `&` cannot break it.
    public static func body(_ text: String?, markup: Bool) -> String {
        let plain = cap(clean(text ?? "", keepNewlines: true), to: bodyLimit)
        return markup ? escape(plain) : plain
    }

    /// Escapes the five XML-special characters.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A link for servers that offer `body-hyperlinks` but no actions (DESIGN.md D11).
    public static func hyperlink(_ url: String) -> String {
        let escaped = escape(url)
        return "<a href=\"\(escaped)\">\(escaped)</a>"
    }

    static func clean(_ text: String, keepNewlines: Bool) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                out.append(keepNewlines && scalar == "\n" ? "\n" : " ")
            } else if isHidden(scalar) {
                continue
            } else {
                out.append(scalar)
            }
        }
        return trimmed(String(out))
    }

    /// Control characters and the bidirectional overrides that can disguise a link's text.
    /// The text without leading and trailing white space.
    public static func trimmed(_ text: String) -> String {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
        return start < end ? String(text[start..<end]) : ""
    }

    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    static func cap(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }
}
