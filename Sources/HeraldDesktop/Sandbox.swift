import Glibc

/// Whether Herald runs inside a Flatpak sandbox, where the desktop is reached through portals:
/// links open through the OpenURI portal, the host's settings are read through the Settings
/// portal, and libnotify sends through the notification portal.
package enum Sandbox {
    /// Whether `/.flatpak-info` exists: the mark Flatpak puts in every sandbox, which libnotify
    /// and GIO look for too. Read once: a process does not move in or out of a sandbox. (Snap,
    /// and libnotify's `NOTIFY_FORCE_PORTAL`, also send through the portal; Herald tells those
    /// from the server's name, `ServerTraits`.)
    package static let isFlatpak: Bool = access("/.flatpak-info", F_OK) == 0
}
