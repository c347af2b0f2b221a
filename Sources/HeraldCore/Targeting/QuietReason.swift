/// Why the person at the desktop asked for quiet: Herald then shows nothing, and the check
/// does not count as done, so its messages come at a later check once quiet ends.
public enum QuietReason: Sendable, Equatable, CustomStringConvertible {
    /// GNOME's do-not-disturb: `org.gnome.desktop.notifications` `show-banners` is false.
    case doNotDisturb
    /// The notification server says it holds notifications back (its `Inhibited` property).
    case serverInhibited
    /// Xfce's do-not-disturb: xfconf channel `xfce4-notifyd`, `/do-not-disturb` is true.
    case xfceDoNotDisturb
    /// The notification server is paused (dunst's `dunstctl set-paused true`).
    case serverPaused

    /// A stable name for logs and `--json`.
    public var name: String {
        switch self {
        case .doNotDisturb: return "do-not-disturb"
        case .serverInhibited: return "server-inhibited"
        case .xfceDoNotDisturb: return "xfce-do-not-disturb"
        case .serverPaused: return "server-paused"
        }
    }

    /// One sentence for people.
    public var description: String {
        switch self {
        case .doNotDisturb: return "do not disturb is on (org.gnome.desktop.notifications show-banners is false)"
        case .serverInhibited: return "the notification server holds notifications back (Inhibited)"
        case .xfceDoNotDisturb: return "do not disturb is on (xfconf xfce4-notifyd /do-not-disturb is true)"
        case .serverPaused: return "the notification server is paused (dunstctl set-paused)"
        }
    }
}
