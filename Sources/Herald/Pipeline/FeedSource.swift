import CLibNotify
import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// A feed as the feed source hands it on: decoded, and how it was obtained.
public struct LoadedFeed: Sendable {
    /// The decoded feed.
    public var feed: Feed
    /// Validators of newly fetched bytes, to keep with the cached copy; `nil` when the bytes
    /// were not fetched anew (a 304) or nothing is cached.
    public var validators: FeedValidators?
    /// Whether a 304 re-used the cached copy.
    public var notModified: Bool
}

/// Turns a feed URL into decoded entries: the second stage of a check (DESIGN.md, "How a
/// check flows"), and the only place that fetches, caches and decodes a feed.
///
/// A conditional GET on the GLib main context (libsoup), the cached copy on a 304, decoding
/// by content. With a store it keeps the cached copy; without one (`herald validate`) every
/// load is a plain GET.
@MainContext
public final class FeedSource {
    /// The feed's URL.
    public let url: String
    private let fetcher: FeedFetcher
    private let cache: (any StateStore)?

    /// Creates the source of one feed.
    ///
    /// - Parameters:
    ///   - url: https, file, or http as `rules` allow.
    ///   - userAgent: sent with every request.
    ///   - timeout: seconds the whole fetch may take.
    ///   - sizeLimit: largest feed accepted, in bytes.
    ///   - rules: which URLs and redirects may be followed.
    ///   - caFile: the certificate authorities trusted for https instead of the system's.
    ///   - cache: where the cached copy is kept; `nil` for none.
    public init(url: String, userAgent: String, timeout: Double, sizeLimit: Int, rules: URLRules, caFile: String? = nil, cache: (any StateStore)?) {
        self.url = url
        self.cache = cache
        fetcher = FeedFetcher(userAgent: userAgent, timeout: timeout, sizeLimit: sizeLimit, rules: rules, caFile: caFile)
    }

    /// Fetches and decodes the feed; `completion` runs once, on the main context.
    ///
    /// - Parameter cached: the state's record of the cached copy. The request is conditional
    ///   only when that copy is of this URL and still on disk; it is read only on a 304.
    public func load(cached: HeraldState.CachedFeed?, completion: @escaping @MainContext (Result<LoadedFeed, HeraldError>) -> Void) {
        let reusable = cached.flatMap { $0.url == url && cache?.hasCachedFeed == true ? $0 : nil }
        let validators = reusable.map { FeedValidators(etag: $0.etag, lastModified: $0.lastModified) }
        fetcher.fetch(url, validators: validators) { [cache] result in
            completion(Self.decode(result, cache: cache))
        }
    }

    private static func decode(_ result: Result<FetchResult, FetchError>, cache: (any StateStore)?) -> Result<LoadedFeed, HeraldError> {
        let bytes: Data
        var validators: FeedValidators?
        switch result {
        case .failure(let error):
            return .failure(.fetch(error))
        case .success(.notModified):
            guard let cachedCopy = cache?.cachedFeed() else { return .failure(.fetch(.transport("HTTP 304 without a cached copy"))) }
            bytes = cachedCopy
        case .success(.fetched(let data, let received)):
            bytes = data
            validators = received
        }
        let feed: Feed
        do {
            feed = try FeedDecoder.decode(bytes)
        } catch {
            return .failure(.feed(error as? FeedError ?? .unreadable(String(describing: error))))
        }
        if let validators, let cache {
            // The bytes go to disk before their validators reach the state, so a conditional
            // request never names a copy that is not there.
            do { try cache.storeCachedFeed(bytes) } catch { return .failure(.state(StateStoreError(error, writing: "the feed cache"))) }
        }
        return .success(LoadedFeed(feed: feed, validators: cache == nil ? nil : validators, notModified: validators == nil))
    }

    /// A feed argument as a URL: URLs pass unchanged, a path becomes a `file://` URL.
    public static func url(forArgument argument: String) -> String {
        if let scheme = URLRules.scheme(of: argument), scheme != "file" || argument.hasPrefix("file:") { return argument }
        let absolute = argument.hasPrefix("/") ? argument : FileManager.default.currentDirectoryPath + "/" + argument
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(absolute, nil, &error) else {
            g_clear_error(&error)
            return "file://" + absolute
        }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}
