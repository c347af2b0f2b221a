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
    func present(_ content: NotificationContent, link: String?, respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage
}

/// A message on screen.
@MainContext
public protocol PresentedMessage: AnyObject {
    /// The server's id for it.
    var id: UInt32 { get }
    /// Takes it off the screen; the close is reported as `.closedByHerald`.
    func close()
    /// Tells it no answer is wanted any more (the server replaced it with another): it lets go
    /// of its `respond` closure without calling it. Nothing to do for a presenter whose
    /// callbacks go away with the handle, which is the default.
    func abandon()
}

extension PresentedMessage {
    /// Nothing to let go of: the callbacks go away with the handle.
    public func abandon() {}
}

/// Shows messages as freedesktop notifications through libnotify.
public final class DesktopPresenter: MessagePresenter {
    private let appName: String
    private let appID: String
    private let icon: String?
    private var server: NotificationServer?

    /// Creates a presenter; nothing touches the bus until the first message.
    ///
    /// - Parameters:
    ///   - appName: shown by the server as the sender.
    ///   - appID: the `desktop-entry` hint.
    ///   - icon: an icon name or file URI for the app icon.
    public init(appName: String, appID: String, icon: String? = nil) {
        self.appName = appName
        self.appID = appID
        self.icon = icon
    }

    /// The server's capabilities, asked once.
    public func capabilities() throws -> Set<String> {
        if let server { return server.capabilities }
        guard let connected = NotificationServer(appName: appName) else { throw HeraldError.noNotificationServer }
        server = connected
        return connected.capabilities
    }

    /// Shows a libnotify notification that never expires on its own: Herald's wait limit decides.
    public func present(_ content: NotificationContent, link: String?, respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage {
        let notification = DesktopNotification(
            summary: content.summary, body: content.body, icon: content.icon ?? icon, appName: appName, desktopEntry: appID,
            actions: content.actions.map { (id: $0.id, label: $0.label) }, timeout: content.isInteractive ? 0 : -1,
            urgency: content.urgency)
        do {
            return try notification.show(onResponse: respond)
        } catch {
            throw HeraldError.presentation(error.description)
        }
    }
}

extension NotificationHandle: PresentedMessage {}
