import FoundationEssentials

/// A reader for binary property lists (`bplist00`) that refuses hostile object graphs.
///
/// A binary plist is a table of objects that refer to each other by number, so a few bytes can
/// describe an object that contains itself (Foundation's decoder then recursed until the stack
/// overflowed, from a 43-byte feed) or objects that share children, whose tree doubles at every
/// level (210 bytes decoded for minutes). This reader follows references with the path from
/// the root in hand: an object reached again on its own path is a cycle and refuses the
/// document; shared objects are counted each time they are reached, against
/// `FeedLimits.maximumValues` and `FeedLimits.maximumExpandedBytes`, and nesting against
/// `FeedLimits.maximumDepth`. Every offset, count and reference is checked against the file
/// before it is used.
///
/// A value that is well-formed but cannot be used (a set, a UID, a string that is not valid
/// text, a date out of range) spoils only the entry holding it, as in JSON.
struct BinaryPropertyList {
    /// The file's bytes, read through a pointer: slices of an array retained its storage at
    /// every integer and string read.
    private let bytes: UnsafeBufferPointer<UInt8>
    private let objectOffsets: [Int]
    private let referenceSize: Int
    /// Where the object area ends: the offset table follows it.
    private let objectAreaEnd: Int
    /// The root object's number.
    private let rootObject: Int
    /// The objects from the root down to the one being read, to find cycles.
    private var path: [Int] = []
    private var values = 0
    private var expandedBytes = 0
    private var problems = EntryProblems()
    /// By object number, where a string or data object already decoded is in `decoded`, plus
    /// one (0: not decoded yet). An array, not a dictionary: the object numbers are dense, and
    /// hashing them costs more than decoding; and a word per object, so that the list is small
    /// to fill and to free.
    private var decodedSlot: [Int]
    /// Strings and data already decoded, with their size: a shared one is counted each time it
    /// is reached but decoded once.
    private var decoded: [DecodedLeaf] = []

    /// A string or data object as decoded, with what it counts against the limits.
    private struct DecodedLeaf {
        var value: FeedValue
        var problem: String?
        var size: Int
    }

