/// A freedesktop key file, the syntax of desktop entries and of GLib's `GKeyFile`: `[Group]`
/// lines, `Key=value` lines (locale keys such as `Name[de]` too), comments (`#`) and blank lines.
///
/// Read as GLib reads it: whitespace before a line, around a key and before a value is not
/// part of them; a key set twice in a group keeps its last value; a group written twice is one
/// group. An edit changes only the lines it is about and keeps every other line byte for byte,
/// comments included; a new key goes after its group's last key, a new group at the end after
/// a blank line, as GLib writes them.
package struct KeyFile: Sendable, Equatable {
    private enum Kind: Sendable, Equatable {
        case comment
        case group(String)
        case entry(key: String, value: String)

        func isEntry(_ key: String) -> Bool {
            if case .entry(key, _) = self { return true }
            return false
        }
    }

    private struct Line: Sendable, Equatable {
        /// The line as written, without its ending.
        var text: String
        /// `"\n"`, `"\r\n"`, or nothing for a last line without one.
        var ending: String
        var kind: Kind
    }

    private var lines: [Line] = []

    /// An empty key file.
    package init() {}

    /// Reads a key file's bytes.
    ///
    /// - Throws: `KeyFileError` for the first line that is not valid UTF-8, holds a NUL, is not a group, a
    ///   `key=value` pair, a comment or a blank line, or that gives a key before the first group.
    package init(_ bytes: some BidirectionalCollection<UInt8>) throws(KeyFileError) {
        var current: String?
        var number = 0
        var rest = bytes[...]
        while !rest.isEmpty {
            number += 1
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            var content = rest[..<end]
            var ending = ""
            if end != rest.endIndex {
                ending = "\n"
                // As GLib: a carriage return before the newline is part of the ending.
                if content.last == UInt8(ascii: "\r") {
                    content = content.dropLast()
                    ending = "\r\n"
                }
                rest = rest[rest.index(after: end)...]
            } else {
                rest = rest[end...]
            }
            guard let text = String(validating: content, as: UTF8.self) else {
                throw KeyFileError(line: number, reason: "line \(number) is not valid UTF-8")
            }
            // As GLib: no value holds a NUL, which would end it early in every C string it becomes.
            guard !content.contains(0) else {
                throw KeyFileError(line: number, reason: "line \(number) holds a NUL byte")
            }
            let kind = try Self.kind(of: text, number: number, inGroup: current != nil)
            if case .group(let name) = kind { current = name }
            lines.append(Line(text: text, ending: ending, kind: kind))
        }
    }

    /// Reads a key file's text.
    package init(_ text: String) throws(KeyFileError) {
        try self.init(Array(text.utf8))
    }

    /// The file's text: every line as read, with the edits made.
    package var text: String {
        lines.map { $0.text + $0.ending }.joined()
    }

    /// The groups' names, each once, in the order they first appear.
    package var groups: [String] {
        var seen: Set<String> = []
        return lines.compactMap { line in
            guard case .group(let name) = line.kind, seen.insert(name).inserted else { return nil }
            return name
        }
    }

    /// A group's keys, each once, in the order they first appear, with their last values,
    /// unescaped.
    package func entries(in group: String) -> [(key: String, value: String)] {
        var order: [String] = []
        var values: [String: String] = [:]
        for index in lineIndices(of: group) {
            guard case .entry(let key, let value) = lines[index].kind else { continue }
            if values.updateValue(value, forKey: key) == nil { order.append(key) }
        }
        return order.map { ($0, Self.unescaped(values[$0]!)) }
    }

    /// A group's keys with their values as written (escapes not undone) and the number of the
    /// line that sets them (from 1), each key once, at the last line that sets it (the value
    /// GLib reads), in the order of those lines: for a reader that names the line of a mistake.
    package func numberedEntries(in group: String) -> [(key: String, rawValue: String, line: Int)] {
        var last: [String: Int] = [:]
        for index in lineIndices(of: group) {
            if case .entry(let key, _) = lines[index].kind { last[key] = index }
        }
        return last.values.sorted().compactMap { index in
            guard case .entry(let key, let value) = lines[index].kind else { return nil }
            return (key, value, index + 1)
        }
    }

    /// A key's last value in a group as written (escapes not undone), `nil` when it has none.
    package func rawValue(group: String, key: String) -> String? {
        guard let index = lastEntryIndex(group: group, key: key), case .entry(_, let value) = lines[index].kind else { return nil }
        return value
    }

    /// A key's last value in a group with its escapes undone, `nil` when it has none.
    package func string(group: String, key: String) -> String? {
        rawValue(group: group, key: key).map(Self.unescaped)
    }

    /// Sets a key in a group to `value` (escaped as the spec asks): its last line is rewritten as
    /// `key=value`; a new key goes after the group's last key (or right after its first line), a
    /// new group at the end after a blank line. `group` and `key` must be valid names.
    package mutating func set(_ value: String, group: String, key: String) {
        setRaw(Self.escaped(value), group: group, key: key)
    }

    /// A key's last value in a group as a list, as GLib's `g_key_file_get_string_list` reads
    /// one: items separated by `;` (the last one may end with it), `\;` a semicolon within an
    /// item, each item's escapes undone; `nil` when the key is absent.
    package func stringList(group: String, key: String) -> [String]? {
        rawValue(group: group, key: key).map(Self.list(rawValue:))
    }

    /// A value as written (escapes not undone) read as a list, as `stringList` reads one.
    package static func list(rawValue raw: String) -> [String] {
        var items: [String] = []
        var item = ""
        var characters = raw[...]
        while let character = characters.popFirst() {
            switch character {
            case "\\":
                guard let next = characters.popFirst() else { break }
                item += next == ";" ? ";" : Self.unescaped("\\" + String(next))
            case ";":
                items.append(item)
                item = ""
            default:
                item.append(character)
            }
        }
        if !item.isEmpty { items.append(item) }
        return items
    }

    /// Sets a key in a group to a list, as `set` sets a string: each item escaped, a `;` within
    /// one as `\;`, the items separated by `;`.
    package mutating func setStringList(_ items: [String], group: String, key: String) {
        setRaw(items.map { Self.escaped($0).replacing(";", with: "\\;") }.joined(separator: ";"), group: group, key: key)
    }

    /// Sets a key to a value already escaped.
    private mutating func setRaw(_ escapedValue: String, group: String, key: String) {
        let line = Line(text: key + "=" + escapedValue, ending: "\n", kind: .entry(key: key, value: escapedValue))
        if let index = lastEntryIndex(group: group, key: key) {
            lines[index].text = line.text
            lines[index].kind = line.kind
            if lines[index].ending.isEmpty { lines[index].ending = "\n" }
            return
        }
        let indices = lineIndices(of: group)
        if let header = indices.first {
            let after = indices.last { if case .entry = lines[$0].kind { return true } else { return false } } ?? header
            if lines[after].ending.isEmpty { lines[after].ending = "\n" }
            lines.insert(line, at: after + 1)
            return
        }
        if let last = lines.indices.last, lines[last].ending.isEmpty { lines[last].ending = "\n" }
        // GLib's writer: at least one blank line before a group.
        let written = Array(text.utf8)
        if written.count >= 2, written[written.count - 2] != UInt8(ascii: "\n") {
            lines.append(Line(text: "", ending: "\n", kind: .comment))
        }
        lines.append(Line(text: "[" + group + "]", ending: "\n", kind: .group(group)))
        lines.append(line)
    }

    /// Removes every line that sets `key` in `group`.
    package mutating func removeKey(_ key: String, group: String) {
        let gone = Set(lineIndices(of: group).filter { lines[$0].kind.isEntry(key) })
        lines = lines.indices.filter { !gone.contains($0) }.map { lines[$0] }
    }

    /// Removes a group: each of its `[group]` lines and every line up to the next group.
    package mutating func removeGroup(_ group: String) {
        let gone = Set(lineIndices(of: group))
        lines = lines.indices.filter { !gone.contains($0) }.map { lines[$0] }
    }

    /// A boolean value as GLib reads one: `true` or `1`, `false` or `0`, with nothing after it
    /// but whitespace; `nil` for anything else.
    package static func boolean(_ rawValue: String) -> Bool? {
        var value = Substring(rawValue)
        while let last = value.utf8.last, isWhitespace(last) { value = value.dropLast() }
        switch value {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }

    /// A value escaped as the spec asks: `\\`, `\n`, `\t`, `\r`, and `\s` for the spaces it
    /// starts with (which a reader would otherwise take for the space before the value).
    package static func escaped(_ value: String) -> String {
        var out = ""
        var leading = true
        for character in value {
            switch character {
            case " " where leading: out += "\\s"; continue
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.append(character)
            }
            leading = false
        }
        return out
    }

    /// A value with the spec's escapes (`\s`, `\n`, `\t`, `\r`, `\\`) undone. As GLib, another
    /// escape (a list's `\;`) is kept as written and a backslash at the end is dropped.
    package static func unescaped(_ value: String) -> String {
        var out = ""
        var characters = value[...]
        while let character = characters.popFirst() {
            guard character == "\\" else {
                out.append(character)
                continue
            }
            guard let next = characters.popFirst() else { break }
            switch next {
            case "s": out.append(" ")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\\": out.append("\\")
            default: out.append("\\"); out.append(next)
            }
        }
        return out
    }

    /// GLib's `g_ascii_isspace`.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// What a line is, as GLib's key-file parser tells.
    private static func kind(of text: String, number: Int, inGroup: Bool) throws(KeyFileError) -> Kind {
        let utf8 = text.utf8.drop { isWhitespace($0) }
        guard let first = utf8.first, first != UInt8(ascii: "#") else { return .comment }
        if first == UInt8(ascii: "["), let close = utf8.firstIndex(of: UInt8(ascii: "]")),
           utf8[utf8.index(after: close)...].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            let name = utf8[utf8.index(after: utf8.startIndex)..<close]
            guard !name.isEmpty, !name.contains(where: { $0 == UInt8(ascii: "[") || $0 < 0x20 || $0 == 0x7F }) else {
                throw KeyFileError(line: number, reason: "line \(number) has an invalid group name")
            }
            return .group(String(Substring(name)))
        }
        guard let equals = utf8.firstIndex(of: UInt8(ascii: "=")), equals != utf8.startIndex else {
            throw KeyFileError(line: number, reason: "line \(number) is not a group, a key=value pair or a comment")
        }
        guard inGroup else {
            throw KeyFileError(line: number, reason: "line \(number) has a key before the first group")
        }
        var key = utf8[..<equals]
        while let last = key.last, isWhitespace(last) { key = key.dropLast() }
        guard isKeyName(Substring(key)) else {
            throw KeyFileError(line: number, reason: "line \(number) has an invalid key name")
        }
        let value = utf8[utf8.index(after: equals)...].drop { isWhitespace($0) }
        return .entry(key: String(Substring(key)), value: String(Substring(value)))
    }

    /// GLib's key names: no `[`, `]` or `=` in the name, no space at its ends, and at most one
    /// locale in brackets (`Name[de_DE@euro]`) at the end.
    private static func isKeyName(_ key: Substring) -> Bool {
        let name = key.prefix { $0 != "[" && $0 != "]" }
        guard !name.isEmpty, name.first != " ", name.last != " " else { return false }
        let rest = key[name.endIndex...]
        guard !rest.isEmpty else { return true }
        guard rest.first == "[", rest.last == "]", rest.count >= 2 else { return false }
        return rest.dropFirst().dropLast().allSatisfy { $0.isLetter || $0.isNumber || "-_.@".contains($0) }
    }

    /// The lines of a group: each `[group]` line and the lines up to the next group.
    private func lineIndices(of group: String) -> [Int] {
        var indices: [Int] = []
        var inside = false
        for (index, line) in lines.enumerated() {
            if case .group(let name) = line.kind { inside = name == group }
            if inside { indices.append(index) }
        }
        return indices
    }

    private func lastEntryIndex(group: String, key: String) -> Int? {
        lineIndices(of: group).last { lines[$0].kind.isEntry(key) }
    }
}

/// A key file that cannot be read: which line, and why.
package struct KeyFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line's number, from 1.
    package var line: Int
    /// One sentence that names the line, such as "line 3 has a key before the first group".
    package var reason: String

    /// Creates the error.
    package init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }
}
