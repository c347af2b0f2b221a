import CDesktopLibraries
import HeraldCore
import Synchronization

/// Opens links with the desktop's default applications, through GIO.
package struct LinkOpener: Sendable {
    private let schemes: SchemeHandlers?

    /// Creates an opener; one given `schemes` asks GIO about each scheme once and keeps the
    /// answer there, for the checks of one run (`herald check --registered`) that share them.
    package init(rememberingIn schemes: SchemeHandlers? = nil) {
        self.schemes = schemes
    }

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
        func hasHandler() -> Bool {
            guard let info = g_app_info_get_default_for_uri_scheme(scheme) else { return false }
            g_object_unref(UnsafeMutableRawPointer(info))
            return true
        }
        return schemes?.answer(for: scheme, asking: hasHandler) ?? hasHandler()
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
        try open(url, launchEnvironment: [:])
    }

    /// Opens the URL as `open(_:)` does, with `launchEnvironment` set for the application
    /// started: the click's activation token (`launchEnvironment(platformData:)`).
    package func open(_ url: String, launchEnvironment: [String: String]) throws(LinkOpenerError) {
        if let character = URLRules.unsafeCharacter(in: url) {
            throw LinkOpenerError(url: url, reason: "the link contains \(character), so it is not opened")
        }
        do { try DesktopLibrary.gio.load() } catch { throw LinkOpenerError(url: url, reason: error.description) }
        let context = launchEnvironment.isEmpty ? nil : g_app_launch_context_new()
        defer { if let context { g_object_unref(UnsafeMutableRawPointer(context)) } }
        for (name, value) in launchEnvironment.sorted(by: { $0.key < $1.key }) { g_app_launch_context_setenv(context, name, value) }
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(url, context, &error) == 0 {
            throw LinkOpenerError(url: url, reason: consume(error) ?? "unknown error")
        }
    }

    /// The variables that pass a click's activation on to the application a link starts, from
    /// the platform data of `org.freedesktop.Application` (as GApplication reads it): the
    /// Wayland token ("activation-token", `XDG_ACTIVATION_TOKEN`) and the X11 startup id
    /// ("desktop-startup-id", `DESKTOP_STARTUP_ID`, which GNOME Shell 43 sends), so the
    /// browser is raised. Text with a control character or none at all is passed over.
    package static func launchEnvironment(platformData: [String: String]) -> [String: String] {
        var environment: [String: String] = [:]
        for (key, variable) in [("activation-token", "XDG_ACTIVATION_TOKEN"), ("desktop-startup-id", "DESKTOP_STARTUP_ID")] {
            guard let value = platformData[key], !value.isEmpty, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { continue }
            environment[variable] = value
        }
        return environment
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

/// Whether each URL scheme has a default application, as GIO answered it the first time: kept
/// for the checks of one run of every registered app, which ask within its few seconds (as the
/// run's other session answers are kept, `SessionAnswers`), so twenty apps with `https` links
/// look the handler up once.
package final class SchemeHandlers: Sendable {
    private let answers = Mutex<[String: Bool]>([:])

    /// No scheme asked yet.
    package init() {}

    /// The answer kept for `scheme`, or `asking`'s, kept for the next time.
    func answer(for scheme: String, asking: () -> Bool) -> Bool {
        if let known = answers.withLock({ $0[scheme] }) { return known }
        let answer = asking()
        answers.withLock { $0[scheme] = answer }
        return answer
    }
}
