import CDesktopLibraries
import Glibc
import HeraldCore

/// Where the warnings of GLib, GIO, libsoup and libnotify go in a command-line program.
///
/// Their default writer prints `libnotify-WARNING **: 12:00:00.000: Received unknown action x`
/// with whatever bytes a D-Bus peer or a server put into it. Routed here, each message becomes
/// one line in the program's own style, `herald: libnotify warning: Received unknown action x`,
/// with control and bidi characters shown as escapes, so that nothing a peer sends can move the cursor
/// or forge a line of its own. Debug and informational messages stay hidden unless
/// `G_MESSAGES_DEBUG` asks for them, as GLib's own writer does.
package enum LibraryLog {
    /// Sends every GLib log message of this process to standard error as one line that starts
    /// with `program`. Call it once, before the libraries log anything; GLib allows one writer
    /// per process, so an app with a logger of its own should not call it.
    package static func routeToStandardError(program: String) {
        let box = Unmanaged.passRetained(Prefix(program)).toOpaque()
        g_log_set_writer_func({ level, fields, count, pointer in
            guard let pointer, let fields else { return G_LOG_WRITER_UNHANDLED }
            let program = Unmanaged<Prefix>.fromOpaque(pointer).takeUnretainedValue().text
            var domain: String?
            var message = ""
            for index in 0..<Int(count) {
                let field = fields[index]
                guard let key = field.key, let value = field.value else { continue }
                let text = field.length < 0
                    ? String(cString: value.assumingMemoryBound(to: CChar.self))
                    : String(decoding: UnsafeRawBufferPointer(start: value, count: Int(field.length)), as: UTF8.self)
                switch String(cString: key) {
                case "GLIB_DOMAIN": domain = text
                case "MESSAGE": message = text
                default: break
                }
            }
            if g_log_writer_default_would_drop(level, domain) != 0 { return G_LOG_WRITER_HANDLED }
            LibraryLog.write(LibraryLog.line(program: program, domain: domain, level: LibraryLog.name(of: level), message: message))
            return G_LOG_WRITER_HANDLED
        }, box, { pointer in
            if let pointer { Unmanaged<Prefix>.fromOpaque(pointer).release() }
        })
    }

    /// The line for one message: `program: domain level: message`, with the characters that
    /// act on a terminal escaped as every line the tool prints escapes them (`TerminalText`).
    package static func line(program: String, domain: String?, level: String, message: String) -> String {
        let source = domain.map { "\($0) \(level)" } ?? level
        return "\(program): \(TerminalText.visible(source)): \(TerminalText.visible(message))\n"
    }

    private static func name(of level: GLogLevelFlags) -> String {
        let bits = level.rawValue
        if bits & G_LOG_LEVEL_ERROR.rawValue != 0 { return "error" }
        if bits & G_LOG_LEVEL_CRITICAL.rawValue != 0 { return "critical" }
        if bits & G_LOG_LEVEL_WARNING.rawValue != 0 { return "warning" }
        if bits & G_LOG_LEVEL_MESSAGE.rawValue != 0 { return "message" }
        if bits & G_LOG_LEVEL_INFO.rawValue != 0 { return "info" }
        return "debug"
    }

    /// One `write` per line, so lines of different threads do not interleave.
    private static func write(_ line: String) {
        RegularFile.writeAll(Array(line.utf8), to: 2)
    }

    /// The program name, kept for the life of the process by GLib's writer.
    private final class Prefix {
        let text: String
        init(_ text: String) { self.text = text }
    }
}
