/// The name someone probably meant when they typed one that is not known: a feed's key
/// (`herald validate`'s "did you mean"), a command's option.
public enum Spelling {
    /// The known name `typed` was probably meant to be: the same but for case, or one typo away
    /// (two for names longer than five characters), counting a swap of neighbours as one; the
    /// closest, and the first of equals; `nil` when none is that close.
    public static func nearest(to typed: String, among known: some Sequence<String>) -> String? {
        let folded = Array(typed.lowercased())
        var best: (name: String, distance: Int)?
        for name in known {
            let target = Array(name.lowercased())
            let allowed = target.count <= 5 ? 1 : 2
            guard abs(target.count - folded.count) <= allowed else { continue }
            let distance = editDistance(folded, target)
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    /// Edits between two strings: insertions, deletions, substitutions and swaps of neighbours
    /// (optimal string alignment).
    static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: rhs.count + 1), count: lhs.count + 1)
        for i in 0...lhs.count { table[i][0] = i }
        for j in 0...rhs.count { table[0][j] = j }
        for i in 1...lhs.count {
            for j in 1...rhs.count {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[lhs.count][rhs.count]
    }
}
