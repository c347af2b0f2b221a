import ArgumentParser
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldPublishing
import HeraldDesktop

/// A feed as every command takes it: a path, `-` for standard input, or a `file:`, `https:` or
/// `http:` URL (plain http on this machine, or with `--allow-http`).
struct FeedArgument {
    /// The argument as typed, for messages.
    let text: String
    /// What the feed source loads: a path made an absolute `file:` URI, `-`, or the URL.
    let url: String
    /// The file on this machine, for a path or a `file:` URL.
    let path: String?

    init(_ text: String) {
        self.text = text
        url = FeedSource.url(forArgument: text)
        path = URLRules.scheme(of: url) == "file" ? FeedSource.path(forFileURL: url) : nil
    }

    /// Why a feed argument cannot name a feed, or `nil`: an empty one names none (the system
    /// would read it as the working folder). Every command that takes a feed refuses it as a
    /// usage error.
    static func refusal(of text: String) -> String? {
        text.isEmpty ? "the feed argument is empty: give a file, - for standard input, or a URL" : nil
    }

    /// Whether the feed is read from standard input.
    var isStandardInput: Bool { url == FeedSource.standardInput }

    /// The most a publisher's command reads of a local feed or its ledger, 64 MiB: far above
    /// what a check accepts, since publishers validate what they are about to trim.
    static let sizeLimit = 64 << 20

    /// Exits `.noInput` with the reason (`feed.plist: No such file or directory`, `feed.plist: it is a
    /// FIFO, not a regular file`) unless the local file can be read; URLs and standard input
    /// pass, and so does a path with `{lang}`, which names several files that need not all be there.
    func requireReadable() throws {
        try requireNonEmpty()
        guard let path, !LanguageFeedURL.isTemplate(url) else { return }
        do throws(FileError) {
            try RegularFile.requireReadable(path, limit: Self.sizeLimit, followingLinks: true)
        } catch {
            EventReporter.complain("\(text): \(error.reason)")
            throw ExitCode(.noInput)
        }
    }

    /// The local file, or a usage error for a command that changes or signs a file.
    func localPath(toDo purpose: String) throws -> String {
        try requireNonEmpty()
        guard let path else { throw ValidationError("\(purpose) needs a feed file on this machine, not \(isStandardInput ? "standard input" : text)") }
        return path
    }

    /// The local file as a file two commands may edit at once (links resolved to the real
    /// file), or a usage error for a URL or standard input; a missing folder is exit `.noInput`, a
    /// link to nothing exit `.cannotCreate`.
    ///
    /// - Parameter creatingFolder: make a missing folder, for a feed being started.
    func sharedFile(toDo purpose: String, creatingFolder: Bool = false) throws -> SharedFile {
        let path = try localPath(toDo: purpose)
        do throws(FileError) {
            return try SharedFile(path, creatingFolder: creatingFolder)
        } catch {
            guard case .unreadable = error else {
                EventReporter.complain("\(error)")
                throw ExitCode(.cannotCreate)
            }
            EventReporter.complain("\(text): \(error.reason)")
            throw ExitCode(.noInput)
        }
    }

    /// The retired ids of a local feed (`FEED.keys` beside the real file, never through a link);
    /// none for a URL or standard input, or when there is no ledger yet.
    func retiredKeys() throws -> RetiredKeys {
        guard let path else { return RetiredKeys() }
        return try Self.retiredKeys(ofFeedAt: (try? SharedFile(path))?.path ?? path)
    }

    /// The retired ids in `FEED.keys` beside the feed at `realPath`, or exit `.noInput` with the reason.
    static func retiredKeys(ofFeedAt realPath: String) throws -> RetiredKeys {
        RetiredKeys.parse(try ledgerText(ofFeedAt: realPath))
    }

    /// The text of `FEED.keys` beside the feed at `realPath` (empty when there is none yet), or
    /// exit `.noInput` with the reason.
    static func ledgerText(ofFeedAt realPath: String) throws -> String {
        do throws(FileError) {
            guard let bytes = try RegularFile.read(realPath + ".keys", limit: sizeLimit) else { return "" }
            return String(decoding: bytes, as: UTF8.self)
        } catch {
            EventReporter.complain("\(error)")
            throw ExitCode(.noInput)
        }
    }

    /// The usage error of an empty argument (`refusal(of:)`), for commands that meet it in `run`.
    private func requireNonEmpty() throws {
        if let refusal = Self.refusal(of: text) { throw ValidationError(refusal) }
    }

    /// The feed's bytes, or exit `.noInput` with the reason.
    func read() throws -> Data {
        try requireNonEmpty()
        return try Self.readExisting(path ?? text, named: text)
    }

    /// A local feed's bytes; a missing file, or anything `read(_:named:)` refuses, is exit `.noInput`
    /// with the reason.
    static func readExisting(_ path: String, named name: String) throws -> Data {
        guard let bytes = try read(path, named: name) else {
            EventReporter.complain("\(name): \(RegularFile.reason(ENOENT))")
            throw ExitCode(.noInput)
        }
        return bytes
    }

    /// A local feed's bytes, `nil` when there is none; anything but a regular file within
    /// `sizeLimit` is exit `.noInput` with the reason, at once.
    static func read(_ path: String, named name: String) throws -> Data? {
        do throws(FileError) {
            return try RegularFile.read(path, limit: sizeLimit, followingLinks: true)
        } catch {
            EventReporter.complain("\(name): \(error.reason)")
            throw ExitCode(.noInput)
        }
    }
}

extension URLRuleOptions {
    /// Loads a feed argument once, through the same source a check uses, without a cache. A
    /// local file may be larger than a check accepts, since publishers validate what they are
    /// about to trim.
    ///
    /// - Parameter publicKeys: when given, the signature is checked as a check would, with any
    ///   one of them, and its expiry against this machine's clock.
    ///
    /// A feed with `{lang}` is asked in the languages of this process's environment.
    @MainContext
    func loadOnce(_ feed: String, publicKeys: [Data]) -> Result<LoadedFeed, HeraldError> {
        FeedSource(url: FeedArgument(feed).url, userAgent: "Herald/\(HeraldVersion.current) (publisher)",
                   timeout: 60, sizeLimit: FeedArgument.sizeLimit, rules: rules, caFile: caFile, publicKeys: publicKeys,
                   languages: Audience(environment: ProcessEnvironment.read()).languages, cache: nil).loadOnce()
    }
}

extension FeedSource {
    /// Loads the feed on a main loop of its own, without a cached copy, and returns the outcome;
    /// a signature `accepted` makes a replay is refused as a check would refuse it.
    @MainContext
    func loadOnce(accepted: FeedSignature.Accepted? = nil) -> Result<LoadedFeed, HeraldError> {
        let loop = MainLoop()
        var outcome: Result<LoadedFeed, HeraldError> = .failure(.fetch(.transport("no answer")))
        load(cached: nil, accepted: accepted) { result in
            outcome = result
            loop.quit()
        }
        loop.run()
        return outcome
    }

    /// For a feed URL with `{lang}`, which URL answered and which were not there, as
    /// `messages.{lang}.plist: asked …, answered by …`; `nil` for other feeds.
    nonisolated static func languageNote(of loaded: LoadedFeed, source: String) -> String? {
        guard LanguageFeedURL.isTemplate(FeedArgument(source).url) else { return nil }
        let missing = loaded.notFound.isEmpty ? "" : " (not found: \(loaded.notFound.joined(separator: ", ")))"
        return "\(source): \(loaded.url) answered" + missing
    }
}
