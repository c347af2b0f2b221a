/// Makes feed text safe to show (DESIGN.md D13): text is text, never markup, control codes or
/// characters that cannot be seen.
///
/// Removed from summaries and bodies: control characters; Unicode format characters (category
/// Cf: the soft hyphen, the Arabic letter mark, zero-width space, non-joiner and joiner, the
/// left-to-right and right-to-left marks, bidirectional embeddings, overrides and isolates,
/// the word joiner, invisible operators, the byte order mark, tag characters); the combining
/// grapheme joiner; the blank-looking Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), Khmer
/// inherent vowels and Mongolian variation selectors; noncharacters; and a variation selector
/// with no character before it to vary. Two exceptions keep emoji whole: a zero-width joiner
/// between two emoji (👩‍💻) and the tag characters of a flag's tag sequence (🏴 + tags +
/// cancel tag). Line and paragraph separators (and NEL, CR, CR LF) are line breaks in a body
/// and spaces in a summary, which is one line. Text with nothing visible left becomes empty,
/// so an empty or blank title falls back to the app's name.
package enum NotificationText {
    /// The longest summary kept, in Unicode scalars (code points), the ellipsis included.
    package static let summaryLimit = 120
    /// The longest summary kept, in UTF-8 bytes, the ellipsis included.
    package static let summaryByteLimit = 360
    /// The longest body kept, in Unicode scalars, the ellipsis included (before markup escaping).
    package static let bodyLimit = 1_000
    /// The longest body kept, in UTF-8 bytes, the ellipsis included (before markup escaping).
    package static let bodyByteLimit = 3_000

    /// A plain summary: one line, nothing invisible, capped.
    package static func summary(_ text: String?) -> String {
        cap(clean(text ?? "", keepNewlines: false), scalars: summaryLimit, bytes: summaryByteLimit)
    }

    /// A body: line breaks kept, nothing else invisible, capped; escaped when the server reads
    /// body markup, so `<b>` in a feed shows as text and `&` cannot break it.
    package static func body(_ text: String?, markup: Bool) -> String {
        let plain = cap(clean(text ?? "", keepNewlines: true), scalars: bodyLimit, bytes: bodyByteLimit)
        return markup ? escape(plain) : plain
    }

    /// Escapes the five XML-special characters as the five named entities every server decodes
    /// (DESIGN.md D24): GNOME Shell keeps only `&amp; &quot; &apos; &lt; &gt;` and shows any other
    /// entity, `&#39;` among them, as typed.
    package static func escape(_ text: String) -> String {
        XMLText.escape(text, quotes: true)
    }

    /// A link for servers that offer `body-hyperlinks` but no actions (DESIGN.md D11).
    package static func hyperlink(_ url: String) -> String {
        let escaped = escape(url)
        return "<a href=\"\(escaped)\">\(escaped)</a>"
    }

    static func clean(_ text: String, keepNewlines: Bool) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        let lineBreak: Unicode.Scalar = keepNewlines ? "\n" : " "
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar.value {
            case 0x0A, 0x85, 0x2028, 0x2029:
                out.append(lineBreak)
            case 0x0D:
                // CR LF is one break; a lone CR is one too.
                if index < scalars.count, scalars[index] == "\n" { index += 1 }
                out.append(lineBreak)
            case 0x09:
                out.append(" ")
            case 0x200D:
                if let previous = out.last, isEmojiPart(previous), index < scalars.count, isEmoji(scalars[index]) {
                    out.append(scalar)
                }
            case 0x1F3F4:
                out.append(scalar)
                // A subdivision flag: tag characters ended by CANCEL TAG right after the black flag.
                var end = index
                while end < scalars.count, (0xE0020...0xE007E).contains(scalars[end].value) { end += 1 }
                if end > index, end < scalars.count, scalars[end].value == 0xE007F {
                    out.append(contentsOf: scalars[index...end])
                    index = end + 1
                }
            case 0xFE00...0xFE0F, 0xE0100...0xE01EF:
                if let previous = out.last, !previous.properties.isWhitespace, !isVariationSelector(previous),
                   previous.value != 0x200D, !isHidden(previous) {
                    out.append(scalar)
                }
            default:
                if !isHidden(scalar) { out.append(scalar) }
            }
        }
        let cleaned = trimmed(String(out))
        // Nothing visible left (only spaces and blank braille cells): the caller's fallback.
        if cleaned.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.value == 0x2800 }) { return "" }
        return cleaned
    }

    /// The text without leading and trailing white space.
    package static func trimmed(_ text: String) -> String {
        // Text that starts and ends with a visible ASCII character, as dates and ids do, has
        // nothing to trim: no grapheme cluster that ends in one, or starts with one, is white space.
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return text
        }
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
        return start < end ? String(text[start..<end]) : ""
    }

    /// Characters that are removed wherever they appear (see the type's comment).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x3164, 0xFFA0: return true
        case 0xFDD0...0xFDEF: return true
        case let value where value & 0xFFFE == 0xFFFE: return true
        default: return scalar.properties.generalCategory == .format
        }
    }

    private static func isVariationSelector(_ scalar: Unicode.Scalar) -> Bool {
        (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value)
    }

    /// An emoji, not one of the ASCII characters (digits, '#', '*') that are emoji only in a
    /// keycap sequence.
    private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x7F && scalar.properties.isEmoji
    }

    /// What may come right before a joiner inside an emoji sequence: an emoji, its
    /// presentation selector or its skin-tone modifier.
    private static func isEmojiPart(_ scalar: Unicode.Scalar) -> Bool {
        isEmoji(scalar) || scalar.value == 0xFE0F
    }

    /// Cuts text to `scalars` Unicode scalars and `bytes` UTF-8 bytes, ellipsis included, on a
    /// grapheme boundary, so a letter is never separated from its accents and a character
    /// carrying thousands of combining marks cannot slip through as "one character".
    static func cap(_ text: String, scalars limit: Int, bytes byteLimit: Int) -> String {
        guard text.unicodeScalars.count > limit || text.utf8.count > byteLimit else { return text }
        let ellipsis = "…"
        let scalarRoom = limit - ellipsis.unicodeScalars.count
        let byteRoom = byteLimit - ellipsis.utf8.count
        var usedScalars = 0
        var usedBytes = 0
        var end = text.startIndex
        for character in text {
            let scalarCount = character.unicodeScalars.count
            let byteCount = character.utf8.count
            guard usedScalars + scalarCount <= scalarRoom, usedBytes + byteCount <= byteRoom else { break }
            usedScalars += scalarCount
            usedBytes += byteCount
            end = text.index(after: end)
        }
        return String(text[..<end]) + ellipsis
    }
}
