import ArgumentParser
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
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

    /// Exits 66 with the system's reason (`feed.plist: No such file or directory`) unless the
    /// local file can be read; URLs and standard input pass, and so does a path with `{lang}`,
    /// which names several files that need not all be there.
    func requireReadable() throws {
        guard path != nil, !LanguageFeedURL.isTemplate(url) else { return }
        close(try openForReading())
    }

    /// The local file's bytes, or exit 66 with the system's reason.
    func read() throws -> Data {
        let descriptor = try openForReading()
        defer { close(descriptor) }
        return FileDescriptorReader.readAll(descriptor)
    }

    /// The local file, or a usage error for a command that changes or signs a file.
    func localPath(toDo purpose: String) throws -> String {
        guard let path else { throw ValidationError("\(purpose) needs a feed file on this machine, not \(isStandardInput ? "standard input" : text)") }
        return path
    }

    /// The retired ids of a local feed (`FEED.keys`); none for a URL or standard input, or when
    /// there is no ledger yet.
    func retiredKeys() throws -> RetiredKeys {
        guard let path else { return RetiredKeys() }
        let ledger = path + ".keys"
        let descriptor = open(ledger, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return RetiredKeys() }
            EventReporter.complain("\(ledger): \(String(cString: strerror(errno)))")
            throw ExitCode(66)
        }
        defer { close(descriptor) }
        return RetiredKeys.parse(String(decoding: FileDescriptorReader.readAll(descriptor), as: UTF8.self))
    }

    private func openForReading() throws -> Int32 {
        let descriptor = open(path ?? text, O_RDONLY | O_CLOEXEC)
        var info = stat()
        let failure = descriptor < 0 ? errno : fstat(descriptor, &info) != 0 ? errno : info.st_mode & S_IFMT == S_IFDIR ? EISDIR : 0
        guard failure != 0 else { return descriptor }
        if descriptor >= 0 { close(descriptor) }
        EventReporter.complain("\(text): \(String(cString: strerror(failure)))")
        throw ExitCode(66)
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
                   timeout: 60, sizeLimit: 64 << 20, rules: rules, caFile: caFile, publicKeys: publicKeys,
                   languages: Audience(environment: ProcessEnvironment.read()).languages, cache: nil).loadOnce()
    }
}

extension FeedSource {
    /// Loads the feed on a main loop of its own, without a cached copy, and returns the outcome;
    /// a signed version below `acceptedVersion` is refused as a check would refuse it.
    @MainContext
    func loadOnce(acceptedVersion: UInt64? = nil) -> Result<LoadedFeed, HeraldError> {
        let loop = MainLoop()
        var outcome: Result<LoadedFeed, HeraldError> = .failure(.fetch(.transport("no answer")))
        load(cached: nil, acceptedVersion: acceptedVersion) { result in
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
