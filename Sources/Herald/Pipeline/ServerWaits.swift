import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// The feed servers that asked this process to wait (HTTP 429 or 503 with a `Retry-After`), by
/// server (`FeedFetcher.server(of:)`: the host, with a port other than its scheme's own), until
/// the time each gave.
///
/// One process may check several apps whose feeds share a server (`herald check` for every
/// registered app): once one fetch is asked to wait, the others' loads end with the same
/// failure, without a request, and each app's state records it as its own. A server's wait is
/// never longer than `RetryAfter.longestWait`, and a wait that has passed is forgotten on the
/// next look.
@MainContext
enum ServerWaits {
    /// The failure each server answered with, by server.
    private static var failures: [String: FetchError] = [:]

    /// The failure `server` answered with while its wait lasts at `now`, or `nil` when it asked
    /// for none or its time has come.
    static func failure(of server: String, at now: Date) -> FetchError? {
        guard let failure = failures[server] else { return nil }
        guard let asked = failure.retryAfter, asked.until > now else {
            failures[server] = nil
            return nil
        }
        return failure
    }

    /// Keeps `failure` when it is a server's request to wait: under the server that answered,
    /// and under `requested`, the server first asked, when a redirect led elsewhere (a feed's
    /// own host sending every app to one busy CDN).
    static func remember(_ failure: FetchError, requested: String?) {
        guard let asked = failure.retryAfter else { return }
        failures[asked.host] = failure
        if let requested { failures[requested] = failure }
    }
}
