import FoundationEssentials
import Glibc
import HeraldCore

/// The off switches' key files, read and edited as `KeyFile`s:
/// the administrator's `herald/herald.conf` in each folder of `$XDG_CONFIG_DIRS` (by default
/// `/etc/xdg/herald/herald.conf`) and the user's in `$XDG_CONFIG_HOME`.
///
/// A missing file says nothing; a file that cannot be read or parsed is an error, never
/// passed over: an administrator's mute must not lapse because of a typo elsewhere in the file.
/// Each file is read without blocking (a FIFO in its place is an error at once, not a check
/// that waits forever) and must be a regular file of at most `sizeLimit`; a link in its place
/// is followed, as a dotfiles checkout links `herald.conf`.
package enum OffSwitchFiles {
    /// The file's path under a configuration folder.
    package static let relativePath = "herald/herald.conf"

    /// The largest key file read, 1 MiB: a mute is one line, so a file this large is not one
    /// a person wrote, and reading it at every check would cost every app's start-up.
    package static let sizeLimit = 1 << 20

    /// The system files, most important first: `herald/herald.conf` in each absolute folder of
    /// `$XDG_CONFIG_DIRS`, or `/etc/xdg` when it names none.
    package static func systemFiles(environment: [String: String]) -> [String] {
        files(environment: environment).system
    }

    /// The user's file: `$XDG_CONFIG_HOME/herald/herald.conf`, `~/.config/herald/herald.conf` by default.
    package static func userFile(environment: [String: String]) -> String {
        files(environment: environment).user
    }

    /// The system files (as `systemFiles(environment:)`) and the user's (as
    /// `userFile(environment:)`), from one reading of the environment's base directories.
    package static func files(environment: [String: String]) -> (system: [String], user: String) {
        let directories = BaseDirectories(environment: environment)
        return (directories.configDirs.map { $0 + "/" + relativePath }, directories.configHome + "/" + relativePath)
    }

    /// Reads every file that applies to this environment's user. Creates nothing.
    package static func read(environment: [String: String]) throws(OffSwitchFileError) -> OffSwitches {
        let files = files(environment: environment)
        return try read(systemFiles: files.system, userFile: files.user)
    }

    /// Reads the given files: `systemFiles` most important first, as `systemFiles(environment:)`
    /// names them, and the user's. For a caller that reads them again and again under one
    /// environment, so that the paths are worked out once. Creates nothing.
    package static func read(systemFiles: [String], userFile: String) throws(OffSwitchFileError) -> OffSwitches {
        var system: [OffSwitchSettings] = []
        system.reserveCapacity(systemFiles.count)
        for path in systemFiles { system.append(try read(path, administrator: true)) }
        return OffSwitches(system: system, user: try read(userFile, administrator: false))
    }

    /// Reads every key file and makes the changes `decide` chooses from what they say to the
    /// user's file, as one step that no other `herald mute` or `unmute` can interleave with:
    /// under the lock of the file's folder (`SharedFile`), the files are read again, the change
    /// is made to the user's file as read then (comments kept) and the file is replaced
    /// atomically, keeping its mode. A link in the user file's place (a dotfiles checkout) is
    /// edited where it points and stays a link. The user's folder is created (for the user
    /// only) when it is missing.
    ///
    /// - Parameter decide: the changes to make, in order (none writes nothing), and what to pass
    ///   back; it may throw to refuse, and nothing is written then.
    package static func change<Outcome>(environment: [String: String],
                                       _ decide: (OffSwitches) throws -> (edits: [OffSwitchEdit], outcome: Outcome)) throws -> Outcome {
        let files = files(environment: environment)
        let file: SharedFile
        do throws(FileError) { file = try SharedFile(files.user, creatingFolder: true) } catch {
            throw OffSwitchEditError.writing(OffSwitchFileError(file: error.path, reason: error.reason))
        }
        do {
            return try file.withLock {
                let switches: OffSwitches
                do throws(OffSwitchFileError) {
                    switches = try read(systemFiles: files.system, userFile: file.name)
                } catch {
                    throw OffSwitchEditError.reading(error)
                }
                let (edits, outcome) = try decide(switches)
                if !edits.isEmpty { try apply(edits, to: file) }
                return outcome
            }
        } catch let error as FileError {
            throw OffSwitchEditError.writing(OffSwitchFileError(file: error.path, reason: error.reason))
        }
    }

    /// Makes changes to the user's file, keeping the rest of it (comments too), and writes it
    /// once. Called under the file's lock.
    private static func apply(_ edits: [OffSwitchEdit], to file: SharedFile) throws(OffSwitchEditError) {
        var keyFile: KeyFile
        do throws(OffSwitchFileError) { keyFile = try load(file.path) } catch { throw .reading(error) }
        for edit in edits {
            switch edit {
            case .set(let group, let key, let value):
                keyFile.set(value ? "true" : "false", group: group, key: key)
            case .setList(let group, let key, let values):
                keyFile.setStringList(values, group: group, key: key)
            case .setNumber(let group, let key, let value):
                keyFile.set(String(value), group: group, key: key)
            case .remove(let group, let key):
                keyFile.removeKey(key, group: group)
                if keyFile.groups.contains(group), keyFile.entries(in: group).isEmpty { keyFile.removeGroup(group) }
            }
        }
        do throws(FileError) {
            try file.write(Data(keyFile.text.utf8), newFileMode: 0o600)
        } catch {
            throw .writing(OffSwitchFileError(file: error.path, reason: error.reason))
        }
    }

    /// One file's settings; `FeedURL` only from the administrator's.
    static func read(_ path: String, administrator: Bool) throws(OffSwitchFileError) -> OffSwitchSettings {
        // No file, the usual case, says nothing: every check reads these files, and a missing
        // one then costs one stat, not a read and a parse.
        var info = stat()
        if stat(path, &info) != 0, errno == ENOENT { return OffSwitchSettings(file: path) }
        let keyFile = try load(path)
        var settings = OffSwitchSettings(file: path)
        for group in keyFile.groups {
            if group == OffSwitchSettings.allGroup {
                settings.allMuted = try boolean(keyFile, group, OffSwitchSettings.mutedKey, path)
                settings.allMutedCategories = try categories(keyFile, group, path)
            } else if let appID = OffSwitchSettings.appID(ofGroup: group) {
                var app = OffSwitchSettings.App(muted: try boolean(keyFile, group, OffSwitchSettings.mutedKey, path),
                                                mutedCategories: try categories(keyFile, group, path))
                if administrator { app.feedURL = keyFile.string(group: group, key: OffSwitchSettings.feedURLKey) }
                settings.apps[appID] = app
            } else if group == OffSwitchSettings.budgetGroup {
                settings.budget = OffSwitchSettings.Budget(perDay: try budgetFigure(keyFile, OffSwitchSettings.perDayKey, path),
                                                           perWeek: try budgetFigure(keyFile, OffSwitchSettings.perWeekKey, path))
            }
        }
        return settings
    }

    /// The file parsed, or an empty key file when there is none.
    ///
    /// The bytes are read by `RegularFile`, without blocking: a FIFO in the file's place is
    /// an error at once, not a wait.
    private static func load(_ path: String) throws(OffSwitchFileError) -> KeyFile {
        let bytes: Data?
        do throws(FileError) { bytes = try RegularFile.read(path, limit: sizeLimit, followingLinks: true) } catch {
            throw OffSwitchFileError(file: path, reason: error.reason)
        }
        guard let bytes else { return KeyFile() }
        do throws(KeyFileError) { return try KeyFile(bytes) } catch {
            throw OffSwitchFileError(file: path, reason: error.reason)
        }
    }

    /// A boolean key's value, `nil` when absent; anything but the key-file booleans
    /// (`KeyFile.boolean`) is an error.
    private static func boolean(_ keyFile: KeyFile, _ group: String, _ key: String, _ path: String) throws(OffSwitchFileError) -> Bool? {
        guard let raw = keyFile.rawValue(group: group, key: key) else { return nil }
        guard let value = KeyFile.boolean(raw) else {
            throw OffSwitchFileError(file: path, reason: "[\(group)] \(key) must be true or false, not '\(KeyFile.unescaped(raw))'")
        }
        return value
    }
}

