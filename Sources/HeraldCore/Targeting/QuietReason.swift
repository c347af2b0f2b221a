/// Why the person at the desktop asked for quiet: Herald then shows nothing, and the check
/// does not count as done, so its messages come at a later check once quiet ends.
public enum QuietReason: Sendable, Equatable, CustomStringConvertible {
    /// GNOME's do-not-disturb: `org.gnome.desktop.notifications` `show-banners` is false.
    case doNotDisturb
    /// The notification server says it holds notifications back (its `Inhibited` property).
    case serverInhibited

    /// A stable name for logs and `--json`.
    public var name: String {
        switch self {
        case .doNotDisturb: return "do-not-disturb"
        case .serverInhibited: return "server-inhibited"
        }
    }

    /// One sentence for people.
    public var description: String {
        switch self {
        case .doNotDisturb: return "do not disturb is on (org.gnome.desktop.notifications show-banners is false)"
        case .serverInhibited: return "the notification server holds notifications back (Inhibited)"
        }
    }
}
