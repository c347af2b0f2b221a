import FoundationEssentials
import Glibc
import HeraldCore

/// An app registered for the check of every registered app: the check its registration asks
/// for, as `herald check` makes it from its arguments.
struct RegisteredApp: Sendable, Equatable {
    /// The app's id: the registration's file name without `.conf` or `.desktop`.
    let appID: String
    /// The registration: a `<app-id>.conf` key file or the app's desktop entry.
    let file: String
    /// The check's values: `line.feed` the feed's URL or absolute path, `line.appID` the id,
    /// `line.appVersion` the installed version when one is known.
    let line: CheckCommandLine
}

/// A mistake in a registration, or a file next to one that cannot be read: the app it is about
/// is left out (or, for its AppStream metainfo, checked without a version) and the others are read.
struct RegistrationProblem: Sendable, Equatable {
    /// The file the mistake is in.
    let file: String
    /// The line, from 1, when the mistake is on one.
    let line: Int?
    /// One sentence: "unknown key “Feeed”; did you mean “Feed”?".
    let description: String

    /// "/usr/share/herald/apps/org.example.App.conf:3: unknown key “Feeed”; did you mean “Feed”?"
    var text: String { file + (line.map { ":\($0)" } ?? "") + ": " + description }
}

/// The app registrations of this user's session (desktop/docs/registration.md): a key file
/// `<app-id>.conf` in `herald/apps/`, or `X-Herald-` keys in the app's desktop entry in
/// `applications/`, under `$XDG_DATA_HOME` (the user's, first) and each folder of
/// `$XDG_DATA_DIRS` (the packages'). Reading runs nothing and creates nothing.
enum AppRegistrations {
    /// The registrations' folder under a data folder.
    static let folder = "herald/apps"

    /// The user's registration of an app, which `herald autostart enable` writes:
    /// `$XDG_DATA_HOME/herald/apps/<app-id>.conf` (default `~/.local/share`).
    static func userFile(appID: String, environment: [String: String]) -> String {
        userFolder(environment: environment) + "/" + appID + ".conf"
    }

    /// The user's registrations' folder, `$XDG_DATA_HOME/herald/apps`.
    static func userFolder(environment: [String: String]) -> String {
        BaseDirectories(environment: environment).dataHome + "/" + folder
    }

    /// The app a registration file names: its name without `.conf` or `.desktop`; `nil` for
    /// another file, such as an app's metainfo.
    static func appID(ofFile file: String) -> String? {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return [".conf", ".desktop"].first { name.hasSuffix($0) }.map { String(name.dropLast($0.count)) }
    }

    /// The largest registration, desktop entry or metainfo file read, 1 MiB.
    static let sizeLimit = 1 << 20

    /// Where an app's installed version came from.
    enum VersionSource: Sendable, Equatable {
        /// The registration's own `Version`.
        case given
        /// The newest release of the app's AppStream metainfo, this file.
        case metainfo(String)
        /// Nowhere: the app is checked without a version.
        case none
    }

    /// A registered app and where its version came from.
    struct ListedApp: Sendable, Equatable {
        /// The app.
        var app: RegisteredApp
        /// Where `app.line.appVersion` came from.
        var versionSource: VersionSource
    }

    /// A registration that another, earlier in XDG order, overrides.
    struct Shadowed: Sendable, Equatable {
        /// The app's id.
        var appID: String
        /// The registration passed over.
        var file: String
        /// The registration that counts.
        var by: String
    }

    /// Everything the registrations say.
    struct Listing: Sendable, Equatable {
        /// The registered apps, by app id.
        var apps: [ListedApp] = []
        /// The registrations passed over, in XDG order.
        var shadowed: [Shadowed] = []
        /// Every problem, in XDG order.
        var problems: [RegistrationProblem] = []
    }

    /// The registered apps, sorted by app id, and the problems: an app registered twice counts
    /// where it is first in XDG order (the user's data folder first; in one folder, its `.conf`
    /// before its desktop entry).
    static func read(environment: [String: String]) -> (apps: [RegisteredApp], problems: [RegistrationProblem]) {
        let listing = list(environment: environment)
        return (listing.apps.map(\.app), listing.problems)
    }