extension OffSwitchFiles {
    /// A group's `MutedCategories`, empty when absent; a name that is no `MessageCategory`
    /// (`MessageCategory.named`) is an error, never passed over: a
    /// typo must not let through what the file means to mute.
    private static func categories(_ keyFile: KeyFile, _ group: String, _ path: String) throws(OffSwitchFileError) -> [MessageCategory] {
        guard let names = keyFile.stringList(group: group, key: OffSwitchSettings.mutedCategoriesKey) else { return [] }
        var categories: [MessageCategory] = []
        for name in names {
            let trimmed = NotificationText.trimmed(name)
            if trimmed.isEmpty { continue }
            guard let category = MessageCategory.named(trimmed) else {
                throw OffSwitchFileError(file: path, reason: "[\(group)] \(OffSwitchSettings.mutedCategoriesKey) names no category '\(trimmed)'"
                                         + MessageCategory.choices(for: trimmed))
            }
            if !categories.contains(category) { categories.append(category) }
        }
        return categories
    }

    /// A `[budget]` figure, `nil` when absent; anything but a whole number from 0 to
    /// `AttentionBudget.largest` is an error.
    private static func budgetFigure(_ keyFile: KeyFile, _ key: String, _ path: String) throws(OffSwitchFileError) -> Int? {
        guard let raw = keyFile.string(group: OffSwitchSettings.budgetGroup, key: key) else { return nil }
        let text = NotificationText.trimmed(raw)
        guard text.allSatisfy(\.isASCII), let value = Int(text), (0...AttentionBudget.largest).contains(value) else {
            throw OffSwitchFileError(file: path, reason: "[\(OffSwitchSettings.budgetGroup)] \(key) must be a whole number from 0 to "
                                     + "\(AttentionBudget.largest), not '\(raw)'")
        }
        return value
    }
}

/// Why `OffSwitchFiles.change` made no change: a key file could not be read (or parsed), or
/// the user's could not be locked or written.
package enum OffSwitchEditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A key file cannot be read or parsed (`herald mute` exits 78).
    case reading(OffSwitchFileError)
    /// The user's file (or its folder) cannot be locked, created or written (exit 73).
    case writing(OffSwitchFileError)

    /// "path: reason".
    package var description: String {
        switch self {
        case .reading(let error), .writing(let error): return error.description
        }
    }
}

/// A key file that could not be read, parsed or written.
package struct OffSwitchFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or folder) concerned.
    package var file: String
    /// What went wrong, as the key file's reader or the system says it.
    package var reason: String

    /// Creates the error.
    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    /// "path: reason".
    package var description: String { "\(file): \(reason)" }
}
