import HeraldCore
import HeraldDesktop
import XCTest

/// A library's warning, and an error about a link, reach the terminal as the tool's other
/// lines do: every character that acts on a terminal escaped by the one rule (`TerminalText`).
final class LibraryLogTests: XCTestCase {
    func testALibraryWarningShowsBidiAndControlCharactersAsEscapes() {
        XCTAssertEqual(LibraryLog.line(program: "herald", domain: "libnotify", level: "warning",
                                       message: "Received unknown action \u{202E}txt.exe\u{2066}\u{1B}[2J\u{2028}x"),
                       #"herald: libnotify warning: Received unknown action \u202Etxt.exe\u2066\u001B[2J\u2028x"# + "\n")
        XCTAssertEqual(LibraryLog.line(program: "herald", domain: "Gio\u{200F}\n", level: "critical", message: "plain"),
                       #"herald: Gio\u200F\n critical: plain"# + "\n")
        XCTAssertEqual(LibraryLog.line(program: "herald", domain: nil, level: "message", message: "tab\there"),
                       #"herald: message: tab\there"# + "\n")
    }

    func testALinkThatCannotBeOpenedIsNamedWithTheTerminalsEscapes() {
        XCTAssertEqual(LinkOpenerError(url: "https://a.example/\u{202E}gpj.exe\r\n", reason: "the link contains U+202E, so it is not opened").description,
                       #"could not open https://a.example/\u202Egpj.exe\r\n: the link contains U+202E, so it is not opened"#)
        XCTAssertEqual(LinkOpenerError(url: "https://a.example/ü", reason: "no application").description,
                       "could not open https://a.example/ü: no application")
    }
}