    /// The registered apps with where their versions came from, the registrations passed over,
    /// and the problems.
    static func list(environment: [String: String]) -> Listing {
        let directories = BaseDirectories(environment: environment)
        let dataFolders = [directories.dataHome] + directories.dataDirs
        var listing = Listing()
        var first: [String: String] = [:]
        for dataFolder in dataFolders {
            for (appID, file, isDesktopEntry) in candidates(in: dataFolder) {
                if let by = first[appID] {
                    // A desktop entry counts only when it registers: most apps' entries do not.
                    if !isDesktopEntry || (try? read(file)).flatMap({ $0 }).map(isRegistration) == true {
                        listing.shadowed.append(Shadowed(appID: appID, file: file, by: by))
                    }
                    continue
                }
                let reading: RegistrationKeys.Reading
                do throws(FileError) {
                    guard let bytes = try read(file) else { continue }
                    if isDesktopEntry {
                        guard isRegistration(bytes) else { continue }
                        reading = RegistrationKeys.read(desktopEntry: bytes, appID: appID, file: file)
                    } else {
                        reading = RegistrationKeys.read(keyFile: bytes, appID: appID, file: file)
                    }
                } catch {
                    // An unrelated desktop entry that cannot be read registers nothing.
                    if isDesktopEntry { continue }
                    reading = RegistrationKeys.Reading(problems: [RegistrationProblem(file: file, line: nil, description: "cannot be read: \(error.reason)")])
                }
                first[appID] = file
                if let refusal = AppOptions.refusal(appID: appID) {
                    listing.problems.append(RegistrationProblem(file: file, line: nil, description: "its name gives no app id: \(refusal)"))
                    continue
                }
                listing.problems += reading.problems
                guard var line = reading.line else { continue }
                var source = VersionSource.given
                if line.appVersion == nil {
                    source = .none
                    switch installedVersion(appID: appID, dataFolders: dataFolders) {
                    case .found(let version, let file):
                        line.appVersion = version
                        source = .metainfo(file)
                    case .unreadable(let problem):
                        listing.problems.append(problem)
                    case .none:
                        break
                    }
                }
                listing.apps.append(ListedApp(app: RegisteredApp(appID: appID, file: file, line: line), versionSource: source))
            }
        }
        listing.apps.sort { $0.app.appID < $1.app.appID }
        return listing
    }

    /// The files of one data folder that may register an app, in the order they count: the
    /// `.conf` files of `herald/apps`, then the desktop entries of `applications`, each by name.
    private static func candidates(in dataFolder: String) -> [(appID: String, file: String, isDesktopEntry: Bool)] {
        func files(_ folder: String, _ suffix: String, _ isDesktopEntry: Bool) -> [(String, String, Bool)] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dataFolder + "/" + folder)) ?? []
            return names.filter { $0.hasSuffix(suffix) && $0.count > suffix.count }.sorted()
                .map { (String($0.dropLast(suffix.count)), dataFolder + "/" + folder + "/" + $0, isDesktopEntry) }
        }
        return files(folder, ".conf", false) + files("applications", ".desktop", true)
    }

    /// A file's bytes, `nil` when it is not there; a link is followed, as a package may link its files.
    private static func read(_ file: String) throws(FileError) -> Data? {
        try RegularFile.read(file, limit: sizeLimit, followingLinks: true)
    }

    /// Whether a desktop entry's text has the key that makes it a registration, before it is parsed.
    ///
    /// Most desktop entries of a machine are other apps', read at every run: the search goes
    /// from one `X` to the next with the C library's `memchr`, not through `Data`'s generic
    /// search, which takes some hundred instructions a byte.
    private static func isRegistration(_ bytes: Data) -> Bool {
        let key = Array(RegistrationKeys.desktopEntryPrefix.utf8)
        return bytes.withUnsafeBytes { text in
            guard let base = text.baseAddress, text.count >= key.count else { return false }
            return key.withUnsafeBytes { needle -> Bool in
                guard let needle = needle.baseAddress else { return false }
                var offset = 0
                while offset + key.count <= text.count {
                    guard let hit = memchr(base + offset, Int32(key[0]), text.count - key.count + 1 - offset) else { return false }
                    if memcmp(hit, needle, key.count) == 0 { return true }
                    offset = UnsafeRawPointer(hit) - base + 1
                }
                return false
            }
        }
    }

    /// What the app's AppStream metainfo says of its version.
    private enum InstalledVersion {
        case found(String, file: String)
        case unreadable(RegistrationProblem)
        case none
    }

    /// The newest release of the app's metainfo (`AppStreamReleases.read`), the first found in
    /// the data folders in XDG order.
    private static func installedVersion(appID: String, dataFolders: [String]) -> InstalledVersion {
        do throws(FileError) {
            guard let metainfo = try AppStreamReleases.read(appID: appID, dataFolders: dataFolders),
                  let version = AppStreamReleases.newestVersion(in: metainfo.text) else { return .none }
            return .found(version, file: metainfo.file)
        } catch {
            return .unreadable(RegistrationProblem(file: error.path, line: nil, description: "the app's version cannot be read from it: \(error.reason)"))
        }
    }
}
