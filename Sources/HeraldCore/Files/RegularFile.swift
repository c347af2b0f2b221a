import FoundationEssentials
import Glibc
import Synchronization

/// Why a file could not be read, written or locked. The file stays as it was.
package enum FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is there but cannot be read: no permission, a link where none is followed, or
    /// not a regular file (a FIFO, a directory, a device).
    case unreadable(path: String, reason: String)
    /// The file, its folder or its temporary copy cannot be created or written.
    case unwritable(path: String, reason: String)
    /// The lock around an edit cannot be taken.
    case unlockable(path: String, reason: String)
    /// Another process held the lock for longer than the wait allowed.
    case locked(path: String, holder: Int32?, seconds: Double)
    /// The file is larger than its reader takes.
    case tooLarge(path: String, size: Int, limit: Int)

    /// The file concerned.
    package var path: String {
        switch self {
        case .unreadable(let path, _), .unwritable(let path, _), .unlockable(let path, _), .locked(let path, _, _), .tooLarge(let path, _, _):
            return path
        }
    }

    /// What is wrong, as the end of a sentence about the file.
    package var reason: String {
        switch self {
        case .unreadable(_, let reason), .unwritable(_, let reason), .unlockable(_, let reason): return reason
        case .locked(_, let holder, let seconds): return LockFailure.heldReason(holder: holder, seconds: seconds)
        case .tooLarge(_, let size, let limit):
            return "it is \(NumberText.mebibytes(size)), more than the \(NumberText.mebibytes(limit)) Herald reads of such a file"
        }
    }

    /// One sentence for people.
    package var description: String {
        switch self {
        case .unreadable: return "cannot read \(path): \(reason)"
        case .unwritable: return "cannot write \(path): \(reason)"
        case .unlockable: return "cannot lock \(path): \(reason)"
        case .locked(_, let holder, let seconds): return LockFailure.sentence(path, holder: holder, seconds: seconds)
        case .tooLarge: return "cannot use \(path): \(reason)"
        }
    }
}

/// Why `RegularFile.lockExclusively` did not take a lock.
package enum LockFailure: Error, Sendable, Equatable {
    /// Another process still held it when the wait was over: `holder` when `/proc/locks` names it.
    case held(holder: Int32?)
    /// The wait was cut short by `RegularFile.stopWaitingForLocks()`: the process is ending.
    case stopped(holder: Int32?)
    /// The file system cannot lock the file, for this reason.
    case unsupported(String)

    /// The sentence said of a lock another process held too long: "the state of org.example.App
    /// is locked by another process (pid 4242) for more than 2 s (lock file …); try again once
    /// that process has finished, or end it", `what` being what the lock guards.
    package static func sentence(_ what: String, holder: Int32?, seconds: Double, lockFile: String? = nil) -> String {
        "\(what) is locked by another process\(holder.map { " (pid \($0))" } ?? "") for more than \(NumberText.oneDecimal(seconds)) s"
            + (lockFile.map { " (lock file \($0))" } ?? "") + "; try again once that process has finished, or end it"
    }

    /// Why a lock was not taken, as the end of a sentence about its file (`unlockable`'s reason).
    package var reason: String {
        switch self {
        case .held(let holder): return Self.heldReason(holder: holder, seconds: nil)
        case .stopped(let holder):
            return "the process stopped waiting for it as it ends, while another process\(holder.map { " (pid \($0))" } ?? "") held it"
        case .unsupported(let reason): return reason
        }
    }

    /// "another process (pid 4242) has held its lock for more than 2 s".
    static func heldReason(holder: Int32?, seconds: Double?) -> String {
        "another process\(holder.map { " (pid \($0))" } ?? "") has held its lock" + (seconds.map { " for more than \(NumberText.oneDecimal($0)) s" } ?? "")
    }
}

