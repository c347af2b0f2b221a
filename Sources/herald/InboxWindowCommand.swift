import ArgumentParser
import FoundationEssentials
import Glibc

/// `herald inbox --window`: the person's inbox in its window, herald-inbox, the program
/// installed beside this one (as the herald-inbox package and desktop/install.sh install it).
enum InboxWindow {
    /// The inbox window's program: herald-inbox in the folder of the running herald.
    static var program: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let herald = length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let folder = herald.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/herald-inbox"
    }

    /// Replaces this process with the window; exits `.unavailable` saying what to install when
    /// it is not there, or why it could not start.
    static func open() throws -> Never {
        let program = program
        guard access(program, X_OK) == 0 else {
            EventReporter.complain("the inbox window is not installed (no \(program)): install the herald-inbox package, "
                                   + "or run desktop/install.sh")
            throw ExitCode(.unavailable)
        }
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        execv(program, arguments)
        EventReporter.complain("cannot start the inbox window \(program): \(String(cString: strerror(errno)))")
        throw ExitCode(.unavailable)
    }
}
