import CDesktopLibraries
import HeraldCore

/// Whether the desktop asks for quiet right now: GNOME's do-not-disturb setting, then the
/// notification server's own `Inhibited` property where it has one.
public enum DesktopQuiet {
    /// The reason for quiet now, or `nil`. Reads one setting and asks the server one property
    /// (without starting a server that is not running, and for at most a second).
    @MainContext
    public static func reason() -> QuietReason? {
        if bannersOff() { return .doNotDisturb }
        if serverInhibited() { return .serverInhibited }
        return nil
    }

    /// GNOME's `show-banners`, read only where its schema is installed: GSettings aborts the
    /// process on a schema it does not know.
    static func bannersOff() -> Bool {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.notifications", 1) else { return false }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, "show-banners") != 0, let settings = g_settings_new_full(schema, nil, nil) else { return false }
        defer { g_object_unref(settings) }
        return g_settings_get_boolean(settings, "show-banners") == 0
    }

    /// The server's `Inhibited` property (notification servers that offer do-not-disturb over
    /// D-Bus, such as Plasma's); false when the server has none or does not answer.
    static func serverInhibited() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let replyType = g_variant_type_new("(v)")
        defer { g_variant_type_free(replyType) }
        var names: [OpaquePointer?] = [g_variant_new_string("org.freedesktop.Notifications"), g_variant_new_string("Inhibited")]
        let arguments = g_variant_new_tuple(&names, 2)
        guard let reply = g_dbus_connection_call_sync(
            bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Properties", "Get",
            arguments, replyType, G_DBUS_CALL_FLAGS_NO_AUTO_START, 1000, nil, &error) else {
            g_clear_error(&error)
            return false
        }
        defer { g_variant_unref(reply) }
        guard let boxed = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(boxed) }
        guard let value = g_variant_get_variant(boxed) else { return false }
        defer { g_variant_unref(value) }
        return g_variant_classify(value) == G_VARIANT_CLASS_BOOLEAN && g_variant_get_boolean(value) != 0
    }
}
