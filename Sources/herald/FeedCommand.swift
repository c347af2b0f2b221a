import ArgumentParser
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop
import HeraldPublishing

/// `herald feed`: a publisher's tools: messages added under fresh ids and removed for good, a
/// preview on this desktop, and keys and signatures (DESIGN.md D20).
struct FeedCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Add and remove a feed's messages, preview them, make a signing key, sign a feed, and check its signature.",
        discussion: """
            An app that configures public keys (herald check --public-key, or \
            Herald.Configuration.publicKeys) shows a feed only when its signature matches one of \
            them, its version is not below one it accepted, and it has not expired. Keep the \
            private key off the web server: whoever has it can speak to every user.
            """,
        subcommands: [FeedAddCommand.self, FeedRemoveCommand.self, FeedPreviewCommand.self,
                      FeedKeygenCommand.self, FeedSignCommand.self, FeedVerifyCommand.self]
    )

    /// A publisher's round, in order; the preview is left out, since it waits for answers on a desktop.
    static let example = [FeedAddCommand.example, FeedKeygenCommand.example, FeedSignCommand.example, FeedVerifyCommand.example,
                          FeedRemoveCommand.example].joined(separator: "\n")
}

/// `herald feed keygen`: a new Ed25519 key pair.
struct FeedKeygenCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make a signing key: the private key goes to a file only you can read, the public key to standard output."
    )

    static let example = "herald feed keygen --private-key feed.key > feed.pub"

    @Option(help: "The file to write the private key to (created with mode 0600; it must not exist).", completion: .file())
    var privateKey: String

    func run() throws {
        do {
            let seed = try Ed25519.newSeed()
            let publicKey = try Ed25519.publicKey(seed: seed)
            try PrivateKeyFile.create(privateKey, seed: seed)
            say(publicKey.base64EncodedString())
        } catch let problem as FeedSignatureProblem {
            EventReporter.complain(problem.description)
            throw ExitCode(.software)
        }
    }
}

/// `herald feed sign`: signs a feed's exact bytes.
struct FeedSignCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a feed: an XML property list at its end, other formats in FEED.sig beside it.",
        discussion: """
            Signing again replaces the old signature with a higher version: apps refuse a feed \
            whose version is below one they accepted. Sign after every edit: any change to the \
            bytes, even a space, breaks the signature. With --expires-in, apps refuse the feed \
            once that time has passed: sign again before then (a daily cron job).
            """
    )

    static let example = "herald feed sign messages.plist --private-key feed.key"

    @Argument(help: "The feed file (a path or a file: URL).", completion: .file())
    var feed: String

    @Option(help: "The private key file, or - to read it from standard input (never the key itself).", completion: .file())
    var privateKey: String

    @Flag(help: "Write the signature to FEED.sig even for an XML property list.")
    var detached = false

    @Option(help: "How long the signature holds, e.g. 7d, 12h or 30m; apps refuse the feed after that.")
    var expiresIn: SignatureLifetime?

    @Option(help: "The id of the app the feed is for; other apps refuse it.")
    var appID: String?

    func validate() throws {
        if let appID { try AppOptions.requireUsable(appID: appID) }
    }

    func run() throws {
        let file = try FeedArgument(feed).sharedFile(toDo: "signing")
        // Signed and written under the feed's lock, from the bytes read under it: an edit at the
        // same time is either signed too or comes after, never lost.
        try FeedEdits.locked(file) { try sign(file) }
    }

    private func sign(_ file: SharedFile) throws {
        // The file locked, not the argument again: a link changed meanwhile is not followed.
        let bytes = try FeedArgument.readExisting(file.path, named: feed)
        do {
            let seed = try PrivateKeyFile.read(privateKey)
            let content = try FeedSignature.split(bytes).content
            do {
                _ = try FeedDecoder.decode(content)
            } catch {
                EventReporter.complain("\(feed): not signed, because the feed cannot be used: \(error)")
                throw ExitCode(.data)
            }
            // The ledger beside the feed keeps the last version given, for a feed written anew.
            let ledger = try FeedArgument.ledgerText(ofFeedAt: file.path)
            let signature = try signature(of: bytes, seed: seed, previousDetached: (try? RegularFile.read(file.companion(".sig"), limit: 4096)) ?? nil,
                                          lastSigned: RetiredKeys.parse(ledger).lastSignedVersion)
            if let version = signature.metadata?.version {
                let name = String(file.path.split(separator: "/").last ?? "feed")
                try file.writeCompanion(".keys", Data(RetiredKeys.text(ledger, recordingSignedVersion: version, feedName: name).utf8))
            }
            if !detached, content.first(where: { !" \t\r\n".utf8.contains($0) }) == UInt8(ascii: "<") {
                try file.write(content + Data(FeedSignature.block(for: signature).utf8))
                say("signed \(feed): the signature is at its end")
            } else {
                try file.writeCompanion(".sig", Data(FeedSignature.detachedText(for: signature).utf8))
                say("signed \(feed): the signature is in \(feed).sig; publish both")
            }
        } catch let problem as FeedSignatureProblem {
            EventReporter.complain(problem.description)
            throw ExitCode(.data)
        } catch let error as FileError {
            EventReporter.complain(error.description)
            throw ExitCode(.cannotCreate)
        }
    }
}

