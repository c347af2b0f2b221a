/// The comparisons iNotify relies on, reproduced exactly (ORIGINALS.md §1.7, §1.8).
public enum VersionComparison {
    /// Compares like `NSString compare:options:NSNumericSearch`.
    ///
    /// Walks both strings one UTF-16 unit at a time. Where both have an ASCII digit, the whole
    /// digit runs are read as unsigned 64-bit numbers (overflow wraps) and compared; otherwise
    /// the first differing unit decides. The longer string is greater when one runs out.
    /// So "1.10" > "1.9", "1.0" < "1.0.0", "1.0" == "1.00" and "1.0-beta" > "1.0".
    public static func numeric(_ lhs: String, _ rhs: String) -> Ordering {
        let left = Array(lhs.utf16), right = Array(rhs.utf16)
        var i = 0, j = 0
        while i < left.count, j < right.count {
            if isDigit(left[i]), isDigit(right[j]) {
                let leftRun = digitRun(left, from: &i), rightRun = digitRun(right, from: &j)
                if leftRun != rightRun { return leftRun < rightRun ? .ascending : .descending }
            } else {
                if left[i] != right[j] { return left[i] < right[j] ? .ascending : .descending }
                i += 1
                j += 1
            }
        }
        if i < left.count { return .descending }
        if j < right.count { return .ascending }
        return .same
    }

    /// Compares like `caseInsensitiveCompare:`: ASCII letters fold to lower case, then UTF-16
    /// code units decide. Not numeric: "10" < "9" and "2011/02/01" < "2011/1/22".
    ///
    /// Keys that differ only in case are equal to iNotify; Herald breaks the tie by the raw
    /// units so that the order is the same on every run.
    public static func caseInsensitive(_ lhs: String, _ rhs: String) -> Ordering {
        let folded = compareUnits(lhs.utf16.lazy.map(fold), rhs.utf16.lazy.map(fold))
        return folded == .same ? compareUnits(lhs.utf16, rhs.utf16) : folded
    }

    /// Sorts strings in `caseInsensitive` order and returns their positions, first to last.
    ///
    /// Each string is read once: ASCII strings (nearly every message id) are compared on
    /// their bytes, which for ASCII are their UTF-16 units; the others through their
    /// UTF-16 units, kept in arrays.
    public static func caseInsensitiveOrder(of strings: [String]) -> [Int] {
        let texts = strings
        let units = texts.map { text -> [UInt16]? in text.utf8.allSatisfy({ $0 < 0x80 }) ? nil : Array(text.utf16) }
        return texts.indices.sorted { left, right in
            if units[left] == nil, units[right] == nil {
                var leftText = texts[left], rightText = texts[right]
                return leftText.withUTF8 { leftBytes in
                    rightText.withUTF8 { rightBytes in
                        let folded = compareUnits(leftBytes.lazy.map { fold(UInt16($0)) }, rightBytes.lazy.map { fold(UInt16($0)) })
                        return (folded == .same ? compareUnits(leftBytes.lazy.map(UInt16.init), rightBytes.lazy.map(UInt16.init)) : folded) == .ascending
                    }
                }
            }
            return caseInsensitive(texts[left], texts[right]) == .ascending
        }
    }

    /// The three outcomes of a comparison.
    public enum Ordering: Sendable, Equatable {
        /// The left operand sorts first.
        case ascending
        /// Neither sorts first.
        case same
        /// The right operand sorts first.
        case descending
    }

    private static func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }

    private static func digitRun(_ units: [UInt16], from index: inout Int) -> UInt64 {
        var value: UInt64 = 0
        while index < units.count, isDigit(units[index]) {
            value = value &* 10 &+ UInt64(units[index] - 0x30)
            index += 1
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
