import CDesktopLibraries
import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// A feed as the feed source hands it on: decoded, and how it was obtained.
package struct LoadedFeed: Sendable {
    /// The decoded feed.
    package var feed: Feed
    /// What the state's record of the cached copy becomes, for the check to write with its
    /// outcome: the validators of newly fetched bytes and, for a URL with `{lang}`, the URL
    /// that answered. `nil` leaves the record as it is (a 304, or nothing cached).
    package var cacheRecord: HeraldState.CachedFeed?
    /// Whether a 304 re-used the cached copy.
    package var notModified: Bool
    /// The URL that answered: the feed URL, or for one with `{lang}` the URL it stood for.
    package var url: String
    /// The URLs asked before `url` that were not there (HTTP 404), in order.
    package var notFound: [String] = []
    /// The signed metadata of a verified feed; `nil` for an unsigned feed, or one signed in the
    /// previous format (unversioned).
    package var signedMetadata: FeedSignature.Metadata?
    /// The verified signature's bytes; `nil` for an unsigned feed.
    package var signature: Data?
    /// Which of the configured public keys verified the feed (its place in the list); `nil`
    /// when no key is configured.
    package var verifyingKey: Int?
}

/// Turns a feed URL into decoded entries: the second stage of a check (DESIGN.md, "How a
/// check flows"), and the only place that fetches, caches, verifies and decodes a feed.
///
/// A conditional GET on the GLib main context (libsoup); with a public key, the signature
/// checked over the exact bytes before anything is decoded (D20); decoding by content. With a
/// store it keeps the cached copy, which a 304 re-uses; without one (`herald validate`) every
/// load is a plain GET.
///
/// A feed URL with `{lang}` is asked with each of the user's languages in turn, then without
/// one, moving on only on a 404 (`LanguageFeedURL`): at most the languages and one more
/// requests. The URL that answered is kept with the cached copy's validators, so later loads
/// ask it alone, conditionally, until it is gone or the languages change.
///
/// A server that answered 429 or 503 with a `Retry-After` is not asked again by this process
/// before its time, for any app (`ServerWaits`).
///
/// A 304 is believed only as the answer to a request that named the cached copy of the URL
/// asked, and the copy is used only when it names that URL too (`CachedFeedCopy`): a copy from
/// another URL, language or mirror is never shown. One load asks at most
/// `requestLimit(languages:)` requests, within one deadline of `timeout`.
@MainContext
package final class FeedSource {
    /// The feed's URL, as configured (with `{lang}` when it has one).
    package let url: String
    /// The user's languages that may fill `{lang}`, in order.
    package let languages: [String]
    /// Made on the first load, once GIO and libsoup are loaded.
    private lazy var fetcher = makeFetcher()
    private let makeFetcher: @MainContext () -> FeedFetcher
    /// The URL that gave the last load its answer (for a `{lang}` feed, the language's), or
    /// `nil` before one: where a feed that cannot be read came from.
    package private(set) var answeredURL: String?
    private let cache: (any StateStore)?
    private let publicKeys: [Data]
    private let appID: String?
    private let now: @MainContext () -> Date

    /// Creates the source of one feed.
    ///
    /// - Parameters:
    ///   - url: https, file, or http as `rules` allow.
    ///   - userAgent: sent with every request.
    ///   - timeout: seconds the whole fetch may take.
    ///   - sizeLimit: largest feed accepted, in bytes.
    ///   - rules: which URLs and redirects may be followed.
    ///   - caFile: the certificate authorities trusted for https instead of the system's.
    ///   - publicKeys: the Ed25519 keys the app trusts, any one of which must have signed the
    ///     feed; none accepts unsigned feeds.
    ///   - appID: the app checking; a feed signed for another app is refused. `nil` checks no app.
    ///   - now: the clock a signature's expiry is compared with, and a `Retry-After` counts from.
    ///   - languages: the user's languages (`Audience.languages`), for a URL with `{lang}`.
    ///   - cache: where the cached copy is kept; `nil` for none.
    package init(url: String, userAgent: String, timeout: Double, sizeLimit: Int, rules: URLRules, caFile: String? = nil,
                publicKeys: [Data] = [], appID: String? = nil, now: @escaping @MainContext () -> Date = { Date() }, languages: [String] = [],
                cache: (any StateStore)?) {
        self.url = url
        self.languages = LanguageFeedURL.usable(languages)
        self.cache = cache
        self.publicKeys = publicKeys
        self.appID = appID
        self.now = now
        makeFetcher = { FeedFetcher(userAgent: userAgent, timeout: timeout, sizeLimit: sizeLimit, rules: rules, caFile: caFile, now: now) }
    }

    /// The feed argument that names standard input. Such a feed is read once, never cached,
    /// and has no conditional request: there is no earlier copy to compare it with.
    package nonisolated static let standardInput = "-"

    /// Whether the fetched bytes are kept for a conditional request next time.
    private var cacheable: Bool { url != Self.standardInput }

    /// The most requests one load makes, whatever the servers answer: each URL asked takes one
    /// request and up to five redirects; the URLs are the feed's (for `{lang}`, each of
    /// `languages` and the URL without one), the signature file beside the one that answered,
    /// and, when a 304 named a copy that turns out unusable, that URL once more unconditionally.
    package nonisolated static func requestLimit(languages: Int, maxRedirects: Int = 5) -> Int {
        (1 + maxRedirects) * (languages + 1 + 2)
    }

    /// Where a signature that is not at the feed's end is looked for: beside the URL that answered.
    package nonisolated static func detachedSignatureURL(of url: String) -> String { url + ".sig" }

    /// Fetches, verifies and decodes the feed; `completion` runs once, on the main context.
    ///
    /// - Parameter cached: the state's record of the cached copy. The request is conditional
    ///   only when that copy is of this URL and still there; it is read only on a 304, and a
    ///   copy that no longer verifies or decodes, or came from another URL, is fetched anew once. For a URL with `{lang}`
    ///   the record also names the URL that answered last, which is asked first and alone.
    /// - Parameter accepted: the newest signature the app accepted from this feed URL
    ///   (`HeraldState.acceptedSignature(from:)`); a feed signed with a lower version, or with
    ///   the same version over other bytes, is refused as replayed.
    /// - Parameter completion: receives the loaded feed or the reason there is none.
    package func load(cached: HeraldState.CachedFeed?, accepted: FeedSignature.Accepted? = nil,
                     completion: @escaping @MainContext (Result<LoadedFeed, HeraldError>) -> Void) {
        do {
            // libsoup first: GIO, its dependency, comes in with it in one load. A file or
            // standard input is read with GIO alone.
            if cacheable, URLRules.scheme(of: url) != "file" { try DesktopLibrary.libsoup.load() }
            try DesktopLibrary.gio.load()
        } catch {
            return MainContext.idle { completion(.failure(.libraryUnavailable(error.description))) }
        }
        let candidates = cacheable ? LanguageFeedURL.candidates(for: url, languages: languages) : [url]
        let template = candidates != [url]
        let record = cached.flatMap { cached -> HeraldState.CachedFeed? in
            guard cacheable else { return nil }
            guard template else { return cached.url == url && cached.template == nil ? cached : nil }
            return cached.template == url && cached.languages == languages && candidates.contains(cached.url) ? cached : nil
        }
        let validators = record.flatMap { cache?.hasCachedFeed == true ? FeedValidators(etag: $0.etag, lastModified: $0.lastModified) : nil }
        // The URL that answered last goes first; when it is gone, the others follow in order.
        let order = record.map { remembered in [remembered.url] + candidates.filter { $0 != remembered.url } } ?? candidates
        ask(order[...], validators: validators, notFound: [], load: Load(deadline: fetcher.deadline(), accepted: accepted),
            completion: completion)
    }

    /// What every request of one load shares: when it must be done, and the highest signed
    /// version accepted before it.
    private struct Load {
        let deadline: ContinuousClock.Instant
        let accepted: FeedSignature.Accepted?
    }

    /// Asks the first of `urls`, and the next on a 404 while there is one, all by the load's deadline.
    private func ask(_ urls: ArraySlice<String>, validators: FeedValidators?, notFound: [String], load: Load,
                     completion: @escaping @MainContext (Result<LoadedFeed, HeraldError>) -> Void) {
        let target = urls.first!
        // Standard input is read through its /dev path, with the size limit of any other feed.
        fetch(cacheable ? target : "file:///dev/stdin", validators: validators, deadline: load.deadline) { [self] result in
            if case .failure(let error) = result, error.isNotFound, urls.count > 1 {
                // The validators were the answered URL's: another URL's copy is fetched whole.
                return ask(urls.dropFirst(), validators: nil, notFound: notFound + [target], load: load, completion: completion)
            }
            answeredURL = target
            let origin = Origin(url: target, notFound: notFound, load: load)
            switch result {
            case .failure(let error) where error.isNotFound && LanguageFeedURL.isTemplate(url):
                completion(.failure(.fetch(.notFoundInAnyLanguage(notFound + [target]))))
            case .failure(let error):
                completion(.failure(.fetch(error)))
            case .success(.fetched(let bytes, let received)):
                accept(bytes, from: origin, validators: received, completion: completion)
            case .success(.notModified):
                if case .success(let loaded) = reuseCachedCopy(from: origin) {
                    return completion(.success(loaded))
                }
                // Damaged, gone or another URL's: this URL once more, unconditionally, instead of
                // failing every check until the feed changes. A 304 to that is a failure, so
                // this is one request more at most.
                ask([target], validators: nil, notFound: notFound, load: load, completion: completion)
            }
        }
    }

    /// Every request of a load goes through here: a server that asked this process to wait
    /// (`ServerWaits`) is not asked before its time, and the load ends with the failure it
    /// answered, as if asked; a server that asks to wait now is remembered.
    private func fetch(_ url: String, validators: FeedValidators?, deadline: ContinuousClock.Instant,
                       completion: @escaping @MainContext (Result<FetchResult, FetchError>) -> Void) {
        let server = FeedFetcher.server(of: url)
        if let server, let failure = ServerWaits.failure(of: server, at: now()) {
            return MainContext.idle { completion(.failure(failure)) }
        }
        fetcher.fetch(url, validators: validators, deadline: deadline) { result in
            if case .failure(let failure) = result { ServerWaits.remember(failure, requested: server) }
            completion(result)
        }
    }

    /// The URL that answered and those asked before it that were not there, and when the
    /// load's requests must be done.
    private struct Origin {
        let url: String
        let notFound: [String]
        let load: Load
    }

    /// New bytes: verified when a key is configured, decoded, then cached with their signature.
    private func accept(_ bytes: Data, from origin: Origin, validators: FeedValidators,
                        completion: @escaping @MainContext (Result<LoadedFeed, HeraldError>) -> Void) {
        guard !publicKeys.isEmpty else { return completion(decode(bytes, from: origin, cacheAs: bytes, validators: validators)) }
        let split: FeedSignature.Split
        do { split = try FeedSignature.split(bytes) } catch { return completion(.failure(.signature(error))) }
        if let signature = split.signature {
            return completion(verified(split.content, from: origin, signature: signature, validators: validators))
        }
        let signatureURL = Self.detachedSignatureURL(of: origin.url)
        fetch(signatureURL, validators: nil, deadline: origin.load.deadline) { [self] result in
            switch result {
            case .success(.fetched(let text, _)):
                do throws(FeedSignatureProblem) {
                    let signature = try FeedSignature.detached(text)
                    completion(verified(bytes, from: origin, signature: signature, validators: validators))
                } catch {
                    completion(.failure(.signature(error)))
                }
            case .success(.notModified):
                completion(.failure(.signature(.missing(detachedURL: signatureURL, reason: "HTTP 304 without a copy"))))
            case .failure(let error):
                completion(.failure(.signature(.missing(detachedURL: signatureURL, reason: error.description))))
            }
        }
    }

    private func verified(_ content: Data, from origin: Origin, signature: FeedSignature.Signature, validators: FeedValidators) -> Result<LoadedFeed, HeraldError> {
        let key: Int
        do throws(FeedSignatureProblem) { key = try verifyingKey(of: signature, over: content, accepted: origin.load.accepted) } catch { return .failure(.signature(error)) }
        // The cached copy keeps its signature and metadata, so a 304 can check both again.
        return decode(content, from: origin, cacheAs: content + Data(FeedSignature.block(for: signature).utf8), validators: validators)
            .map { signed($0, signature, key) }
    }

    /// The place of the first trusted key whose signature this is over `content` and the
    /// signed metadata, once the metadata is accepted too: not a version below one accepted,
    /// not expired, not for another app.
    private func verifyingKey(of signature: FeedSignature.Signature, over content: Data, accepted: FeedSignature.Accepted?) throws(FeedSignatureProblem) -> Int {
        let message = FeedSignature.message(for: content, metadata: signature.metadata)
        var matching: Int?
        for (index, key) in publicKeys.enumerated() {
            if try Ed25519.isValid(signature: signature.bytes, of: message, publicKey: key) {
                matching = index
                break
            }
        }
        guard let matching else { throw .doesNotMatch }
        if let refusal = FeedSignature.refusal(of: signature, accepted: accepted, now: now(), appID: appID) { throw refusal }
        return matching
    }

    private func signed(_ loaded: LoadedFeed, _ signature: FeedSignature.Signature, _ key: Int) -> LoadedFeed {
        var loaded = loaded
        loaded.signedMetadata = signature.metadata
        loaded.signature = signature.bytes
        loaded.verifyingKey = key
        return loaded
    }

    /// The cached copy, verified again when a key is configured, and decoded.
    private func reuseCachedCopy(from origin: Origin) -> Result<LoadedFeed, HeraldError> {
        guard let bytes = cache?.cachedFeed().flatMap({ CachedFeedCopy.bytes(in: $0, from: origin.url) }) else {
            return .failure(.fetch(.notModifiedWithoutCopy))
        }
        guard !publicKeys.isEmpty else { return decode(bytes, from: origin, cacheAs: nil, validators: nil) }
        let split: FeedSignature.Split
        let key: Int
        do throws(FeedSignatureProblem) {
            split = try FeedSignature.split(bytes)
            guard let signature = split.signature else { return .failure(.signature(.doesNotMatch)) }
            key = try verifyingKey(of: signature, over: split.content, accepted: origin.load.accepted)
        } catch {
            return .failure(.signature(error))
        }
        return decode(split.content, from: origin, cacheAs: nil, validators: nil).map { signed($0, split.signature!, key) }
    }

    /// Decodes verified (or unsigned) bytes and, for new bytes, keeps them as the cached copy.
    /// A cache that cannot be written costs the next check a full download, never this one.
    private func decode(_ content: Data, from origin: Origin, cacheAs cachedBytes: Data?, validators: FeedValidators?) -> Result<LoadedFeed, HeraldError> {
        let feed: Feed
        do {
            feed = try FeedDecoder.decode(content)
        } catch {
            return .failure(.feed(error as? FeedError ?? .unreadable(String(describing: error))))
        }
        var loaded = LoadedFeed(feed: feed, cacheRecord: nil, notModified: validators == nil, url: origin.url, notFound: origin.notFound)
        guard let cachedBytes, let cache, cacheable else { return .success(loaded) }
        loaded.notModified = false
        // The bytes go to disk before their validators reach the state, so a conditional
        // request never names a copy that is not there.
        let kept = (try? CachedFeedCopy.contents(of: cachedBytes, from: origin.url).map(cache.storeCachedFeed)) != nil
        if origin.url == url {
            loaded.cacheRecord = kept ? validators.map { .init(url: url, etag: $0.etag, lastModified: $0.lastModified) } : nil
        } else {
            // A URL with `{lang}`: the record names the URL that answered, so that later loads ask
            // it first, even when the copy could not be kept.
            loaded.cacheRecord = .init(url: origin.url, etag: kept ? validators?.etag : nil, lastModified: kept ? validators?.lastModified : nil,
                                       template: url, languages: languages)
        }
        return .success(loaded)
    }

    /// A feed argument as a URL: URLs pass unchanged, `-` (standard input) too, and a path
    /// becomes a `file://` URL.
    package nonisolated static func url(forArgument argument: String) -> String {
        if argument == standardInput { return argument }
        if let scheme = URLRules.scheme(of: argument), scheme != "file" || argument.hasPrefix("file:") { return argument }
        let absolute = RegularFile.absolute(argument)
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(absolute, nil, &error) else {
            g_clear_error(&error)
            return "file://" + absolute
        }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// The local path of a `file:` URL of this machine (no host, or `localhost`); `nil` for
    /// other URLs.
    package nonisolated static func path(forFileURL url: String) -> String? {
        var host: UnsafeMutablePointer<CChar>?
        guard let path = g_filename_from_uri(url, &host, nil) else { return nil }
        defer {
            g_free(path)
            g_free(host)
        }
        if let host, !["", "localhost"].contains(String(cString: host).lowercased()) { return nil }
        return String(cString: path)
    }
}
