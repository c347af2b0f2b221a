import FoundationEssentials

/// The cached copy of a feed as kept on disk: a first line naming the URL its bytes came from
/// (for a `{lang}` feed the language's URL, for an administrator's mirror the mirror's), then
/// the bytes as fetched.
///
/// The state's record of the validators and the file are written one after the other, and a
/// check that fails or is deferred between the two leaves them apart; the copy naming its own
/// URL is what makes sure a 304 from one URL never brings out bytes fetched from another.
package enum CachedFeedCopy {
    /// The start of the first line; the URL follows, then a line feed.
    static let prefix = Array("herald-cached-from: ".utf8)

    /// The file's contents for `bytes` fetched from `url`; `nil` for a URL that cannot be kept
    /// on one line, which is then not cached.
    package static func contents(of bytes: Data, from url: String) -> Data? {
        guard !url.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else { return nil }
        var contents = Data(prefix)
        contents.append(contentsOf: url.utf8)
        contents.append(UInt8(ascii: "\n"))
        contents.append(bytes)
        return contents
    }

    /// The bytes of a cached copy when it came from `url`; `nil` for a copy of another URL, or
    /// one written before copies named their URL, which count as no copy.
    package static func bytes(in contents: Data, from url: String) -> Data? {
        let header = prefix + Array(url.utf8) + [UInt8(ascii: "\n")]
        guard contents.count >= header.count, contents.prefix(header.count).elementsEqual(header) else { return nil }
        return Data(contents.dropFirst(header.count))
    }
}
