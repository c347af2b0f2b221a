/// Text written into XML: the one escaper for it, beside the XML property list reader that
/// resolves what it writes (`XMLPropertyList`).
package enum XMLText {
    /// `text` as XML character data: `&`, `<` and `>` as `&amp;`, `&lt;` and `&gt;`, and with
    /// `quotes` also `"` and `'` as `&quot;` and `&apos;`, the named entities (never a character
    /// reference such as `&#39;`). Every other character is kept as it is.
    package static func escape(_ text: String, quotes: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
