import CLibNotify
import HeraldCore

/// Opens links with the desktop's default applications, through GIO.
public struct LinkOpener: Sendable {
    /// Creates an opener.
    public init() {}

    /// Whether some application is registered for the URL's scheme (`x-scheme-handler/…`).
    public func canOpen(_ url: String) -> Bool {
        guard let scheme = URLRules.scheme(of: url), let info = g_app_info_get_default_for_uri_scheme(scheme) else { return false }
        g_object_unref(UnsafeMutableRawPointer(info))
        return true
    }

    /// Opens the URL in its default application.
    ///
    /// - Throws: `LinkOpenerError` with GIO's message when no application could be started.
    public func open(_ url: String) throws(LinkOpenerError) {
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(url, nil, &error) == 0 {
            throw LinkOpenerError(url: url, reason: consume(error) ?? "unknown error")
        }
    }
}

/// A link that could not be opened.
public struct LinkOpenerError: Error, Equatable, CustomStringConvertible {
    /// The link.
    public var url: String
    /// GIO's message.
    public var reason: String

    /// "could not open URL: reason".
    public var description: String { "could not open \(url): \(reason)" }
}
