import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Child processes that all wait at one gate and are let through at the same instant, for tests
/// of what happens when several processes do the same thing at once.
///
/// Every participant runs `/bin/sh -c 'read -r _ || true; exec "$0" "$@"' EXECUTABLE ARGUMENTS…`
/// with the read end of one pipe as its standard input. Nothing is ever written into the pipe, so
/// each shell sleeps in `read` until `release()` closes the only write end: the kernel then wakes
/// every reader together with end-of-file and each shell becomes the real program with `exec`.
/// The cost of starting a process (fork, exec, the shell's own start-up) is paid before the gate,
/// so the participants differ only by how the scheduler orders them after it.
///
/// ```swift
/// let barrier = try ProcessBarrier()
/// let checks = try (0..<10).map { index in
///     try barrier.start(TestPaths.herald, arguments, environment: session.environment,
///                       directory: session.directory, name: "check-\(index)")
/// }
/// try barrier.release()
/// ```
///
/// Linux only: whether a participant waits at the gate is read from `/proc/PID/wchan`.
public final class ProcessBarrier {
    /// The participants, in the order they were started.
    public private(set) var participants: [ChildProcess] = []
    /// The moment just before `release()` opened the gate; `nil` before.
    public private(set) var releasedAt: Date?

    /// The pipe's read end: every participant's standard input, and the source of each `ReleaseSignal`.
    private let waitingRoom: FileHandle
    /// The pipe's only write end; closing it is the release.
    private var gate: FileHandle?

    /// Creates a closed gate with no participants yet.
    public init() throws {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec, or every child (and every helper the test runs later) would inherit a
        // write end and the pipe would never reach end-of-file. The read end still reaches the
        // participants: it is duplicated onto their standard input, which clears the flag.
        // (Glibc's module does not export pipe2; tests start processes from one thread, so
        // nothing can be spawned between pipe and fcntl.)
        guard pipe(&ends) == 0 else {
            throw TestSetupError("cannot create the barrier's pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        waitingRoom = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        gate = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }

    deinit {
        // Stopped before the gate opens, so that an abandoned barrier lets nobody through.
        for participant in participants { participant.stop() }
        try? gate?.close()
    }

    /// Starts a participant that waits at the gate, then runs `executable` with `arguments`.
    ///
    /// Its output goes to files in `directory`, named after `name`, as with `ChildProcess`.
    /// - Returns: the participant; its process is the shell until the release, then `executable`.
    @discardableResult
    public func start(_ executable: String, _ arguments: [String], environment: [String: String],
                      directory: URL, name: String) throws -> ChildProcess {
        guard gate != nil else { throw TestSetupError("the barrier was already released; \(name) would not wait") }
        let participant = try ChildProcess("/bin/sh", ["-c", #"read -r _ || true; exec "$0" "$@""#, executable] + arguments,
                                           environment: environment, directory: directory, name: name,
                                           standardInput: waitingRoom)
        participants.append(participant)
        return participant
    }

    /// Whether every participant is asleep in its `read` of the pipe.
    ///
    /// A started process is not yet a waiting one: until its shell reaches `read`, it is still
    /// starting, and releasing then would let it through late by its start-up time.
    public var everyoneWaits: Bool {
        participants.allSatisfy { Self.sleepsInPipeRead($0.process.processIdentifier) }
    }

    /// Waits until every participant sleeps at the gate, then opens it for all at once.
    ///
    /// - Parameter seconds: how long the participants may take to reach the gate.
    /// - Returns: the moment just before the gate opened, so no participant starts earlier (also
    ///   kept in `releasedAt`).
    /// - Throws: `TestSetupError` if a participant exited or did not reach the gate in time; the
    ///   gate then stays closed.
    @discardableResult
    public func release(within seconds: Double = 10) throws -> Date {
        guard let gate else { throw TestSetupError("the barrier was already released") }
        guard eventually(within: seconds, { everyoneWaits || participants.contains { !$0.process.isRunning } }),
              everyoneWaits else {
            let states = participants.map { "\($0.process.processIdentifier): \(Self.describe($0))" }
            throw TestSetupError("not every participant reached the barrier: \(states.joined(separator: "; "))")
        }
        // Read before the gate opens: once it is open, this thread may be preempted by the participants.
        let now = Date()
        try gate.close()
        self.gate = nil
        releasedAt = now
        return now
    }

    /// A way for code in the test process to start together with the participants: its own
    /// descriptor of the pipe, which reaches end-of-file when the gate opens. Take it before
    /// `release()` and hand it to another thread; it stays valid after the barrier is gone.
    public func releaseSignal() throws -> ReleaseSignal {
        let descriptor = dup(waitingRoom.fileDescriptor)
        guard descriptor >= 0 else { throw TestSetupError("cannot duplicate the barrier's pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return ReleaseSignal(descriptor: descriptor)
    }

    /// Whether a process sleeps reading a pipe: "pipe_read" on older kernels, "anon_pipe_read" on newer.
    private static func sleepsInPipeRead(_ pid: Int32) -> Bool {
        guard let wchan = try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8) else { return false }
        return wchan.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("pipe_read")
    }

    private static func describe(_ participant: ChildProcess) -> String {
        guard participant.process.isRunning else {
            return "exited with \(participant.process.terminationStatus): \(participant.errorOutput)"
        }
        let wchan = (try? String(contentsOfFile: "/proc/\(participant.process.processIdentifier)/wchan", encoding: .utf8)) ?? "?"
        return "in '\(wchan)', not yet reading the pipe"
    }
}

/// The release of a `ProcessBarrier` as seen from inside the test process.
///
/// Safe to share between threads: it only reads its own descriptor, which nothing ever writes to.
public final class ReleaseSignal: Sendable {
    /// A read end of the barrier's pipe: readable, with end-of-file, from the release on. Watch it
    /// with `poll(2)` or a GLib source to start on a main loop; do not close it.
    public let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Blocks the calling thread until the gate opens; returns at once after the release.
    public func wait() {
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count == 0 || (count < 0 && errno != EINTR) { return }
        }
    }
}