extension FeedSignCommand {
    /// The new signature of a feed's bytes (an old trailing block left out): its version above
    /// the one the feed was last signed with, and at least the current time in seconds.
    ///
    /// - Parameters:
    ///   - previousDetached: what `FEED.sig` holds, if anything (a regular file beside the real
    ///     feed, never through a link): a signature left from signing detached counts too, so the
    ///     version never goes back.
    ///   - lastSigned: the last version `FEED.keys` records: a feed written anew from a template
    ///     and signed again within the same second still gets a higher version, never an equal
    ///     one that apps would refuse as a replay.
    func signature(of bytes: Data, seed: Data, previousDetached: Data?, lastSigned: UInt64? = nil) throws -> FeedSignature.Signature {
        let split = try FeedSignature.split(bytes)
        let content = split.content
        var previous = split.signature?.metadata
        if let text = previousDetached, let detached = (try? FeedSignature.detached(text))?.metadata,
           detached.version > previous?.version ?? 0 {
            previous = detached
        }
        if let lastSigned, lastSigned > previous?.version ?? 0 { previous = FeedSignature.Metadata(version: lastSigned) }
        let now = Date()
        let metadata = FeedSignature.Metadata(version: FeedSignature.nextVersion(after: previous, now: now),
                                              expires: expiresIn.map { now.addingTimeInterval($0.seconds) }, appID: appID)
        let bytes = try Ed25519.sign(FeedSignature.message(for: content, metadata: metadata), seed: seed)
        return FeedSignature.Signature(bytes: bytes, metadata: metadata)
    }
}

/// How long a signature holds: a whole number and a unit, `d`, `h` or `m` (`7d`, `12h`, `30m`),
/// from a minute to ten years.
struct SignatureLifetime: ExpressibleByArgument {
    /// The lifetime in seconds.
    let seconds: Double

    init?(argument: String) {
        let units: [Character: Double] = ["d": 86_400, "h": 3600, "m": 60]
        guard let unit = argument.last.flatMap({ units[$0] }), let count = UInt32(argument.dropLast()), count > 0,
              Double(count) * unit <= 3650 * 86_400 else { return nil }
        seconds = Double(count) * unit
    }
}

