import FoundationEssentials
import Glibc

/// Why the state could not be read or written. Nothing is lost: the old file stays whole.
public enum StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The app id cannot be used as a file name.
    case invalidAppID(String)
    /// A directory or file could not be created, locked or written.
    case unwritable(path: String, reason: String)
    /// The state file is there but cannot be read: no permission, or not a regular file.
    /// Herald never takes that for a first launch, which would replace the file.
    case unreadable(path: String, reason: String)
    /// The lock file cannot be opened or taken.
    case unlockable(path: String, reason: String)
    /// Another process held the lock file for longer than the wait allowed; `what` is what it
    /// guards ("the state of org.example.App"), `holder` the process when it is known.
    case locked(path: String, what: String, holder: Int32?, seconds: Double)
    /// The state file is (or would become) larger than `FileStateStore.sizeLimit`.
    case tooLarge(path: String, size: Int, limit: Int)
    /// A change would make the state file larger than `FileStateStore.sizeLimit`: it is not
    /// written, and the file stays as it was (or absent).
    case wouldBeTooLarge(path: String, size: Int, limit: Int)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .invalidAppID(let id):
            return "app id '\(id)' is not usable: use letters, digits, '.', '-' and '_' (e.g. org.example.App)"
        case .unwritable(let path, let reason): return "cannot write \(path): \(reason)"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .unlockable(let path, let reason): return "cannot lock \(path): \(reason)"
        case .locked(let path, let what, let holder, let seconds):
            return LockFailure.sentence(what, holder: holder, seconds: seconds, lockFile: path == what ? nil : path)
        case .tooLarge(let path, let size, let limit):
            return "cannot use \(path): it is \(NumberText.mebibytes(size)), more than the \(NumberText.mebibytes(limit)) a state file may hold"
        case .wouldBeTooLarge(let path, let size, let limit):
            return "cannot write \(path): it would be \(NumberText.mebibytes(size)), more than the \(NumberText.mebibytes(limit)) a state file may hold"
        }
    }

    /// A store's error as a `StateStoreError`; another store's own errors keep their text.
    public init(_ error: any Error, writing what: String) {
        self = error as? StateStoreError ?? .unwritable(path: what, reason: String(describing: error))
    }

    /// A file's error said of the state: the same case, and the state file's size limit.
    package init(_ error: FileError) {
        switch error {
        case .unreadable(let path, let reason): self = .unreadable(path: path, reason: reason)
        case .unwritable(let path, let reason): self = .unwritable(path: path, reason: reason)
        case .unlockable(let path, let reason): self = .unlockable(path: path, reason: reason)
        case .locked(let path, let holder, let seconds): self = .locked(path: path, what: path, holder: holder, seconds: seconds)
        case .tooLarge(let path, let size, let limit): self = .tooLarge(path: path, size: size, limit: limit)
        }
    }
}

