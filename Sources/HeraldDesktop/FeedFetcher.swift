import CDesktopLibraries
import FoundationEssentials
import HeraldCore

/// The validators of a cached copy, sent to make the request conditional.
package struct FeedValidators: Sendable, Equatable {
    /// The `ETag` of the cached copy.
    package var etag: String?
    /// The `Last-Modified` of the cached copy.
    package var lastModified: String?

    /// Creates validators.
    package init(etag: String?, lastModified: String?) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether these validators name a cached copy: a request that sends neither header asks
    /// for the whole feed, and a 304 cannot answer it.
    package var namesCachedCopy: Bool { etag != nil || lastModified != nil }
}

/// What a fetch brought back.
package enum FetchResult: Sendable, Equatable {
    /// New bytes (HTTP 200 or a local file), with the validators to store.
    case fetched(Data, FeedValidators)
    /// HTTP 304 to a request that named a cached copy (`FeedValidators.namesCachedCopy`): that
    /// copy is still current.
    case notModified
}

/// Why a fetch failed; a failed fetch is a failed check (DESIGN.md D4).
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is refused by the rules (scheme, plain http).
    case refused(String)
    /// The server answered with a status other than 200 or 304.
    case httpStatus(Int)
    /// No answer in time.
    case timedOut(seconds: Double)
    /// The body is larger than the size cap.
    case tooLarge(limit: Int)
    /// More redirects than allowed.
    case tooManyRedirects(Int)
    /// Network or file errors.
    case transport(String)
    /// A `file:` feed that does not exist, with the system's words for it.
    case missingFile(String)
    /// The https server's certificate was not accepted, and why.
    case untrustedCertificate([CertificateProblem])
    /// A feed URL with `{lang}` none of whose URLs is there (HTTP 404, or no such file): the
    /// URLs asked, in the order asked.
    case notFoundInAnyLanguage([String])
    /// HTTP 304 to a request that named no cached copy: there is nothing it could mean, so it
    /// is a failure, never a reason to ask again.
    case notModifiedWithoutCopy
    /// The server answered 429 Too Many Requests or 503 Service Unavailable (`status`) with a
    /// `Retry-After` Herald could read: `host` (with its port, when the URL names one) asked not
    /// to be asked again before `until` (`RetryAfter`).
    case askedToWait(host: String, status: Int, until: Date)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .refused(let reason): return "feed URL refused: \(reason)"
        case .httpStatus(let status): return "the feed server answered HTTP \(status)"
        case .timedOut(let seconds): return "no answer from the feed server within \(NumberText.plain(seconds)) s"
        case .tooLarge(let limit): return "the feed is larger than \(limit) bytes"
        case .tooManyRedirects(let count): return "more than \(count) redirects"
        case .transport(let reason), .missingFile(let reason): return "could not fetch the feed: \(reason)"
        case .untrustedCertificate(let problems):
            return "the feed server's certificate was refused: " + problems.map(\.description).joined(separator: "; ")
        case .notFoundInAnyLanguage(let urls):
            return "none of the feed's URLs is there; asked " + urls.joined(separator: ", ")
        case .notModifiedWithoutCopy:
            return "the server answered 304 Not Modified to a request that named no cached copy"
        case .askedToWait(let host, let status, let until):
            let phrase = status == 429 ? "Too Many Requests" : status == 503 ? "Service Unavailable" : "HTTP"
            return "\(host) asked to be asked again after \(ISO8601Moment.text(until)) (\(status) \(phrase))"
        }
    }

    /// The server's request not to be asked before a time, when this failure carries one.
    package var retryAfter: RetryAfter? {
        if case .askedToWait(let host, _, let until) = self { return RetryAfter(host: host, until: until) }
        return nil
    }

    /// Whether the feed is not there: HTTP 404, a `file:` feed that does not exist, or none of
    /// a `{lang}` feed's URLs. On a 404 or a missing file, a feed URL with `{lang}` asks its next
    /// URL; any other failure ends the search.
    public var isNotFound: Bool {
        switch self {
        case .httpStatus(404), .missingFile, .notFoundInAnyLanguage: return true
        default: return false
        }
    }
}

