import CDesktopLibraries
import HeraldCore

/// How a shown notification ended: one action, or a close. Delivered exactly once.
public enum NotificationResponse: Sendable, Equatable {
    /// The user chose an action; `"default"` is a click on the body.
    case action(String)
    /// It closed without an action.
    case closed(CloseReason)
}

/// One freedesktop notification, built as a value and shown through libnotify.
package struct DesktopNotification {
    /// The summary line (plain text).
    package var summary: String
    /// The body (markup-escaped by the caller where the server reads markup).
    package var body: String
    /// Icon name or `file://` URI for the app icon, if any.
    package var icon: String?
    /// The app's display name.
    package var appName: String?
    /// The `desktop-entry` hint: the app's .desktop basename.
    package var desktopEntry: String?
    /// Action ids and labels, in order. `"default"` is the body click.
    package var actions: [(id: String, label: String)]
    /// Milliseconds before the server may expire it; -1 is the server default, 0 never.
    package var timeout: Int32
    /// The urgency hint; `nil` leaves it to the server (normal).
    package var urgency: MessageUrgency?
    /// The message's category, sent as Plasma's event (`DesktopSwitches.kdeHints`); `nil` for none.
    package var category: MessageCategory?

    /// Creates a notification value.
    package init(summary: String, body: String, icon: String? = nil, appName: String? = nil, desktopEntry: String? = nil,
                actions: [(id: String, label: String)] = [], timeout: Int32 = -1, urgency: MessageUrgency? = nil,
                category: MessageCategory? = nil) {
        self.urgency = urgency
        self.category = category
        self.summary = summary
        self.body = body
        self.icon = icon
        self.appName = appName
        self.desktopEntry = desktopEntry
        self.actions = actions
        self.timeout = timeout
    }

    /// Shows it; the response arrives once, on the main context.
    ///
    /// The returned handle owns the libnotify object. The callbacks registered with libnotify
    /// hold only a `ResponseSink`, never the handle, so dropping the handle frees the object,
    /// its callbacks and `onResponse`, whether it was answered, closed or never shown.
    ///
    /// - Throws: `NotificationError.showFailed` when the server refuses it,
    ///   `.libraryUnavailable` when libnotify cannot be loaded.
    @MainContext
    package func show(onResponse: @escaping @MainContext (NotificationResponse) -> Void) throws(NotificationError) -> NotificationHandle {
        do { try DesktopLibrary.libnotify.load() } catch { throw .libraryUnavailable(error.description) }
        guard let notification = notify_notification_new(summary, body, icon) else {
            throw NotificationError.showFailed("libnotify could not create the notification")
        }
        // Owns the reference notify_notification_new returned, from here on.
        let handle = NotificationHandle(notification)
        let sink = ResponseSink(onResponse)
        notify_notification_set_timeout(notification, timeout)
        switch urgency {
        case .low: notify_notification_set_urgency(notification, NOTIFY_URGENCY_LOW)
        case .normal: notify_notification_set_urgency(notification, NOTIFY_URGENCY_NORMAL)
        case .critical: notify_notification_set_urgency(notification, NOTIFY_URGENCY_CRITICAL)
        case nil: break
        }
        if let appName { notify_notification_set_app_name(notification, appName) }
        if let desktopEntry {
            notify_notification_set_hint(notification, "desktop-entry", g_variant_new_string(desktopEntry))
        }
        for hint in DesktopSwitches.kdeHints(category: category) {
            notify_notification_set_hint(notification, hint.name, g_variant_new_string(hint.value))
        }
        for action in actions {
            let box = CallbackBox<NotificationResponse>(sink.deliver)
            notify_notification_add_action(notification, action.id, action.label, { _, action, pointer in
                let response = NotificationResponse.action(action.map { String(cString: $0) } ?? "")
                CallbackBox<NotificationResponse>.invoke(pointer, response)
            }, box.retainedPointer(), CallbackBox<NotificationResponse>.release)
        }
        let closedBox = CallbackBox<NotificationResponse>(sink.deliver)
        let onClosed: @convention(c) (UnsafeMutablePointer<NotifyNotification>?, gpointer?) -> Void = { notification, pointer in
            let reason: CloseReason
            switch notify_notification_get_closed_reason(notification) {
            case 1: reason = .expired
            case 2: reason = .dismissed
            case 3: reason = .closedByHerald
            default: reason = .undefined
            }
            CallbackBox<NotificationResponse>.invoke(pointer, .closed(reason))
        }
        g_signal_connect_data(notification, "closed", unsafeBitCast(onClosed, to: GCallback.self),
                              closedBox.retainedPointer(), { pointer, _ in CallbackBox<NotificationResponse>.release(pointer) },
                              GConnectFlags(rawValue: 0))
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(notification, &error) == 0 {
            throw NotificationError.showFailed(consume(error) ?? "the notification server refused it")
        }
        return handle
    }
}

/// Passes a notification's first response on and drops the rest (an action is followed by a
/// close); then lets go of the closure, so whatever it captured is freed with the answer.
@MainContext
private final class ResponseSink {
    private var onResponse: (@MainContext (NotificationResponse) -> Void)?

    init(_ onResponse: @escaping @MainContext (NotificationResponse) -> Void) { self.onResponse = onResponse }

    func deliver(_ response: NotificationResponse) {
        guard let onResponse else { return }
        self.onResponse = nil
        onResponse(response)
    }
}

/// Why a notification could not be shown.
package enum NotificationError: Error, Equatable, CustomStringConvertible {
    /// libnotify cannot be loaded: "cannot load libnotify.so.4: the loader's reason".
    case libraryUnavailable(String)
    /// The server or libnotify refused this notification.
    case showFailed(String)

    /// One sentence for people.
    package var description: String {
        switch self {
        case .libraryUnavailable(let reason): return reason
        case .showFailed(let reason): return "the notification could not be shown: \(reason)"
        }
    }
}

/// A shown notification: the one owner of its libnotify object.
///
/// Keep it while an answer may still arrive; dropping it unrefs the object, which frees the
/// callbacks registered for it (DESIGN.md: every C object released exactly once).
package final class NotificationHandle {
    private let notification: UnsafeMutablePointer<NotifyNotification>

    init(_ notification: UnsafeMutablePointer<NotifyNotification>) {
        self.notification = notification
    }

    deinit { g_object_unref(notification) }

    /// The libnotify object, for code that must watch its lifetime (tests count finalizations).
    package var object: UnsafeMutablePointer<GObject> {
        UnsafeMutableRawPointer(notification).assumingMemoryBound(to: GObject.self)
    }

    /// The server's id for it (0 once closed).
    package var id: UInt32 {
        var value = GValue()
        g_value_init(&value, herald_type_int())
        g_object_get_property(object, "id", &value)
        defer { g_value_unset(&value) }
        return UInt32(bitPattern: g_value_get_int(&value))
    }

    /// Asks the server to close it; a close that comes back is reported as `.closedByHerald`.
    package func close() {
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(notification, &error) == 0 { _ = consume(error) }
    }
}
