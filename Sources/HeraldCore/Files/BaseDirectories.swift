import Glibc

/// The XDG base directories of one environment (XDG Base Directory Specification 0.8): where
/// every file Herald reads or writes for a user is looked for.
///
/// A variable that is unset, empty or not an absolute path is ignored, as the specification
/// asks, and its default is used. The home folder is `$HOME` when that is an absolute path;
/// otherwise (unset in a stripped service environment, or relative) it is the user's home
/// folder in the password database (`getpwuid`), and `/` only where that names none either.
package struct BaseDirectories: Sendable, Equatable {
    /// The user's home folder the defaults below hang from.
    package var home: String
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    package var configHome: String
    /// `$XDG_STATE_HOME`, default `~/.local/state`.
    package var stateHome: String
    /// `$XDG_CACHE_HOME`, default `~/.cache`.
    package var cacheHome: String
    /// `$XDG_DATA_HOME`, default `~/.local/share`.
    package var dataHome: String
    /// `$XDG_CONFIG_DIRS`, most important first, default `/etc/xdg`.
    package var configDirs: [String]
    /// `$XDG_DATA_DIRS`, most important first, default `/usr/local/share:/usr/share`.
    package var dataDirs: [String]

    /// The base directories an environment names.
    ///
    /// - Parameter passwordHome: the home folder when `HOME` names none; the password
    ///   database's entry for this process's user by default, read once per process.
    package init(environment: [String: String], passwordHome: () -> String? = { BaseDirectories.processPasswordHome }) {
        func absolute(_ value: String?) -> String? { value.flatMap { $0.hasPrefix("/") ? $0 : nil } }
        func list(_ variable: String, _ fallback: [String]) -> [String] {
            let folders = (environment[variable] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            return folders.isEmpty ? fallback : folders
        }
        let home = absolute(environment["HOME"]) ?? absolute(passwordHome()) ?? "/"
        // `home + "/.config"` would give `//.config` for the root folder.
        let under = home == "/" ? "" : home
        self.home = home
        configHome = absolute(environment["XDG_CONFIG_HOME"]) ?? under + "/.config"
        stateHome = absolute(environment["XDG_STATE_HOME"]) ?? under + "/.local/state"
        cacheHome = absolute(environment["XDG_CACHE_HOME"]) ?? under + "/.cache"
        dataHome = absolute(environment["XDG_DATA_HOME"]) ?? under + "/.local/share"
        configDirs = list("XDG_CONFIG_DIRS", ["/etc/xdg"])
        dataDirs = list("XDG_DATA_DIRS", ["/usr/local/share", "/usr/share"])
    }

    /// `passwordDatabaseHome()`, read the first time a `BaseDirectories` needs it: a process
    /// does not change users, and start-up makes several of these values.
    package static let processPasswordHome: String? = passwordDatabaseHome()

    /// The home folder of this process's user in the password database; `nil` where there is
    /// no entry or it names none.
    package static func passwordDatabaseHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }
}