/// Why TLS refused a server's certificate (GIO's `GTlsCertificateFlags`, in words).
public enum CertificateProblem: UInt32, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Not signed by an authority Herald trusts (the system's, or those of the CA file).
    case unknownAuthority = 1
    /// Issued for another host name.
    case otherHost = 2
    /// Its validity starts in the future.
    case notYetValid = 4
    /// Its validity has ended.
    case expired = 8
    /// Its authority revoked it.
    case revoked = 16
    /// It is signed with an algorithm considered insecure.
    case insecure = 32
    /// Anything else that made the check fail.
    case unverifiable = 64

    /// The problems GIO reported in `flags`; never empty for a refused certificate.
    public static func problems(in flags: UInt32) -> [CertificateProblem] {
        let found = allCases.filter { flags & $0.rawValue != 0 }
        return found.isEmpty ? [.unverifiable] : found
    }

    /// The reason, as the end of "the feed server's certificate was refused: …".
    public var description: String {
        switch self {
        case .unknownAuthority: return "it is signed by an unknown certificate authority"
        case .otherHost: return "it is for another host name"
        case .notYetValid: return "it is not valid yet"
        case .expired: return "it has expired"
        case .revoked: return "it has been revoked"
        case .insecure: return "it uses an insecure algorithm"
        case .unverifiable: return "it could not be checked"
        }
    }
}

/// Fetches feeds asynchronously on the default GLib main context with libsoup (DESIGN.md D15).
///
/// Requests bypass caches but are conditional on the cached copy's validators, redirects are
/// followed by hand (at most `maxRedirects`, never from https to http), the whole fetch has a
/// deadline, and bodies over the size cap are cut off. libsoup follows the desktop's proxy
/// settings and, unless a CA file is given, the system's CA store through GIO.
@MainContext
package final class FeedFetcher {
    /// Seconds the whole fetch may take.
    package var timeout: Double
    /// Largest body accepted, in bytes.
    package var sizeLimit: Int
    /// Largest number of redirects followed.
    package var maxRedirects: Int
    /// Which URLs may be fetched.
    package var rules: URLRules { didSet { lastVerdict = nil } }
    /// The URL judged last under `rules`, and the verdict: a feed asked at every check is judged once.
    private var lastVerdict: (url: String, refusal: String?)?
    /// The libsoup session, made on the first http(s) request: reading a file feed needs GIO
    /// alone, and never loads libsoup.
    private var session: UnsafeMutablePointer<SoupSession>?
    private let userAgent: String
    /// The CA file's authorities, set on the session when it is made.
    private var authorities: UnsafeMutablePointer<GTlsDatabase>?
    /// Why the CA file could not be used, if one was given and it could not: every https
    /// fetch then fails with this reason rather than falling back to the system's store.
    private var unusableAuthorities: String?

    /// The time a `Retry-After` in seconds counts from.
    let now: @MainContext () -> Date

    /// Creates a fetcher with its own libsoup session (made on its first http(s) request).
    ///
    /// - Parameter caFile: a PEM file of the certificate authorities trusted for https, in
    ///   place of the system's store (a company's own CA, or a test's); `nil` for the system's.
    /// - Parameter now: the clock a `Retry-After` in seconds counts from.
    package init(userAgent: String, timeout: Double = 60, sizeLimit: Int = 1 << 20, maxRedirects: Int = 5, rules: URLRules = URLRules(),
                caFile: String? = nil, now: @escaping @MainContext () -> Date = { Date() }) {
        self.now = now
        self.timeout = timeout
        self.sizeLimit = sizeLimit
        self.maxRedirects = maxRedirects
        self.rules = rules
        self.userAgent = userAgent
        if let caFile {
            var error: UnsafeMutablePointer<GError>?
            // GIO takes only an absolute path; a relative one quietly trusts nothing.
            let absolute = g_canonicalize_filename(caFile, nil).map { path in
                defer { g_free(path) }
                return String(cString: path)
            } ?? caFile
            if let database = g_tls_file_database_new(absolute, &error) {
                authorities = database
            } else {
                unusableAuthorities = "cannot use the CA file \(caFile): " + (consume(error) ?? "unknown error")
            }
        }
    }

    isolated deinit {
        if let session { g_object_unref(UnsafeMutableRawPointer(session)) }
        if let authorities { g_object_unref(UnsafeMutableRawPointer(authorities)) }
    }

    /// Starts a fetch; `completion` runs once on the default main context.
    ///
    /// - Parameter deadline: when the fetch must be done; `nil` gives it `timeout` from now. The
    ///   requests of one load (each language of a `{lang}` feed, the signature file) share one
    ///   deadline, so `timeout` bounds them together; one whose deadline has passed fails at once,
    ///   without a request.
    package func fetch(_ url: String, validators: FeedValidators?, deadline: ContinuousClock.Instant? = nil,
                      completion: @escaping @MainContext (Result<FetchResult, FetchError>) -> Void) {
        if let refusal = verdict(on: url) { return MainContext.idle { completion(.failure(.refused(refusal))) } }
        let seconds = deadline.map(Self.seconds(until:)) ?? boundedTimeout
        guard seconds > 0 else { return MainContext.idle { [timeout] in completion(.failure(.timedOut(seconds: timeout))) } }
        let scheme = URLRules.scheme(of: url)
        if let unusableAuthorities, scheme == "https" {
            return MainContext.idle { completion(.failure(.transport(unusableAuthorities))) }
        }
        let operation = FetchOperation(fetcher: self, validators: validators, seconds: seconds, completion: completion)
        if scheme == "file" {
            operation.readFile(url)
        } else {
            operation.request(url)
        }
    }

    fileprivate var soupSession: UnsafeMutablePointer<SoupSession> {
        if let session { return session }
        let made = soup_session_new()!
        soup_session_set_user_agent(made, userAgent)
        soup_session_set_timeout(made, UInt32(max(1, boundedTimeout.rounded(.up))))
        if let authorities { soup_session_set_tls_database(made, authorities) }
        session = made
        return made
    }

    /// The longest timeout a fetch takes, in seconds: one hour, far above any sensible
    /// setting; libsoup counts seconds in 32 bits, which a huge number would overflow.
    nonisolated package static let longestTimeout = 3_600.0

    /// `timeout` as a fetch uses it: never trusting a number to fit, an infinite or huge
    /// timeout is the longest allowed, a negative one none.
    private var boundedTimeout: Double {
        timeout.isFinite ? min(max(0, timeout), Self.longestTimeout) : Self.longestTimeout
    }

    /// The deadline of a fetch that starts now: `timeout` from now.
    package func deadline() -> ContinuousClock.Instant {
        .now + .milliseconds(Int64((boundedTimeout * 1000).rounded(.up)))
    }

    private static func seconds(until deadline: ContinuousClock.Instant) -> Double {
        (deadline - .now) / .seconds(1)
    }

    /// The server of an http(s) URL as a `Retry-After` names it: the host in lower case, with
    /// the port when the URL names one other than its scheme's own (`https://h:443/` and
    /// `https://h/` are one server); `nil` for a URL without a host.
    package nonisolated static func server(of url: String) -> String? {
        guard let uri = g_uri_parse(url, G_URI_FLAGS_NONE, nil) else { return nil }
        defer { g_uri_unref(uri) }
        guard let host = g_uri_get_host(uri).map({ String(cString: $0).lowercased() }), !host.isEmpty else { return nil }
        let port = g_uri_get_port(uri)
        let schemePort: Int32 = switch g_uri_get_scheme(uri).map({ String(cString: $0).lowercased() }) {
        case "https": 443
        case "http": 80
        default: -1
        }
        return port > 0 && port != schemePort ? "\(host):\(port)" : host
    }

    /// Why `url` may not be fetched under `rules`, or `nil` when it may.
    private func verdict(on url: String) -> String? {
        if let lastVerdict, lastVerdict.url == url { return lastVerdict.refusal }
        let refusal = rules.feedURLRefusal(url)
        lastVerdict = (url, refusal)
        return refusal
    }
}

