import FoundationEssentials

/// Reads an XML property list in one pass over its bytes, straight into `FeedValue`s.
///
/// It accepts what Foundation's reader accepts in a feed: an optional XML declaration, DOCTYPE
/// (without an inline DTD), comments and processing instructions anywhere between elements,
/// `<plist>` around one value (or the value alone), `dict`, `key`, `array`, `string`, `integer`,
/// `real`, `true`, `false`, `date` and `data`, empty-element forms such as `<string/>`, the five
/// predefined entities, character references and CDATA sections.
///
/// Every structural fault refuses the document with the line and column where it is found
/// (a close tag that closes the wrong element, a tag that is not a property list tag, text
/// where a `<key>` belongs, a document that ends early). A value that cannot be read as its
/// tag says (`<integer>ten</integer>`, a date that is not one) spoils only its entry: the entry
/// is reported and skipped, the others still count. Nesting and the number of values are
/// bounded by `FeedLimits`.
struct XMLPropertyList {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    private var values = 0
    private var problems = EntryProblems()

    /// Reads a whole document.
    ///
    /// - Throws: `DocumentFailure` for a structural fault or a document beyond `FeedLimits`.
    static func read(_ bytes: [UInt8]) throws(DocumentFailure) -> FeedDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(DocumentFailure) -> FeedDocument in try read(buffer) }
    }

    /// Reads a whole document from bytes that stay valid while it is read.
    static func read(_ buffer: UnsafeBufferPointer<UInt8>) throws(DocumentFailure) -> FeedDocument {
        var reader = XMLPropertyList(bytes: buffer)
        return try reader.wholeDocument()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// An element's start tag, as read.
    private struct Tag {
        /// The tag's name, as one of the names a property list uses.
        var name: Name
        /// Where its `<` is.
        var offset: Int
        /// Whether it is written `<name/>`: it has no content and no close tag.
        var isEmpty: Bool
    }

    /// The element names of a property list.
    private enum Name: CustomStringConvertible {
        case plist, dict, key, array, string, integer, real, `true`, `false`, date, data

        /// The name spelt by `bytes`, or `nil`, without making a string of them: the length and
        /// the first and last letters tell the names apart, and the rest is then compared.
        static func spelt(by bytes: UnsafeBufferPointer<UInt8>) -> Name? {
            guard let first = bytes.first, let last = bytes.last else { return nil }
            let candidate: Name
            switch (bytes.count, first, last) {
            case (5, UInt8(ascii: "p"), UInt8(ascii: "t")): candidate = .plist
            case (4, UInt8(ascii: "d"), UInt8(ascii: "t")): candidate = .dict
            case (3, UInt8(ascii: "k"), UInt8(ascii: "y")): candidate = .key
            case (5, UInt8(ascii: "a"), UInt8(ascii: "y")): candidate = .array
            case (6, UInt8(ascii: "s"), UInt8(ascii: "g")): candidate = .string
            case (7, UInt8(ascii: "i"), UInt8(ascii: "r")): candidate = .integer
            case (4, UInt8(ascii: "r"), UInt8(ascii: "l")): candidate = .real
            case (4, UInt8(ascii: "t"), UInt8(ascii: "e")): candidate = .true
            case (5, UInt8(ascii: "f"), UInt8(ascii: "e")): candidate = .false
            case (4, UInt8(ascii: "d"), UInt8(ascii: "e")): candidate = .date
            case (4, UInt8(ascii: "d"), UInt8(ascii: "a")): candidate = .data
            default: return nil
            }
            return ByteSearch.spells(bytes, candidate.spelling) ? candidate : nil
        }

        /// The name as a tag writes it.
        var spelling: StaticString {
            switch self {
            case .plist: "plist"
            case .dict: "dict"
            case .key: "key"
            case .array: "array"
            case .string: "string"
            case .integer: "integer"
            case .real: "real"
            case .true: "true"
            case .false: "false"
            case .date: "date"
            case .data: "data"
            }
        }

        /// The name as error messages write it.
        var description: String { spelling.description }
    }

    /// Reads the document from `position`: a root dictionary entry by entry, any other root whole.
    private mutating func wholeDocument() throws(DocumentFailure) -> FeedDocument {
        guard var tag = try nextStartTag(inside: nil) else { throw .endsEarly("there is no property list in it") }
        var plist: Tag?
        if tag.name == .plist {
            plist = tag
            guard !tag.isEmpty, let inner = try nextStartTag(inside: tag) else {
                throw .syntax(offset: tag.offset, reason: "<plist> holds no value")
            }
            tag = inner
        }
        var unreadable: [FeedProblem] = []
        let entries = tag.name == .dict ? try rootDictionary(tag, unreadable: &unreadable) : nil
        let root = entries == nil ? try value(tag) : .null
        if let plist { try expectClose(of: plist) }
        try skipMisc()
        guard position >= bytes.count else { throw fail(at: position, "text after the property list") }
        if let entries { return FeedDocument(entries: entries, format: .xmlPropertyList, unreadableEntries: unreadable) }
        return FeedDocument(root: root, format: .xmlPropertyList, unreadableEntries: unreadable)
    }

    // MARK: - Values

    private mutating func countValue() throws(DocumentFailure) {
        values += 1
        if values > FeedLimits.maximumValues { throw .tooManyValues }
    }

    /// Reads the value whose start tag was just read.
    private mutating func value(_ tag: Tag) throws(DocumentFailure) -> FeedValue {
        try countValue()
        switch tag.name {
        case .dict:
            // Room for an entry's keys from the start, instead of growing through 1, 2, 4 and 8.
            var result: [String: FeedValue] = [:]
            result.reserveCapacity(8)
            try members(of: tag) { (reader, key, valueTag) throws(DocumentFailure) in
                reader.problems.enter(key)
                result[key] = try reader.value(valueTag)
                reader.problems.leave()
            }
            return .dictionary(result)
        case .array:
            var result: [FeedValue] = []
            try enter()
            while let element = try nextStartTag(inside: tag) {
                problems.enter("[\(result.count)]")
                result.append(try value(element))
                problems.leave()
            }
            depth -= 1
            return .array(result)
        case .string:
            return .string(try text(of: tag))
        case .integer:
            let text = try text(of: tag)
            guard let number = Self.integer(text) else {
                problems.note("is <integer>\(Self.shortened(text))</integer>, not a whole number that fits 64 bits")
                return .integer(0)
            }
            return .integer(number)
        case .real:
            let text = try text(of: tag)
            guard let number = Double(Self.trimmed(text)) else {
                problems.note("is <real>\(Self.shortened(text))</real>, not a number")
                return .real(0)
            }
            return .real(number)
        case .true, .false:
            guard try text(of: tag).isEmpty else {
                throw fail(at: tag.offset, "<\(tag.name)/> holds text")
            }
            return .bool(tag.name == .true)
        case .date:
            let text = try text(of: tag)
            guard let date = Self.date(Self.trimmed(text)) else {
                problems.note("is <date>\(Self.shortened(text))</date>, not a date such as 2024-01-31T09:00:00Z")
                return .date(Date(timeIntervalSince1970: 0))
            }
            return .date(date)
        case .data:
            let text = try text(of: tag)
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                problems.note("holds <data> that is not base64")
                return .data(Data())
            }
            return .data(data)
        case .key, .plist:
            throw fail(at: tag.offset, "<\(tag.name)> where a value was expected")
        }
    }

    /// The root dictionary: each entry is read on its own, so a value that cannot be read
    /// skips only its entry.
    private mutating func rootDictionary(_ tag: Tag, unreadable: inout [FeedProblem]) throws(DocumentFailure) -> [DocumentEntry] {
        try countValue()
        var result: [DocumentEntry] = []
        try members(of: tag) { (reader, key, valueTag) throws(DocumentFailure) in
            reader.problems.startEntry()
            let entry = try reader.entryBody(valueTag)
            reader.problems.file(entry, under: key, in: &result, unreadable: &unreadable)
        }
        return result
    }

    /// An entry of the root dictionary: a `<dict>` is kept as its list of keys and values.
    private mutating func entryBody(_ tag: Tag) throws(DocumentFailure) -> DocumentEntry.Body {
        guard tag.name == .dict else { return .other(try value(tag)) }
        try countValue()
        var fields = FeedFields(capacity: 8)
        try members(of: tag) { (reader, key, valueTag) throws(DocumentFailure) in
            reader.problems.enter(key)
            fields.add(key, try reader.value(valueTag))
            reader.problems.leave()
        }
        return .fields(fields)
    }

    /// Reads `<key>…</key>` and a value, pair after pair, up to the dictionary's close tag;
    /// `member` reads each value from its start tag. A later duplicate key replaces the earlier.
    private mutating func members(
        of tag: Tag, _ member: (inout XMLPropertyList, String, Tag) throws(DocumentFailure) -> Void
    ) throws(DocumentFailure) {
        try enter()
        while let keyTag = try nextStartTag(inside: tag) {
            guard keyTag.name == .key else {
                throw fail(at: keyTag.offset, "<\(keyTag.name)> where a <key> was expected")
            }
            try countValue()
            let key = try text(of: keyTag)
            try skipMisc()
            let valueOffset = position
            guard let valueTag = try nextStartTag(inside: tag) else {
                throw fail(at: valueOffset, "the key '\(Self.shortened(key))' has no value")
            }
            try member(&self, key, valueTag)
        }
        depth -= 1
    }

    private mutating func enter() throws(DocumentFailure) {
        depth += 1
        if depth > FeedLimits.maximumDepth { throw .tooDeep }
    }

    // MARK: - Markup

    /// Skips white space, comments, processing instructions and a DOCTYPE to the next tag.
    /// Returns the next start tag; `nil` after reading the close tag of `parent` (or at the end
    /// of the document when there is no parent).
    private mutating func nextStartTag(inside parent: Tag?) throws(DocumentFailure) -> Tag? {
        if let parent, parent.isEmpty { return nil }
        try skipMisc()
        guard position < bytes.count else {
            if let parent { throw notClosed(parent) }
            return nil
        }
        guard bytes[position] == UInt8(ascii: "<") else {
            let expected = parent.map { $0.name == .dict ? "a <key>" : "a value" } ?? "a property list"
            throw fail(at: position, "unexpected '\(excerpt(at: position))' where \(expected) was expected")
        }
        if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
            guard let parent else {
                let offset = position
                throw fail(at: offset, "</\(String(decoding: try closeTagSpelling(), as: UTF8.self))> closes no open tag")
            }
            try closeTag(of: parent)
            return nil
        }
        return try startTag()
    }

    /// Reads a start tag at `position` (a `<` that is not a close tag or markup to skip).
    private mutating func startTag() throws(DocumentFailure) -> Tag {
        let offset = position
        // Most start tags are a name alone, `<key>`: its letters end at the '>'.
        var letters = offset + 1
        while letters < bytes.count, bytes[letters] >= UInt8(ascii: "a"), bytes[letters] <= UInt8(ascii: "z") { letters += 1 }
        if letters < bytes.count, bytes[letters] == UInt8(ascii: ">"),
           let name = Name.spelt(by: UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<letters])) {
            position = letters + 1
            return Tag(name: name, offset: offset, isEmpty: false)
        }
        guard let end = tagEnd(from: offset + 1) else { throw .syntax(offset: offset, reason: "the document ends inside this tag") }
        var nameEnd = offset + 1
        while nameEnd < end, !Self.isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: "/") { nameEnd += 1 }
        let spelling = UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<nameEnd])
        guard !spelling.isEmpty else { throw fail(at: offset, "a tag has no name") }
        guard let name = Name.spelt(by: spelling) else {
            throw fail(at: offset, "<\(Self.shortened(String(decoding: spelling, as: UTF8.self)))> is not a property list tag")
        }
        position = end + 1
        return Tag(name: name, offset: offset, isEmpty: bytes[end - 1] == UInt8(ascii: "/"))
    }

    /// Reads a close tag at `position` and returns the bytes of its name.
    private mutating func closeTagSpelling() throws(DocumentFailure) -> UnsafeBufferPointer<UInt8> {
        let offset = position
        guard let end = tagEnd(from: offset + 2) else { throw .syntax(offset: offset, reason: "the document ends inside this tag") }
        var nameEnd = end
        while nameEnd > offset + 2, Self.isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
        position = end + 1
        return UnsafeBufferPointer(rebasing: bytes[(offset + 2)..<nameEnd])
    }

    /// Reads the close tag that must follow the value of `tag`.
    private mutating func expectClose(of tag: Tag) throws(DocumentFailure) {
        try skipMisc()
        guard position < bytes.count else { throw notClosed(tag) }
        guard bytes[position] == UInt8(ascii: "<"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") else {
            throw fail(at: position, "<\(tag.name)> holds more than one value")
        }
        try closeTag(of: tag)
    }

    /// Where the text at `position` ends when it is plain, the common case: no reference, no
    /// CDATA, no comment, only text up to a close tag, whose `<` this is. `nil` otherwise.
    private func plainTextEnd() -> Int? {
        // Found eight bytes at a time up to the first '<' or '&', then byte by byte.
        var index = position
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = ByteSearch.word(base, at: index)
                let found = ByteSearch.equal(word, UInt8(ascii: "<")) | ByteSearch.equal(word, UInt8(ascii: "&"))
                if found != 0 {
                    index += ByteSearch.firstFlagged(found)
                    break
                }
                index += 8
            }
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "<"), bytes[index] != UInt8(ascii: "&") { index += 1 }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/") else { return nil }
        return index
    }

    /// Reads the close tag at `position`, which must close `tag`; its name is compared as bytes.
    private mutating func closeTag(of tag: Tag) throws(DocumentFailure) {
        let offset = position
        // Most close tags are written plainly, `</key>`: compared with the one name they may have.
        let plainEnd = offset + 2 + tag.name.spelling.utf8CodeUnitCount
        if plainEnd < bytes.count, bytes[plainEnd] == UInt8(ascii: ">"),
           ByteSearch.spells(UnsafeBufferPointer(rebasing: bytes[(offset + 2)..<plainEnd]), tag.name.spelling) {
            position = plainEnd + 1
            return
        }
        let spelling = try closeTagSpelling()
        guard Name.spelt(by: spelling) == tag.name else { throw wrongClose(String(decoding: spelling, as: UTF8.self), at: offset, for: tag) }
    }

    /// The text content of `tag` up to its close tag: entities and character references
    /// resolved, CDATA sections taken as they are, comments left out.
    private mutating func text(of tag: Tag) throws(DocumentFailure) -> String {
        if tag.isEmpty { return "" }
        if let end = plainTextEnd() {
            let run = UnsafeBufferPointer(rebasing: bytes[position..<end])
            let text = String(decoding: run, as: UTF8.self)
            position = end
            try closeTag(of: tag)
            return text
        }
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw notClosed(tag) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "&") {
                try reference(into: &out)
            } else if byte != UInt8(ascii: "<") {
                out.append(byte)
                position += 1
            } else if starts("<![CDATA[", at: position) {
                guard let end = find("]]>", from: position + 9) else { throw notClosed("CDATA section", at: position) }
                out.append(contentsOf: bytes[(position + 9)..<end])
                position = end + 3
            } else if starts("<!--", at: position) {
                try skipComment()
            } else if starts("</", at: position) {
                try closeTag(of: tag)
                return String(decoding: out, as: UTF8.self)
            } else {
                throw fail(at: position, "<\(tag.name)> holds a tag; write < in text as &lt;")
            }
        }
    }

    /// Resolves `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NN;` and `&#xHH;` at `position`.
    private mutating func reference(into out: inout [UInt8]) throws(DocumentFailure) {
        let offset = position
        var end = offset + 1
        while end < bytes.count, end - offset < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw fail(at: offset, "a bare '&'; write it as &amp;")
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<end]), as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch name {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if name.hasPrefix("#x") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                throw fail(at: offset, "&\(name); is not one of the five entities XML defines")
            }
        }
        guard let scalar, scalar.value != 0 else { throw fail(at: offset, "&\(name); is not a character") }
        out.append(contentsOf: String(Character(scalar)).utf8)
        position = end + 1
    }

    /// Skips white space, comments, processing instructions and a DOCTYPE.
    private mutating func skipMisc() throws(DocumentFailure) {
        while position < bytes.count {
            let byte = bytes[position]
            if Self.isSpace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "<"), position + 1 < bytes.count,
                      bytes[position + 1] == UInt8(ascii: "!") || bytes[position + 1] == UInt8(ascii: "?") {
                try skipMarkup()
            } else {
                return
            }
        }
    }

    /// Skips one comment, processing instruction or DOCTYPE at `position`.
    private mutating func skipMarkup() throws(DocumentFailure) {
        let start = position
        if starts("<!--", at: start) {
            try skipComment()
        } else if starts("<?", at: start) {
            guard let end = find("?>", from: start + 2) else { throw notClosed("processing instruction", at: start) }
            position = end + 2
        } else if starts("<![CDATA[", at: start) {
            throw fail(at: start, "a CDATA section outside a <string>")
        } else {
            // Foundation ends the DOCTYPE at the first '>' and refuses an inline DTD.
            var end = start + 2
            while end < bytes.count, bytes[end] != UInt8(ascii: ">"), bytes[end] != UInt8(ascii: "[") { end += 1 }
            guard end < bytes.count else { throw notClosed("DOCTYPE", at: start) }
            guard bytes[end] == UInt8(ascii: ">") else { throw fail(at: end, "an inline DTD is not allowed in a property list") }
            position = end + 1
        }
    }

    private mutating func skipComment() throws(DocumentFailure) {
        guard let end = find("-->", from: position + 4) else { throw notClosed("comment", at: position) }
        position = end + 3
    }

    // MARK: - Bytes

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    private func starts(_ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
        return true
    }

    private func find(_ marker: StaticString, from start: Int) -> Int? {
        var index = start
        let first = marker.utf8Start[0]
        while index < bytes.count {
            if bytes[index] == first, starts(marker, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// The index of the '>' that ends a tag, skipping quoted attribute values.
    private func tagEnd(from start: Int) -> Int? {
        var quote: UInt8 = 0
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            } else if byte == UInt8(ascii: "<") {
                return nil
            }
            index += 1
        }
        return nil
    }

    private func line(_ offset: Int) -> Int { DocumentFailure.lineAndColumn(of: offset, in: bytes).line }

    /// Up to 20 characters of the text at `offset`, on one line.
    private func excerpt(at offset: Int) -> String {
        var end = offset
        while end < bytes.count, end - offset < 20, bytes[end] != UInt8(ascii: "<"), bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }

    private func fail(at offset: Int, _ reason: String) -> DocumentFailure { .syntax(offset: offset, reason: reason) }

    private func notClosed(_ tag: Tag) -> DocumentFailure { notClosed("<\(tag.name)>", at: tag.offset) }

    /// The document ended inside what opened at `offset`; the place is the opening, where the
    /// publisher has to look.
    private func notClosed(_ what: String, at offset: Int) -> DocumentFailure {
        .syntax(offset: offset, reason: "the document ends before this \(what) is closed")
    }

    private func wrongClose(_ name: String, at offset: Int, for tag: Tag) -> DocumentFailure {
        fail(at: offset, "</\(Self.shortened(name))> does not close <\(tag.name)> from line \(line(tag.offset))")
    }

    // MARK: - Scalars

    private static func trimmed(_ text: String) -> Substring {
        let scalars = text.utf8
        let start = scalars.firstIndex { !isSpace($0) } ?? scalars.endIndex
        let end = scalars.lastIndex { !isSpace($0) }.map(scalars.index(after:)) ?? start
        return text[start..<end]
    }

    private static func shortened(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// A whole number as Foundation reads `<integer>`: decimal with an optional sign, or
    /// hexadecimal after `0x`.
    static func integer(_ text: String) -> Int? {
        var digits = trimmed(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        let radix = digits.hasPrefix("0x") || digits.hasPrefix("0X") ? 16 : 10
        if radix == 16 { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else { return nil }
        if negative { return magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }

    /// A `<date>` as property lists write it: `2024-01-31T09:00:00Z` (UTC).
    static func date(_ text: Substring) -> Date? {
        let digits = Array(text.utf8)
        guard digits.count == 20, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"), digits[10] == UInt8(ascii: "T"),
              digits[13] == UInt8(ascii: ":"), digits[16] == UInt8(ascii: ":"), digits[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(digits[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        return ISO8601Moment.moment(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