/// How Herald reads and replaces whole files: never waiting on a FIFO or a device, never
/// reading more than a limit, and replacing a file in one step (temporary file, fsync, rename),
/// so a reader sees the old version or the new one, never half of one.
package enum RegularFile {
    /// Reads a regular file whole; `nil` when there is no file.
    ///
    /// The file is opened with `O_NONBLOCK`, so a FIFO in its place is an error at once instead
    /// of a wait for a writer that may never come; anything but a regular file is refused.
    ///
    /// - Parameters:
    ///   - limit: larger files are refused, before they are read when `fstat` says so.
    ///   - followingLinks: whether a symbolic link in the file's place is followed (a file the
    ///     user named, such as a `herald.conf` kept in a dotfiles checkout) or refused (Herald's
    ///     own files, and companions such as `FEED.keys`).
    package static func read(_ path: String, limit: Int, followingLinks: Bool = false) throws(FileError) -> Data? {
        guard let opened = try open(path, limit: limit, followingLinks: followingLinks) else { return nil }
        let (descriptor, info) = opened
        defer { close(descriptor) }
        // Read to the end, not to st_size: a file that grew since fstat is caught at limit + 1.
        // The buffer holds the size fstat gave and one byte more (the end, seen by the second
        // read), at least 4 KiB (a file that grew from nothing is not read byte by byte) and at
        // most 64 KiB, and is not cleared first: `read` fills what is used of it.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(Int(info.st_size), 4096), 64 * 1024) + 1, alignment: 1)
        defer { chunk.deallocate() }
        var bytes = Data(capacity: min(max(Int(info.st_size), 0), limit) + 1)
        while bytes.count <= limit {
            let got = Glibc.read(descriptor, chunk.baseAddress!, chunk.count)
            if got < 0 { if errno == EINTR { continue }; throw .unreadable(path: path, reason: reason(errno)) }
            if got == 0 { return bytes }
            bytes.append(chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), count: got)
        }
        throw .tooLarge(path: path, size: bytes.count, limit: limit)
    }

    /// Says why `read` would refuse the file, without reading it: for a command that checks its
    /// argument before it starts. No file is an error here too.
    package static func requireReadable(_ path: String, limit: Int, followingLinks: Bool = false) throws(FileError) {
        guard let opened = try open(path, limit: limit, followingLinks: followingLinks) else {
            throw .unreadable(path: path, reason: reason(ENOENT))
        }
        close(opened.0)
    }

    /// The file opened for reading without blocking, and its `fstat`, once it is known to be a
    /// regular file within `limit`; `nil` when there is no file.
    private static func open(_ path: String, limit: Int, followingLinks: Bool) throws(FileError) -> (Int32, stat)? {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: reason(errno))
        }
        var info = stat()
        let failure: FileError? = if fstat(descriptor, &info) != 0 {
            .unreadable(path: path, reason: reason(errno))
        } else if !isRegular(info) {
            .unreadable(path: path, reason: "it is \(kind(of: info)), not a regular file")
        } else if Int(info.st_size) > limit {
            .tooLarge(path: path, size: Int(info.st_size), limit: limit)
        } else {
            nil
        }
        if let failure { close(descriptor); throw failure }
        return (descriptor, info)
    }

    /// Replaces a file atomically (temporary file, fsync, rename), creating its folder when it is
    /// missing (`create`): every
    /// file Herald writes whole is written here, with the mode its caller gives.
    ///
    /// The temporary file is `<path>.tmp-<pid>` in the file's own folder (a rename never crosses
    /// folders), created afresh (never through a link planted in its place); those left by
    /// writers that were killed are removed after the rename. A link at `path` itself is
    /// replaced by the file: callers that must keep a link resolve it first (`SharedFile`).
    ///
    /// - Parameters:
    ///   - path: an absolute path.
    ///   - durable: flush the file and its folder to disk (`fsync`) before and after the
    ///     rename; without it, the rename is still atomic but a crash may lose the new version.
    ///   - mode: the new file's permissions, set before the rename so that the file is never
    ///     seen with others; 0600 when not given.
    ///   - replacing: `false` to refuse (`EEXIST`) when anything is at `path` already, a
    ///     dangling link included: the file is then put in place with `link`, which never
    ///     replaces, instead of `rename`.
    package static func write(_ bytes: Data, to path: String, durable: Bool = true, mode: mode_t = 0o600, replacing: Bool = true) throws(FileError) {
        let temporary = path + ".tmp-\(getpid())"
        var descriptor = try create(temporary, O_WRONLY | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o600)
        if descriptor < 0, errno == EEXIST {
            // Named after this process: left by an earlier process that had the same id.
            unlink(temporary)
            descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw .unwritable(path: path, reason: reason(errno)) }
        // fchmod even for 0600: the process's umask narrowed the mode `open` was given.
        let ok = writeAll(bytes, to: descriptor) && fchmod(descriptor, mode) == 0 && (!durable || fsync(descriptor) == 0)
        var writeError: FileError? = ok ? nil : .unwritable(path: path, reason: reason(errno))
        // close can report a delayed write error (NFS, a full disk): then there is no rename either.
        if close(descriptor) != 0, writeError == nil { writeError = .unwritable(path: path, reason: reason(errno)) }
        if let writeError { unlink(temporary); throw writeError }
        guard replacing ? rename(temporary, path) == 0 : link(temporary, path) == 0 else {
            let renameError = FileError.unwritable(path: path, reason: reason(errno))
            unlink(temporary)
            throw renameError
        }
        if !replacing { unlink(temporary) }
        if durable {
            let handle = Glibc.open(folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if handle >= 0 { fsync(handle); close(handle) }
        }
        removeStaleTemporaries(of: path)
    }

    /// Takes `flock`'s exclusive lock on an open descriptor, waiting at most `seconds` for it:
    /// every lock Herald takes is taken here, and none is waited on forever. The lock is asked
    /// for without blocking (`LOCK_NB`) and asked again after a short sleep until it is taken,
    /// the time is up, or `stopWaitingForLocks()` was called (a stop signal), so a stuck process
    /// that holds it costs a bounded wait and a signal is heard at once.
    ///
    /// - Parameter seconds: 0 asks once and never sleeps.
    /// - Throws: `LockFailure.held` when the lock is still held at the end of the wait,
    ///   `.stopped` when the wait was stopped, `.unsupported` when the file system cannot lock
    ///   the file.
    package static func lockExclusively(_ descriptor: Int32, waitingAtMost seconds: Double) throws(LockFailure) {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let start = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9
        var pause = 0.005
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else { throw .unsupported(reason(errno)) }
            clock_gettime(CLOCK_MONOTONIC, &clock)
            let waited = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9 - start
            if lockWaitsStopped.withLock({ $0 }) { throw .stopped(holder: lockHolder(of: descriptor)) }
            guard waited < seconds else { throw .held(holder: lockHolder(of: descriptor)) }
            // From 5 ms, doubling up to 50 ms: a lock held for an instant is taken at once, a
            // longer wait costs twenty wake-ups a second.
            var request = timespec(tv_sec: 0, tv_nsec: Int(min(pause, seconds - waited) * 1e9))
            pause = min(pause * 2, 0.05)
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
        }
    }

    /// Makes every lock wait of this process, now and later, give up at once: a process asked
    /// to stop must not wait for a lock that a stuck process holds. Safe from any thread.
    package static func stopWaitingForLocks() {
        lockWaitsStopped.withLock { $0 = true }
    }

    private static let lockWaitsStopped = Mutex(false)

    /// The process holding `flock`'s lock on the file open at `descriptor`, as `/proc/locks`
    /// names it; `nil` when it is not known (no `/proc`, or a process outside this one's PID
    /// namespace, which the kernel names 0).
    static func lockHolder(of descriptor: Int32) -> Int32? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, let table = try? read("/proc/locks", limit: 1 << 22, followingLinks: true) else { return nil }
        let device = (major: (info.st_dev >> 8) & 0xfff | (info.st_dev >> 32) & ~0xfff, minor: info.st_dev & 0xff | (info.st_dev >> 12) & ~0xff)
        return lockHolder(in: String(decoding: table, as: UTF8.self), device: (UInt64(device.major), UInt64(device.minor)), inode: UInt64(info.st_ino))
    }

    /// The holder of an `flock` lock on a file in `/proc/locks`'s text: each line
    /// `N: FLOCK  ADVISORY  WRITE <pid> <major>:<minor>:<inode> 0 EOF`, the device's numbers in
    /// hexadecimal; a line with `->` is a process waiting for the lock, not holding it.
    package static func lockHolder(in table: String, device: (major: UInt64, minor: UInt64), inode: UInt64) -> Int32? {
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[0], radix: 16) == device.major, UInt64(file[1], radix: 16) == device.minor,
                  UInt64(file[2]) == inode, let pid = Int32(fields[4]), pid > 0 else { continue }
            return pid
        }
        return nil
    }

    /// Writes all of `bytes` to a descriptor, writing again after a short write or a signal
    /// (`EINTR`): every write to a descriptor goes through here. `false`, with `errno` set,
    /// when a write fails.
    @discardableResult
    package static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer -> Bool in
            var written = 0
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 { if errno == EINTR { continue }; return false }
                written += count
            }
            return true
        }
    }

    /// Removes `<path>.tmp-<pid>` files whose process is gone: what a writer killed between
    /// creating its temporary file and renaming it leaves behind. A live process's file stays,
    /// whoever it belongs to (`kill` answering EPERM is a live process too).
    static func removeStaleTemporaries(of path: String) {
        let slash = path.lastIndex(of: "/")!
        let prefix = String(path[path.index(after: slash)...]) + ".tmp-"
        guard let stream = opendir(folder(of: path)) else { return }
        defer { closedir(stream) }
        var stale: [String] = []
        while let entry = readdir(stream) {
            // Read in place, up to its NUL: readdir's entry is only as long as its name, so a
            // copy of the whole d_name array would read past it.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { array in
                array.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: array.pointee)) { String(cString: $0) }
            }
            guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { stale.append(name) }
        }
        for name in stale { unlinkat(dirfd(stream), name, 0) }
    }

    /// Opens `path` with `flags` and `O_CREAT`, creating the folders above it (readable by their
    /// owner only) when the open finds one missing, then opening it once more: every file Herald
    /// creates in a folder it may have to make is created here. Nearly every file finds its
    /// folder there, so the folders are looked at only when one is not.
    ///
    /// - Returns: the descriptor, or -1 with `errno` set, as `open` returns them.
    /// - Throws: `FileError.unwritable` naming the folder that cannot be made, when one is
    ///   missing (`ENOENT`) or something else is in its place (`ENOTDIR`).
    package static func create(_ path: String, _ flags: Int32, mode: mode_t) throws(FileError) -> Int32 {
        let descriptor = Glibc.open(path, flags | O_CREAT, mode)
        guard descriptor < 0, errno == ENOENT || errno == ENOTDIR else { return descriptor }
        try makeDirectory(for: path)
        return Glibc.open(path, flags | O_CREAT, mode)
    }

    /// Creates the folders above `file` that are missing, readable by their owner only.
    package static func makeDirectory(for file: String) throws(FileError) {
        var path = ""
        for component in folder(of: file).split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST { throw .unwritable(path: path, reason: reason(errno)) }
        }
    }

    /// A path made absolute against the working folder; an absolute one is kept as it is.
    package static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The folder holding an absolute path: "/a/b" for "/a/b/c", "/" for "/c".
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// An `errno` as the end of a sentence; the two that `O_NOFOLLOW` and a directory give are
    /// said in words, since "Too many levels of symbolic links" would mislead.
    package static func reason(_ number: Int32) -> String {
        switch number {
        case ELOOP: return "it is a symbolic link, which Herald does not follow for its own files"
        case EISDIR: return "it is a directory, not a regular file"
        default: return String(cString: strerror(number))
        }
    }

    /// Whether `fstat` or `lstat` describes a regular file.
    package static func isRegular(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }

    /// What a file that is not a regular file is, for an error message.
    package static func kind(of info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFLNK: return "a symbolic link"
        default: return "of an unknown kind"
        }
    }
}