/// One fetch in flight. Each asynchronous step retains it and the step's callback takes that
/// reference back: GIO calls an async-ready callback exactly once, so there is one release per
/// retain and no destroy notify to pair with.
@MainContext
private final class FetchOperation {
    let fetcher: FeedFetcher
    let validators: FeedValidators?
    var completion: (@MainContext (Result<FetchResult, FetchError>) -> Void)?
    let cancellable = g_cancellable_new()!
    var deadline: UInt32 = 0
    var timedOut = false
    var redirects = 0
    var currentURL = ""
    var message: OpaquePointer?
    var stream: UnsafeMutablePointer<GInputStream>?
    var body: [UInt8] = []
    var received: FeedValidators?
    /// What TLS found wrong with the server's certificate, if it refused it.
    var certificateFlags: UInt32 = 0

    init(fetcher: FeedFetcher, validators: FeedValidators?, seconds: Double,
         completion: @escaping @MainContext (Result<FetchResult, FetchError>) -> Void) {
        self.fetcher = fetcher
        self.validators = validators
        self.completion = completion
        deadline = MainContext.after(seconds: seconds) { [self] in
            deadline = 0
            timedOut = true
            g_cancellable_cancel(cancellable)
        }
    }

    isolated deinit {
        if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
        if let stream { g_object_unref(stream) }
        g_object_unref(UnsafeMutableRawPointer(cancellable))
    }

