import FoundationEssentials

/// A reader for old-style (OpenStep) property lists: `{ key = value; }`, `( a, b )`,
/// quoted and bare strings, `<hex data>`, and `/* */` or `//` comments.
///
/// Foundation's essentials read XML and binary plists only; iNotify feeds may be written in
/// this older form too (ORIGINALS.md §1.1), and it takes little code to read.
enum OpenStepPropertyList {
    /// A syntax error with the byte offset where reading stopped.
    struct SyntaxError: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "OpenStep property list, byte \(offset): \(reason)" }
    }

    /// Parses a whole document into a value.
    static func parse(_ bytes: [UInt8]) throws -> FeedValue {
        var reader = Reader(bytes: bytes)
        let value = try reader.value()
        reader.skipSpaceAndComments()
        guard reader.atEnd else { throw SyntaxError(offset: reader.position, reason: "text after the root value") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        /// Nesting is bounded so that a hostile feed cannot exhaust the stack.
        var depth = 0

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

        func fail(_ reason: String) -> SyntaxError { SyntaxError(offset: position, reason: reason) }

        mutating func expect(_ byte: UInt8) throws {
            skipSpaceAndComments()
            guard position < bytes.count, bytes[position] == byte else {
                throw fail("expected '\(Character(Unicode.Scalar(byte)))'")
            }
            position += 1
        }

        mutating func value() throws -> FeedValue {
            skipSpaceAndComments()
            guard position < bytes.count else { throw fail("unexpected end") }
            depth += 1
            defer { depth -= 1 }
            guard depth <= 64 else { throw fail("nested too deeply") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try dictionary()
            case UInt8(ascii: "("): return try array()
            case UInt8(ascii: "<"): return try data()
            case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try quotedString())
            default: return .string(try bareString())
            }
        }

        mutating func dictionary() throws -> FeedValue {
            position += 1
            var result: [String: FeedValue] = [:]
            while true {
                skipSpaceAndComments()
                guard position < bytes.count else { throw fail("unterminated dictionary") }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .dictionary(result) }
                guard case .string(let key) = try value() else { throw fail("dictionary key is not a string") }
                try expect(UInt8(ascii: "="))
                result[key] = try value()
                try expect(UInt8(ascii: ";"))
            }
        }

        mutating func array() throws -> FeedValue {
            position += 1
            var result: [FeedValue] = []
            while true {
                skipSpaceAndComments()
                guard position < bytes.count else { throw fail("unterminated array") }
                if bytes[position] == UInt8(ascii: ")") { position += 1; return .array(result) }
                result.append(try value())
                skipSpaceAndComments()
                if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1 }
            }
        }

        mutating func data() throws -> FeedValue {
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
                default: throw fail("bad byte in <data>")
                }
            }
            guard position < bytes.count, nibbles.count % 2 == 0 else { throw fail("unterminated <data>") }
            position += 1
            var out = Data()
            for index in stride(from: 0, to: nibbles.count, by: 2) { out.append(nibbles[index] << 4 | nibbles[index + 1]) }
            return .data(out)
        }

        mutating func quotedString() throws -> String {
            let quote = bytes[position]
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
                        let end = min(bytes.count, position + 4)
                        let hex = String(decoding: bytes[position..<end], as: UTF8.self)
                        guard let scalarValue = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(scalarValue) else {
                            throw fail("bad \\U escape")
                        }
                        position = end
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                        continue
                    default: break
                    }
                }
                out.append(byte)
            }
            guard position < bytes.count else { throw fail("unterminated string") }
            position += 1
            return String(decoding: out, as: UTF8.self)
        }

        mutating func bareString() throws -> String {
            let start = position
            while position < bytes.count, Self.isBare(bytes[position]) { position += 1 }
            guard position > start else { throw fail("unexpected character") }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

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
}
