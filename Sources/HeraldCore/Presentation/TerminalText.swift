/// Text bound for a terminal, where a feed's characters must not act: an escape sequence can
/// clear the screen or set the window's title, a carriage return or line separator can forge a
/// line, a bidi override can reverse what follows it.
///
/// Every line the `herald` tool prints goes through `visible(_:)`, and every JSON string it
/// writes escapes the same characters with the same `escape(_:)` (`FeedValue.appendJSONString`).
/// The escapes are JSON's (`\n`, `\r`, `\t`, `\u202E`), so a JSON line stays valid JSON with
/// the same meaning, and a character reads the same in a text line and a JSON line.
package enum TerminalText {
    /// Whether a character is shown as an escape rather than written: C0 and C1 control
    /// characters and DEL, the line and paragraph separators, and the bidi controls (marks,
    /// embeddings, overrides and isolates).
    package static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        escapedRanges.contains { $0.contains(scalar.value) }
    }

    /// The characters `isEscaped` names: C0 controls, DEL and C1 controls, the Arabic letter
    /// mark, the left-to-right and right-to-left marks, the line and paragraph separators with
    /// the embeddings and overrides after them, and the isolates.
    static let escapedRanges: [ClosedRange<UInt32>] = [0x00...0x1F, 0x7F...0x9F, 0x061C...0x061C, 0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069]

    /// Whether a byte can start the UTF-8 of a character `isEscaped` names: the first bytes of
    /// `escapedRanges`, worked out from them, for writers that look at bytes
    /// (`FeedValue.appendJSONString`).
    static let startsEscapedCharacter: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for range in escapedRanges {
            for value in range { if let scalar = Unicode.Scalar(value) { table[Int(String(scalar).utf8.first!)] = true } }
        }
        return table
    }()

    /// The text with every character `isEscaped` names written as its escape, so it shows on
    /// one line, as its characters, and changes nothing on the screen around it.
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) { out += escape(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// A character's escape: `\n`, `\r` and `\t` for those three, `\uXXXX` (upper-case hex)
    /// for the others.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
    }
}
