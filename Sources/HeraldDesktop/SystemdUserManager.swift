import CDesktopLibraries

/// The user's systemd service manager, as the session bus reaches it where that bus is the
/// user's own (dbus-user-session: one bus for every session of the user, on which the manager
/// is `org.freedesktop.systemd1`).
package enum SystemdUserManager {
    /// The timer that checks every registered app at login and twice a day (`herald-check.timer`).
    package static let checkTimer = "herald-check.timer"

    /// The manager's name on the bus.
    static let name = "org.freedesktop.systemd1"

    /// Whether the user's service manager is on the session bus and has `unit` active (a
    /// timer: started, and waiting to elapse). `false` without a session bus, without the
    /// manager on it (a bus of the session alone), or without the unit loaded.
    @MainContext
    package static func isActive(_ unit: String) -> Bool {
        guard (try? DesktopLibrary.gio.load()) != nil, let bus = SessionBus() else { return false }
        // A unit that is not loaded is not active either (NoSuchUnit); nothing is started for the name.
        var arguments = [g_variant_new_string(unit)]
        guard let found = try? bus.call(name, "/org/freedesktop/systemd1", name + ".Manager", "GetUnit", &arguments, reply: "(o)",
                                        timeout: 5000, autoStart: false) else { return false }
        defer { g_variant_unref(found) }
        guard let path = SessionBus.child(found, { String(cString: g_variant_get_string($0, nil)) }) else { return false }
        var property = [g_variant_new_string(name + ".Unit"), g_variant_new_string("ActiveState")]
        guard let reply = try? bus.call(name, path, "org.freedesktop.DBus.Properties", "Get", &property, reply: "(v)", timeout: 5000,
                                        autoStart: false) else { return false }
        defer { g_variant_unref(reply) }
        return SessionBus.child(reply) { boxed -> Bool in
            guard let state = g_variant_get_variant(boxed) else { return false }
            defer { g_variant_unref(state) }
            return g_variant_classify(state) == G_VARIANT_CLASS_STRING && String(cString: g_variant_get_string(state, nil)) == "active"
        } ?? false
    }
}
