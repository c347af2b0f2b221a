import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore
import HeraldPublishing

/// `herald feed remove`: takes a message out of the feed and retires its id for good.
struct FeedRemoveCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a message and retire its id in FEED.keys, so that it is never used again.",
        discussion: """
            The entry's lines are cut out and every other byte is kept (a binary property list is \
            written anew); an id written more than once loses every copy, since readers show the \
            last. FEED.keys gets a line "YYYY-MM-DD ID": the date it was retired, a space, \
            and the id. 'herald feed add' never gives out a retired id, and 'herald validate' \
            reports one found in the feed. Keep FEED.keys with the feed; it need not be published.
            """
    )

    static let example = "herald feed remove messages.plist 2024/01/01"

    @Argument(help: "The feed file (a path or a file: URL).", completion: .file())
    var feed: String

    @Argument(help: "The id of the message to remove.")
    var key: String

    func run() throws {
        let file = try FeedArgument(feed).sharedFile(toDo: "removing a message")
        guard let line = RetiredKeys.line(retiring: key, on: Date()) else {
            EventReporter.complain("\(feed): not changed: the id \(RetiredKeys.unwritableReason)")
            throw ExitCode(.data)
        }
        // The ledger and the feed are read, decided on and written as one step: a removal at the
        // same time must neither write the feed back with this id in it nor retire it twice.
        try FeedEdits.locked(file) {
            let bytes = Array(try FeedArgument.readExisting(file.path, named: feed))
            let result = try FeedEdits.edit(feed) { try FeedEditor.removing(key, from: bytes) }
            // The ledger first: if the feed cannot be written after it, the id is retired while
            // still in the feed, which validate reports; the other way round it could be reused.
            if !(try FeedArgument.retiredKeys(ofFeedAt: file.path)).isRetired(key) {
                let name = feed.split(separator: "/").last.map(String.init) ?? feed
                do throws(FileError) {
                    try file.appendToCompanion(".keys", line, header: RetiredKeys.header(feedName: name))
                } catch {
                    EventReporter.complain("\(error)")
                    throw ExitCode(.cannotCreate)
                }
            }
            try FeedEdits.write(result.bytes, to: file)
            let copies = result.copies > 1 ? " (the id was written \(result.copies) times: every copy is gone)" : ""
            say("removed \(key) from \(feed)" + copies + (result.edit == nil ? " (a binary property list: the file was written anew)" : ""))
            say("retired \(key) in \(feed).keys")
            FeedEdits.noteSignature(of: feed, file: file, before: bytes)
        }
    }
}
