import HeraldCore

/// The publisher's static file host, the only server a Herald fleet talks to: one feed file
/// whose body is replaced now and then, answered with a 304 when the request's validators name
/// the current copy (DESIGN.md D15).
package struct FeedHost: Sendable, Equatable {
    /// What the host sends back to one request.
    package enum Answer: Sendable, Equatable {
        /// 304 Not Modified: headers only, no body.
        case notModified
        /// 200 with the whole body, and the validators the client keeps for its next request.
        case body(HeraldState.CachedFeed)
    }

    /// The feed's URL, as the installs' configuration names it.
    package var url: String
    /// Bytes in the feed's body.
    package var bodySize: Int
    /// When the publisher replaces the file, in seconds from the start of the simulated days,
    /// in order. Before the first change the file is version 1.
    package var changes: [Double]
    private let validators: [HeraldState.CachedFeed]

    /// Creates the host of one feed.
    ///
    /// - Parameters:
    ///   - url: the feed's URL.
    ///   - bodySize: bytes in the body. Default 20 KiB.
    ///   - changes: when the file is replaced, in seconds from the start of the simulated days.
    package init(url: String = "https://example.org/herald/feed.plist", bodySize: Int = 20 * 1024, changes: [Double]) {
        self.url = url
        self.bodySize = bodySize
        self.changes = changes.sorted()
        // Like a web server's: an ETag and a Last-Modified date per version of the file.
        validators = (0...changes.count).map { index in
            HeraldState.CachedFeed(url: url, etag: "\"v\(index + 1)\"", lastModified: "version \(index + 1)")
        }
    }

    /// The version of the file at `time` (seconds from the start): 1, then one more per change.
    package func version(at time: Double) -> Int {
        1 + changes.count(where: { $0 <= time })
    }

    /// Answers a conditional GET at `time`, sent with the validators of the client's cached copy.
    ///
    /// Like Herald's feed source, a client sends validators only for a copy of this URL; the
    /// host compares the ETag (If-None-Match), or the date when there is no ETag
    /// (If-Modified-Since).
    package func answer(cached: HeraldState.CachedFeed?, at time: Double) -> Answer {
        let current = validators[version(at: time) - 1]
        guard let cached, cached.url == url else { return .body(current) }
        let unchanged = cached.etag.map { $0 == current.etag } ?? (cached.lastModified == current.lastModified)
        return unchanged ? .notModified : .body(current)
    }
}