/// `herald feed verify`: checks a feed's signature as an app with the key would.
struct FeedVerifyCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that a feed (file or URL) is signed with one of the keys whose public halves are given.",
        discussion: """
            Says the signed version, expiry and app, and which key (in the order given) matched; a \
            signature of the previous format is unversioned. Exit \(ExitStatus.done.code) when the signature matches, \(ExitStatus.data.code) \
            when it is missing, wrong or expired, \(ExitStatus.temporaryFailure.code) when the feed cannot be fetched.
            """
    )

    static let example = "herald feed verify messages.plist --public-key \"$(cat feed.pub)\""

    @Argument(help: "The feed: a file, - for standard input, or its URL.", completion: .file())
    var feed: String

    @OptionGroup var links: URLRuleOptions

    func validate() throws {
        guard !links.publicKey.isEmpty else { throw ValidationError("give the key to check with: --public-key KEY") }
    }

    func run() throws {
        try FeedArgument(feed).requireReadable()
        let keys: [Data]
        do { keys = try links.publicKey.map { key throws(FeedSignatureProblem) in try FeedSignature.publicKey(base64: key) } } catch {
            EventReporter.complain(error.description)
            throw ExitCode(.usage)
        }
        let outcome = MainContext.assumeIsolated { links.loadOnce(feed, publicKeys: keys) }
        switch outcome {
        case .success(let loaded):
            let signed = loaded.signedMetadata?.description ?? "unversioned (the previous format)"
            let key = "verified with key \((loaded.verifyingKey ?? 0) + 1) of \(keys.count)"
            say("\(feed): the signature matches (\(ValidateCommand.counted(loaded.feed.entries.count, "message"))): \(signed); \(key)")
        case .failure(let error):
            EventReporter.complain("\(feed): \(error)")
            throw ExitCode(ExitStatus(error))
        }
    }
}

/// A private key file: the 32-byte Ed25519 seed in base64 on one line, readable by its owner only.
enum PrivateKeyFile {
    /// Writes a new key file; refuses to replace one, so a key in use is never lost. A missing
    /// folder is created, readable by its owner only, as `~/.config/herald` is on a fresh machine.
    static func create(_ path: String, seed: Data) throws {
        let absolute = RegularFile.absolute(path)
        do throws(FileError) {
            try RegularFile.write(Data((seed.base64EncodedString() + "\n").utf8), to: absolute, mode: 0o600, replacing: false)
        } catch {
            EventReporter.complain("cannot create \(path): \(error.reason)")
            throw ExitCode(.cannotCreate)
        }
    }

    /// The most read of a key file: a key is 45 bytes, so anything larger is not one.
    static let sizeLimit = 64 * 1024

    /// Reads a key from a file, or from standard input for "-".
    ///
    /// A key file that its group or others may read is refused (exit `.configuration`), as ssh refuses an
    /// unprotected private key: whoever can read it can speak to every user of the feed.
    static func read(_ path: String) throws -> Data {
        let bytes = path == "-" ? try readStandardInput() : try readProtectedFile(path)
        guard let seed = Data(base64Encoded: NotificationText.trimmed(String(decoding: bytes, as: UTF8.self))), seed.count == Ed25519.seedLength else {
            throw FeedSignatureProblem.malformed("the private key is not \(Ed25519.seedLength) bytes in base64")
        }
        return seed
    }

    /// The key from standard input, or exit `.noInput` when it is larger than a key file may be: at most
    /// `sizeLimit` + 1 bytes are read.
    private static func readStandardInput() throws -> Data {
        let bytes = FileDescriptorReader.read(0, limit: sizeLimit + 1)
        guard bytes.count <= sizeLimit else {
            EventReporter.complain("cannot read the private key from standard input: it is more than the \(NumberText.mebibytes(sizeLimit)) Herald reads of a key")
            throw ExitCode(.noInput)
        }
        return bytes
    }

    /// The key file's bytes, or exit `.noInput` (not there, not a regular file, too large) or 78
    /// (readable by its group or others) with the reason.
    private static func readProtectedFile(_ path: String) throws -> Data {
        let bytes: Data?
        do throws(FileError) { bytes = try RegularFile.read(path, limit: sizeLimit, followingLinks: true) } catch {
            EventReporter.complain("cannot read the private key \(path): \(error.reason)")
            throw ExitCode(.noInput)
        }
        guard let bytes else {
            EventReporter.complain("cannot read the private key \(path): \(RegularFile.reason(ENOENT))")
            throw ExitCode(.noInput)
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            EventReporter.complain("not signed: the private key \(path) can be read by others (mode 0\(mode)); 'chmod 600 \(path)' keeps it yours")
            throw ExitCode(.configuration)
        }
        return bytes
    }
}

/// Reads a descriptor to its end, or to a limit.
enum FileDescriptorReader {
    /// At most `limit` bytes: all there are when fewer come before the end.
    static func read(_ descriptor: Int32, limit: Int) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count < limit {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min($0.count, limit - data.count)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }
}
