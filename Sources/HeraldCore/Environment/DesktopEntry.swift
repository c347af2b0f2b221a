import Glibc

/// A freedesktop desktop entry (the `.desktop` format): written for autostart, read back by
/// `herald autostart status` and by tests, as a session manager would read it.
public struct DesktopEntry: Sendable, Equatable {
    /// The `[Desktop Entry]` group's keys, in the order written.
    public var fields: [(key: String, value: String)]

    /// Creates an entry from its keys, in order.
    public init(fields: [(key: String, value: String)]) {
        self.fields = fields
    }

    /// The value of a key in the `[Desktop Entry]` group, unescaped.
    public subscript(key: String) -> String? {
        fields.first { $0.key == key }?.value
    }

    /// Compares the keys and values in order.
    public static func == (lhs: DesktopEntry, rhs: DesktopEntry) -> Bool {
        lhs.fields.map(\.key) == rhs.fields.map(\.key) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    /// The group a desktop entry's keys are in.
    static let group = "Desktop Entry"

    /// The file's text: one `[Desktop Entry]` group, values escaped as the spec asks (`KeyFile`).
    public var text: String {
        var file = KeyFile()
        for field in fields { file.set(field.value, group: Self.group, key: field.key) }
        return file.text
    }

    /// Reads the `[Desktop Entry]` group of a file as a key file (`KeyFile`): other groups and
    /// comments are skipped, a key set twice keeps its last value; a text that is not a key
    /// file has no keys.
    public static func parse(_ text: String) -> DesktopEntry {
        (try? KeyFile(text)).map(Self.init(keyFile:)) ?? DesktopEntry(fields: [])
    }

    /// The `[Desktop Entry]` group of a key file.
    init(keyFile: KeyFile) {
        self.init(fields: keyFile.entries(in: Self.group))
    }

    /// The desktop entry an app id names, `ID.desktop`, as a desktop finds it: in
    /// `$XDG_DATA_HOME/applications` (default `~/.local/share`), then in each folder of
    /// `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`); `nil` where none is installed or
    /// it cannot be read or is not a key file (`KeyFile`). Only a regular file of at most 64 KiB
    /// is read.
    public static func installed(appID: String, environment: [String: String]) -> DesktopEntry? {
        guard HeraldPaths.isValid(appID: appID) else { return nil }
        let directories = BaseDirectories(environment: environment)
        for folder in [directories.dataHome] + directories.dataDirs {
            // Followed through a link, as desktops do: Flatpak exports its apps' entries as links.
            if let bytes = (try? RegularFile.read(folder + "/applications/" + appID + ".desktop", limit: 65_536, followingLinks: true)) ?? nil {
                return (try? KeyFile(bytes)).map(DesktopEntry.init(keyFile:))
            }
        }
        return nil
    }

    /// Whether a desktop would take the entry for an app it can start, as GLib's
    /// `GDesktopAppInfo` (and so GNOME Shell) does: its `TryExec`, when it has one, and the first
    /// word of its `Exec` name a program that is there, as an absolute path or found in
    /// `environment`'s `PATH`. GNOME Shell refuses a notification of an app it cannot find.
    public func startsAProgram(environment: [String: String]) -> Bool {
        guard let program = self["Exec"].flatMap({ Self.arguments(ofExec: $0).first }) else { return false }
        return [self["TryExec"], program].compactMap { $0 }.allSatisfy { Self.isProgram($0, environment: environment) }
    }

    /// Whether `name` is an executable file: a path with a slash as it is, a bare name in one of
    /// `PATH`'s folders.
    private static func isProgram(_ name: String, environment: [String: String]) -> Bool {
        if name.contains("/") { return access(name, X_OK) == 0 }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return folders.contains { access("\($0)/\(name)", X_OK) == 0 }
    }

    /// An `Exec` value that runs exactly `arguments`: each argument is quoted when it needs it
    /// and `%` is doubled, so no field code is expanded (Desktop Entry spec, "The Exec key").
    public static func exec(_ arguments: [String]) -> String {
        arguments.map { argument in
            let doubled = argument.replacing("%", with: "%%")
            let reserved = " \t\n\"'\\><~|&;$*?#()`="
            guard doubled.isEmpty || doubled.contains(where: { reserved.contains($0) }) else { return doubled }
            var quoted = "\""
            for character in doubled {
                if "\"`$\\".contains(character) { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        }.joined(separator: " ")
    }

    /// Splits an `Exec` value into arguments, undoing `exec(_:)`; field codes such as `%u` are
    /// dropped, `%%` becomes `%`.
    public static func arguments(ofExec exec: String) -> [String] {
        var arguments: [String] = []
        var current = ""
        var inQuotes = false
        var started = false
        var characters = Array(exec)[...]
        while let character = characters.popFirst() {
            if inQuotes {
                if character == "\\", let next = characters.first, "\"`$\\".contains(next) {
                    current.append(characters.removeFirst())
                } else if character == "\"" {
                    inQuotes = false
                } else {
                    current.append(character)
                }
            } else if character == " " {
                if started { arguments.append(current) }
                current = ""
                started = false
                continue
            } else if character == "\"" {
                inQuotes = true
            } else {
                current.append(character)
            }
            started = true
        }
        if started { arguments.append(current) }
        return arguments.compactMap { argument in
            if argument.count == 2, argument.first == "%", argument != "%%" { return nil }
            return argument.replacing("%%", with: "%")
        }
    }
}
