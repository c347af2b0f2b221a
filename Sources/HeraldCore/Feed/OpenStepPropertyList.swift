import FoundationEssentials

/// A reader for old-style (OpenStep) property lists: `{ key = value; }`, `( a, b )`,
/// quoted and bare strings, `<hex data>`, and `/* */` or `//` comments.
///
/// Foundation's essentials read XML and binary plists only; iNotify feeds may be written in
/// this older form too (ORIGINALS.md §1.1), and it takes little code to read. Nesting and the
/// number of values are bounded by `FeedLimits`; a `\U` escape that is a lone surrogate spoils
/// only its entry, as in JSON.
enum OpenStepPropertyList {
    /// Parses a whole document.
    ///
    /// - Throws: `DocumentFailure` with the byte offset where reading stopped.
    static func read(_ bytes: [UInt8]) throws(DocumentFailure) -> FeedDocument {
        var reader = Reader(bytes: bytes)
        reader.skipSpaceAndComments()
        var unreadable: [FeedProblem] = []
        if reader.position < bytes.count, bytes[reader.position] == UInt8(ascii: "{") {
            let entries = try reader.rootDictionary(unreadable: &unreadable)
            reader.skipSpaceAndComments()
            guard reader.atEnd else { throw reader.fail("text after the root value") }
            return FeedDocument(entries: entries, format: .openStepPropertyList, unreadableEntries: unreadable)
        }
        let value = try reader.value()
        reader.skipSpaceAndComments()
        guard reader.atEnd else { throw reader.fail("text after the root value") }
        return FeedDocument(root: value, format: .openStepPropertyList, unreadableEntries: unreadable)
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        /// Nesting is bounded so that a hostile feed cannot exhaust the stack.
        var depth = 0
        var values = 0
        var problems = EntryProblems()

        var atEnd: Bool { position >= bytes.count }

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        mutating func skipSpaceAndComments() {
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    position += 1
                } else if byte == 0x2F, position + 1 < bytes.count, bytes[position + 1] == 0x2F {
                    while position < bytes.count, bytes[position] != 0x0A { position += 1 }
                } else if byte == 0x2F, position + 1 < bytes.count, bytes[position + 1] == 0x2A {
                    position += 2
                    while position + 1 < bytes.count, !(bytes[position] == 0x2A && bytes[position + 1] == 0x2F) {
                        position += 1
                    }
                    position = min(bytes.count, position + 2)
                } else {
                    return
                }
            }
        }

        func fail(_ reason: String) -> DocumentFailure { .syntax(offset: position, reason: reason) }

        /// The document ended inside what opened at `start`; the place is the opening.
        func notClosed(_ what: String, from start: Int) -> DocumentFailure {
            .syntax(offset: start, reason: "the document ends before this \(what) is closed")
        }

        mutating func expect(_ byte: UInt8, after what: String) throws(DocumentFailure) {
            skipSpaceAndComments()
            guard position < bytes.count else { throw .endsEarly("expected '\(Character(Unicode.Scalar(byte)))' after \(what)") }
            guard bytes[position] == byte else {
                throw fail("expected '\(Character(Unicode.Scalar(byte)))' after \(what)")
            }
            position += 1
        }

        mutating func countValue() throws(DocumentFailure) {
            values += 1
            if values > FeedLimits.maximumValues { throw .tooManyValues }
        }

        mutating func value() throws(DocumentFailure) -> FeedValue {
            skipSpaceAndComments()
            guard position < bytes.count else { throw .endsEarly("a value is missing") }
            try countValue()
            switch bytes[position] {
            case UInt8(ascii: "{"): return try dictionary()
            case UInt8(ascii: "("): return try array()
            case UInt8(ascii: "<"): return try data()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                var problem: String?
                let text = try quotedString(problem: &problem)
                if let problem { problems.note(problem) }
                return .string(text)
            default: return .string(try bareString())
            }
        }

        /// A key: a quoted or bare string.
        mutating func key(problem: inout String?) throws(DocumentFailure) -> String {
            try countValue()
            switch bytes[position] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): return try quotedString(problem: &problem)
            case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "<"): throw fail("a dictionary key must be a string")
            default: return try bareString()
            }
        }

        mutating func enterContainer() throws(DocumentFailure) {
            depth += 1
            guard depth <= FeedLimits.maximumDepth else { throw .tooDeep }
            position += 1
        }

        /// The root dictionary: each entry is read on its own, so a problem in one skips only it.
        mutating func rootDictionary(unreadable: inout [FeedProblem]) throws(DocumentFailure) -> [DocumentEntry] {
            try countValue()
            let start = position
            try enterContainer()
            var result: [DocumentEntry] = []
            while true {
                skipSpaceAndComments()
                guard position < bytes.count else { throw notClosed("dictionary", from: start) }
                if bytes[position] == UInt8(ascii: "}") { position += 1; break }
                var keyProblem: String?
                let key = try key(problem: &keyProblem)
                problems.startEntry()
                if let keyProblem { problems.noteEntryKey(keyProblem) }
                try expect(UInt8(ascii: "="), after: "the key \"\(key)\"")
                let entry = try value()
                try expect(UInt8(ascii: ";"), after: "the value of \"\(key)\"")
                if case .dictionary(let fields) = entry {
                    problems.file(.fields(FeedFields(fields)), under: key, in: &result, unreadable: &unreadable)
                } else {
                    problems.file(.other(entry), under: key, in: &result, unreadable: &unreadable)
                }
            }
            depth -= 1
            return result
        }

        mutating func dictionary() throws(DocumentFailure) -> FeedValue {
            let start = position
            try enterContainer()
            var result: [String: FeedValue] = [:]
            while true {
                skipSpaceAndComments()
                guard position < bytes.count else { throw notClosed("dictionary", from: start) }
                if bytes[position] == UInt8(ascii: "}") { position += 1; break }
                var keyProblem: String?
                let key = try key(problem: &keyProblem)
                if let keyProblem { problems.noteKey(keyProblem) }
                try expect(UInt8(ascii: "="), after: "the key \"\(key)\"")
                problems.enter(key)
                result[key] = try value()
                problems.leave()
                try expect(UInt8(ascii: ";"), after: "the value of \"\(key)\"")
            }
            depth -= 1
            return .dictionary(result)
        }

        mutating func array() throws(DocumentFailure) -> FeedValue {
            let start = position
            try enterContainer()
            var result: [FeedValue] = []
            while true {
                skipSpaceAndComments()
                guard position < bytes.count else { throw notClosed("array", from: start) }
                if bytes[position] == UInt8(ascii: ")") { position += 1; break }
                problems.enter("[\(result.count)]")
                result.append(try value())
                problems.leave()
                skipSpaceAndComments()
                if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1 }
            }
            depth -= 1
            return .array(result)
        }

        mutating func data() throws(DocumentFailure) -> FeedValue {
            let start = position
            position += 1
            var nibbles: [UInt8] = []
            while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(byte - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(byte - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(byte - 55)
                case 0x20, 0x09, 0x0A, 0x0D: continue
                default: position -= 1; throw fail("\(JSONFeedReader.describe(byte)) is not a hex digit in <data>")
                }
            }
            guard position < bytes.count else { throw notClosed("<data> block", from: start) }
            guard nibbles.count % 2 == 0 else { throw fail("a <data> block has an odd number of hex digits") }
            position += 1
            var out = Data()
            for index in stride(from: 0, to: nibbles.count, by: 2) { out.append(nibbles[index] << 4 | nibbles[index + 1]) }
            return .data(out)
        }

        mutating func quotedString(problem: inout String?) throws(DocumentFailure) -> String {
            let quote = bytes[position]
            let start = position
            position += 1
            var out: [UInt8] = []
            while position < bytes.count, bytes[position] != quote {
                var byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\\"), position < bytes.count {
                    byte = bytes[position]
                    position += 1
                    switch byte {
                    case UInt8(ascii: "n"): byte = 0x0A
                    case UInt8(ascii: "t"): byte = 0x09
                    case UInt8(ascii: "r"): byte = 0x0D
                    case UInt8(ascii: "U"), UInt8(ascii: "u"):
                        var unit = try hexUnit()
                        // A character beyond the BMP is written as a surrogate pair: \UD83D\UDE00.
                        if (0xD800...0xDBFF).contains(unit), bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                           bytes[position + 1] | 0x20 == UInt8(ascii: "u"),
                           let low = UInt32(String(decoding: bytes[position + 2..<position + 6], as: UTF8.self), radix: 16),
                           (0xDC00...0xDFFF).contains(low) {
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            position += 6
                        }
                        if let scalar = Unicode.Scalar(unit) {
                            out.append(contentsOf: Array(String(Character(scalar)).utf8))
                        } else {
                            if problem == nil {
                                problem = "holds a lone UTF-16 surrogate (\\U\(JSONFeedReader.hex(unit, width: 4))), which is not text"
                            }
                            out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                        }
                        continue
                    default: break
                    }
                }
                out.append(byte)
            }
            guard position < bytes.count else { throw notClosed("quoted string", from: start) }
            position += 1
            return String(decoding: out, as: UTF8.self)
        }

        /// The four hex digits of a `\U` escape.
        mutating func hexUnit() throws(DocumentFailure) -> UInt32 {
            guard bytes.count - position >= 4 else { throw .endsEarly("a \\U escape is cut off") }
            guard let unit = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw fail("a \\U escape needs four hex digits")
            }
            position += 4
            return unit
        }

        mutating func bareString() throws(DocumentFailure) -> String {
            let start = position
            while position < bytes.count, OpenStepPropertyList.isBare(bytes[position]) { position += 1 }
            guard position > start else { throw fail("unexpected \(JSONFeedReader.describe(bytes[position]))") }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
    }

    /// Whether a byte may be part of an unquoted string.
    static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "_$+/:.-".utf8.contains(byte)
        }
    }
}
