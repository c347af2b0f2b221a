import CDesktopLibraries
import HeraldCore

/// Opens links with the desktop's default applications, through GIO.
package struct LinkOpener: Sendable {
    /// Creates an opener.
    package init() {}

    /// Whether some application is registered for the URL's scheme (`x-scheme-handler/…`);
    /// never for a URL that `open` would refuse.
    ///
    /// Inside a Flatpak sandbox no handler is registered, yet GIO opens every link through the
    /// OpenURI portal, which hands it to the host's application for the scheme or lets the person
    /// choose one: there, a link is openable whenever it has a scheme.
    package func canOpen(_ url: String) -> Bool {
        guard URLRules.unsafeCharacter(in: url) == nil, let scheme = URLRules.scheme(of: url), (try? DesktopLibrary.gio.load()) != nil else {
            return false
        }
        if Sandbox.isFlatpak { return true }
        guard let info = g_app_info_get_default_for_uri_scheme(scheme) else { return false }
        g_object_unref(UnsafeMutableRawPointer(info))
        return true
    }

    /// Opens the URL in its default application, passing exactly this text on.
    ///
    /// A URL with white space, control or invisible characters or a backslash is refused here
    /// too, whoever calls: the URL rules check the text as written, and an application that
    /// repaired it (GIO, a browser) could open something other than what was checked.
    ///
    /// - Throws: `LinkOpenerError` with GIO's message when no application could be started, or
    ///   the loader's when GIO cannot be loaded.
    package func open(_ url: String) throws(LinkOpenerError) {
        if let character = URLRules.unsafeCharacter(in: url) {
            throw LinkOpenerError(url: url, reason: "the link contains \(character), so it is not opened")
        }
        do { try DesktopLibrary.gio.load() } catch { throw LinkOpenerError(url: url, reason: error.description) }
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(url, nil, &error) == 0 {
            throw LinkOpenerError(url: url, reason: consume(error) ?? "unknown error")
        }
    }
}

/// A link that could not be opened.
package struct LinkOpenerError: Error, Equatable, CustomStringConvertible {
    /// The link.
    package var url: String
    /// GIO's message, or why Herald would not hand the link on.
    package var reason: String

    /// A link that could not be opened, and why.
    package init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    /// "could not open URL: reason", the URL on one line with the characters that act on a
    /// terminal escaped (`TerminalText`), so an error about a hostile link cannot break or
    /// reorder the line it is on. An invisible character that cannot act on a terminal (a
    /// zero-width space) stays: the reason names it when it is why the link was refused.
    package var description: String { "could not open \(TerminalText.visible(url)): \(reason)" }
}
