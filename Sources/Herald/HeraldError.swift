import HeraldCore
import HeraldDesktop

/// Why a check failed; `kind` names each for a program that reads it.
public enum HeraldError: Error, Equatable, CustomStringConvertible {
    /// The configuration cannot work (bad app id, feed URL refused).
    case configuration(String)
    /// The feed could not be fetched.
    case fetch(FetchError)
    /// The feed could not be used.
    case feed(FeedError)
    /// No notification server on the session bus (DESIGN.md D12).
    case noNotificationServer
    /// A notification was refused by the server.
    case presentation(String)
    /// The state or cache could not be written.
    case state(StateStoreError)
    /// A key file of the off switches (`herald.conf`, the user's or an administrator's) cannot
    /// be read or parsed, or names a feed mirror the URL rules refuse: the administrator's word
    /// is not passed over (DESIGN.md D22).
    case keyFile(String)
    /// A public key is configured and the feed's signature is missing or wrong, or matches but
    /// is refused: an older version than one accepted, expired, or for another app (DESIGN.md D20).
    case signature(FeedSignatureProblem)
    /// A library Herald needs, GIO, libsoup 3 or libnotify, cannot be loaded: "cannot load
    /// libsoup-3.0.so.0: the loader's reason". Nothing is fetched or shown; the app goes on.
    case libraryUnavailable(String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .configuration(let reason), .keyFile(let reason), .libraryUnavailable(let reason): return reason
        case .fetch(let error): return error.description
        case .feed(let error): return error.description
        case .noNotificationServer: return "no notification server is running on the session bus, so nothing can be shown"
        case .presentation(let reason): return reason
        case .state(let error): return error.description
        case .signature(let problem): return problem.description
        }
    }

    /// The feed server's request not to be asked before a time (HTTP 429 or 503 with a
    /// `Retry-After`), when this is the failure of such a fetch.
    package var retryAfter: RetryAfter? {
        if case .fetch(let error) = self { return error.retryAfter }
        return nil
    }

    /// A state store's failure, as a check and the advanced API report it.
    static func state(failing error: any Error) -> HeraldError {
        .state(StateStoreError(error, writing: "the state"))
    }

    /// A short machine-readable kind. A signature that matches but is refused has its own:
    /// `feed-replayed`, `feed-expired`, `feed-for-another-app` (DESIGN.md D20).
    public var kind: String {
        switch self {
        case .configuration: return "configuration"
        case .keyFile: return "key-file"
        case .fetch: return "fetch"
        case .feed: return "feed"
        case .noNotificationServer: return "no-notification-server"
        case .presentation: return "presentation"
        case .libraryUnavailable: return "library-unavailable"
        case .state(.locked): return "state-locked"
        case .state: return "state"
        case .signature(.replayed): return "feed-replayed"
        case .signature(.expired): return "feed-expired"
        case .signature(.forAnotherApp): return "feed-for-another-app"
        case .signature: return "signature"
        }
    }
}
