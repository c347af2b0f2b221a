import FoundationEssentials
import HeraldCore

/// Where a text feed's root dictionary and its entries are, in bytes: what an edit needs to
/// change one entry and keep every other byte as it was.
///
/// It reads only the structure around the root's entries; the feed must already decode
/// (`FeedDecoder`), which has checked everything else.
struct FeedLayout: Equatable {
    /// One entry of the root dictionary.
    struct Member: Equatable {
        /// The message id.
        var key: String
        /// From the key's first byte to the value's last (OpenStep: its `;`).
        var range: Range<Int>
    }

    /// The entries, in the order of the file.
    var members: [Member]
    /// Just after the root's opening token (`<dict>` or `{`).
    var contentStart: Int
    /// The root's closing token (`</dict>` or `}`); for an XML `<dict/>`, that whole tag.
    var close: Range<Int>
    /// Whether the root is an XML `<dict/>`, with no closing tag of its own.
    var selfClosing = false

    /// Why the layout could not be read.
    struct Unreadable: Error, Equatable {
        var reason: String
        var offset: Int
    }

    /// The layout of a text feed in `format`.
    static func read(_ bytes: [UInt8], format: FeedFormat) throws(Unreadable) -> FeedLayout {
        var scanner = Scanner(bytes: bytes)
        switch format {
        case .xmlPropertyList: return try scanner.xml()
        case .json: return try scanner.json()
        case .openStepPropertyList: return try scanner.openStep()
        case .binaryPropertyList: throw Unreadable(reason: "a binary property list has no text layout", offset: 0)
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        func fail(_ reason: String) -> Unreadable { Unreadable(reason: reason, offset: position) }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        func at(_ text: String) -> Bool { bytes[position...].starts(with: text.utf8) }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        mutating func skipSpace() {
            while let byte = current, Self.isSpace(byte) { position += 1 }
        }

        /// Moves past the next `text`, or to the end.
        mutating func skip(past text: String) throws(Unreadable) {
            let needle = Array(text.utf8)
            while position < bytes.count {
                if bytes[position...].starts(with: needle) { position += needle.count; return }
                position += 1
            }
            throw fail("'\(text)' is missing")
        }

        // MARK: XML

        /// White space, comments, processing instructions and the DOCTYPE.
        mutating func skipXMLMisc() throws(Unreadable) {
            while true {
                skipSpace()
                if at("<!--") { try skip(past: "-->") } else if at("<?") { try skip(past: "?>") } else if at("<!") { try skip(past: ">") } else { return }
            }
        }

        /// Past the tag starting here (`<` at `position`); whether it closed itself (`<x/>`).
        mutating func xmlTag() throws(Unreadable) -> Bool {
            var quote: UInt8?
            while let byte = current {
                position += 1
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    return bytes[position - 2] == UInt8(ascii: "/")
                }
            }
            throw fail("a tag is not closed")
        }

        /// Past the element starting here, nested elements included.
        mutating func xmlElement() throws(Unreadable) {
            guard try !xmlTag() else { return }
            var depth = 1
            while depth > 0 {
                guard position < bytes.count else { throw fail("an element is not closed") }
                if at("<!--") { try skip(past: "-->"); continue }
                if at("<![CDATA[") { try skip(past: "]]>"); continue }
                if at("<?") { try skip(past: "?>"); continue }
                guard current == UInt8(ascii: "<") else { position += 1; continue }
                if at("</") {
                    _ = try xmlTag()
                    depth -= 1
                } else if try !xmlTag() {
                    depth += 1
                }
            }
        }

        mutating func xml() throws(Unreadable) -> FeedLayout {
            try skipXMLMisc()
            guard at("<plist") else { throw fail("the root element is not <plist>") }
            _ = try xmlTag()
            try skipXMLMisc()
            guard at("<dict") else { throw fail("the root value is not a <dict>") }
            let rootStart = position
            if try xmlTag() {
                return FeedLayout(members: [], contentStart: position, close: rootStart..<position, selfClosing: true)
            }
            let contentStart = position
            var members: [Member] = []
            while true {
                try skipXMLMisc()
                if at("</dict") {
                    let closeStart = position
                    _ = try xmlTag()
                    return FeedLayout(members: members, contentStart: contentStart, close: closeStart..<position)
                }
                guard at("<key>") else { throw fail("a <key> was expected") }
                let keyStart = position
                position += 5
                let textStart = position
                try skip(past: "</key>")
                let key = Self.xmlText(bytes[textStart..<position - 6])
                try skipXMLMisc()
                guard current == UInt8(ascii: "<") else { throw fail("the value of '\(key)' is missing") }
                try xmlElement()
                members.append(Member(key: key, range: keyStart..<position))
            }
        }

        /// Character data with its entities and CDATA sections read.
        static func xmlText(_ raw: ArraySlice<UInt8>) -> String {
            // A CDATA section is text as it stands; it holds no entities, so it is kept apart.
            if let start = raw.firstRange(of: Array("<![CDATA[".utf8)), let end = raw[start.upperBound...].firstRange(of: Array("]]>".utf8)) {
                return xmlText(raw[..<start.lowerBound]) + String(decoding: raw[start.upperBound..<end.lowerBound], as: UTF8.self)
                    + xmlText(raw[end.upperBound...])
            }
            let text = String(decoding: raw, as: UTF8.self)
            guard text.contains("&") else { return text }
            var out = ""
            var rest = Substring(text)
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
                let name = rest[rest.index(after: amp)..<semicolon]
                let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(name)]
                let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                if let named {
                    out += named
                } else if let number, let scalar = Unicode.Scalar(number) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += rest[amp...semicolon]
                }
                rest = rest[rest.index(after: semicolon)...]
            }
            return out + rest
        }

        // MARK: JSON and OpenStep

        /// Skips white space, and in OpenStep `//` and `/* */` comments too.
        mutating func skipSpace(comments: Bool) {
            while true {
                skipSpace()
                guard comments else { return }
                if at("//") {
                    while let byte = current, byte != 0x0A { position += 1 }
                } else if at("/*") {
                    position += 2
                    while position < bytes.count, !at("*/") { position += 1 }
                    position = min(bytes.count, position + 2)
                } else {
                    return
                }
            }
        }

        /// A quoted string starting here, read as the format reads it.
        mutating func quoted(openStep: Bool) throws(Unreadable) -> String {
            let quote = bytes[position]
            position += 1
            var units: [UInt8] = []
            while let byte = current, byte != quote {
                position += 1
                guard byte == UInt8(ascii: "\\"), let escaped = current else { units.append(byte); continue }
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): units.append(0x0A)
                case UInt8(ascii: "t"): units.append(0x09)
                case UInt8(ascii: "r"): units.append(0x0D)
                case UInt8(ascii: "b") where !openStep: units.append(0x08)
                case UInt8(ascii: "f") where !openStep: units.append(0x0C)
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    guard position + 4 <= bytes.count, var unit = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                        throw fail("a \\u escape needs four hex digits")
                    }
                    position += 4
                    if (0xD800...0xDBFF).contains(unit), position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                       let low = UInt32(String(decoding: bytes[position + 2..<position + 6], as: UTF8.self), radix: 16), (0xDC00...0xDFFF).contains(low) {
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        position += 6
                    }
                    units += Array(String(Unicode.Scalar(unit).map(Character.init) ?? "\u{FFFD}").utf8)
                default: units.append(escaped)
                }
            }
            guard current == quote else { throw fail("a quoted string is not closed") }
            position += 1
            return String(decoding: units, as: UTF8.self)
        }

        /// Past the value starting here: a string, a container with everything in it, or a bare word.
        mutating func value(openStep: Bool) throws(Unreadable) {
            var depth = 0
            repeat {
                skipSpace(comments: openStep)
                guard let byte = current else { throw fail("a value is cut off") }
                switch byte {
                case UInt8(ascii: "\""):
                    _ = try quoted(openStep: openStep)
                case UInt8(ascii: "'") where openStep:
                    _ = try quoted(openStep: openStep)
                case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                    depth += 1
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                    guard depth > 0 else { throw fail("a value is missing") }
                    depth -= 1
                    position += 1
                case UInt8(ascii: "<") where openStep:
                    try skip(past: ">")
                case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: ";"):
                    guard depth > 0 else { throw fail("a value is missing") }
                    position += 1
                default:
                    let start = position
                    while let next = current, !Self.isSpace(next), !",:;={}[]()\"'<".utf8.contains(next) { position += 1 }
                    guard position > start else { throw fail("unexpected byte \(byte)") }
                }
            } while depth > 0
        }

        mutating func json() throws(Unreadable) -> FeedLayout {
            try root(openStep: false)
        }

        mutating func openStep() throws(Unreadable) -> FeedLayout {
            try root(openStep: true)
        }

        /// The root `{ … }` of JSON (`"key": value,`) or OpenStep (`key = value;`).
        mutating func root(openStep: Bool) throws(Unreadable) -> FeedLayout {
            skipSpace(comments: openStep)
            guard current == UInt8(ascii: "{") else { throw fail("the root is not a dictionary") }
            position += 1
            let contentStart = position
            var members: [Member] = []
            while true {
                skipSpace(comments: openStep)
                guard let byte = current else { throw fail("the root dictionary is not closed") }
                if byte == UInt8(ascii: "}") {
                    return FeedLayout(members: members, contentStart: contentStart, close: position..<position + 1)
                }
                if !openStep, !members.isEmpty {
                    guard byte == UInt8(ascii: ",") else { throw fail("',' was expected") }
                    position += 1
                    skipSpace()
                }
                let keyStart = position
                let key: String
                if current == UInt8(ascii: "\"") || (openStep && current == UInt8(ascii: "'")) {
                    key = try quoted(openStep: openStep)
                } else {
                    let start = position
                    try value(openStep: openStep)
                    key = String(decoding: bytes[start..<position], as: UTF8.self)
                }
                skipSpace(comments: openStep)
                guard current == UInt8(ascii: openStep ? "=" : ":") else { throw fail("'\(openStep ? "=" : ":")' was expected") }
                position += 1
                try value(openStep: openStep)
                if openStep {
                    skipSpace(comments: true)
                    if current == UInt8(ascii: ";") { position += 1 }
                }
                members.append(Member(key: key, range: keyStart..<position))
            }
        }
    }
}
