import HeraldCore
import HeraldDesktop

/// Shows messages to the user and reports the answers: the seam between Herald's flow and
/// the desktop, so a terminal, an app's own window or a test can stand in for the
/// notification server.
@MainContext
public protocol MessagePresenter: AnyObject {
    /// Connects on first use and returns the capabilities the content should be built for.
    ///
    /// - Throws: `HeraldError.noNotificationServer` when nothing can show messages.
    func capabilities() throws -> Set<String>
    /// Shows one message (with the link its view button opens, if any); `respond` runs once,
    /// on the main context, with the answer or close. The check keeps the returned handle
    /// until then, and drops it after.
    ///
    /// - Throws: `HeraldError.presentation` with one sentence for people when the message
    ///   cannot be shown; any other error is reported as "the presenter refused the
    ///   notification", with its description when it has one.
    func present(_ content: NotificationContent, link: String?, respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage
}

/// A message on screen.
@MainContext
public protocol PresentedMessage: AnyObject {
    /// The server's id for it.
    var id: UInt32 { get }
    /// Takes it off the screen; the close is reported as `.closedByHerald`.
    func close()
}

/// Shows messages as freedesktop notifications through libnotify.
package final class DesktopPresenter: MessagePresenter {
    private var appName: String
    private let appID: String
    private var icon: String?
    private let environment: [String: String]
    private var server: NotificationServer?
    /// Where the server is asked when the run of several checks shares one answer.
    private let shared: SessionAnswers?
    /// The `desktop-entry` hint, found once with the server (`DesktopSwitchFiles.desktopEntryHint`).
    private var desktopEntry: String?

    /// Creates a presenter; nothing touches the bus until the first message.
    ///
    /// - Parameters:
    ///   - appName: shown by the server as the sender; where it is the app id, the `Name` of the
    ///     app's installed desktop entry (`ID.desktop`) is shown instead.
    ///   - appID: the app's id, the `desktop-entry` hint where its entry is installed (else the agent's).
    ///   - icon: an icon name or file URI for the app icon; `nil` takes the `Icon` of the app's
    ///     installed desktop entry, else Herald's own.
    ///   - environment: where the desktop entry is looked for (`XDG_DATA_HOME`, `XDG_DATA_DIRS`).
    ///   - shared: the server as the run of several checks asks it once for all; `nil` to ask
    ///     it here.
    package init(appName: String, appID: String, icon: String? = nil, environment: [String: String] = ProcessEnvironment.read(),
                 shared: SessionAnswers? = nil) {
        self.appName = appName
        self.appID = appID
        self.icon = icon
        self.environment = environment
        self.shared = shared
    }

    /// The server's capabilities, asked once, as the content must be built for them
    /// (`ServerTraits`). The app's desktop entry is read then too, once.
    package func capabilities() throws -> Set<String> {
        if let server { return server.contentCapabilities }
        do { try DesktopLibrary.libnotify.load() } catch { throw HeraldError.libraryUnavailable(error.description) }
        let found = if let shared { shared.notificationServer(appName: appName) } else { NotificationServer(appName: appName) }
        guard let connected = found else { throw HeraldError.noNotificationServer }
        server = connected
        // Read once, for the sender and the hint alike.
        let entry = DesktopEntry.installed(appID: appID, environment: environment)
        (appName, icon) = Self.sender(appName: appName, appID: appID, icon: icon, entry: entry)
        desktopEntry = DesktopSwitchFiles.desktopEntryHint(appID: appID, installed: entry)
        return connected.contentCapabilities
    }

    /// The sender's name and icon as the server shows them: where the name is the app id, the
    /// `Name` of the app's installed desktop entry; without an icon, the entry's `Icon`, else Herald's.
    package static func sender(appName: String, appID: String, icon: String?, environment: [String: String]) -> (name: String, icon: String) {
        guard appName == appID || icon == nil else { return (appName, icon!) }
        return sender(appName: appName, appID: appID, icon: icon, entry: DesktopEntry.installed(appID: appID, environment: environment))
    }

    /// The sender's name and icon, for the app's desktop entry read already (`nil` where none is installed).
    static func sender(appName: String, appID: String, icon: String?, entry: DesktopEntry?) -> (name: String, icon: String) {
        var name = appName
        if appName == appID, let entryName = entry?["Name"].map(NotificationText.summary), !entryName.isEmpty { name = entryName }
        return (name, icon ?? entry?["Icon"].flatMap { $0.isEmpty ? nil : $0 } ?? SampleFeed.icon)
    }

    /// Shows a libnotify notification that never expires on its own: Herald's wait limit decides.
    package func present(_ content: NotificationContent, link: String?, respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage {
        let acceptsAppName = server.map { ServerTraits.acceptsAppName(serverName: $0.name) } ?? true
        let notification = DesktopNotification(
            summary: content.summary, body: content.body, icon: content.icon ?? icon, appName: acceptsAppName ? appName : nil,
            desktopEntry: desktopEntry ?? DesktopSwitchFiles.desktopEntryHint(appID: appID, environment: environment),
            actions: content.actions.map { (id: $0.id, label: $0.label) }, timeout: content.isInteractive ? 0 : -1,
            urgency: content.urgency, category: content.category)
        do {
            return try notification.show(onResponse: respond)
        } catch {
            throw HeraldError.presentation(error.description)
        }
    }
}

extension NotificationHandle: PresentedMessage {}
