/// Checks the structure of an XML property list before Foundation's decoder reads it.
///
/// Foundation's XML scanner recurses once per nested `<array>` or `<dict>`, so 100,000 of them
/// (a 1.5 MB feed) overflowed the stack, and its errors for damaged files are debug text such as
/// `CocoaError(code: …, userInfo: ["NSDebugDescription": "Encountered unexpected EOF"])`. This
/// pass matches every tag with its close tag, skipping comments, CDATA sections, processing
/// instructions and the DOCTYPE exactly where Foundation skips them, and refuses a document that
/// ends early, closes the wrong tag, nests deeper than `FeedLimits.maximumDepth` or holds more
/// than `FeedLimits.maximumValues` values, with the line where it happens.
enum XMLPropertyListCheck {
    /// Checks a whole document.
    ///
    /// - Throws: `DocumentFailure` naming the line of the first problem.
    static func check(_ bytes: [UInt8]) throws(DocumentFailure) {
        var open: [(name: ArraySlice<UInt8>, offset: Int)] = []
        var containers = 0
        var values = 0
        var position = 0
        func line(_ offset: Int) -> Int { DocumentFailure.lineAndColumn(of: offset, in: bytes).line }
        func find(_ marker: String, from start: Int) -> Int? {
            let needle = Array(marker.utf8)
            guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
            var index = start
            while index <= bytes.count - needle.count {
                if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
        func starts(_ prefix: String, at index: Int) -> Bool {
            let needle = Array(prefix.utf8)
            return bytes.count - index >= needle.count && bytes[index..<index + needle.count].elementsEqual(needle)
        }
        while let start = bytes[position...].firstIndex(of: UInt8(ascii: "<")) {
            if starts("<!--", at: start) {
                guard let end = find("-->", from: start + 4) else { throw .endsEarly("the comment on line \(line(start)) is not closed") }
                position = end + 3
            } else if starts("<![CDATA[", at: start) {
                guard let end = find("]]>", from: start + 9) else { throw .endsEarly("the CDATA section on line \(line(start)) is not closed") }
                position = end + 3
            } else if starts("<!", at: start) {
                // Foundation ends the DOCTYPE at the first '>' and refuses an inline DTD.
                guard let end = bytes[(start + 2)...].firstIndex(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "[") }) else {
                    throw .endsEarly("the DOCTYPE on line \(line(start)) is not closed")
                }
                guard bytes[end] == UInt8(ascii: ">") else { throw .syntax(offset: end, reason: "an inline DTD is not allowed in a property list") }
                position = end + 1
            } else if starts("<?", at: start) {
                guard let end = find("?>", from: start + 2) else {
                    throw .endsEarly("the processing instruction on line \(line(start)) is not closed")
                }
                position = end + 2
            } else {
                guard let end = tagEnd(bytes, from: start + 1) else { throw .endsEarly("the tag on line \(line(start)) is cut off") }
                let closing = bytes[start + 1] == UInt8(ascii: "/")
                let nameStart = closing ? start + 2 : start + 1
                let nameEnd = bytes[nameStart..<end].firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "/") } ?? end
                let name = bytes[nameStart..<nameEnd]
                guard !name.isEmpty else { throw .syntax(offset: start, reason: "a tag has no name") }
                let isContainer = name.elementsEqual("dict".utf8) || name.elementsEqual("array".utf8)
                if closing {
                    guard let innermost = open.popLast() else {
                        throw .syntax(offset: start, reason: "</\(text(name))> closes no open tag")
                    }
                    guard innermost.name.elementsEqual(name) else {
                        throw .syntax(offset: start, reason: "</\(text(name))> does not close <\(text(innermost.name))> from line \(line(innermost.offset))")
                    }
                    if isContainer { containers -= 1 }
                } else {
                    if !name.elementsEqual("plist".utf8) {
                        values += 1
                        if values > FeedLimits.maximumValues { throw .tooManyValues }
                    }
                    if bytes[end - 1] != UInt8(ascii: "/") {
                        open.append((name, start))
                        if isContainer {
                            containers += 1
                            if containers > FeedLimits.maximumDepth { throw .tooDeep }
                        }
                    }
                }
                position = end + 1
            }
        }
        if let innermost = open.last {
            throw .endsEarly("<\(text(innermost.name))> from line \(line(innermost.offset)) is not closed")
        }
    }

    /// The index of the '>' that ends a tag, skipping quoted attribute values.
    private static func tagEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var quote: UInt8?
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func text(_ name: ArraySlice<UInt8>) -> String {
        String(decoding: name.prefix(40), as: UTF8.self)
    }
}
