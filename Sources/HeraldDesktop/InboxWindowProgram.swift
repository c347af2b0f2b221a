import CDesktopLibraries
import FoundationEssentials
import Glibc

/// The person's inbox window, the program `herald-inbox`, as Herald's other programs find and
/// start it: installed beside `herald` (PREFIX/bin) and in PREFIX/bin for the agent in
/// PREFIX/libexec, or beside them both in a build folder.
package enum InboxWindowProgram {
    /// Where it is looked for, in order: beside the running program, then in `../bin`.
    package static var candidates: [String] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let running = length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        var folder = running.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if folder.isEmpty { folder = "." }
        return [folder + "/herald-inbox", folder + "/../bin/herald-inbox"]
    }

    /// The first candidate that can be run, or `nil`.
    package static func find() -> String? { candidates.first { access($0, X_OK) == 0 } }

    /// The sentence for a machine without it.
    package static var notInstalled: String {
        "the inbox window is not installed (no \(candidates.joined(separator: " or "))): install the herald-inbox package, or run desktop/install.sh"
    }

    /// Starts the window as a process of its own (GLib reaps it), with `extra` added to this
    /// process's environment (a click's activation token); a sentence when it cannot start.
    package static func launch(environment extra: [String: String] = [:]) -> String? {
        guard let program = find() else { return notInstalled }
        var environment = g_get_environ()
        for (name, value) in extra { environment = g_environ_setenv(environment, name, value, 1) }
        defer { g_strfreev(environment) }
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        defer { free(argv[0]) }
        var error: UnsafeMutablePointer<GError>?
        let started = argv.withUnsafeBufferPointer { argv in
            g_spawn_async(nil, UnsafeMutablePointer(mutating: argv.baseAddress), environment, GSpawnFlags(rawValue: 0), nil, nil, nil, &error)
        }
        if started != 0 { return nil }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
        g_clear_error(&error)
        return "cannot start the inbox window \(program): \(reason)"
    }
}
