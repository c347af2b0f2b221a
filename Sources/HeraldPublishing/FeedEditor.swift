import FoundationEssentials
import HeraldCore

/// A change to a feed's bytes: `replacement` in place of the bytes in `range`. Every byte
/// outside `range` stays as it was.
package struct FeedTextEdit: Sendable, Equatable {
    /// The bytes replaced (empty for an insertion).
    package var range: Range<Int>
    /// What takes their place (empty for a removal).
    package var replacement: [UInt8]

    /// Creates an edit.
    package init(range: Range<Int>, replacement: [UInt8]) {
        self.range = range
        self.replacement = replacement
    }

    /// `bytes` with the edit made.
    package func applied(to bytes: [UInt8]) -> [UInt8] {
        Array(bytes[..<range.lowerBound]) + replacement + Array(bytes[range.upperBound...])
    }
}

/// Why a feed could not be edited.
package enum FeedEditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The feed does not decode; it is left alone.
    case undecodable(FeedError)
    /// The id is already in the feed.
    case keyInUse(String)
    /// The id was retired.
    case keyRetired(String, reason: String)
    /// The id is not in the feed.
    case noSuchKey(String)
    /// A value cannot be written in the feed's format.
    case unwritable(String)
    /// The text around the entries is laid out in a way the editor does not follow.
    case layout(FeedFormat, reason: String, offset: Int)

    /// One sentence for people.
    package var description: String {
        switch self {
        case .undecodable(let error): return "not changed, because the feed cannot be used: \(error)"
        case .keyInUse(let key): return "'\(key)' is already in the feed; a message id is never used twice"
        case .keyRetired(let key, let reason): return "'\(key)' \(reason)"
        case .noSuchKey(let key): return "no message '\(key)' in the feed"
        case .unwritable(let reason): return reason
        case .layout(let format, let reason, let offset): return "the \(format.documentName) cannot be edited in place (byte \(offset)): \(reason)"
        }
    }
}

