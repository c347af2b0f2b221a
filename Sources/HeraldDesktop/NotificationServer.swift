import CDesktopLibraries

/// The session's notification server, reached through libnotify.
///
/// Its capabilities are asked once and kept (DESIGN.md D17): libnotify asks synchronously.
/// Nothing else is asked: connecting already costs libnotify one `GetServerInformation`.
public final class NotificationServer {
    /// The capabilities the server announced, e.g. "actions", "body-markup".
    public let capabilities: Set<String>

    /// Connects for an app name; `nil` when no server answers on the session bus.
    public init?(appName: String) {
        guard notify_is_initted() != 0 || notify_init(appName) != 0 else { return nil }
        // A missing server is reported by the caller in one clear line; libnotify's own
        // warning about the failed proxy would only repeat it.
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
    }

    /// Whether the server offers a capability (case-insensitive, as notify-send matches).
    public func offers(_ capability: String) -> Bool {
        capabilities.contains { $0.lowercased() == capability.lowercased() }
    }
}
