import FoundationEssentials
import Glibc

/// A file two processes may edit at once: a feed being published (with its `FEED.keys` ledger
/// and `FEED.sig`), the user's `herald.conf`. Every edit is one step that no other edit of a
/// file in the same folder can interleave with: take the lock, read the file again under it,
/// decide, replace the file atomically keeping its mode, let go.
///
/// **The file the user named is edited where it really is.** A link in its place (a feed
/// published from a checkout, a `herald.conf` kept in a dotfiles repository) is resolved once,
/// when the value is made; the temporary copy is written in the real file's folder and renamed
/// over the real file, so the link stays a link and still points at the edited file.
///
/// **Companions are never followed.** Files derived from the real one (`companion(_:)`, such as
/// `FEED.keys` and `FEED.sig`) live beside the real file and are opened with `O_NOFOLLOW`: a
/// link there is refused, so an edit never reads, appends to or replaces a file outside the
/// feed's folder through one.
///
/// **The lock is the folder's.** `flock` on the real file's folder, opened read-only: no lock
/// file is left in a publisher's folder or in `~/.config/herald`, the lock cannot be a link or a
/// FIFO planted by someone else (it is the folder the file is renamed in), and one lock covers
/// a feed and its companions, so `herald feed remove` (ledger, then feed) is one step. Edits of
/// different files in one folder wait for each other, which costs nothing at the scale of a
/// person's edits. A file system whose `flock` cannot lock a folder (some network mounts) makes
/// the edit fail with a clear error rather than run unlocked.
package struct SharedFile: Sendable, Equatable {
    /// The path as the user gave it, for messages.
    package let name: String
    /// The real file: `name` with every link resolved (its folder when the file is not there yet).
    package let path: String

    /// Finds the real file behind `name`.
    ///
    /// A link that points at nothing is refused: where the new file should go is not clear.
    ///
    /// - Parameter creatingFolder: create the file's folder (readable by its owner only) when it
    ///   is missing, as a first `herald mute` must; otherwise a missing folder is an error.
    package init(_ name: String, creatingFolder: Bool = false) throws(FileError) {
        self.name = name
        // Another edit may create the file between `realpath` and `lstat` (two first mutes at
        // once): a file found there that is no link is looked for again.
        for attempt in 1...3 {
            if let real = realpath(name, nil) {
                defer { free(real) }
                path = String(cString: real)
                return
            }
            let failure = errno
            var info = stat()
            guard failure == ENOENT else { throw .unwritable(path: name, reason: RegularFile.reason(failure)) }
            guard lstat(name, &info) == 0 else { break }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                if attempt < 3 { continue }
                throw .unwritable(path: name, reason: "it kept changing while it was looked for")
            }
            throw .unwritable(path: name, reason: "it is a symbolic link to a file that is not there")
        }
        if creatingFolder { try RegularFile.makeDirectory(for: name) }
        guard let folder = realpath(RegularFile.folder(of: name), nil) else {
            throw .unreadable(path: name, reason: RegularFile.reason(errno))
        }
        defer { free(folder) }
        let base = String(cString: folder)
        path = (base == "/" ? "" : base) + "/" + name[name.index(after: name.lastIndex(of: "/")!)...]
    }

    /// The folder the real file is in, and whose lock an edit takes.
    package var folder: String { RegularFile.folder(of: path) }

    /// A file beside the real one: `FEED.keys` is `companion(".keys")`.
    package func companion(_ suffix: String) -> String { path + suffix }

    /// How long an edit waits for another edit of the same folder, 10 seconds: a person's edit
    /// takes a fraction of that, so a lock held longer is a stuck process, said as such.
    package static let lockWait = 10.0

    /// Runs `edit` holding the folder's lock; the lock is let go however `edit` ends.
    ///
    /// Everything `edit` decides from must be read inside it: what was read before may have
    /// been changed by the edit that held the lock last.
    ///
    /// - Throws: `FileError.locked` when another process holds the lock for more than
    ///   `seconds`, and what `edit` throws.
    package func withLock<Result>(waitingAtMost seconds: Double = Self.lockWait, _ edit: () throws -> Result) throws -> Result {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError.unlockable(path: folder, reason: RegularFile.reason(errno)) }
        defer { close(descriptor) }
        do throws(LockFailure) {
            try RegularFile.lockExclusively(descriptor, waitingAtMost: seconds)
        } catch .held(let holder) {
            throw FileError.locked(path: folder, holder: holder, seconds: seconds)
        } catch {
            throw FileError.unlockable(path: folder, reason: error.reason)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try edit()
    }

    /// The real file's bytes, `nil` when there is none; a FIFO, directory or device there, or a
    /// file over `limit`, is an error at once.
    package func read(limit: Int) throws(FileError) -> Data? {
        try RegularFile.read(path, limit: limit)
    }

    /// Replaces the real file with `bytes`, keeping its permissions; a new file gets `newFileMode`.
    ///
    /// - Parameter newFileMode: 0644 by default, as a published feed is readable by everyone.
    package func write(_ bytes: Data, newFileMode: mode_t = 0o644) throws(FileError) {
        try Self.replace(path, with: bytes, newFileMode: newFileMode)
    }

    /// Replaces a companion file with `bytes`, keeping its permissions; a link in its place is
    /// refused, never replaced or followed.
    package func writeCompanion(_ suffix: String, _ bytes: Data, newFileMode: mode_t = 0o644) throws(FileError) {
        let companion = companion(suffix)
        var info = stat()
        if lstat(companion, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw .unwritable(path: companion, reason: RegularFile.reason(ELOOP))
        }
        try Self.replace(companion, with: bytes, newFileMode: newFileMode)
    }

    /// Appends `text` to a companion file, creating it (with `header` first) when it is new; a
    /// link, FIFO or anything but a regular file in its place is refused.
    package func appendToCompanion(_ suffix: String, _ text: String, header: String) throws(FileError) {
        let companion = companion(suffix)
        let descriptor = open(companion, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unwritable(path: companion, reason: RegularFile.reason(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unwritable(path: companion, reason: RegularFile.reason(errno)) }
        guard RegularFile.isRegular(info) else {
            throw .unwritable(path: companion, reason: "it is \(RegularFile.kind(of: info)), not a regular file")
        }
        let bytes = Array(((info.st_size == 0 ? header : "") + text).utf8)
        guard RegularFile.writeAll(bytes, to: descriptor), fsync(descriptor) == 0 else {
            throw .unwritable(path: companion, reason: RegularFile.reason(errno))
        }
    }

    private static func replace(_ path: String, with bytes: Data, newFileMode: mode_t) throws(FileError) {
        var info = stat()
        let mode = lstat(path, &info) == 0 ? info.st_mode & 0o7777 : newFileMode
        try RegularFile.write(bytes, to: path, mode: mode)
    }
}
