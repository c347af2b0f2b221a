import FoundationEssentials
import HeraldCore

/// The ids removed from a feed, kept in `FEED.keys` beside it so that none is used again: a
/// user who answered a message never sees its id again, whatever it then says.
///
/// The ledger is text, one retired id a line: the date it was retired (`YYYY-MM-DD`, UTC), one
/// space, then the id exactly as it was, to the end of the line. Lines starting with `#` and
/// blank lines are comments. A line without a date in front is an id retired on an unknown
/// date, so an id written in by hand still counts. One comment is read too:
/// `# last signed version N`, the highest version `herald feed sign` gave the feed, so that the
/// next signing gives a higher one even when the feed was written anew without its signature.
///
/// ```
/// # Ids removed from feed.plist by herald feed remove: never use them again.
/// 2026-11-30 2026/11/22
/// # last signed version 1764000001
/// ```
package struct RetiredKeys: Sendable, Equatable {
    /// Each retired id and the date it was retired, when the ledger gives one.
    package private(set) var dates: [String: String?] = [:]
    /// The highest version the feed was signed with, when the ledger records one.
    package private(set) var lastSignedVersion: UInt64?

    /// The comment that records the last signed version, before the number.
    private static let signedVersionPrefix = "# last signed version "

    /// An empty ledger.
    package init() {}

    /// The first line of a new ledger, naming the feed it belongs to.
    package static func header(feedName: String) -> String {
        "# Ids removed from \(feedName) by herald feed remove: never use them again.\n"
    }

    /// Reads a ledger's text; every line that is not a comment retires an id.
    package static func parse(_ text: String) -> RetiredKeys {
        var ledger = RetiredKeys()
        // "\r\n" is one Character, a line break like "\n".
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix(signedVersionPrefix), let version = UInt64(line.dropFirst(signedVersionPrefix.count)) {
                ledger.lastSignedVersion = max(version, ledger.lastSignedVersion ?? 0)
            }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            if line.count > 11, isDate(line.prefix(10)), line.dropFirst(10).first == " " {
                ledger.retire(String(line.dropFirst(11)), on: String(line.prefix(10)))
            } else {
                ledger.retire(String(line), on: nil)
            }
        }
        return ledger
    }

    /// A ledger's `text` (empty for none) recording `version` as the last signed version: its
    /// earlier record replaced by one line at the end, every other line kept as it was.
    package static func text(_ text: String, recordingSignedVersion version: UInt64, feedName: String) -> String {
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(signedVersionPrefix) }.joined(separator: "\n")
        let start = kept.isEmpty ? header(feedName: feedName) : (kept.hasSuffix("\n") ? kept : kept + "\n")
        return start + signedVersionPrefix + "\(version)\n"
    }

    /// The ledger line that retires `key` on `date`, or `nil` when the id cannot be written
    /// on one line (`isWritable` says no).
    package static func line(retiring key: String, on date: Date) -> String? {
        guard isWritable(key) else { return nil }
        return "\(MessageKeys.ledgerDate(of: date)) \(key)\n"
    }

    /// Why an id `isWritable` refuses cannot be used, after the id's name: the one wording of
    /// the rule for `herald feed add --key` and `herald feed remove`.
    package static let unwritableReason = "cannot hold a line break or another control character: FEED.keys keeps one id a line"

    /// Whether `key` can be written on one ledger line and read back the same: the feed's id
    /// rule (`FeedProblem.idRefusal`: no control character) and no line break (U+2028 and U+2029
    /// included). An id that cannot be
    /// retired must not be given out, or `herald feed remove` would refuse it for good.
    package static func isWritable(_ key: String) -> Bool {
        FeedProblem.idRefusal(key) == nil && !key.contains(where: \.isNewline)
    }

    /// Records `key` as retired; the first date recorded for an id is kept.
    package mutating func retire(_ key: String, on date: String?) {
        if dates[key] == nil { dates[key] = .some(date) }
    }

    /// Whether `key` is retired (ids match exactly, as a user's answers do).
    package func isRetired(_ key: String) -> Bool { dates[key] != nil }

    /// Why `key` may not be used: it was retired, and clients that answered it hide it.
    package func refusal(of key: String) -> String? {
        guard let date = dates[key] else { return nil }
        return "was retired on \(date ?? "an unknown date"); an iNotify client that answered it will never show it again"
    }

    /// A problem for each of `keys` that is retired, in id order.
    package func problems(for keys: some Sequence<String>) -> [FeedProblem] {
        keys.compactMap { key in refusal(of: key).map { FeedProblem(key: key, reason: $0) } }.sorted { $0.key < $1.key }
    }

    private static func isDate(_ text: Substring) -> Bool {
        text.enumerated().allSatisfy { index, character in
            index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
        }
    }
}

extension FeedReport {
    /// Adds a finding per retired id the feed uses again, and marks those messages.
    ///
    /// - Parameter retired: the problems `RetiredKeys.problems(for:)` found, by message id.
    package mutating func include(retired: [FeedProblem]) {
        guard !retired.isEmpty else { return }
        let ids = Set(retired.map(\.key))
        for index in messages.indices where ids.contains(messages[index].id) { messages[index].hasFindings = true }
        let added = retired.map { FeedFinding(id: $0.key, key: nil, kind: .retiredID, sentence: $0.reason) }
        // Findings follow the order of the messages.
        let position = Dictionary(messages.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        findings = (findings + added).enumerated().sorted {
            let left = position[$0.element.id] ?? Int.max, right = position[$1.element.id] ?? Int.max
            return left != right ? left < right : $0.offset < $1.offset
        }.map(\.element)
    }
}
