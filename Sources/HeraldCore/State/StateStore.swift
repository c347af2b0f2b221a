import FoundationEssentials
import Glibc

/// Why the state could not be read or written. Nothing is lost: the old file stays whole.
public enum StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The app id cannot be used as a file name.
    case invalidAppID(String)
    /// A directory or file could not be created, locked or written.
    case unwritable(path: String, reason: String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .invalidAppID(let id):
            return "app id '\(id)' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)"
        case .unwritable(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }

    /// A store's error as a `StateStoreError`; another store's own errors keep their text.
    public init(_ error: any Error, writing what: String) {
        self = error as? StateStoreError ?? .unwritable(path: what, reason: String(describing: error))
    }
}

/// Where Herald keeps an app's files (DESIGN.md D16), following the XDG base directories.
public struct HeraldPaths: Sendable, Equatable {
    /// The state file, `$XDG_STATE_HOME/herald/<app-id>.json`.
    public var stateFile: String
    /// The lock taken around every read-modify-write of the state.
    public var lockFile: String
    /// The cached feed, `$XDG_CACHE_HOME/herald/<app-id>.feed`.
    public var cachedFeedFile: String

    /// The paths for an app id, from an environment (`XDG_STATE_HOME`, `XDG_CACHE_HOME`, `HOME`).
    public init(appID: String, environment: [String: String]) throws {
        guard Self.isValid(appID: appID) else { throw StateStoreError.invalidAppID(appID) }
        let home = environment["HOME"] ?? "/"
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        let stateDirectory = base("XDG_STATE_HOME", ".local/state") + "/herald"
        let cacheDirectory = base("XDG_CACHE_HOME", ".cache") + "/herald"
        stateFile = stateDirectory + "/\(appID).json"
        lockFile = stateDirectory + "/\(appID).lock"
        cachedFeedFile = cacheDirectory + "/\(appID).feed"
    }

    /// Whether an app id is a safe file name: reverse-DNS style letters, digits, `.`, `-`, `_`.
    public static func isValid(appID: String) -> Bool {
        guard let first = appID.first, first != ".", appID.count <= 200 else { return false }
        return appID.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
}

/// Where Herald keeps an app's state and the cached copy of its feed.
///
/// Herald reads and changes the state only through `update`, one locked read-modify-write
/// per step of a check; `FileStateStore` is the real one, and an in-memory store stands in
/// for it in tests.
public protocol StateStore: AnyObject {
    /// Reads the state without changing it; nothing stored yet is the empty state.
    func load() throws -> HeraldState
    /// Reads, changes and writes the state as one step that no other process or check can
    /// interleave with; writes nothing when `change` leaves the state as it was.
    ///
    /// - Parameter change: edits the state; its return value is passed back.
    func update<Result>(_ change: (inout HeraldState) throws -> Result) throws -> Result
    /// Forgets the state and the cached feed.
    func reset() throws
    /// Whether a cached copy of the feed is kept.
    var hasCachedFeed: Bool { get }
    /// The cached feed bytes, if any.
    func cachedFeed() -> Data?
    /// Replaces the cached feed.
    func storeCachedFeed(_ bytes: Data) throws
}

/// Reads and writes one app's `HeraldState` in files, safely between processes.
///
/// Every change is a read-modify-write under an advisory `flock`, written to a temporary file,
/// flushed with `fsync` and renamed over the old one, so the in-app hook and the autostart job
/// never lose each other's answers and a crash never leaves half a file. A file that cannot be
/// read is moved aside (`.corrupt-<time>`) and reported, and Herald starts from an empty state.
public final class FileStateStore: StateStore, Sendable {
    /// The files this store uses.
    public let paths: HeraldPaths
    /// Called when a corrupt state file was moved aside, with its new path.
    public let onCorruptFile: (@Sendable (String) -> Void)?

    /// Creates a store for the given paths.
    ///
    /// - Parameter onCorruptFile: told the new path of a corrupt state file moved aside.
    public init(paths: HeraldPaths, onCorruptFile: (@Sendable (String) -> Void)? = nil) {
        self.paths = paths
        self.onCorruptFile = onCorruptFile
    }

    /// Reads the state without changing it; a missing file is the empty state.
    public func load() throws -> HeraldState {
        try withLock { try read() }
    }

    /// Reads, changes and writes the state as one step under the lock.
    ///
    /// - Parameter change: edits the state; its return value is passed back.
    @discardableResult
    public func update<Result>(_ change: (inout HeraldState) throws -> Result) throws -> Result {
        try withLock {
            var state = try read()
            let before = state
            let result = try change(&state)
            if state != before { try write(state) }
            return result
        }
    }

    /// Deletes the state (and the cached feed), as `herald state --reset` does.
    public func reset() throws {
        try withLock {
            unlink(paths.stateFile)
            unlink(paths.cachedFeedFile)
        }
    }

    /// Whether a cached copy of the feed is on disk.
    public var hasCachedFeed: Bool { access(paths.cachedFeedFile, R_OK) == 0 }

    /// The cached feed bytes, if any.
    public func cachedFeed() -> Data? {
        try? Data(contentsOf: URL(fileURLWithPath: paths.cachedFeedFile))
    }

    /// Replaces the cached feed atomically.
    public func storeCachedFeed(_ bytes: Data) throws {
        try Self.writeFileAtomically(bytes, to: paths.cachedFeedFile)
    }

    // MARK: - Files

    private func withLock<Result>(_ body: () throws -> Result) throws -> Result {
        try Self.makeDirectory(for: paths.lockFile)
        let descriptor = open(paths.lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(paths.lockFile) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.failure(paths.lockFile) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func read() throws -> HeraldState {
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: paths.stateFile)) else {
            return HeraldState()
        }
        do {
            return try Self.decoder.decode(HeraldState.self, from: bytes)
        } catch {
            let aside = paths.stateFile + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            guard rename(paths.stateFile, aside) == 0 else { throw Self.failure(paths.stateFile) }
            onCorruptFile?(aside)
            return HeraldState()
        }
    }

    private func write(_ state: HeraldState) throws {
        try Self.writeFileAtomically(try Self.encoder.encode(state), to: paths.stateFile)
    }

    /// Writes a file atomically (temporary file, fsync, rename), creating its directory.
    public static func writeFileAtomically(_ bytes: Data, to path: String) throws {
        try makeDirectory(for: path)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(temporary) }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 { if errno == EINTR { continue }; return false }
                written += count
            }
            return fsync(descriptor) == 0
        }
        let writeError = ok ? nil : failure(temporary)
        close(descriptor)
        if let writeError { unlink(temporary); throw writeError }
        guard rename(temporary, path) == 0 else {
            let renameError = failure(path)
            unlink(temporary)
            throw renameError
        }
        let directory = open(String(path[..<path.lastIndex(of: "/")!]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { fsync(directory); close(directory) }
    }

    static func makeDirectory(for file: String) throws {
        let directory = String(file[..<file.lastIndex(of: "/")!])
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST { throw failure(path) }
        }
    }

    static func failure(_ path: String) -> StateStoreError {
        .unwritable(path: path, reason: String(cString: strerror(errno)))
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
