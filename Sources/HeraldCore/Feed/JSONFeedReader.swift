/// A strict JSON reader (RFC 8259) for feeds and prompts files.
///
/// Herald reads JSON itself rather than through `JSONDecoder` so that one bad value spoils only
/// its entry: with the decoder, a lone surrogate (`"\ud800"`) or a number beyond a double
/// (`1e400`) anywhere failed the whole document. Here such a value is recorded against its entry
/// (see `EntryProblems`), the entry is skipped, and the other entries still show. Syntax errors
/// still refuse the whole document, with the line and column. Nesting and the number of values
/// are bounded by `FeedLimits`.
package struct JSONFeedReader {
    /// The document, read through a pointer: indexing an array checked bounds at every byte.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    private var values = 0
    private var problems = EntryProblems()

    /// Reads a whole document.
    ///
    /// - Throws: `DocumentFailure` for a syntax error or a document beyond `FeedLimits`.
    static func read(_ bytes: [UInt8]) throws(DocumentFailure) -> FeedDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(DocumentFailure) -> FeedDocument in try read(buffer) }
    }

    /// Reads a whole document from bytes that stay valid while it is read.
    static func read(_ buffer: UnsafeBufferPointer<UInt8>) throws(DocumentFailure) -> FeedDocument {
        var reader = JSONFeedReader(bytes: buffer)
        return try reader.wholeDocument()
    }

    /// Reads a whole document as one value, whatever its root: for Herald's own files, which
    /// have no entries to skip one by one.
    ///
    /// - Throws: `DocumentFailure` for a syntax error or a document beyond `FeedLimits`.
    static func value(of buffer: UnsafeBufferPointer<UInt8>) throws(DocumentFailure) -> FeedValue {
        var reader = JSONFeedReader(bytes: buffer)
        let root = try reader.value()
        reader.skipSpace()
        guard reader.position >= buffer.count else { throw reader.fail("text after the root value") }
        return root
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte order mark is tolerated, as JSONDecoder did.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// Reads the document from `position`: a root object entry by entry, any other root whole.
    private mutating func wholeDocument() throws(DocumentFailure) -> FeedDocument {
        skipSpace()
        var unreadable: [FeedProblem] = []
        if peek == UInt8(ascii: "{") {
            let entries = try rootObject(unreadable: &unreadable)
            skipSpace()
            guard position >= bytes.count else { throw fail("text after the root value") }
            return FeedDocument(entries: entries, format: .json, unreadableEntries: unreadable)
        }
        let root = try value()
        skipSpace()
        guard position >= bytes.count else { throw fail("text after the root value") }
        return FeedDocument(root: root, format: .json, unreadableEntries: unreadable)
    }

    // MARK: values

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func fail(_ reason: String) -> DocumentFailure { .syntax(offset: position, reason: reason) }

    private mutating func countValue() throws(DocumentFailure) {
        values += 1
        if values > FeedLimits.maximumValues { throw .tooManyValues }
    }

    private mutating func value() throws(DocumentFailure) -> FeedValue {
        skipSpace()
        guard let byte = peek else { throw .endsEarly("a value is missing") }
        try countValue()
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""):
            var problem: String?
            let text = try string(problem: &problem)
            if let problem { problems.note(problem) }
            return .string(text)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: throw unexpected(where: "a value")
        }
    }

    /// The root dictionary: each entry is read on its own, so a problem in one skips only it.
    private mutating func rootObject(unreadable: inout [FeedProblem]) throws(DocumentFailure) -> [DocumentEntry] {
        try countValue()
        var result: [DocumentEntry] = []
        try members { (reader, key, keyProblem) throws(DocumentFailure) in
            reader.problems.startEntry()
            if let keyProblem { reader.problems.noteEntryKey(keyProblem) }
            let entry = try reader.entryBody()
            reader.problems.file(entry, under: key, in: &result, unreadable: &unreadable)
        }
        return result
    }

    /// An entry of the root object: an object is kept as its list of keys and values.
    private mutating func entryBody() throws(DocumentFailure) -> DocumentEntry.Body {
        skipSpace()
        guard peek == UInt8(ascii: "{") else { return .other(try value()) }
        try countValue()
        var fields = FeedFields(capacity: 8)
        try members { (reader, key, keyProblem) throws(DocumentFailure) in
            if let keyProblem { reader.problems.noteKey(keyProblem) }
            reader.skipSpace()
            if reader.peek == UInt8(ascii: "\"") {
                // A string, as most values of an entry are: read here, its key put on the
                // problem path only when it has a problem, instead of for every value.
                try reader.countValue()
                var problem: String?
                let text = try reader.string(problem: &problem)
                if let problem {
                    reader.problems.enter(key)
                    reader.problems.note(problem)
                    reader.problems.leave()
                }
                fields.add(key, .string(text))
            } else {
                reader.problems.enter(key)
                fields.add(key, try reader.value())
                reader.problems.leave()
            }
        }
        return .fields(fields)
    }

    private mutating func object() throws(DocumentFailure) -> FeedValue {
        // Room for an entry's keys from the start, instead of growing through 1, 2, 4 and 8.
        var result: [String: FeedValue] = [:]
        result.reserveCapacity(8)
        try members { (reader, key, keyProblem) throws(DocumentFailure) in
            if let keyProblem { reader.problems.noteKey(keyProblem) }
            reader.problems.enter(key)
            result[key] = try reader.value()
            reader.problems.leave()
        }
        return .dictionary(result)
    }

    /// Reads `{ "key": value, … }`, handing each key to `member`, which reads the value.
    private mutating func members(
        _ member: (inout JSONFeedReader, String, String?) throws(DocumentFailure) -> Void
    ) throws(DocumentFailure) {
        depth += 1
        guard depth <= FeedLimits.maximumDepth else { throw .tooDeep }
        let start = position
        let notClosed = DocumentFailure.syntax(offset: start, reason: "the document ends before this object is closed")
        position += 1
        skipSpace()
        if peek == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            guard let byte = peek else { throw notClosed }
            guard byte == UInt8(ascii: "\"") else { throw unexpected(where: "a key in double quotes") }
            try countValue()
            var keyProblem: String?
            let key = try string(problem: &keyProblem)
            skipSpace()
            guard let colon = peek else { throw notClosed }
            guard colon == UInt8(ascii: ":") else {
                throw colon == UInt8(ascii: "=") ? fail("expected ':' after the key \"\(key)\", not '=' as in an OpenStep property list")
                    : fail("expected ':' after the key \"\(key)\"")
            }
            position += 1
            try member(&self, key, keyProblem)
            skipSpace()
            guard let next = peek else { throw notClosed }
            if next == UInt8(ascii: "}") {
                position += 1
                break
            }
            guard next == UInt8(ascii: ",") else {
                throw next == UInt8(ascii: "\"") ? fail("expected ',' or '}' after a value in an object: a ',' is missing before this key")
                    : unexpected(where: "',' or '}' after a value in an object")
            }
            try separator(closedBy: UInt8(ascii: "}"))
        }
        depth -= 1
    }

    private mutating func array() throws(DocumentFailure) -> FeedValue {
        depth += 1
        guard depth <= FeedLimits.maximumDepth else { throw .tooDeep }
        let start = position
        position += 1
        var result: [FeedValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(result)
        }
        while true {
            problems.enter("[\(result.count)]")
            result.append(try value())
            problems.leave()
            skipSpace()
            guard let next = peek else { throw .syntax(offset: start, reason: "the document ends before this array is closed") }
            if next == UInt8(ascii: "]") {
                position += 1
                break
            }
            guard next == UInt8(ascii: ",") else { throw unexpected(where: "',' or ']' after a value in an array") }
            try separator(closedBy: UInt8(ascii: "]"))
        }
        depth -= 1
        return .array(result)
    }

    private mutating func literal(_ word: StaticString) throws(DocumentFailure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected),
              !(bytes.count > position + expected.count && Self.isWordByte(bytes[position + expected.count])) else {
            throw unexpected(where: "a value")
        }
        position += expected.count
    }

    /// A number: a whole number that fits `Int` stays whole; others are doubles. One beyond
    /// the range of a double spoils its entry, never the document.
    private mutating func number() throws(DocumentFailure) -> FeedValue {
        let start = position
        var whole = true
        if peek == UInt8(ascii: "-") { position += 1 }
        guard let leading = peek, Self.isDigit(leading) else {
            if let next = peek, Self.isWordByte(next) {
                position = start
                throw fail("\(word()) is not a JSON number")
            }
            throw numberFailure("a number needs digits")
        }
        if leading == UInt8(ascii: "0") {
            position += 1
            if let next = peek, Self.isDigit(next) {
                position = start
                throw fail("\(word()) is not a JSON number: only 0 itself may start with 0")
            }
        } else {
            skipDigits()
        }
        if peek == UInt8(ascii: ".") {
            whole = false
            position += 1
            guard let digit = peek, Self.isDigit(digit) else { throw numberFailure("a number needs digits after '.'") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            whole = false
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek, Self.isDigit(digit) else { throw numberFailure("a number needs digits in its exponent") }
            skipDigits()
        }
        if let next = peek, Self.isWordByte(next) || next == UInt8(ascii: ".") {
            position = start
            throw fail("\(word()) is not a JSON number")
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if whole, let integer = Int(text) { return .integer(integer) }
        if let real = Double(text), real.isFinite { return .real(real) }
        let shown = text.count > 40 ? text.prefix(37) + "..." : Substring(text)
        problems.note("is the number \(shown), beyond the range of a double")
        return .null
    }

    private func numberFailure(_ reason: String) -> DocumentFailure {
        position < bytes.count ? fail(reason) : .endsEarly("a number is cut off")
    }

    private mutating func skipDigits() {
        while let byte = peek, Self.isDigit(byte) { position += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A string. A lone surrogate escape becomes U+FFFD and invalid UTF-8 is replaced the same
    /// way; either is reported in `problem`, so the caller can skip the entry holding it.
    private mutating func string(problem: inout String?) throws(DocumentFailure) -> String {
        // Most strings have no escapes: made straight from their bytes, and only checked as
        // UTF-8 when a byte is not ASCII.
        if let plain = plainString() {
            let run = UnsafeBufferPointer(rebasing: bytes[position + 1..<plain.end])
            if let text = plain.isASCII ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self) {
                position = plain.end + 1
                return text
            }
        }
        let opening = position
        position += 1
        var out: [UInt8] = []
        while true {
            let runStart = position
            while position < bytes.count, bytes[position] != 0x22, bytes[position] != 0x5C, bytes[position] >= 0x20 {
                position += 1
            }
            out.append(contentsOf: bytes[runStart..<position])
            guard position < bytes.count else { throw .syntax(offset: opening, reason: "the document ends before this string is closed") }
            let byte = bytes[position]
            if byte == 0x22 {
                position += 1
                break
            }
            if byte < 0x20 {
                throw fail("a control character (U+\(Self.hex(UInt32(byte), width: 4))) must be escaped inside a string")
            }
            position += 1
            guard let escape = peek else { throw .syntax(offset: opening, reason: "the document ends before this string is closed") }
            position += 1
            switch escape {
            case 0x22, 0x5C, 0x2F: out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let unit = try hexUnit()
                var scalar = Unicode.Scalar(unit)
                if (0xD800...0xDBFF).contains(unit), let low = lowSurrogate() {
                    scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    position += 6
                }
                if let scalar {
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                } else {
                    if problem == nil { problem = "holds a lone UTF-16 surrogate (\\u\(Self.hex(unit, width: 4))), which is not text" }
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                }
            default:
                position -= 1
                throw fail("unknown escape \\\(Self.describe(escape, quoted: false)) in a string")
            }
        }
        if let text = String(validating: out, as: UTF8.self) { return text }
        if problem == nil { problem = "is not valid UTF-8" }
        return String(decoding: out, as: UTF8.self)
    }

    /// The string at `position` when it has no escape and no control character: the offset of
    /// its closing quote, and whether all its bytes are ASCII. `nil` when it needs the full
    /// reading (an escape, a control character, or no closing quote).
    private func plainString() -> (end: Int, isASCII: Bool)? {
        var end = position + 1
        var highBits: UInt8 = 0
        // Eight bytes at a time up to the first quote, backslash or control character, where
        // the scan stops, even inside a word; the byte loop below then only finishes a short tail.
        if let base = bytes.baseAddress {
            var wide: UInt64 = 0
            while end + 8 <= bytes.count {
                let word = ByteSearch.word(base, at: end)
                let special = ByteSearch.equal(word, 0x22) | ByteSearch.equal(word, 0x5C) | ByteSearch.below(word, 0x20)
                if special != 0 {
                    let before = ByteSearch.firstFlagged(special)
                    if before > 0 { wide |= word & (UInt64.max >> (64 - 8 * before)) }
                    end += before
                    break
                }
                wide |= word
                end += 8
            }
            if ByteSearch.hasHighBit(wide) { highBits = 0x80 }
        }
        while end < bytes.count {
            let byte = bytes[end]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
            highBits |= byte
            end += 1
        }
        guard end < bytes.count, bytes[end] == 0x22 else { return nil }
        return (end, highBits < 0x80)
    }

    /// Four hex digits after `\u`.
    private mutating func hexUnit() throws(DocumentFailure) -> UInt32 {
        guard bytes.count - position >= 4 else { throw .endsEarly("a \\u escape is cut off") }
        guard let unit = Self.hexValue(bytes[position..<position + 4]) else { throw fail("a \\u escape needs four hex digits") }
        position += 4
        return unit
    }

    /// The low surrogate of a `\uDC00`…`\uDFFF` escape right here, without consuming it.
    private func lowSurrogate() -> UInt32? {
        guard bytes.count - position >= 6, bytes[position] == 0x5C, bytes[position + 1] == UInt8(ascii: "u"),
              let unit = Self.hexValue(bytes[position + 2..<position + 6]), (0xDC00...0xDFFF).contains(unit)
        else { return nil }
        return unit
    }

    private static func hexValue(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt32? {
        var value: UInt32 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(digit - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(digit - 0x57)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(digit - 0x37)
            default: return nil
            }
        }
        return value
    }

    /// Reads the ',' at `position` and refuses a trailing one: RFC 8259 has none, and readers
    /// other than Herald refuse the feed for it.
    private mutating func separator(closedBy close: UInt8) throws(DocumentFailure) {
        let comma = position
        position += 1
        skipSpace()
        if peek == close {
            throw DocumentFailure.syntax(offset: comma, reason: "a trailing ',' before '\(Character(Unicode.Scalar(close)))': JSON allows none")
        }
    }

    /// The failure for what stands at `position` where `expected` should: a comment, a bare
    /// word, a single-quoted string or a stray character, named for what it is.
    private func unexpected(where expected: String) -> DocumentFailure {
        guard let byte = peek else { return .endsEarly("\(expected) is missing") }
        let next = position + 1 < bytes.count ? bytes[position + 1] : 0
        if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
            return fail("a comment where \(expected) was expected: JSON has no comments")
        }
        if byte == UInt8(ascii: "'") { return fail("a string in single quotes where \(expected) was expected: JSON strings use double quotes") }
        if Self.isWordByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") {
            let word = word()
            if ["'NaN'", "'Infinity'", "'+Infinity'"].contains(word) || word.hasPrefix("'+") || word.hasPrefix("'.") {
                return fail("\(word) is not a JSON number")
            }
            return fail("the bare word \(word) where \(expected) was expected: JSON strings need double quotes")
        }
        return fail("unexpected \(Self.describe(byte)) where \(expected) was expected")
    }

    /// The word or number at `position`, quoted and cut to 20 characters: "'NaN'".
    private func word() -> String {
        var end = position + 1
        while end < bytes.count, end - position < 20, Self.isWordByte(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
        return "'" + String(decoding: bytes[position..<end], as: UTF8.self) + "'"
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "-"), UInt8(ascii: "+"):
            return true
        default:
            return false
        }
    }

    package static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A byte in an error message: `'x'` for printable ASCII, `byte 0xNN` otherwise.
    static func describe(_ byte: UInt8, quoted: Bool = true) -> String {
        if byte >= 0x21, byte < 0x7F {
            let character = String(Character(Unicode.Scalar(byte)))
            return quoted ? "'\(character)'" : character
        }
        return "byte 0x\(hex(UInt32(byte), width: 2))"
    }
}
