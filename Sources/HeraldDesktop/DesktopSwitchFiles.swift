import CDesktopLibraries
import HeraldCore

/// Reads what the person turned off in the desktop's own notification settings
/// (`DesktopSwitches`): Herald's `herald.notifyrc`, as KNotifications reads it, and the app's
/// switch in GNOME Settings.
package enum DesktopSwitchFiles {
    /// The largest notifyrc read, 1 MiB: KDE's settings write a few lines per event.
    package static let sizeLimit = 1 << 20

    /// The notifyrc files, in the order KNotifications reads them: the person's
    /// (`$XDG_CONFIG_HOME/herald.notifyrc`), the system's (`$XDG_CONFIG_DIRS`), then the installed
    /// defaults (`knotifications5/` and `knotifications6/` under `$XDG_DATA_HOME` and `$XDG_DATA_DIRS`).
    package static func notifyRcFiles(environment: [String: String]) -> [String] {
        let directories = BaseDirectories(environment: environment)
        let configs = ([directories.configHome] + directories.configDirs).map { $0 + "/" + DesktopSwitches.notifyRcFile }
        let installed = ([directories.dataHome] + directories.dataDirs).flatMap { folder in
            DesktopSwitches.notifyRcFolders.map { folder + "/" + $0 + "/" + DesktopSwitches.notifyRcFile }
        }
        return configs + installed
    }

    /// What the desktop's settings turn off for `appID`. A notifyrc that is missing, unreadable
    /// or not a key file says nothing, as KDE passes over it too. GNOME's switch is read only in
    /// a GNOME session (`XDG_CURRENT_DESKTOP`), where GNOME Shell obeys it, and where GNOME's
    /// schema is installed: the switch of the entry the messages name (`desktopEntryHint`), the
    /// app's own when it is installed, else Herald's.
    package static func read(appID: String, environment: [String: String]) -> DesktopSwitchSettings {
        var files: [(path: String, keyFile: KeyFile)] = []
        for path in notifyRcFiles(environment: environment) {
            guard let bytes = (try? RegularFile.read(path, limit: sizeLimit, followingLinks: true)) ?? nil,
                  let keyFile = try? KeyFile(bytes) else { continue }
            files.append((path, keyFile))
        }
        var settings = DesktopSwitchSettings(categoriesOff: DesktopSwitches.categoriesOff(in: files))
        if DesktopSwitches.isGnomeSession(environment), (try? DesktopLibrary.gio.load()) != nil {
            let path = DesktopSwitches.gnomeSettingsPath(appID: desktopEntryHint(appID: appID, environment: environment))
            if GSettingsValue.boolean(schema: "org.gnome.desktop.notifications.application", key: "enable", path: path) == false {
                settings.gnomeAppSwitchOff = path
            }
        }
        return settings
    }

    /// The `desktop-entry` hint of `appID`'s messages (`DesktopSwitches.desktopEntry`): the app's
    /// id where its desktop entry is installed, else the agent's.
    package static func desktopEntryHint(appID: String, environment: [String: String]) -> String {
        desktopEntryHint(appID: appID, installed: DesktopEntry.installed(appID: appID, environment: environment))
    }

    /// The `desktop-entry` hint of `appID`'s messages, for the app's desktop entry read already
    /// (`DesktopEntry.installed`; `nil` where none is installed).
    package static func desktopEntryHint(appID: String, installed entry: DesktopEntry?) -> String {
        DesktopSwitches.desktopEntry(appID: appID, hasEntry: entry != nil, agentID: HandoverBus.agentName)
    }
}

/// One boolean of GSettings, read only where its schema is installed: GSettings aborts the
/// process on a schema it does not know.
enum GSettingsValue {
    /// The key's value in `schema` (at `path` for a relocatable schema); `nil` where the schema
    /// or the key is not installed. GIO must be loaded.
    static func boolean(schema id: String, key: String, path: String? = nil) -> Bool? {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, id, 1) else { return nil }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, key) != 0, let settings = g_settings_new_full(schema, nil, path) else { return nil }
        defer { g_object_unref(settings) }
        return g_settings_get_boolean(settings, key) != 0
    }
}