/// Adds and removes a feed's entries the way a publisher would by hand: in the feed's own
/// format, as text inserted or cut out, keeping every other byte, comments and indentation
/// included (the new entry is indented as the file's entries are). A binary property list has
/// no text to keep, so it is written anew.
package enum FeedEditor {
    /// What an edit made: the new bytes, and whether the whole file was written anew.
    package struct Result: Sendable, Equatable {
        /// The feed after the edit.
        package var bytes: [UInt8]
        /// The text edit, for a text format; `nil` when the file was rewritten (binary). Of a
        /// removal that cut several copies of one id, the last cut.
        package var edit: FeedTextEdit?
        /// How many entries a removal cut: more than one when the id was written more than once.
        package var copies = 1
    }

    /// The fields `herald feed add` writes: the keys Herald reads (`TargetingKey.all`, iNotify's
    /// first) in that order, then any others by name.
    static func fields(of entry: FeedEntry) -> [(String, FeedValue)] {
        let details = entry.details
        let others = details.keys.filter { !TargetingKey.all.contains($0) }.sorted()
        return (TargetingKey.all + others).compactMap { name in details[name].map { (name, $0) } }
    }

    /// The first control character other than a line break or tab in a value's strings
    /// (a dictionary's keys included), which no feed format can carry.
    static func controlCharacter(in value: FeedValue) -> Unicode.Scalar? {
        func first(_ text: String) -> Unicode.Scalar? {
            text.unicodeScalars.first { $0.properties.generalCategory == .control && !"\n\t".unicodeScalars.contains($0) }
        }
        switch value {
        case .string(let text): return first(text)
        case .array(let items): return items.lazy.compactMap(controlCharacter(in:)).first
        case .dictionary(let fields):
            return fields.keys.sorted().lazy.compactMap { first($0) ?? controlCharacter(in: fields[$0]!) }.first
        default: return nil
        }
    }

    /// A feed with no entries in `format`, for a file made from nothing.
    package static func emptyFeed(_ format: FeedFormat) -> [UInt8] {
        switch format {
        case .xmlPropertyList:
            return Array("""
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                </dict>
                </plist>

                """.utf8)
        case .json: return Array("{\n}\n".utf8)
        // An empty `{}` reads as JSON; the comment makes the format plain to the reader and to people.
        case .openStepPropertyList: return Array("// An OpenStep property list of messages, keyed by message id.\n{\n}\n".utf8)
        case .binaryPropertyList: return (try? binary([:])) ?? []
        }
    }

    /// `bytes` with `entry` added at the end of the root dictionary.
    ///
    /// - Throws: `FeedEditError` when the feed does not decode, already has the id, or a value
    ///   cannot be written in its format.
    package static func adding(_ entry: FeedEntry, to bytes: [UInt8]) throws(FeedEditError) -> Result {
        let feed = try decoded(bytes)
        if feed.entries[entry.key] != nil || feed.problems.contains(where: { $0.key == entry.key }) { throw .keyInUse(entry.key) }
        for (name, value) in fields(of: entry) + [("the id", .string(entry.key))] {
            if let bad = controlCharacter(in: value) {
                throw .unwritable("\(name) holds the control character U+\(JSONFeedReader.hex(bad.value, width: 4)), which a feed cannot carry")
            }
        }
        if feed.format == .binaryPropertyList {
            var root = try rootDictionary(bytes)
            root[entry.key] = .dictionary(Dictionary(uniqueKeysWithValues: fields(of: entry)))
            return Result(bytes: try binary(root), edit: nil)
        }
        let edit = try insertion(of: entry, into: bytes, format: feed.format)
        return Result(bytes: edit.applied(to: bytes), edit: edit)
    }

    /// `bytes` without the entry `key`: without every copy of it, when the feed writes the id
    /// more than once (`Result.copies` says how many).
    package static func removing(_ key: String, from bytes: [UInt8]) throws(FeedEditError) -> Result {
        let feed = try decoded(bytes)
        if feed.format == .binaryPropertyList {
            var root = try rootDictionary(bytes)
            guard root.removeValue(forKey: key) != nil else { throw .noSuchKey(key) }
            return Result(bytes: try binary(root), edit: nil)
        }
        // An id written twice (by hand) is one message to readers, who keep the last copy:
        // cutting only the first would leave it shown while saying it was removed. Every copy goes.
        let copies = try layout(bytes, feed.format).members.count { $0.key == key }
        var result = Result(bytes: bytes, edit: nil, copies: copies)
        for _ in 0..<max(copies, 1) {
            let edit = try removal(of: key, from: result.bytes, format: feed.format)
            result.bytes = edit.applied(to: result.bytes)
            result.edit = edit
        }
        return result
    }

    /// The text edit that adds `entry` before the root dictionary's end.
    static func insertion(of entry: FeedEntry, into bytes: [UInt8], format: FeedFormat) throws(FeedEditError) -> FeedTextEdit {
        let layout = try self.layout(bytes, format)
        let indent = Indentation(bytes, layout: layout)
        let render = Rendering(format: format, indentation: indent)
        let text = render.entry(key: entry.key, fields: fields(of: entry))
        if layout.selfClosing {
            // `<dict/>` becomes `<dict>`, the entry, and a closing tag on a line of its own.
            let lineIndent = String(decoding: indent.lineIndent(at: layout.close.lowerBound), as: UTF8.self)
            return FeedTextEdit(range: layout.close, replacement: Array("<dict>\n\(text.lines)\(lineIndent)</dict>".utf8))
        }
        let lastEnd = layout.members.last?.range.upperBound ?? layout.contentStart
        guard indent.startsLine(layout.close.lowerBound) else {
            // All on one line: the entry goes on it too, without line breaks.
            let separator = format == .json && !layout.members.isEmpty ? ", " : ""
            let at = format == .json ? lastEnd : layout.close.lowerBound
            return FeedTextEdit(range: at..<at, replacement: Array((separator + text.inline).utf8))
        }
        if format == .json {
            // After the last value, before what follows it (`\n}`): a comma, then the entry.
            let separator = layout.members.isEmpty ? "" : ","
            return FeedTextEdit(range: lastEnd..<lastEnd, replacement: Array((separator + "\n" + text.lines.dropLast()).utf8))
        }
        let lineStart = indent.lineStart(of: layout.close.lowerBound)
        return FeedTextEdit(range: lineStart..<lineStart, replacement: Array(text.lines.utf8))
    }

    /// The text edit that cuts out the entry `key` with its lines (and in JSON its comma).
    static func removal(of key: String, from bytes: [UInt8], format: FeedFormat) throws(FeedEditError) -> FeedTextEdit {
        let layout = try self.layout(bytes, format)
        guard let index = layout.members.firstIndex(where: { $0.key == key }) else { throw .noSuchKey(key) }
        let lines = Indentation(bytes, layout: layout)
        let members = layout.members
        let member = members[index].range
        /// Where an entry begins: its line's start when only white space precedes it there.
        func start(_ range: Range<Int>) -> Int {
            lines.startsLine(range.lowerBound) ? lines.lineStart(of: range.lowerBound) : range.lowerBound
        }
        if format == .json, index + 1 < members.count {
            // Up to the next entry, so its comma goes with it.
            return FeedTextEdit(range: start(member)..<start(members[index + 1].range), replacement: [])
        }
        if format == .json, index > 0 {
            // The last of several: from the end of the one before, taking the comma between.
            return FeedTextEdit(range: members[index - 1].range.upperBound..<member.upperBound, replacement: [])
        }
        return FeedTextEdit(range: start(member)..<lines.endOfLine(after: member.upperBound), replacement: [])
    }

    private static func decoded(_ bytes: [UInt8]) throws(FeedEditError) -> Feed {
        do {
            return try FeedDecoder.decode(Data(bytes))
        } catch {
            // `decode` throws only `FeedError`s; anything else is said as one.
            throw .undecodable(error as? FeedError ?? .unreadable("it cannot be read as a feed"))
        }
    }

    private static func layout(_ bytes: [UInt8], _ format: FeedFormat) throws(FeedEditError) -> FeedLayout {
        do {
            return try FeedLayout.read(bytes, format: format)
        } catch {
            throw .layout(format, reason: error.reason, offset: error.offset)
        }
    }

    /// The root dictionary of a decodable binary feed; refused when an entry could not be read,
    /// since writing the file anew would lose it.
    private static func rootDictionary(_ bytes: [UInt8]) throws(FeedEditError) -> [String: FeedValue] {
        let document: FeedDocument
        do { document = try FeedDecoder.read(Data(bytes)) } catch { throw .undecodable(error) }
        if let lost = document.unreadableEntries.first {
            throw .unwritable("the binary property list would be written anew without '\(lost.key)', which cannot be read: \(lost.reason)")
        }
        guard case .dictionary(let root) = document.root else { throw .undecodable(.rootNotDictionary(found: document.root.kindName)) }
        return root
    }

    /// A binary property list of `root`.
    static func binary(_ root: [String: FeedValue]) throws(FeedEditError) -> [UInt8] {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        encoder.userInfo[FeedValue.encodesNativeValues] = true
        do {
            return Array(try encoder.encode(root))
        } catch {
            throw .unwritable("the binary property list cannot be written: a value in it has no binary property list form")
        }
    }
}