    func retained() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    /// Takes back the reference a step handed to GIO and continues on the main context.
    nonisolated static func resume(_ pointer: gpointer?, _ step: @MainContext (FetchOperation) -> Void) {
        let operation = Unmanaged<FetchOperation>.fromOpaque(pointer!).takeRetainedValue()
        MainContext.assumeIsolated { step(operation) }
    }

    func finish(_ result: Result<FetchResult, FetchError>) {
        MainContext.cancel(deadline)
        deadline = 0
        if let stream { g_input_stream_close_async(stream, Int32(G_PRIORITY_DEFAULT), nil, nil, nil) }
        completion?(result)
        completion = nil
    }

    func fail(_ error: UnsafeMutablePointer<GError>?) {
        let timeout = error.map { g_error_matches($0, g_io_error_quark(), Int32(G_IO_ERROR_TIMED_OUT.rawValue)) != 0 } ?? false
        let badCertificate = error.map { g_error_matches($0, g_tls_error_quark(), Int32(G_TLS_ERROR_BAD_CERTIFICATE.rawValue)) != 0 } ?? false
        let text = consume(error) ?? "unknown error"
        if timedOut || timeout { return finish(.failure(.timedOut(seconds: fetcher.timeout))) }
        if badCertificate || certificateFlags != 0 { return finish(.failure(.untrustedCertificate(CertificateProblem.problems(in: certificateFlags)))) }
        finish(.failure(.transport(text)))
    }

    // MARK: file:

