import FoundationEssentials
import Glibc

/// A process that runs on this machine, as a handover names its holder: its PID alone may be
/// taken by another program once the process has gone (after a reboot, or when PIDs wrap), so
/// the process is known by its start time too, which no other process with that PID shares.
package struct RunningProcess: Sendable, Equatable {
    /// When the process started, in clock ticks after boot (`/proc/PID/stat`, field 22);
    /// `nil` when it cannot be read (no `/proc`): the PID alone says the process runs.
    package var startTime: UInt64?

    /// A process that started at `startTime`.
    package init(startTime: UInt64?) {
        self.startTime = startTime
    }

    /// The process `processID` while it runs: `nil` when there is none, or when it is a zombie
    /// (it has ended, and only waits for its parent to hear so).
    package static func find(_ processID: Int32) -> RunningProcess? {
        guard processID > 0 else { return nil }
        if let bytes = try? RegularFile.read("/proc/\(processID)/stat", limit: 4096) {
            return parse(stat: String(decoding: bytes, as: UTF8.self))
        }
        // No `/proc` to read: `kill` says whether the PID is taken, EPERM by another user's process.
        guard kill(processID, 0) == 0 || errno == EPERM else { return nil }
        return RunningProcess(startTime: nil)
    }

    /// The process `/proc/PID/stat`'s text describes, `nil` for a zombie or a dead process.
    ///
    /// The text is `PID (COMMAND) STATE …`, the command in parentheses free to hold spaces and
    /// parentheses of its own: the fields are counted after its last `)`, where the state is
    /// field 3 and the start time field 22. A text that is not such a line names a running
    /// process of unknown start time.
    package static func parse(stat text: String) -> RunningProcess? {
        guard let close = text.lastIndex(of: ")") else { return RunningProcess(startTime: nil) }
        let fields = text[text.index(after: close)...].split(separator: " ")
        if let state = fields.first, state == "Z" || state == "X" || state == "x" { return nil }
        return RunningProcess(startTime: fields.count > 19 ? UInt64(fields[19]) : nil)
    }
}

extension HeraldState.Claim {
    /// Whether the process that made the claim runs: how a program that runs no check of its
    /// own (`herald budget`, `herald inbox`, the inbox window), and a check for another
    /// process's claims, tell whether the claim may still hold.
    package var processRuns: Bool { RunningProcess.find(processID) != nil }
}
