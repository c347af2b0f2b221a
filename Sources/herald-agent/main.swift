import Glibc
import Herald
import HeraldCore
import HeraldDesktop

// `herald-agent`: the session's Herald agent (`Agent`, DESIGN.md D23), which D-Bus starts by its
// name `org.herald.Agent` (org.herald.Agent.service); it is not run by hand. It takes no
// arguments but the tests' `--idle-exit SECONDS` (how long it stays with nothing held; 10 by
// default). Exit statuses, sysexits.h's as `herald`'s (`ExitStatus`): `EX_OK` done, `EX_USAGE` usage,
// `EX_UNAVAILABLE` no session bus, or another process owns the name.

/// Writes one line on standard error, as `herald-agent: message`, with the characters that act
/// on a terminal escaped.
func complain(_ message: String) {
    _ = RegularFile.writeAll(Array("herald-agent: \(TerminalText.visible(message))\n".utf8), to: 2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let idleSeconds: Double? = switch arguments.count {
case 0: 10
case 2 where arguments[0] == "--idle-exit": Double(arguments[1]).map { max(0.1, $0) }
default: nil
}
guard let idleSeconds else {
    complain("takes no arguments: D-Bus starts it as the service org.herald.Agent")
    exit(EX_USAGE)
}
LibraryLog.routeToStandardError(program: "herald-agent")
let status = MainContext.assumeIsolated {
    Agent(environment: ProcessEnvironment.read(), idleSeconds: idleSeconds, complain: complain).run()
}
exit(status)