    /// Reads a local file (or standard input, as `/dev/stdin`) in chunks, as a response body
    /// is read: past the size limit it stops, instead of loading a file of any size first.
    func readFile(_ url: String) {
        let file = g_file_new_for_uri(url)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        g_file_read_async(file, Int32(G_PRIORITY_DEFAULT), cancellable, { source, result, pointer in
            // GIO's source and result are used once, here, on the loop that called back.
            nonisolated(unsafe) let (source, result) = (source, result)
            FetchOperation.resume(pointer) { operation in
                var error: UnsafeMutablePointer<GError>?
                guard let input = g_file_read_finish(OpaquePointer(source), result, &error) else {
                    if let error, g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_NOT_FOUND.rawValue)) != 0 {
                        return operation.finish(.failure(.missingFile(consume(error) ?? "not found")))
                    }
                    return operation.fail(error)
                }
                if let stream = operation.stream { g_object_unref(stream) }
                operation.stream = UnsafeMutableRawPointer(input).assumingMemoryBound(to: GInputStream.self)
                operation.received = FeedValidators(etag: nil, lastModified: nil)
                operation.readChunk()
            }
        }, retained())
    }

    // MARK: http(s):

    func request(_ url: String) {
        currentURL = url
        if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
        guard let created = soup_message_new("GET", url) else { return finish(.failure(.refused("not a valid URL"))) }
        message = created
        soup_message_add_flags(created, SOUP_MESSAGE_NO_REDIRECT)
        watchCertificate(of: created)
        let headers = soup_message_get_request_headers(created)
        soup_message_headers_replace(headers, "Cache-Control", "no-cache")
        soup_message_headers_replace(headers, "Pragma", "no-cache")
        soup_message_headers_replace(headers, "Accept", "application/x-plist, application/xml, application/json, */*")
        if let etag = validators?.etag { soup_message_headers_replace(headers, "If-None-Match", etag) }
        if let lastModified = validators?.lastModified { soup_message_headers_replace(headers, "If-Modified-Since", lastModified) }
        soup_session_send_async(fetcher.soupSession, created, Int32(G_PRIORITY_DEFAULT), cancellable, { _, result, pointer in
            nonisolated(unsafe) let result = result
            FetchOperation.resume(pointer) { operation in
                var error: UnsafeMutablePointer<GError>?
                let stream = soup_session_send_finish(operation.fetcher.soupSession, result, &error)
                guard let stream else { return operation.fail(error) }
                operation.responseArrived(stream)
            }
        }, retained())
    }

    /// Keeps the reasons TLS gives for refusing the server's certificate, so the failure can
    /// say which they are; the certificate stays refused.
    private func watchCertificate(of message: OpaquePointer) {
        let box = CallbackBox<UInt32> { [weak self] flags in self?.certificateFlags |= flags }
        let onRefused: @convention(c) (OpaquePointer?, OpaquePointer?, UInt32, gpointer?) -> gboolean = { _, _, flags, pointer in
            CallbackBox<UInt32>.invoke(pointer, flags)
            return 0
        }
        g_signal_connect_data(UnsafeMutableRawPointer(message), "accept-certificate", unsafeBitCast(onRefused, to: GCallback.self),
                              box.retainedPointer(), { pointer, _ in CallbackBox<UInt32>.release(pointer) }, GConnectFlags(rawValue: 0))
    }

    func responseArrived(_ newStream: UnsafeMutablePointer<GInputStream>) {
        if let stream { g_object_unref(stream) }
        stream = newStream
        guard let message else { return }
        // A resumed TLS session can skip the certificate check that raises accept-certificate;
        // what GIO found wrong with the peer still counts.
        let peerErrors = UInt32(soup_message_get_tls_peer_certificate_errors(message).rawValue)
        if peerErrors != 0 { return finish(.failure(.untrustedCertificate(CertificateProblem.problems(in: peerErrors)))) }
        let status = Int(soup_message_get_status(message).rawValue)
        let headers = soup_message_get_response_headers(message)
        func header(_ name: String) -> String? { soup_message_headers_get_one(headers, name).map { String(cString: $0) } }
        switch status {
        case 301, 302, 303, 307, 308:
            redirects += 1
            guard redirects <= fetcher.maxRedirects else { return finish(.failure(.tooManyRedirects(fetcher.maxRedirects))) }
            guard let location = header("Location") else { return finish(.failure(.httpStatus(status))) }
            var error: UnsafeMutablePointer<GError>?
            guard let resolved = g_uri_resolve_relative(currentURL, location, G_URI_FLAGS_NONE, &error) else {
                return finish(.failure(.transport(consume(error) ?? "bad redirect")))
            }
            let target = String(cString: resolved)
            g_free(resolved)
            if let refusal = fetcher.rules.redirectRefusal(from: currentURL, to: target) { return finish(.failure(.refused(refusal))) }
            g_input_stream_close_async(newStream, Int32(G_PRIORITY_DEFAULT), nil, nil, nil)
            request(target)
        case 304:
            // Believed only when this request named a copy; any other 304 is a failure, so a
            // server that answers 304 to everything costs one request, not a loop.
            finish(validators?.namesCachedCopy == true ? .success(.notModified) : .failure(.notModifiedWithoutCopy))
        case 200:
            let length = Int(header("Content-Length") ?? "")
            if let length, length > fetcher.sizeLimit {
                return finish(.failure(.tooLarge(limit: fetcher.sizeLimit)))
            }
            // Room for the whole body when the server says how long it is: read into as it
            // comes, without a copy each time it grows.
            if let length, length > 0 { body.reserveCapacity(length) }
            received = FeedValidators(etag: header("ETag"), lastModified: header("Last-Modified"))
            readChunk()
        case 429, 503:
            // A server that says when to come back is taken at its word (RFC 9110 §10.2.3); one
            // that does not, or says it in a way that does not read, is any other failure.
            let until = header("Retry-After").flatMap { RetryAfter.moment(fromHeader: $0, now: fetcher.now()) }
            guard let until, let server = FeedFetcher.server(of: currentURL) else { return finish(.failure(.httpStatus(status))) }
            finish(.failure(.askedToWait(host: server, status: status, until: until)))
        default:
            finish(.failure(.httpStatus(status)))
        }
    }

    func readChunk() {
        guard let stream else { return }
        g_input_stream_read_bytes_async(stream, 64 * 1024, Int32(G_PRIORITY_DEFAULT), cancellable, { _, result, pointer in
            nonisolated(unsafe) let result = result
            FetchOperation.resume(pointer) { operation in
                var error: UnsafeMutablePointer<GError>?
                guard let stream = operation.stream, let bytes = g_input_stream_read_bytes_finish(stream, result, &error) else {
                    return operation.fail(error)
                }
                defer { g_bytes_unref(bytes) }
                var size: gsize = 0
                let data = g_bytes_get_data(bytes, &size)
                if size == 0 {
                    return operation.finish(.success(.fetched(Data(operation.body), operation.received ?? FeedValidators(etag: nil, lastModified: nil))))
                }
                operation.body.append(contentsOf: UnsafeBufferPointer(start: data!.assumingMemoryBound(to: UInt8.self), count: Int(size)))
                guard operation.body.count <= operation.fetcher.sizeLimit else {
                    return operation.finish(.failure(.tooLarge(limit: operation.fetcher.sizeLimit)))
                }
                operation.readChunk()
            }
        }, retained())
    }
}
