import Foundation
import HeraldTestSupport
import XCTest

/// `herald inbox` as a person sees it in a terminal, driven in tmux: what a feed holds to act on
/// the screen never acts. A message id (kept as written) shows its bidi override as an escape; a
/// title's escape sequences and a text's override were taken out as the notification showed it.
final class InboxTerminalTests: XCTestCase {
    func testTheInboxInATerminalShowsAFeedsEscapesAsText() throws {
        let session = try DesktopSession()
        try session.setBudgetOutOfTheWay()
        // ESC ] 0 ; … BEL would set the window's title, ESC [ 2 J clear the screen, U+202E show
        // what follows it reversed.
        let server = try session.serveFeed(#"""
            {"2027/01/02 \u202eevil": {"Title": "Version 2\u001b]0;owned\u0007\u001b[2J is out", "Message": "Faster.\u202eSmaller."}}
            """#)
        let check = try session.run(["check", "--feed", server.url("feed.plist"), "--app-id", "org.example.App", "--show-on-first-launch",
                                     "--force", "--wait", "1"])
        XCTAssertEqual(check.status, 0, check.description)
        let socket = session.directory.appendingPathComponent("tmux").path
        let script = session.directory.appendingPathComponent("inbox.sh")
        let exports = session.environment.filter { $0.key.hasPrefix("XDG_") || $0.key == "HOME" || $0.key == "LANG" }
            .sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'" }
        try (["#!/bin/sh"] + exports + ["'\(TestPaths.herald)' inbox | sed 's/[0-9T:-]\\{19\\}Z/<time>/g'", "echo done", "exec sleep 60"])
            .joined(separator: "\n").write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let tmux = ["-S", socket, "-f", "/dev/null"]
        // The server tmux starts keeps what the client was given, so nothing waits for the
        // client's end (Foundation's would wait for the server's): the pane is read when it is ready.
        let start = Process()
        start.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        start.arguments = tmux + ["new-session", "-d", "-x", "100", "-y", "12", script.path]
        start.environment = session.environment
        (start.standardInput, start.standardOutput, start.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice, FileHandle.nullDevice)
        try start.run()
        defer { _ = try? runToCompletion("/usr/bin/tmux", tmux + ["kill-server"], environment: session.environment) }
        var pane = ""
        XCTAssertTrue(eventually {
            pane = (try? runToCompletion("/usr/bin/tmux", tmux + ["capture-pane", "-p"], environment: session.environment,
                                     errorOutput: FileHandle.nullDevice).output) ?? ""
            return pane.contains("done")
        }, pane)
        let title = (try? runToCompletion("/usr/bin/tmux", tmux + ["display-message", "-p", "#{pane_title}"], environment: session.environment).output)
        // The pane's lines as shown, without the blanks that fill them and the screen below.
        let lines = pane.split(separator: "\n", omittingEmptySubsequences: false).map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
        XCTAssertEqual(lines.reversed().drop { $0.isEmpty }.reversed().joined(separator: "\n"), #"""
            org.example.App
              2027/01/02 \u202Eevil: shown, not answered; reached <time>, last shown <time>
                Version 2]0;owned[2J is out
                Faster.Smaller.
            done
            """#)
        XCTAssertNotEqual(title, "owned\n", "the window's title is not the feed's")
    }
}
