import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldDesktop

/// `herald inbox --window`: the person's inbox in its window, herald-inbox, the program
/// installed beside this one (`InboxWindowProgram`).
enum InboxWindow {
    /// Replaces this process with the window; exits `.unavailable` saying what to install when
    /// it is not there, or why it could not start.
    static func open() throws -> Never {
        guard let program = InboxWindowProgram.find() else {
            EventReporter.complain(InboxWindowProgram.notInstalled)
            throw ExitCode(.unavailable)
        }
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        execv(program, arguments)
        EventReporter.complain("cannot start the inbox window \(program): \(String(cString: strerror(errno)))")
        throw ExitCode(.unavailable)
    }
}
