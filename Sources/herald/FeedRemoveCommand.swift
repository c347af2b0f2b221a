import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore

/// `herald feed remove`: takes a message out of the feed and retires its id for good.
struct FeedRemoveCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a message and retire its id in FEED.keys, so that it is never used again.",
        discussion: """
            The entry's lines are cut out and every other byte is kept (a binary property list is \
            written anew). FEED.keys gets a line "YYYY-MM-DD ID": the date it was retired, a space, \
            and the id. 'herald feed add' never gives out a retired id, and 'herald validate' \
            reports one found in the feed. Keep FEED.keys with the feed; it need not be published.
            """
    )

    static let example = "herald feed remove messages.plist 2024/01/01"

    @Argument(help: "The feed file (a path or a file: URL).")
    var feed: String

    @Argument(help: "The id of the message to remove.")
    var key: String

    func run() throws {
        let argument = FeedArgument(feed)
        let path = try argument.localPath(toDo: "removing a message")
        let bytes = Array(try argument.read())
        guard let line = RetiredKeys.line(retiring: key, on: Date()) else {
            EventReporter.complain("\(feed): not changed: an id with a line break cannot be written in \(feed).keys")
            throw ExitCode(65)
        }
        let result = try FeedEdits.edit(feed) { try FeedEditor.removing(key, from: bytes) }
        // The ledger first: if the feed cannot be written after it, the id is retired while
        // still in the feed, which validate reports; the other way round it could be reused.
        if !(try argument.retiredKeys()).isRetired(key) { try Self.append(line, toLedgerOf: path, feedName: feed) }
        try FeedEdits.write(result.bytes, to: path, replacing: true)
        print("removed \(key) from \(feed)" + (result.edit == nil ? " (a binary property list: the file was written anew)" : ""))
        print("retired \(key) in \(feed).keys")
        FeedEdits.noteSignature(of: feed, path: path, before: bytes)
    }

    /// Appends a line to `FEED.keys`, starting the file with its header when it is new.
    static func append(_ line: String, toLedgerOf path: String, feedName: String) throws {
        let ledger = path + ".keys"
        let descriptor = open(ledger, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            EventReporter.complain("cannot write \(ledger): \(String(cString: strerror(errno)))")
            if descriptor >= 0 { close(descriptor) }
            throw ExitCode(73)
        }
        defer { close(descriptor) }
        let name = feedName.split(separator: "/").last.map(String.init) ?? feedName
        let text = Array(((info.st_size == 0 ? RetiredKeys.header(feedName: name) : "") + line).utf8)
        guard text.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == text.count, fsync(descriptor) == 0 else {
            EventReporter.complain("cannot write \(ledger): \(String(cString: strerror(errno)))")
            throw ExitCode(73)
        }
    }
}