    /// Reads a whole document.
    ///
    /// - Throws: `DocumentFailure` with the byte where a damaged file or a cycle was found, or
    ///   a refusal of a document beyond `FeedLimits`.
    static func read(_ bytes: [UInt8]) throws(DocumentFailure) -> FeedDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(DocumentFailure) -> FeedDocument in try read(buffer) }
    }

    /// Reads a whole document from bytes that stay valid while it is read.
    static func read(_ buffer: UnsafeBufferPointer<UInt8>) throws(DocumentFailure) -> FeedDocument {
        var reader = try BinaryPropertyList(bytes: buffer)
        return try reader.wholeDocument()
    }

    /// Reads and checks the header, the trailer and the offset table.
    private init(bytes: UnsafeBufferPointer<UInt8>) throws(DocumentFailure) {
        self.bytes = bytes
        let trailerSize = 32
        guard bytes.count >= 8 + 1 + trailerSize else { throw .endsEarly("the file is too short to hold a trailer") }
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            let version = String(decoding: bytes[6..<8], as: UTF8.self)
            throw .syntax(offset: 6, reason: "the header names version \(version.debugDescription), but only version 00 is read")
        }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let objectCount = Self.unsigned(bytes[trailer + 8..<trailer + 16])
        let topObject = Self.unsigned(bytes[trailer + 16..<trailer + 24])
        let tableOffset = Self.unsigned(bytes[trailer + 24..<trailer + 32])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw .syntax(offset: trailer + 6, reason: "the trailer gives integer sizes of \(offsetSize) and \(referenceSize) bytes, not 1 to 8")
        }
        // Each object takes at least one byte between the header and the offset table, and the
        // table lies between the objects and the trailer.
        guard tableOffset >= 9, tableOffset <= UInt64(trailer), objectCount >= 1,
              objectCount <= tableOffset - 8, objectCount <= (UInt64(trailer) - tableOffset) / UInt64(offsetSize)
        else { throw .syntax(offset: trailer + 24, reason: "the offset table does not fit in the file") }
        guard topObject < objectCount else {
            throw .syntax(offset: trailer + 16, reason: "the root is object \(topObject), but there are only \(objectCount) objects")
        }
        objectAreaEnd = Int(tableOffset)
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(objectCount))
        for index in 0..<Int(objectCount) {
            let start = Int(tableOffset) + index * offsetSize
            let offset = Self.unsigned(in: bytes, at: start, size: offsetSize)
            guard offset >= 8, offset < tableOffset else {
                throw .syntax(offset: start, reason: "the offset table puts object \(index) outside the object area")
            }
            offsets.append(Int(offset))
        }
        objectOffsets = offsets
        rootObject = Int(topObject)
        decodedSlot = Array(repeating: 0, count: offsets.count)
    }

    private mutating func wholeDocument() throws(DocumentFailure) -> FeedDocument {
        let root = rootObject
        var unreadable: [FeedProblem] = []
        guard case .dictionary(let keyReferences, let valueReferences) = try container(root) else {
            return FeedDocument(root: try value(root), format: .binaryPropertyList, unreadableEntries: [])
        }
        try enter(root)
        var entries: [DocumentEntry] = []
        entries.reserveCapacity(keyReferences.count)
        for (keyReference, valueReference) in zip(keyReferences, valueReferences) {
            var keyProblem: String?
            let key = try key(keyReference, problem: &keyProblem)
            problems.startEntry()
            if let keyProblem { problems.noteEntryKey(keyProblem) }
            let entry = try entryBody(valueReference)
            problems.file(entry, under: key, in: &entries, unreadable: &unreadable)
        }
        path.removeLast()
        return FeedDocument(entries: entries, format: .binaryPropertyList, unreadableEntries: unreadable)
    }

    /// An entry of the root dictionary: a dictionary is kept as its list of keys and values.
    ///
    /// Its references are read where they stand, once all are checked, without arrays of them.
    private mutating func entryBody(_ object: Int) throws(DocumentFailure) -> DocumentEntry.Body {
        let (kind, info, start) = marker(of: object)
        guard kind == 0xD else { return .other(try value(object)) }
        let (count, first) = try length(of: object, info: info, start: start)
        let range = try payload(of: object, start: first, count: count, size: 2 * referenceSize)
        for start in stride(from: range.lowerBound, to: range.upperBound, by: referenceSize) {
            let reference = unsigned(at: start, size: referenceSize)
            guard reference < UInt64(objectOffsets.count) else {
                throw .syntax(offset: start, reason: "object \(object) refers to object \(reference), which does not exist")
            }
        }
        try enter(object)
        var fields = FeedFields(capacity: count)
        for index in 0..<count {
            let keyStart = range.lowerBound + index * referenceSize
            let valueStart = keyStart + count * referenceSize
            let keyObject = Int(unsigned(at: keyStart, size: referenceSize))
            let valueObject = Int(unsigned(at: valueStart, size: referenceSize))
            var keyProblem: String?
            let key = try key(keyObject, problem: &keyProblem)
            if let keyProblem { problems.noteKey(keyProblem) }
            let valueKind = marker(of: valueObject).kind
            if valueKind != 0xA, valueKind != 0xD {
                // A value holding no references, as most values of an entry are: read here, its
                // key put on the problem path only when it has a problem, instead of for every value.
                try self.count()
                var problem: String?
                let leaf = try leaf(valueObject, problem: &problem)
                if let problem {
                    problems.enter(key)
                    problems.note(problem)
                    problems.leave()
                }
                fields.add(key, leaf)
            } else {
                problems.enter(key)
                fields.add(key, try value(valueObject))
                problems.leave()
            }
        }
        path.removeLast()
        return .fields(fields)
    }

    // MARK: objects

    /// The references of a container object; `none` for any other object.
    private enum Container {
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
        case none
    }

    /// Puts an object on the path from the root, refusing cycles and excessive nesting, and
    /// counts it as one more value.
    private mutating func enter(_ object: Int) throws(DocumentFailure) {
        if path.contains(object) {
            throw damaged(object, "object \(object) contains itself")
        }
        path.append(object)
        guard path.count <= FeedLimits.maximumDepth else { throw .tooDeep }
        try count()
    }

    private mutating func count() throws(DocumentFailure) {
        values += 1
        if values > FeedLimits.maximumValues {
            throw .refused("the document expands to more than \(NumberText.grouped(FeedLimits.maximumValues)) values "
                + "(an object shared by several containers counts each time it is reached)")
        }
    }

    private mutating func countBytes(_ count: Int) throws(DocumentFailure) {
        expandedBytes += count
        if expandedBytes > FeedLimits.maximumExpandedBytes {
            throw .refused("the document expands to more than \(FeedLimits.maximumExpandedBytes >> 20) MiB of strings and data "
                + "(an object shared by several containers counts each time it is reached)")
        }
    }

    /// A fault of `object`, placed at its first byte.
    private func damaged(_ object: Int, _ reason: String) -> DocumentFailure {
        .syntax(offset: objectOffsets[object], reason: reason)
    }

    /// The object's marker byte and where its payload starts.
    private func marker(of object: Int) -> (kind: UInt8, info: UInt8, start: Int) {
        let offset = objectOffsets[object]
        return (bytes[offset] >> 4, bytes[offset] & 0x0F, offset + 1)
    }

    /// The element count of a variable-length object: the marker's low nibble, or the integer
    /// object that follows it when the nibble is 0xF.
    private func length(of object: Int, info: UInt8, start: Int) throws(DocumentFailure) -> (count: Int, start: Int) {
        guard info == 0x0F else { return (Int(info), start) }
        guard start < objectAreaEnd, bytes[start] >> 4 == 0x1 else {
            throw damaged(object, "object \(object) has no valid length")
        }
        let size = 1 << Int(bytes[start] & 0x0F)
        guard size <= 8, start + 1 + size <= objectAreaEnd else { throw damaged(object, "object \(object) has no valid length") }
        let count = unsigned(at: start + 1, size: size)
        guard count <= UInt64(objectAreaEnd) else { throw damaged(object, "object \(object) runs past the object area") }
        return (Int(count), start + 1 + size)
    }

    /// Checks that `count` items of `size` bytes from `start` stay in the object area.
    private func payload(of object: Int, start: Int, count: Int, size: Int) throws(DocumentFailure) -> Range<Int> {
        guard count <= (objectAreaEnd - start) / size else {
            throw damaged(object, "object \(object) runs past the object area")
        }
        return start..<start + count * size
    }

    private func references(of object: Int, in range: Range<Int>) throws(DocumentFailure) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(range.count / referenceSize)
        for start in stride(from: range.lowerBound, to: range.upperBound, by: referenceSize) {
            let reference = unsigned(at: start, size: referenceSize)
            guard reference < UInt64(objectOffsets.count) else {
                throw .syntax(offset: start, reason: "object \(object) refers to object \(reference), which does not exist")
            }
            out.append(Int(reference))
        }
        return out
    }

    private func container(_ object: Int) throws(DocumentFailure) -> Container {
        let (kind, info, start) = marker(of: object)
        switch kind {
        case 0xA:
            let (count, first) = try length(of: object, info: info, start: start)
            return .array(try references(of: object, in: try payload(of: object, start: first, count: count, size: referenceSize)))
        case 0xD:
            let (count, first) = try length(of: object, info: info, start: start)
            let all = try references(of: object, in: try payload(of: object, start: first, count: count, size: 2 * referenceSize))
            return .dictionary(keys: Array(all[..<count]), values: Array(all[count...]))
        default:
            return .none
        }
    }

    /// A dictionary key: a string object.
    private mutating func key(_ object: Int, problem: inout String?) throws(DocumentFailure) -> String {
        try count()
        let kind = marker(of: object).kind
        guard (0x5...0x7).contains(kind), case .string(let text) = try leaf(object, problem: &problem) else {
            throw damaged(object, "a dictionary key (object \(object)) is not a string")
        }
        return text
    }

    private mutating func value(_ object: Int) throws(DocumentFailure) -> FeedValue {
        switch try container(object) {
        case .array(let elements):
            try enter(object)
            var out: [FeedValue] = []
            out.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                problems.enter("[\(index)]")
                out.append(try value(element))
                problems.leave()
            }
            path.removeLast()
            return .array(out)
        case .dictionary(let keys, let values):
            try enter(object)
            var out: [String: FeedValue] = [:]
            out.reserveCapacity(keys.count)
            for (keyObject, valueObject) in zip(keys, values) {
                var keyProblem: String?
                let key = try key(keyObject, problem: &keyProblem)
                if let keyProblem { problems.noteKey(keyProblem) }
                problems.enter(key)
                out[key] = try value(valueObject)
                problems.leave()
            }
            path.removeLast()
            return .dictionary(out)
        case .none:
            try count()
            var problem: String?
            let leaf = try leaf(object, problem: &problem)
            if let problem { problems.note(problem) }
            return leaf
        }
    }

    /// A value that holds no references; one Herald cannot use is `.null` with a `problem`.
    private mutating func leaf(_ object: Int, problem: inout String?) throws(DocumentFailure) -> FeedValue {
        let slot = decodedSlot[object]
        if slot > 0 {
            let known = decoded[slot - 1]
            try countBytes(known.size)
            problem = problem ?? known.problem
            return known.value
        }
        let (kind, info, start) = marker(of: object)
        guard (0x4...0x7).contains(kind) else { return try scalar(object, kind: kind, info: info, start: start, problem: &problem) }
        var found: String?
        let (value, size) = try sized(object, kind: kind, info: info, start: start, problem: &found)
        decoded.append(DecodedLeaf(value: value, problem: found, size: size))
        decodedSlot[object] = decoded.count
        problem = problem ?? found
        return value
    }

    /// Strings and data, with the bytes they count against `FeedLimits.maximumExpandedBytes`.
    private mutating func sized(_ object: Int, kind: UInt8, info: UInt8, start: Int, problem: inout String?) throws(DocumentFailure) -> (FeedValue, Int) {
        let (count, first) = try length(of: object, info: info, start: start)
        let range = try payload(of: object, start: first, count: count, size: kind == 0x6 ? 2 : 1)
        try countBytes(range.count)
        switch kind {
        case 0x4:
            return (.data(Data(bytes[range])), range.count)
        case 0x6:
            return (.string(utf16(bytes[range], problem: &problem)), range.count)
        default:
            // 0x5 is ASCII; 0x7 (UTF-8) is read too, as Core Foundation does.
            let run = UnsafeBufferPointer(rebasing: bytes[range])
            if ByteSearch.isASCII(run) {
                return (.string(String(decoding: run, as: UTF8.self)), range.count)
            } else if kind == 0x5 {
                problem = "holds an ASCII string with bytes beyond ASCII"
            } else if let text = String(validating: run, as: UTF8.self) {
                return (.string(text), range.count)
            } else {
                problem = "holds a string that is not valid UTF-8"
            }
            return (.string(String(decoding: bytes[range], as: UTF8.self)), range.count)
        }
    }

    /// Null, booleans, numbers, dates, and the kinds a feed cannot use.
    private func scalar(_ object: Int, kind: UInt8, info: UInt8, start: Int, problem: inout String?) throws(DocumentFailure) -> FeedValue {
        switch (kind, info) {
        case (0x0, 0x0): return .null
        case (0x0, 0x8): return .bool(false)
        case (0x0, 0x9): return .bool(true)
        case (0x1, 0...4):
            let size = 1 << Int(info)
            let range = try payload(of: object, start: start, count: 1, size: size)
            return integer(bytes[range], problem: &problem)
        case (0x2, 2):
            let range = try payload(of: object, start: start, count: 1, size: 4)
            return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: Self.unsigned(bytes[range])))))
        case (0x2, 3):
            let range = try payload(of: object, start: start, count: 1, size: 8)
            return .real(Double(bitPattern: Self.unsigned(bytes[range])))
        case (0x3, 3):
            let range = try payload(of: object, start: start, count: 1, size: 8)
            let seconds = Double(bitPattern: Self.unsigned(bytes[range]))
            // About the years -1168 to 5169: beyond that a date is damage, not a message date.
            guard seconds.isFinite, abs(seconds) <= 1e11 else {
                problem = "holds a date out of range"
                return .null
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (0x8, _):
            problem = "holds a UID (keyed-archive data), which a feed cannot use"
            return .null
        case (0xB, _), (0xC, _):
            problem = "holds a set, which a feed cannot use"
            return .null
        default:
            throw damaged(object, "object \(object) has the unknown type 0x\(JSONFeedReader.hex(UInt32(kind << 4 | info), width: 2))")
        }
    }

    /// 1, 2 and 4-byte integers are unsigned, 8-byte ones signed, 16-byte ones signed 128-bit.
    private func integer(_ payload: Slice<UnsafeBufferPointer<UInt8>>, problem: inout String?) -> FeedValue {
        switch payload.count {
        case 16:
            let high = Self.unsigned(payload.prefix(8))
            let low = Self.unsigned(payload.suffix(8))
            if high == 0 { return low <= UInt64(Int.max) ? .integer(Int(low)) : .real(Double(low)) }
            if high == UInt64.max, low >= UInt64(1) << 63 { return .integer(Int(bitPattern: UInt(low))) }
            problem = "holds an integer beyond 64 bits"
            return .null
        case 8:
            return .integer(Int(bitPattern: UInt(Self.unsigned(payload))))
        default:
            return .integer(Int(Self.unsigned(payload)))
        }
    }

    /// Big-endian UTF-16; a lone surrogate becomes U+FFFD and is reported.
    private func utf16(_ payload: Slice<UnsafeBufferPointer<UInt8>>, problem: inout String?) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(payload.count / 2)
        var index = payload.startIndex
        while index < payload.endIndex {
            units.append(UInt16(payload[index]) << 8 | UInt16(payload[index + 1]))
            index += 2
        }
        var text = ""
        var iterator = units.makeIterator()
        var decoder = UTF16()
        decode: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
            case .emptyInput: break decode
            case .error:
                if problem == nil { problem = "holds a lone UTF-16 surrogate, which is not text" }
                text.unicodeScalars.append("\u{FFFD}")
            }
        }
        return text
    }

    /// A big-endian unsigned integer of up to 8 bytes.
    private static func unsigned(_ payload: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64 {
        payload.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The big-endian unsigned integer of `size` bytes (1 to 8) at `offset`, read in one load
    /// for the sizes references and lengths use. The caller has checked that the bytes lie in
    /// the object area.
    @inline(__always)
    private func unsigned(at offset: Int, size: Int) -> UInt64 {
        Self.unsigned(in: bytes, at: offset, size: size)
    }

    /// The big-endian unsigned integer of `size` bytes (1 to 8) at `offset` in `bytes`; the
    /// caller has checked that the bytes lie in `bytes` (the initialiser reads the offset table
    /// with it, before the object area is known).
    @inline(__always)
    private static func unsigned(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        let start = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + offset)
        switch size {
        case 1: return UInt64(start.load(as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: start.loadUnaligned(as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: start.loadUnaligned(as: UInt32.self)))
        case 8: return UInt64(bigEndian: start.loadUnaligned(as: UInt64.self))
        default: return unsigned(bytes[offset..<offset + size])
        }
    }
}
