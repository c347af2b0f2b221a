import Glibc
import HeraldCore

/// Unbuffered writes to the standard streams, so events reach a pipe as they happen.
struct FileHandleOutput: Sendable {
    let descriptor: Int32
    static let standardOutput = FileHandleOutput(descriptor: 1)
    static let standardError = FileHandleOutput(descriptor: 2)

    func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// Writes one line: the text with every character a terminal must not receive escaped
    /// (`TerminalText.visible`, so a feed's line break or escape sequence cannot forge or
    /// hide a line), then a line break.
    func line(_ text: String) {
        write(TerminalText.visible(text) + "\n")
    }

    func write(_ text: [UInt8]) {
        RegularFile.writeAll(text, to: descriptor)
    }
}

/// Prints one line on standard output as `FileHandleOutput.line` writes it: what every command
/// prints goes through here, so nothing from a feed reaches the terminal raw.
func say(_ line: String) {
    FileHandleOutput.standardOutput.line(line)
}

/// Prints a document Herald composed of several lines, such as pretty-printed JSON (whose
/// strings hold no raw line break), one `say` per line.
func say(lines document: String) {
    for line in document.split(separator: "\n", omittingEmptySubsequences: false) { say(String(line)) }
}