/// How a file indents its entries, and where its lines begin and end.
struct Indentation {
    let bytes: [UInt8]
    /// Before each entry's key.
    let member: [UInt8]
    /// Before each field inside an entry.
    let field: [UInt8]
    /// Whether the file writes each entry's value on one line (`"id": {"Title": "…"}`).
    let valuesOnOneLine: Bool

    init(_ bytes: [UInt8], layout: FeedLayout) {
        self.bytes = bytes
        let unit = Self.unit(of: bytes)
        var member = Self.leading(bytes, before: layout.close.lowerBound) + unit
        var field = member + unit
        if let first = layout.members.first, Self.startsLine(bytes, first.range.lowerBound) {
            member = Self.leading(bytes, before: first.range.lowerBound)
            field = member + (member.isEmpty ? unit : member)
            // A field line of the first entry, when it has them, shows the file's own depth.
            let inside = bytes[first.range]
            if let newline = inside.firstIndex(of: 0x0A) {
                let line = bytes[(newline + 1)...].prefix { $0 == 0x20 || $0 == 0x09 }
                if line.count > member.count, line.starts(with: member) { field = Array(line) }
            }
        }
        self.member = member
        self.field = field
        valuesOnOneLine = layout.members.first.map { !bytes[$0.range].contains(0x0A) } ?? false
    }

    /// The file's indentation step: the leading white space of its first indented line, or
    /// four spaces.
    static func unit(of bytes: [UInt8]) -> [UInt8] {
        var index = 0
        while let newline = bytes[index...].firstIndex(of: 0x0A) {
            let line = bytes[(newline + 1)...].prefix { $0 == 0x20 || $0 == 0x09 }
            let next = newline + 1 + line.count
            if !line.isEmpty, next < bytes.count, bytes[next] != 0x0A, bytes[next] != 0x0D { return Array(line) }
            index = newline + 1
        }
        return Array("    ".utf8)
    }

    static func leading(_ bytes: [UInt8], before offset: Int) -> [UInt8] {
        let start = (bytes[..<offset].lastIndex(of: 0x0A) ?? -1) + 1
        return Array(bytes[start..<offset].prefix { $0 == 0x20 || $0 == 0x09 })
    }

    static func startsLine(_ bytes: [UInt8], _ offset: Int) -> Bool {
        let start = (bytes[..<offset].lastIndex(of: 0x0A) ?? -1) + 1
        return bytes[start..<offset].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Whether only white space precedes `offset` on its line.
    func startsLine(_ offset: Int) -> Bool { Self.startsLine(bytes, offset) }

    /// The first byte of the line holding `offset`.
    func lineStart(of offset: Int) -> Int { (bytes[..<offset].lastIndex(of: 0x0A) ?? -1) + 1 }

    /// The white space that begins the line holding `offset`.
    func lineIndent(at offset: Int) -> [UInt8] { Self.leading(bytes, before: offset) }

    /// Past the line break that ends the line holding `offset`, when only white space comes
    /// before it; otherwise `offset` itself.
    func endOfLine(after offset: Int) -> Int {
        var index = offset
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
        if index == bytes.count { return index }
        return bytes[index] == 0x0A ? index + 1 : offset
    }
}

/// An entry as text in one format.
struct Rendering {
    let format: FeedFormat
    let indentation: Indentation

