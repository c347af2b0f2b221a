import Glibc

/// The variables of the process's environment that Herald reads: where the XDG folders are,
/// the user's languages and desktop.
public enum ProcessEnvironment {
    /// The names of the variables Herald reads from an environment: `HeraldPaths`,
    /// `OffSwitchFiles`, `Autostart`, `DesktopEntry.installed`, `Audience` and `Labels` read no others.
    public static let names = [
        "HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_HOME", "XDG_DATA_DIRS",
        "XDG_CURRENT_DESKTOP",
        "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG",
    ]

    /// Those of `names` that are set, with their values, read one at a time: a copy of the
    /// whole environment (`ProcessInfo.environment`) would cost a check that is not due a tenth
    /// of its instructions.
    public static func read() -> [String: String] {
        var environment: [String: String] = [:]
        environment.reserveCapacity(names.count)
        for name in names {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}
