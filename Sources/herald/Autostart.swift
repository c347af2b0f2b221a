import HeraldCore

/// The per-app XDG autostart entry that runs `herald check` at login (DESIGN.md D19), as
/// `herald autostart enable` wrote it before registrations: such an entry keeps working until
/// `enable` moves it into a registration (`AppRegistrations`).
enum Autostart {
    /// The entry's file name: `<app-id>.herald.desktop`.
    static func fileName(appID: String) -> String { "\(appID).herald.desktop" }

    /// Where the entry goes: `$XDG_CONFIG_HOME/autostart/` (default `~/.config/autostart`).
    static func path(appID: String, environment: [String: String]) -> String {
        BaseDirectories(environment: environment).configHome + "/autostart/" + fileName(appID: appID)
    }

    /// The entry for an app.
    ///
    /// - Parameters:
    ///   - command: the full command a session manager runs at login, `herald check …` with
    ///     its options, the tool given by absolute path.
    static func entry(appID: String, appName: String, command: [String]) -> DesktopEntry {
        DesktopEntry(fields: [
            ("Type", "Application"),
            ("Name", "\(appName) messages"),
            ("Comment", "Shows news from \(appName) as desktop notifications"),
            ("Exec", DesktopEntry.exec(command)),
            ("Icon", "org.herald.Herald"),
            ("Terminal", "false"),
            ("NoDisplay", "true"),
            ("X-GNOME-Autostart-enabled", "true"),
            ("X-Herald-AppID", appID),
        ])
    }
}
