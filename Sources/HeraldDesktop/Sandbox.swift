import Glibc

/// Whether Herald runs inside a Flatpak sandbox, where the desktop is reached through portals:
/// links open through the OpenURI portal, the host's settings are read through the Settings
/// portal, and libnotify sends through the notification portal.
public enum Sandbox {
    /// Whether `/.flatpak-info` exists: the mark Flatpak puts in every sandbox, which libnotify
    /// and GIO look for too.
    public static var isFlatpak: Bool { access("/.flatpak-info", F_OK) == 0 }
}