    /// The entry as whole lines, each indented and ending with a line break (one line when the
    /// file's entries are written so), and as one line.
    func entry(key: String, fields: [(String, FeedValue)]) -> (lines: String, inline: String) {
        let (lines, inline) = layouts(key: key, fields: fields)
        return (indentation.valuesOnOneLine ? String(decoding: indentation.member, as: UTF8.self) + inline + "\n" : lines, inline)
    }

    private func layouts(key: String, fields: [(String, FeedValue)]) -> (lines: String, inline: String) {
        let member = String(decoding: indentation.member, as: UTF8.self)
        let field = String(decoding: indentation.field, as: UTF8.self)
        switch format {
        case .xmlPropertyList:
            let body = fields.map { "<key>\(xml($0.0))</key>" + xml($0.1) }
            return ("\(member)<key>\(xml(key))</key>\n\(member)<dict>\n" + body.map { field + $0 + "\n" }.joined() + "\(member)</dict>\n",
                    "<key>\(xml(key))</key><dict>\(body.joined())</dict>")
        case .json:
            let body = fields.map { "\(json($0.0)): \(json($0.1))" }
            return ("\(member)\(json(key)): {\n" + body.map { field + $0 }.joined(separator: ",\n") + "\n\(member)}\n",
                    "\(json(key)): {\(body.joined(separator: ", "))}")
        case .openStepPropertyList, .binaryPropertyList:
            let body = fields.map { "\($0.0) = \(openStep($0.1));" }
            return ("\(member)\(openStep(key)) = {\n" + body.map { field + $0 + "\n" }.joined() + "\(member)};\n",
                    "\(openStep(key)) = {\(body.joined(separator: " "))};")
        }
    }

    func xml(_ text: String) -> String { XMLText.escape(text) }

    /// A value as an XML property list writes it, on one line; a dictionary's keys sorted.
    func xml(_ value: FeedValue) -> String {
        switch value {
        case .string(let text): return "<string>\(xml(text))</string>"
        case .integer(let number): return "<integer>\(number)</integer>"
        case .real(let number): return "<real>\(NumberText.plain(number))</real>"
        case .bool(let flag): return flag ? "<true/>" : "<false/>"
        case .date(let date): return "<date>\(ISO8601Moment.text(date))</date>"
        case .data(let bytes): return "<data>\(bytes.base64EncodedString())</data>"
        case .array(let items): return "<array>" + items.map(xml).joined() + "</array>"
        case .dictionary(let fields): return "<dict>" + fields.keys.sorted().map { "<key>\(xml($0))</key>" + xml(fields[$0]!) }.joined() + "</dict>"
        case .null: return "<string></string>"
        }
    }

    func json(_ text: String) -> String { FeedValue.string(text).jsonText }

    /// A value as JSON on one line, spaced as the entry around it (`"de": "…", "en": "…"`); a
    /// dictionary's keys sorted.
    func json(_ value: FeedValue) -> String {
        switch value {
        case .array(let items): return "[" + items.map(json).joined(separator: ", ") + "]"
        case .dictionary(let fields): return "{" + fields.keys.sorted().map { "\(json($0)): \(json(fields[$0]!))" }.joined(separator: ", ") + "}"
        default: return value.jsonText
        }
    }

    func openStep(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n").replacing("\t", with: "\\t") + "\""
    }

    /// A value as an OpenStep property list writes it, on one line: it has only strings, so a
    /// number is its text (which Herald reads as the number); a dictionary's keys sorted.
    func openStep(_ value: FeedValue) -> String {
        switch value {
        case .array(let items): return "(" + items.map(openStep).joined(separator: ", ") + ")"
        case .dictionary(let fields): return "{" + fields.keys.sorted().map { "\(openStep($0)) = \(openStep(fields[$0]!));" }.joined(separator: " ") + "}"
        case .data(let bytes): return "<" + bytes.map { JSONFeedReader.hex(UInt32($0), width: 2) }.joined() + ">"
        case .date(let date): return openStep(ISO8601Moment.text(date))
        case .bool(let flag): return openStep(flag ? "YES" : "NO")
        default: return openStep(value.textValue ?? "")
        }
    }
}
