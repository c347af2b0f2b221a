import CDesktopLibraries
import HeraldCore

/// The session's notification server, reached through libnotify.
///
/// Its capabilities and name are asked once and kept (DESIGN.md D17): libnotify asks
/// synchronously, `GetCapabilities` and `GetServerInformation` (which libnotify answers itself
/// when it sends through the portal).
package final class NotificationServer {
    /// The capabilities the server announced, e.g. "actions", "body-markup".
    package let capabilities: Set<String>
    /// The server's name ("GNOME Shell", "Xfce Notify Daemon"; libnotify's "Portal
    /// Notification" in a sandbox).
    package let name: String

    /// The capabilities to build content for (`ServerTraits.contentCapabilities`).
    package var contentCapabilities: Set<String> {
        ServerTraits.contentCapabilities(announced: capabilities, serverName: name)
    }

    /// Connects for an app name; `nil` when no server answers on the session bus.
    package init?(appName: String) {
        guard notify_is_initted() != 0 || notify_init(appName) != 0 else { return nil }
        // A missing server is reported by the caller in one clear line; libnotify's own
        // warning about the failed proxy would only repeat it, and in a sandbox its warning
        // that it sends through the portal says nothing a user can act on.
        let quiet = g_log_set_handler("libnotify", GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue), { _, _, _, _ in }, nil)
        let list = notify_get_server_caps()
        g_log_remove_handler("libnotify", quiet)
        guard let list else { return nil }
        var found: Set<String> = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let data = current.pointee.data { found.insert(String(cString: data.assumingMemoryBound(to: CChar.self))) }
            node = current.pointee.next
        }
        g_list_free_full(list, g_free)
        capabilities = found
        var serverName: UnsafeMutablePointer<CChar>?
        name = notify_get_server_info(&serverName, nil, nil, nil) != 0 ? serverName.map { String(cString: $0) } ?? "" : ""
        g_free(serverName)
    }

    /// Waits up to `seconds` for `org.freedesktop.Notifications` to have an owner on the session
    /// bus, running the main context meanwhile; returns whether it has one.
    ///
    /// Nothing is started: at login the desktop starts its own server, and a call to the name
    /// while it has no owner would have the bus start whichever server is merely installed
    /// (dunst, xfce4-notifyd), maybe before the desktop's registers. The owner is asked every
    /// quarter of a second, for at most `seconds`. Inside a sandbox the notification portal is
    /// reached instead, which the bus starts by design: no wait.
    @MainContext
    package static func waitForOwner(seconds: Double) -> Bool {
        // Without GIO there is nothing to wait with; the check reports the library itself.
        if Sandbox.isFlatpak || (try? DesktopLibrary.gio.load()) == nil { return true }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let deadline = g_get_monotonic_time() + gint64(seconds * 1_000_000)
        while true {
            if hasOwner(bus) { return true }
            if g_get_monotonic_time() >= deadline { return false }
            let pause = Pause()
            MainContext.after(seconds: min(0.25, Double(deadline - g_get_monotonic_time()) / 1_000_000)) { pause.over = true }
            while !pause.over { g_main_context_iteration(nil, 1) }
        }
    }

    private static func hasOwner(_ bus: OpaquePointer) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let replyType = g_variant_type_new("(b)")
        defer { g_variant_type_free(replyType) }
        var name: [OpaquePointer?] = [g_variant_new_string("org.freedesktop.Notifications")]
        guard let reply = g_dbus_connection_call_sync(
            bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            g_variant_new_tuple(&name, 1), replyType, G_DBUS_CALL_FLAGS_NONE, 1000, nil, &error) else {
            g_clear_error(&error)
            return false
        }
        defer { g_variant_unref(reply) }
        guard let value = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }
}

/// Whether a pause of `waitForOwner` is over.
@MainContext
private final class Pause {
    var over = false
}
