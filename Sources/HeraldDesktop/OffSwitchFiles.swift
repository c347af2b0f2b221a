import CDesktopLibraries
import Glibc
import HeraldCore

/// The off switches' key files, read and written with GLib's key-file parser (`GKeyFile`):
/// the administrator's `herald/herald.conf` in each folder of `$XDG_CONFIG_DIRS` (by default
/// `/etc/xdg/herald/herald.conf`) and the user's in `$XDG_CONFIG_HOME`.
///
/// A missing file says nothing; a file that cannot be read or parsed is an error, never
/// passed over: an administrator's mute must not lapse because of a typo elsewhere in the file.
public enum OffSwitchFiles {
    /// The file's path under a configuration folder.
    public static let relativePath = "herald/herald.conf"

    /// The system files, most important first: `herald/herald.conf` in each absolute folder of
    /// `$XDG_CONFIG_DIRS`, or `/etc/xdg` when it names none.
    public static func systemFiles(environment: [String: String]) -> [String] {
        let folders = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return (folders.isEmpty ? ["/etc/xdg"] : folders).map { $0 + "/" + relativePath }
    }

    /// The user's file: `$XDG_CONFIG_HOME/herald/herald.conf`, `~/.config/herald/herald.conf` by default.
    public static func userFile(environment: [String: String]) -> String {
        let home = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (environment["HOME"] ?? "/") + "/.config"
        return home + "/" + relativePath
    }

    /// Reads every file that applies to this environment's user. Creates nothing.
    public static func read(environment: [String: String]) throws(OffSwitchFileError) -> OffSwitches {
        try read(systemFiles: systemFiles(environment: environment), userFile: userFile(environment: environment))
    }

    /// Reads the given files: `systemFiles` most important first, as `systemFiles(environment:)`
    /// names them, and the user's. For a caller that reads them again and again under one
    /// environment, so that the paths are worked out once. Creates nothing.
    public static func read(systemFiles: [String], userFile: String) throws(OffSwitchFileError) -> OffSwitches {
        var system: [OffSwitchSettings] = []
        system.reserveCapacity(systemFiles.count)
        for path in systemFiles { system.append(try read(path, administrator: true)) }
        return OffSwitches(system: system, user: try read(userFile, administrator: false))
    }

    /// Makes one change to the user's file, keeping the rest of it (comments too), and creates
    /// its folder (for the user only) when needed.
    public static func apply(_ edit: OffSwitchEdit, environment: [String: String]) throws(OffSwitchFileError) {
        let path = userFile(environment: environment)
        let keyFile = try load(path)
        defer { g_key_file_free(keyFile) }
        switch edit {
        case .set(let group, let key, let value):
            g_key_file_set_boolean(keyFile, group, key, value ? 1 : 0)
        case .remove(let group, let key):
            g_key_file_remove_key(keyFile, group, key, nil)
            var count = 0
            if let keys = g_key_file_get_keys(keyFile, group, &count, nil) {
                g_strfreev(keys)
                if count == 0 { g_key_file_remove_group(keyFile, group, nil) }
            }
        }
        let folder = String(path[..<path.lastIndex(of: "/")!])
        guard g_mkdir_with_parents(folder, 0o700) == 0 else { throw OffSwitchFileError(file: folder, reason: String(cString: strerror(errno))) }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_save_to_file(keyFile, path, &error) != 0 else { throw OffSwitchFileError(file: path, taking: &error) }
    }

    /// One file's settings; `FeedURL` only from the administrator's.
    static func read(_ path: String, administrator: Bool) throws(OffSwitchFileError) -> OffSwitchSettings {
        // No file, the usual case, says nothing: every check reads these files, and a missing
        // one then costs one stat, not a key file, a GLib error and its message.
        var info = stat()
        if stat(path, &info) != 0, errno == ENOENT { return OffSwitchSettings(file: path) }
        let keyFile = try load(path)
        defer { g_key_file_free(keyFile) }
        var settings = OffSwitchSettings(file: path)
        var count = 0
        guard let groups = g_key_file_get_groups(keyFile, &count) else { return settings }
        defer { g_strfreev(groups) }
        for index in 0..<count {
            guard let pointer = groups[index] else { continue }
            let group = String(cString: pointer)
            if group == OffSwitchSettings.allGroup {
                settings.allMuted = try boolean(keyFile, group, OffSwitchSettings.mutedKey, path)
            } else if let appID = OffSwitchSettings.appID(ofGroup: group) {
                var app = OffSwitchSettings.App(muted: try boolean(keyFile, group, OffSwitchSettings.mutedKey, path))
                if administrator { app.feedURL = string(keyFile, group, OffSwitchSettings.feedURLKey) }
                settings.apps[appID] = app
            }
        }
        return settings
    }

    /// The file parsed, or an empty key file when there is none.
    private static func load(_ path: String) throws(OffSwitchFileError) -> OpaquePointer {
        let keyFile = g_key_file_new()!
        var error: UnsafeMutablePointer<GError>?
        let flags = GKeyFileFlags(rawValue: G_KEY_FILE_KEEP_COMMENTS.rawValue | G_KEY_FILE_KEEP_TRANSLATIONS.rawValue)
        if g_key_file_load_from_file(keyFile, path, flags, &error) == 0 {
            if error?.pointee.domain == g_file_error_quark(), error?.pointee.code == Int32(G_FILE_ERROR_NOENT.rawValue) {
                g_clear_error(&error)
                return keyFile
            }
            g_key_file_free(keyFile)
            throw OffSwitchFileError(file: path, taking: &error)
        }
        return keyFile
    }

    /// A boolean key's value, `nil` when absent; anything but GLib's booleans is an error.
    private static func boolean(_ keyFile: OpaquePointer, _ group: String, _ key: String, _ path: String) throws(OffSwitchFileError) -> Bool? {
        guard let raw = string(keyFile, group, key) else { return nil }
        var error: UnsafeMutablePointer<GError>?
        let value = g_key_file_get_boolean(keyFile, group, key, &error)
        guard error == nil else {
            g_clear_error(&error)
            throw OffSwitchFileError(file: path, reason: "[\(group)] \(key) must be true or false, not '\(raw)'")
        }
        return value != 0
    }

    private static func string(_ keyFile: OpaquePointer, _ group: String, _ key: String) -> String? {
        guard let value = g_key_file_get_string(keyFile, group, key, nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }
}

/// A key file that could not be read, parsed or written.
public struct OffSwitchFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or folder) concerned.
    public var file: String
    /// What went wrong, as GLib or the system says it.
    public var reason: String

    /// Creates the error.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    /// Takes a GLib error's message and frees it.
    init(file: String, taking error: inout UnsafeMutablePointer<GError>?) {
        self.init(file: file, reason: error.map { String(cString: $0.pointee.message) } ?? "unknown error")
        g_clear_error(&error)
    }

    /// "path: reason".
    public var description: String { "\(file): \(reason)" }
}
