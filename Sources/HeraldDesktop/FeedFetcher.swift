import CLibSoup
import FoundationEssentials
import HeraldCore

/// The validators of a cached copy, sent to make the request conditional.
public struct FeedValidators: Sendable, Equatable {
    /// The `ETag` of the cached copy.
    public var etag: String?
    /// The `Last-Modified` of the cached copy.
    public var lastModified: String?

    /// Creates validators.
    public init(etag: String?, lastModified: String?) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What a fetch brought back.
public enum FetchResult: Sendable, Equatable {
    /// New bytes (HTTP 200 or a local file), with the validators to store.
    case fetched(Data, FeedValidators)
    /// HTTP 304: the cached copy is still current.
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

    /// One sentence for people.
    public var description: String {
        switch self {
        case .refused(let reason): return "feed URL refused: \(reason)"
        case .httpStatus(let status): return "the feed server answered HTTP \(status)"
        case .timedOut(let seconds): return "no answer from the feed server within \(Self.format(seconds)) s"
        case .tooLarge(let limit): return "the feed is larger than \(limit) bytes"
        case .tooManyRedirects(let count): return "more than \(count) redirects"
        case .transport(let reason): return "could not fetch the feed: \(reason)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }
}

/// Fetches feeds asynchronously on the default GLib main context with libsoup (DESIGN.md D15).
///
/// Requests bypass caches but are conditional on the cached copy's validators, redirects are
/// followed by hand (at most `maxRedirects`, never from https to http), the whole fetch has a
/// deadline, and bodies over the size cap are cut off. libsoup follows the desktop's proxy
/// settings and the system's CA store through GIO.
@MainContext
public final class FeedFetcher {
    /// Seconds the whole fetch may take.
    public var timeout: Double
    /// Largest body accepted, in bytes.
    public var sizeLimit: Int
    /// Largest number of redirects followed.
    public var maxRedirects: Int
    /// Which URLs may be fetched.
    public var rules: URLRules
    private let session: UnsafeMutablePointer<SoupSession>

    /// Creates a fetcher with its own libsoup session.
    public init(userAgent: String, timeout: Double = 60, sizeLimit: Int = 1 << 20, maxRedirects: Int = 5, rules: URLRules = URLRules()) {
        self.timeout = timeout
        self.sizeLimit = sizeLimit
        self.maxRedirects = maxRedirects
        self.rules = rules
        session = soup_session_new()!
        soup_session_set_user_agent(session, userAgent)
        soup_session_set_timeout(session, UInt32(max(1, timeout.rounded(.up))))
    }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(session)) }

    /// Starts a fetch; `completion` runs once on the default main context.
    public func fetch(_ url: String, validators: FeedValidators?, completion: @escaping @MainContext (Result<FetchResult, FetchError>) -> Void) {
        if let refusal = rules.feedURLRefusal(url) { return MainContext.idle { completion(.failure(.refused(refusal))) } }
        let operation = FetchOperation(fetcher: self, validators: validators, completion: completion)
        if URLRules.scheme(of: url) == "file" {
            operation.readFile(url)
        } else {
            operation.request(url)
        }
    }

    fileprivate var soupSession: UnsafeMutablePointer<SoupSession> { session }
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
    var body = Data()
    var received: FeedValidators?

    init(fetcher: FeedFetcher, validators: FeedValidators?, completion: @escaping @MainContext (Result<FetchResult, FetchError>) -> Void) {
        self.fetcher = fetcher
        self.validators = validators
        self.completion = completion
        deadline = MainContext.after(seconds: fetcher.timeout) { [self] in
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
        let text = consume(error) ?? "unknown error"
        if timedOut || timeout { return finish(.failure(.timedOut(seconds: fetcher.timeout))) }
        finish(.failure(.transport(text)))
    }

    // MARK: file:

    func readFile(_ url: String) {
        let file = g_file_new_for_uri(url)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        g_file_load_contents_async(file, cancellable, { source, result, pointer in
            // GIO's source and result are used once, here, on the loop that called back.
            nonisolated(unsafe) let (source, result) = (source, result)
            FetchOperation.resume(pointer) { operation in
                var contents: UnsafeMutablePointer<CChar>?
                var length: gsize = 0
                var error: UnsafeMutablePointer<GError>?
                guard g_file_load_contents_finish(OpaquePointer(source), result, &contents, &length, nil, &error) != 0, let contents else {
                    return operation.fail(error)
                }
                defer { g_free(contents) }
                guard Int(length) <= operation.fetcher.sizeLimit else {
                    return operation.finish(.failure(.tooLarge(limit: operation.fetcher.sizeLimit)))
                }
                let bytes = Data(bytes: contents, count: Int(length))
                operation.finish(.success(.fetched(bytes, FeedValidators(etag: nil, lastModified: nil))))
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

    func responseArrived(_ newStream: UnsafeMutablePointer<GInputStream>) {
        if let stream { g_object_unref(stream) }
        stream = newStream
        guard let message else { return }
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
            finish(.success(.notModified))
        case 200:
            if let length = Int(header("Content-Length") ?? ""), length > fetcher.sizeLimit {
                return finish(.failure(.tooLarge(limit: fetcher.sizeLimit)))
            }
            received = FeedValidators(etag: header("ETag"), lastModified: header("Last-Modified"))
            readChunk()
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
                    return operation.finish(.success(.fetched(operation.body, operation.received ?? FeedValidators(etag: nil, lastModified: nil))))
                }
                operation.body.append(data!.assumingMemoryBound(to: UInt8.self), count: Int(size))
                guard operation.body.count <= operation.fetcher.sizeLimit else {
                    return operation.finish(.failure(.tooLarge(limit: operation.fetcher.sizeLimit)))
                }
                operation.readChunk()
            }
        }, retained())
    }
}
