import CDesktopLibraries
import HeraldCore

/// Whether the desktop asks for quiet right now, read where each desktop keeps it
/// (DESKTOPS.md "do-not-disturb"): GNOME's `show-banners` (through the Settings portal inside a
/// Flatpak sandbox, whose own settings are not the host's), Xfce's `/do-not-disturb` in xfconf,
/// dunst's pause, and the notification server's `Inhibited` property (Plasma's).
package enum DesktopQuiet {
    /// The reason for quiet now, or `nil`. Reads one setting and asks the bus three properties
    /// at once (`BusQuestions`: one round trip), each without starting a service that is not
    /// running and for at most a second.
    @MainContext
    package static func reason() -> QuietReason? {
        // Without GIO nothing says quiet; the check reports the library when it needs it.
        guard (try? DesktopLibrary.gio.load()) != nil else { return nil }
        let bus = sessionBus()
        defer { if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) } }
        if Sandbox.isFlatpak ? bus.map(hostBannersOff) ?? false : bannersOff() { return .doNotDisturb }
        guard let bus else { return nil }
        let answers = BusQuestions.ask(bus, [xfceDoNotDisturb, serverProperty("org.dunstproject.cmd0", "paused"),
                                             serverProperty("org.freedesktop.Notifications", "Inhibited")])
        let on = answers.map(isTrue)
        if on[0] { return .xfceDoNotDisturb }
        if on[1] { return .serverPaused }
        if on[2] { return .serverInhibited }
        return nil
    }

    /// GNOME's `show-banners` (`GSettingsValue`).
    static func bannersOff() -> Bool {
        GSettingsValue.boolean(schema: "org.gnome.desktop.notifications", key: "show-banners") == false
    }

    /// The host's `show-banners`, through the Settings portal (which reads the host's GSettings).
    static func hostBannersOff(_ bus: OpaquePointer) -> Bool {
        let read = BusQuestions.Question("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
                                         "Read", ["org.gnome.desktop.notifications", "show-banners"], reply: "(v)")
        guard let reply = BusQuestions.ask(bus, [read])[0] else { return false }
        defer { g_variant_unref(reply) }
        return isBoolean(reply, false)
    }

    /// Xfce's do-not-disturb: channel `xfce4-notifyd`, property `/do-not-disturb` of xfconf,
    /// which xfce4-notifyd keeps there and offers on no notification interface.
    static let xfceDoNotDisturb = BusQuestions.Question("org.xfce.Xfconf", "/org/xfce/Xfconf", "org.xfce.Xfconf", "GetProperty",
                                                        ["xfce4-notifyd", "/do-not-disturb"], reply: "(v)")

    private static func sessionBus() -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        return bus
    }

    /// A property of the notification server, read with `org.freedesktop.DBus.Properties.Get`.
    private static func serverProperty(_ interface: String, _ name: String) -> BusQuestions.Question {
        BusQuestions.Question("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Properties", "Get",
                              [interface, name], reply: "(v)")
    }

    /// Whether a reply holds `true`; it is released.
    private static func isTrue(_ reply: OpaquePointer?) -> Bool {
        guard let reply else { return false }
        defer { g_variant_unref(reply) }
        return isBoolean(reply, true)
    }

    /// Whether a value, unwrapped from its tuple and every variant around it (the Settings
    /// portal wraps its answer twice), is the boolean `expected`.
    private static func isBoolean(_ value: OpaquePointer, _ expected: Bool) -> Bool {
        var current = g_variant_ref(value)
        defer { g_variant_unref(current) }
        for _ in 0..<4 {
            switch g_variant_classify(current) {
            case G_VARIANT_CLASS_BOOLEAN:
                return (g_variant_get_boolean(current) != 0) == expected
            case G_VARIANT_CLASS_TUPLE where g_variant_n_children(current) == 1, G_VARIANT_CLASS_VARIANT:
                let inner = g_variant_classify(current) == G_VARIANT_CLASS_VARIANT ? g_variant_get_variant(current) : g_variant_get_child_value(current, 0)
                guard let inner else { return false }
                g_variant_unref(current)
                current = inner
            default:
                return false
            }
        }
        return false
    }
}
