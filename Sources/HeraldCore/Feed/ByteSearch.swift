import Glibc

/// Finding the first of a few bytes in text eight bytes at a time, as the readers and the JSON
/// writer do where most bytes are plain text, and telling whether bytes spell a given word or
/// are all ASCII.
///
/// Each test gives 0x80 in every byte of the word that passes it. A byte can be flagged wrongly
/// only above one flagged rightly (a borrow runs upwards), so the lowest flag, the first byte in
/// memory, is always right: `firstFlagged` is where to stop.
enum ByteSearch {
    /// Whether `a`'s UTF-8 bytes come before `b`'s, a string first where it begins the other: the
    /// order of message ids in the state file and the inbox, a total order. The bytes are
    /// compared where the strings keep them (`memcmp`), not one at a time through their views.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right -> Bool in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
        return compared.flatMap { $0 } ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// 0x01 in every byte: times a byte, that byte in every byte.
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    /// The high bit of every byte, where the tests put their flags.
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset` from `base`, the first in the lowest bits.
    @inline(__always)
    static func word(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// Flags the bytes of `word` equal to `byte`.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// Flags the bytes of `word` below `byte` (at most 0x80).
    @inline(__always)
    static func below(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        (word &- ones &* UInt64(byte)) & ~word & highs
    }

    /// The position in its word of the first flagged byte; `flags` is not zero.
    @inline(__always)
    static func firstFlagged(_ flags: UInt64) -> Int { flags.trailingZeroBitCount / 8 }

    /// Flags the bytes of `word` that are not ASCII (0x80 and above).
    @inline(__always)
    static func nonASCII(_ word: UInt64) -> UInt64 { word & highs }

    /// Whether a byte of `word` has its high bit set (is not ASCII).
    @inline(__always)
    static func hasHighBit(_ word: UInt64) -> Bool { word & highs != 0 }

    /// Whether every byte is below 0x80, checked eight bytes at a time.
    static func isASCII(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = run.baseAddress else { return true }
        var offset = 0, high: UInt64 = 0
        while offset + 8 <= run.count {
            high |= word(base, at: offset)
            offset += 8
        }
        var tail: UInt8 = 0
        while offset < run.count {
            tail |= base[offset]
            offset += 1
        }
        return !hasHighBit(high) && tail < 0x80
    }

    /// Whether `text` holds exactly the bytes of `word`, without making a string of them.
    @inline(__always)
    static func spells(_ text: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard let base = text.baseAddress, text.count == word.utf8CodeUnitCount else { return false }
        return memcmp(base, word.utf8Start, text.count) == 0
    }
}
