import Glibc

/// The comparisons iNotify relies on, reproduced exactly (ORIGINALS.md §1.7, §1.8).
package enum VersionComparison {
    /// Compares like `NSString compare:options:NSNumericSearch`.
    ///
    /// Walks both strings one UTF-16 unit at a time. Where both have an ASCII digit, the whole
    /// digit runs are read as unsigned 64-bit numbers (overflow wraps) and compared; otherwise
    /// the first differing unit decides. The longer string is greater when one runs out.
    /// So "1.10" > "1.9", "1.0" < "1.0.0", "1.0" == "1.00" and "1.0-beta" > "1.0".
    package static func numeric(_ lhs: String, _ rhs: String) -> Ordering {
        // Read where the units lie: a feed of thousands of messages compares the app's version
        // with two bounds for each, and a copy of both strings per comparison cost more than
        // the comparison itself.
        let left = lhs.utf16, right = rhs.utf16
        var i = left.startIndex, j = right.startIndex
        while i < left.endIndex, j < right.endIndex {
            if isDigit(left[i]), isDigit(right[j]) {
                let leftRun = digitRun(left, from: &i), rightRun = digitRun(right, from: &j)
                if leftRun != rightRun { return leftRun < rightRun ? .ascending : .descending }
            } else {
                if left[i] != right[j] { return left[i] < right[j] ? .ascending : .descending }
                left.formIndex(after: &i)
                right.formIndex(after: &j)
            }
        }
        if i < left.endIndex { return .descending }
        if j < right.endIndex { return .ascending }
        return .same
    }

    /// Compares like `caseInsensitiveCompare:`: ASCII letters fold to lower case, then UTF-16
    /// code units decide. Not numeric: "10" < "9" and "2011/02/01" < "2011/1/22".
    ///
    /// Keys that differ only in case are equal to iNotify; Herald breaks the tie by the raw
    /// units so that the order is the same on every run.
    package static func caseInsensitive(_ lhs: String, _ rhs: String) -> Ordering {
        let folded = compareUnits(lhs.utf16.lazy.map(fold), rhs.utf16.lazy.map(fold))
        return folded == .same ? compareUnits(lhs.utf16, rhs.utf16) : folded
    }

    /// Sorts strings in `caseInsensitive` order and returns their positions, first to last.
    ///
    /// Each string is read once: ASCII strings (nearly every message id) are compared on
    /// their bytes, which for ASCII are their UTF-16 units; the others through their
    /// UTF-16 units, kept in arrays.
    package static func caseInsensitiveOrder(of strings: [String]) -> [Int] {
        // Nearly every key is ASCII: those are laid out once, folded and as written, in two
        // buffers and compared with memcmp, with no per-comparison copies or retains. The few
        // others go through the full comparison.
        var folded: [UInt8] = [], written: [UInt8] = []
        var spans: [(start: Int, count: Int)?] = []
        spans.reserveCapacity(strings.count)
        // The first 16 folded bytes of each ASCII key, big-endian and padded with zeros, settle
        // most comparisons without memcmp; equal prefixes fall through to the whole bytes. The
        // prefixes are sorted with their positions, side by side, rather than positions that
        // look their prefixes up at every comparison. Each key's bytes are copied once into
        // each buffer, and folded where they lie in the first.
        var records: [OrderRecord] = []
        records.reserveCapacity(strings.count)
        for (position, string) in strings.enumerated() {
            var text = string
            let record = text.withUTF8 { bytes -> OrderRecord? in
                guard ByteSearch.isASCII(bytes) else { return nil }
                let start = written.count
                written.append(contentsOf: bytes)
                folded.append(contentsOf: bytes)
                spans.append((start, bytes.count))
                return folded.withUnsafeMutableBufferPointer { all in
                    let key = all.baseAddress.unsafelyUnwrapped + start
                    var high: UInt64 = 0, low: UInt64 = 0
                    for offset in 0..<bytes.count {
                        let byte = key[offset]
                        let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
                        key[offset] = lower
                        if offset < 8 {
                            high |= UInt64(lower) << (56 - 8 * offset)
                        } else if offset < 16 {
                            low |= UInt64(lower) << (56 - 8 * (offset - 8))
                        }
                    }
                    return OrderRecord(high: high, low: low, position: position, isASCII: true)
                }
            }
            if let record {
                records.append(record)
            } else {
                spans.append(nil)
                records.append(OrderRecord(high: 0, low: 0, position: position, isASCII: false))
            }
        }
        folded.withUnsafeBufferPointer { folded in
            written.withUnsafeBufferPointer { written in
                records.sort { left, right in
                    guard left.isASCII, right.isASCII else {
                        return caseInsensitive(strings[left.position], strings[right.position]) == .ascending
                    }
                    if left.high != right.high { return left.high < right.high }
                    if left.low != right.low { return left.low < right.low }
                    let leftSpan = spans[left.position].unsafelyUnwrapped, rightSpan = spans[right.position].unsafelyUnwrapped
                    let byFolding = compareBytes(folded, leftSpan, rightSpan)
                    return (byFolding != 0 ? byFolding : compareBytes(written, leftSpan, rightSpan)) < 0
                }
            }
        }
        return records.map(\.position)
    }

    /// A string's place in `caseInsensitiveOrder`: its folded prefix and its position.
    private struct OrderRecord {
        var high: UInt64
        var low: UInt64
        var position: Int
        var isASCII: Bool
    }

    /// Compares two spans of one buffer as unsigned bytes, a prefix first.
    private static func compareBytes(_ buffer: UnsafeBufferPointer<UInt8>, _ left: (start: Int, count: Int), _ right: (start: Int, count: Int)) -> Int {
        guard let base = buffer.baseAddress else { return left.count - right.count }
        let common = Int(memcmp(base + left.start, base + right.start, min(left.count, right.count)))
        return common != 0 ? common : left.count - right.count
    }

    /// The three outcomes of a comparison.
    package enum Ordering: Sendable, Equatable {
        /// The left operand sorts first.
        case ascending
        /// Neither sorts first.
        case same
        /// The right operand sorts first.
        case descending
    }

    private static func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }

    private static func digitRun(_ units: String.UTF16View, from index: inout String.Index) -> UInt64 {
        var value: UInt64 = 0
        while index < units.endIndex, isDigit(units[index]) {
            value = value &* 10 &+ UInt64(units[index] - 0x30)
            units.formIndex(after: &index)
        }
        return value
    }

    private static func fold(_ unit: UInt16) -> UInt16 { (unit >= 0x41 && unit <= 0x5A) ? unit + 0x20 : unit }

    private static func compareUnits<L: Sequence, R: Sequence>(_ lhs: L, _ rhs: R) -> Ordering
    where L.Element == UInt16, R.Element == UInt16 {
        var left = lhs.makeIterator(), right = rhs.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .same
            case (nil, _): return .ascending
            case (_, nil): return .descending
            case let (l?, r?) where l != r: return l < r ? .ascending : .descending
            default: continue
            }
        }
    }
}