/// Where Herald keeps an app's files (DESIGN.md D16), following the XDG base directories.
package struct HeraldPaths: Sendable, Equatable {
    /// The state file, `$XDG_STATE_HOME/herald/<app-id>.json`.
    package var stateFile: String
    /// The lock taken around every read-modify-write of the state.
    package var lockFile: String
    /// The cached feed, `$XDG_CACHE_HOME/herald/<app-id>.feed`.
    package var cachedFeedFile: String

    /// The app id the files are named after.
    package var appID: String {
        String(stateFile[stateFile.index(after: stateFile.lastIndex(of: "/")!)...].dropLast(".json".count))
    }

    /// The paths for an app id, from an environment (`XDG_STATE_HOME`, `XDG_CACHE_HOME`, `HOME`,
    /// as `BaseDirectories` reads them).
    package init(appID: String, environment: [String: String]) throws {
        guard Self.isValid(appID: appID) else { throw StateStoreError.invalidAppID(appID) }
        let directories = BaseDirectories(environment: environment)
        let stateDirectory = directories.stateHome + "/herald"
        let cacheDirectory = directories.cacheHome + "/herald"
        stateFile = stateDirectory + "/\(appID).json"
        lockFile = stateDirectory + "/\(appID).lock"
        cachedFeedFile = cacheDirectory + "/\(appID).feed"
    }

    /// Whether an app id is a safe file name: reverse-DNS style letters, digits, `.`, `-`, `_`.
    package static func isValid(appID: String) -> Bool {
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
    /// Reads the state as last written, without waiting for the lock: what the gate looks at
    /// before it knows whether a check is due. Whatever it decides is taken again under the
    /// lock before anything is written.
    func snapshot() throws -> HeraldState
    /// Reads the state for a question that must change nothing (`herald state`, `--explain`,
    /// `Herald.answers()`): never takes the lock, never moves a damaged file aside; `nil` for a
    /// state that does not decode, which a check would move aside and start over from.
    func inspect() throws -> HeraldState?
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

extension StateStore {
    /// The state as `load()` reads it.
    public func snapshot() throws -> HeraldState { try load() }
    /// The state as `snapshot()` reads it.
    public func inspect() throws -> HeraldState? { try snapshot() }
}

/// Reads and writes one app's `HeraldState` in files, safely between processes.
///
/// Every change is a read-modify-write under an advisory `flock`, written to a temporary file,
/// flushed with `fsync` and renamed over the old one, so the in-app hook and the autostart job
/// never lose each other's answers and a crash never leaves half a file. A file that does not
/// decode is moved aside (`.corrupt-<time>`, with `-2`, `-3`… when that name is taken) and
/// reported, and Herald starts from an empty state.
///
/// Anything else that is wrong with the files is an error that leaves them as they are: a
/// state file this user may not read, a symbolic link, FIFO, directory or device where the
/// state or lock file should be, or a state file over `sizeLimit`. Only a missing file is a
/// first launch: taking an unreadable file for one would replace the user's answers.
package final class FileStateStore: StateStore, Sendable {
    /// The largest state file read or written, 4 MiB. Real use stays far below it: answers to
    /// messages that left the feed are forgotten after `CheckPolicy.answerRetention`, so a
    /// message a day, each answered, settles at about 12 KiB however many years go by. Anything
    /// larger is damage or abuse, and reading it whole at every check would cost seconds and
    /// hundreds of MB.
    package static let sizeLimit = 4 * 1024 * 1024

    /// The largest cached feed read back, 64 MiB: far above any feed size limit an app sets,
    /// so it only stops a file that was never a feed from being read whole.
    static let cachedFeedLimit = 64 * 1024 * 1024

    /// The files this store uses.
    package let paths: HeraldPaths
    /// Called when a corrupt state file was moved aside, with its new path.
    package let onCorruptFile: (@Sendable (String) -> Void)?
    /// How long a change waits for the lock another process holds before it fails with
    /// `StateStoreError.locked`: a check's timeout, 0 for the agent, which asks again later.
    package let lockWait: Double

    /// How long a change waits for the lock when no wait is given, 10 seconds: far more than
    /// any other process's change takes, so a lock held longer is a stuck process.
    package static let defaultLockWait = 10.0

    /// Creates a store for the given paths.
    ///
    /// - Parameters:
    ///   - lockWait: the longest wait for the lock, in seconds (`defaultLockWait` by default).
    ///   - onCorruptFile: told the new path of a corrupt state file moved aside.
    package init(paths: HeraldPaths, lockWait: Double = defaultLockWait, onCorruptFile: (@Sendable (String) -> Void)? = nil) {
        self.paths = paths
        self.lockWait = lockWait
        self.onCorruptFile = onCorruptFile
    }

    /// Reads the state without changing it; a missing file is the empty state.
    ///
    /// Creates nothing for an app Herald never wrote for: every write takes the lock, so with no
    /// lock file (or no folder) there is no writer to wait for, and the file is read as
    /// `snapshot()` reads it. Only a file that does not decode then needs the lock, to be moved aside.
    package func load() throws -> HeraldState {
        var info = stat()
        if lstat(paths.lockFile, &info) != 0, errno == ENOENT, let state = try readWithoutLock() { return state }
        return try withLock { try read() }
    }

    /// Reads the state file without the lock: writers replace it by renaming a complete file
    /// over it, so a reader sees one whole version. A file that does not decode is read again
    /// under the lock, which moves it aside.
    package func snapshot() throws -> HeraldState {
        if let state = try readWithoutLock() { return state }
        return try withLock { try read() }
    }

    /// Reads the state file as it is, for a command that must change nothing: never takes the
    /// lock (so creates no file), and returns `nil` for a file that does not decode, which a
    /// check would move aside. A missing file is the empty state.
    package func inspect() throws -> HeraldState? {
        try readWithoutLock()
    }

    /// Reads, changes and writes the state as one step under the lock.
    ///
    /// - Parameter change: edits the state; its return value is passed back.
    @discardableResult
    package func update<Result>(_ change: (inout HeraldState) throws -> Result) throws -> Result {
        try withLock {
            var state = try read()
            let before = state
            let result = try change(&state)
            if state != before { try write(state) }
            return result
        }
    }

    /// Deletes the state (and the cached feed), as `herald state --reset` does.
    ///
    /// A symbolic link or FIFO in the state file's place is removed like a file (never what a
    /// link points to); a directory there is an error, for people to look at.
    package func reset() throws {
        try withLock {
            for path in [paths.stateFile, paths.cachedFeedFile] {
                guard unlink(path) == 0 || errno == ENOENT else { throw StateStoreError.unwritable(path: path, reason: RegularFile.reason(errno)) }
            }
        }
    }

    /// Whether a cached copy of the feed is on disk, as a regular file.
    package var hasCachedFeed: Bool {
        var info = stat()
        return lstat(paths.cachedFeedFile, &info) == 0 && RegularFile.isRegular(info)
    }

    /// The cached feed bytes, if any; a cache that is not a regular file counts as none.
    package func cachedFeed() -> Data? {
        try? Self.readRegularFile(paths.cachedFeedFile, limit: Self.cachedFeedLimit)
    }

    /// Replaces the cached feed atomically, unless the copy holds these bytes already (a server
    /// that sends the same feed again without a validator): then nothing is written, and a copy
    /// of another size is replaced without being read. Not flushed to disk: a copy lost or
    /// damaged by a crash is noticed when it is read and fetched again, so it is not worth an fsync.
    package func storeCachedFeed(_ bytes: Data) throws {
        var info = stat()
        if lstat(paths.cachedFeedFile, &info) == 0, RegularFile.isRegular(info), Int(info.st_size) == bytes.count, cachedFeed() == bytes { return }
        try Self.writeFileAtomically(bytes, to: paths.cachedFeedFile, durable: false)
    }

    // MARK: - Files

    private func withLock<Result>(_ body: () throws -> Result) throws -> Result {
        try Self.locked(by: paths.lockFile, guarding: "the state of \(paths.appID)", waitingAtMost: lockWait, body)
    }

    /// Runs `body` holding the lock file `lockFile` (created, mode 0600, never through a link):
    /// the lock of every read-modify-write of a file Herald keeps for the user.
    ///
    /// - Parameters:
    ///   - what: what the lock guards, for the error when it is held too long.
    ///   - seconds: the longest wait for a lock another process holds.
    /// - Throws: `StateStoreError.locked` when another process holds the lock past `seconds`.
    package static func locked<Result>(by lockFile: String, guarding what: String, waitingAtMost seconds: Double,
                                       _ body: () throws -> Result) throws -> Result {
        // O_NOFOLLOW: a link planted in the lock's place must not make Herald create or lock a
        // file elsewhere; O_NONBLOCK: a FIFO there must not hang the open.
        let descriptor: Int32
        do throws(FileError) {
            descriptor = try RegularFile.create(lockFile, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode: 0o600)
        } catch {
            throw StateStoreError(error)
        }
        guard descriptor >= 0 else { throw StateStoreError.unlockable(path: lockFile, reason: RegularFile.reason(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw StateStoreError.unlockable(path: lockFile, reason: RegularFile.reason(errno)) }
        guard RegularFile.isRegular(info) else {
            throw StateStoreError.unlockable(path: lockFile, reason: "it is \(RegularFile.kind(of: info)), not a regular file")
        }
        do throws(LockFailure) {
            try RegularFile.lockExclusively(descriptor, waitingAtMost: seconds)
        } catch .held(let holder) {
            throw StateStoreError.locked(path: lockFile, what: what, holder: holder, seconds: seconds)
        } catch {
            throw StateStoreError.unlockable(path: lockFile, reason: error.reason)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// The state file as it is, without the lock: the empty state when there is none, `nil`
    /// when it does not decode.
    private func readWithoutLock() throws -> HeraldState? {
        guard let bytes = try Self.readRegularFile(paths.stateFile, limit: Self.sizeLimit) else { return HeraldState() }
        return StateFileFormat.decode(bytes)
    }

    private func read() throws -> HeraldState {
        guard let bytes = try Self.readRegularFile(paths.stateFile, limit: Self.sizeLimit) else { return HeraldState() }
        if let state = StateFileFormat.decode(bytes) { return state }
        let aside = try moveAside(paths.stateFile)
        onCorruptFile?(aside)
        return HeraldState()
    }

    /// Renames a corrupt file to a name no other copy has: two corrupt files moved aside in the
    /// same second must not overwrite each other's copy. The name is reserved with `O_EXCL`
    /// first, so this holds across processes too.
    private func moveAside(_ path: String) throws -> String {
        let stem = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        for attempt in 1...1000 {
            let candidate = attempt == 1 ? stem : stem + "-\(attempt)"
            let placeholder = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if placeholder < 0 {
                if errno == EEXIST { continue }
                throw StateStoreError.unwritable(path: candidate, reason: RegularFile.reason(errno))
            }
            close(placeholder)
            guard rename(path, candidate) == 0 else {
                let failure = StateStoreError.unwritable(path: path, reason: RegularFile.reason(errno))
                unlink(candidate)
                throw failure
            }
            return candidate
        }
        throw StateStoreError.unwritable(path: stem, reason: "a thousand corrupt copies from this second are already there")
    }

    private func write(_ state: HeraldState) throws {
        let bytes = try StateFileFormat.encode(state)
        // A file that could not be read back would lock the user out: refuse it, keep the old one.
        guard bytes.count <= Self.sizeLimit else {
            throw StateStoreError.wouldBeTooLarge(path: paths.stateFile, size: bytes.count, limit: Self.sizeLimit)
        }
        try Self.writeFileAtomically(bytes, to: paths.stateFile)
    }

    /// Reads a regular file as `RegularFile.read` does, with its errors said of the state.
    static func readRegularFile(_ path: String, limit: Int) throws -> Data? {
        do throws(FileError) { return try RegularFile.read(path, limit: limit) } catch { throw StateStoreError(error) }
    }

    /// Replaces a file as `RegularFile.write` does, with its errors said of the state.
    static func writeFileAtomically(_ bytes: Data, to path: String, durable: Bool = true) throws {
        do throws(FileError) { try RegularFile.write(bytes, to: path, durable: durable) } catch { throw StateStoreError(error) }
    }

}
