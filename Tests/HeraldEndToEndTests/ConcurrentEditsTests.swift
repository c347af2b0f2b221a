import Foundation
import HeraldTestSupport
import XCTest

/// Files two processes may write (the user's `herald.conf`, a feed and its `FEED.keys` and
/// `FEED.sig`): edits at once keep every change, links are edited where they point and never
/// followed out of the feed's folder, and nothing waits on a FIFO.
final class ConcurrentEditsTests: XCTestCase {
    let rounds = 20
    let processes = 8

    /// Starts one `herald` per argument list behind one barrier, releases them together and
    /// waits for them all.
    func runAtOnce(_ session: DesktopSession, _ runs: [[String]], round: Int) throws -> [ToolRun] {
        let barrier = try ProcessBarrier()
        let children = try runs.enumerated().map { index, arguments in
            try barrier.start(TestPaths.herald, arguments, environment: session.environment, directory: session.directory,
                              name: "round-\(round)-\(index)")
        }
        try barrier.release()
        return children.map { child in
            let status = child.wait(seconds: 30)
            return ToolRun(status: status, output: child.output, errorOutput: child.errorOutput)
        }
    }

    /// Each group of a key file and its `Muted` value.
    /// Gives each of `apps` a state file, as their first check would: a mute of them is then of
    /// apps Herald has seen, whatever the other processes have written by then.
    func haveRun(_ apps: [String], in session: DesktopSession) throws {
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for app in apps { try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/\(app).json")) }
    }

    func mutes(in text: String) -> [String: String] {
        var group = ""
        var found: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") { group = String(line.dropFirst().dropLast()) }
            if line.hasPrefix("Muted=") { found[group] = String(line.dropFirst("Muted=".count)) }
        }
        return found
    }

    /// The ids of a JSON feed.
    func ids(ofJSONFeed file: URL) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        return Set(try XCTUnwrap(object).keys)
    }

    func mode(_ path: String) throws -> Int {
        try XCTUnwrap((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    // MARK: - herald mute / unmute

    func testConcurrentMutesAtOnceKeepEveryChange() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let apps = (0..<processes).map { "org.example.App\($0)" }
        try haveRun(apps, in: session)
        for round in 0..<rounds {
            try? FileManager.default.removeItem(at: session.userKeyFile)
            let runs = try runAtOnce(session, apps.map { ["mute", "--app-id", $0] }, round: round)
            for (app, run) in zip(apps, runs) {
                XCTAssertEqual(run, ToolRun(status: 0, output: "muted \(app) (\(session.userKeyFile.path))\n"), "round \(round)")
            }
            let text = try String(contentsOf: session.userKeyFile, encoding: .utf8)
            XCTAssertEqual(mutes(in: text), Dictionary(uniqueKeysWithValues: apps.map { ("app \($0)", "true") }), "round \(round):\n\(text)")
        }
    }

    func testMutesRacingUnmutesKeepBothKinds() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let unmuted = (0..<processes / 2).map { "org.example.Was\($0)" }
        let muted = (0..<processes / 2).map { "org.example.Now\($0)" }
        try haveRun(unmuted + muted, in: session)
        for round in 0..<rounds {
            try FileManager.default.createDirectory(at: session.userKeyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(unmuted.map { "[app \($0)]\nMuted=true\n" }.joined(separator: "\n").utf8).write(to: session.userKeyFile)
            let runs = try runAtOnce(session, unmuted.map { ["unmute", "--app-id", $0] } + muted.map { ["mute", "--app-id", $0] }, round: round)
            for (app, run) in zip(unmuted + muted, runs) {
                let verb = app.contains("Was") ? "unmuted" : "muted"
                XCTAssertEqual(run, ToolRun(status: 0, output: "\(verb) \(app) (\(session.userKeyFile.path))\n"), "round \(round)")
            }
            let text = try String(contentsOf: session.userKeyFile, encoding: .utf8)
            XCTAssertEqual(mutes(in: text), Dictionary(uniqueKeysWithValues: muted.map { ("app \($0)", "true") }), "round \(round):\n\(text)")
        }
    }

    func testMuteThroughALinkedKeyFileEditsTheFileItPointsToAndKeepsTheLink() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let dotfiles = session.directory.appendingPathComponent("dotfiles/herald.conf")
        try FileManager.default.createDirectory(at: dotfiles.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("# kept in git\n".utf8).write(to: dotfiles)
        XCTAssertEqual(chmod(dotfiles.path, 0o640), 0)
        try FileManager.default.createDirectory(at: session.userKeyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: session.userKeyFile.path, withDestinationPath: dotfiles.path)
        try haveRun(["org.example.App"], in: session)
        XCTAssertEqual(try session.run(["mute", "--app-id", "org.example.App"]),
                       ToolRun(status: 0, output: "muted org.example.App (\(session.userKeyFile.path))\n"))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: session.userKeyFile.path), dotfiles.path)
        XCTAssertEqual(try String(contentsOf: dotfiles, encoding: .utf8), "# kept in git\n\n[app org.example.App]\nMuted=true\n")
        XCTAssertEqual(try mode(dotfiles.path), 0o640)
    }

    // MARK: - herald feed add / remove / sign

    func testConcurrentAddsAtOnceKeepEveryMessageUnderDistinctIds() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        for round in 0..<rounds {
            let feed = session.directory.appendingPathComponent("feed-\(round).json")
            try Data("{\n}\n".utf8).write(to: feed)
            let runs = try runAtOnce(session, (0..<processes).map { ["feed", "add", feed.path, "--title", "T\($0)", "--message", "M"] }, round: round)
            var given: [String] = []
            for run in runs {
                XCTAssertEqual(run.status, 0, "round \(round): \(run)")
                XCTAssertEqual(run.errorOutput, "", "round \(round)")
                let prefix = "added ", suffix = " to \(feed.path)\n"
                XCTAssertTrue(run.output.hasPrefix(prefix) && run.output.hasSuffix(suffix), "round \(round): \(run)")
                given.append(String(run.output.dropFirst(prefix.count).dropLast(suffix.count)))
            }
            XCTAssertEqual(Set(given).count, processes, "round \(round): ids handed out \(given)")
            XCTAssertEqual(try ids(ofJSONFeed: feed), Set(given), "round \(round)")
        }
    }

    /// `feed sign` at the same time as `feed add`: each add is either signed too or comes after
    /// the last signing (then the signature no longer matches, as after any edit), never lost,
    /// and every signing raises the version above the one before it.
    func testSigningAtOnceWithAddsLosesNoAddAndRaisesTheVersionEachTime() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let keyFile = session.directory.appendingPathComponent("feed.key").path
        let keygen = try session.run(["feed", "keygen", "--private-key", keyFile])
        XCTAssertEqual(keygen.status, 0, "\(keygen)")
        let publicKey = keygen.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let (adds, signs) = (processes / 2, processes / 2)
        var endings: [Int32: Int] = [:]
        for round in 0..<rounds {
            let feed = session.directory.appendingPathComponent("feed-\(round).plist")
            try Data(Fixtures.xmlFeed(["2024/01/01": ["Title": "First", "Message": "M"]]).utf8).write(to: feed)
            XCTAssertEqual(try session.run(["feed", "sign", feed.path, "--private-key", keyFile]).status, 0)
            let before = try XCTUnwrap(Fixtures.signedVersion(of: Data(contentsOf: feed)), "round \(round)")
            let runs = try runAtOnce(session, (0..<adds).map { ["feed", "add", feed.path, "--title", "T\($0)", "--message", "M"] }
                                     + (0..<signs).map { _ in ["feed", "sign", feed.path, "--private-key", keyFile] }, round: round)
            var given: [String] = []
            for run in runs.prefix(adds) {
                let prefix = "added ", suffix = " to \(feed.path)\n\(feed.path) was signed: sign it again, since the old signature no longer matches\n"
                XCTAssertTrue(run.status == 0 && run.errorOutput.isEmpty && run.output.hasPrefix(prefix) && run.output.hasSuffix(suffix), "round \(round): \(run)")
                given.append(String(run.output.dropFirst(prefix.count).dropLast(suffix.count)))
            }
            for run in runs.suffix(signs) {
                XCTAssertEqual(run, ToolRun(status: 0, output: "signed \(feed.path): the signature is at its end\n"), "round \(round)")
            }
            let text = try String(contentsOf: feed, encoding: .utf8)
            XCTAssertEqual(Set(given).count, adds, "round \(round): ids handed out \(given)")
            for key in given { XCTAssertTrue(text.contains("<key>\(key)</key>"), "round \(round): \(key) is kept\n\(text)") }
            // Each of the signings read the version the one before it wrote.
            let after = try XCTUnwrap(Fixtures.signedVersion(of: Data(text.utf8)), "round \(round)")
            XCTAssertGreaterThanOrEqual(after, before + UInt64(signs), "round \(round): every signing raised the version")
            // Signed last, the feed verifies with every message; else an add came after the last signing.
            let verified = try session.run(["feed", "verify", feed.path, "--public-key", publicKey])
            endings[verified.status, default: 0] += 1
            if verified.status == 0 {
                XCTAssertEqual(verified.output, "\(feed.path): the signature matches (\(1 + adds) messages): version \(after), for any app; verified with key 1 of 1\n",
                               "round \(round)")
            } else {
                XCTAssertEqual(verified, ToolRun(status: 65, output: "", errorOutput: "herald: \(feed.path): the feed's signature does not match its contents and the app's public key\n"),
                               "round \(round): an add came after the last signing")
            }
        }
        print("signing with adds at once: verify's exit statuses over \(rounds) rounds: \(endings)")
    }

    func testConcurrentRemovesLeaveNoRetiredIdInTheFeed() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let keys = (1...processes).map { "2024/01/0\($0)" }
        for round in 0..<rounds {
            let feed = session.directory.appendingPathComponent("feed-\(round).json")
            let entries = keys.map { "  \"\($0)\": {\"Title\": \"T\", \"Message\": \"M\"}" }.joined(separator: ",\n")
            try Data("{\n\(entries),\n  \"2025/01/01\": {\"Title\": \"Stays\", \"Message\": \"M\"}\n}\n".utf8).write(to: feed)
            let runs = try runAtOnce(session, keys.map { ["feed", "remove", feed.path, $0] }, round: round)
            for (key, run) in zip(keys, runs) {
                XCTAssertEqual(run, ToolRun(status: 0, output: "removed \(key) from \(feed.path)\nretired \(key) in \(feed.path).keys\n"), "round \(round)")
            }
            XCTAssertEqual(try ids(ofJSONFeed: feed), ["2025/01/01"], "round \(round)")
            let ledger = try String(contentsOfFile: feed.path + ".keys", encoding: .utf8)
            let retired = ledger.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: " ")[1]) }
            XCTAssertEqual(retired.sorted(), keys, "round \(round):\n\(ledger)")
            XCTAssertEqual(ledger.split(separator: "\n").filter { $0.hasPrefix("#") }.count, 1, "round \(round): one header")
        }
    }

    func testRemovingAnIdWrittenTwiceRemovesEveryCopy() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let feed = session.directory.appendingPathComponent("feed.json")
        try Data("{\n  \"2024/01/01\": {\"Title\": \"First\"},\n  \"2024/01/02\": {\"Title\": \"Other\"},\n  \"2024/01/01\": {\"Title\": \"Shown\"}\n}\n".utf8).write(to: feed)
        XCTAssertEqual(try session.run(["feed", "remove", feed.path, "2024/01/01"]), ToolRun(status: 0, output: """
            removed 2024/01/01 from \(feed.path) (the id was written 2 times: every copy is gone)
            retired 2024/01/01 in \(feed.path).keys

            """))
        XCTAssertEqual(try String(contentsOf: feed, encoding: .utf8), "{\n  \"2024/01/02\": {\"Title\": \"Other\"}\n}\n")
    }

    func testAddRemoveAndSignThroughALinkedFeedEditTheRealFileAndKeepTheLink() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let real = session.directory.appendingPathComponent("checkout/feed.plist")
        let link = session.directory.appendingPathComponent("site/feed.plist")
        for folder in [real, link] { try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true) }
        try Data(Fixtures.xmlFeed(["2024/01/01": ["Title": "Old", "Message": "M"]]).utf8).write(to: real)
        XCTAssertEqual(chmod(real.path, 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let keyFile = session.directory.appendingPathComponent("feed.key").path
        XCTAssertEqual(try session.run(["feed", "keygen", "--private-key", keyFile]).status, 0)

        XCTAssertEqual(try session.run(["feed", "add", link.path, "--key", "2024/02/01", "--title", "New", "--message", "M"]),
                       ToolRun(status: 0, output: "added 2024/02/01 to \(link.path)\n"))
        XCTAssertEqual(try session.run(["feed", "remove", link.path, "2024/01/01"]),
                       ToolRun(status: 0, output: "removed 2024/01/01 from \(link.path)\nretired 2024/01/01 in \(link.path).keys\n"))
        XCTAssertEqual(try session.run(["feed", "sign", link.path, "--private-key", keyFile]),
                       ToolRun(status: 0, output: "signed \(link.path): the signature is at its end\n"))

        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), real.path, "the link stays a link")
        let text = try String(contentsOf: real, encoding: .utf8)
        XCTAssertTrue(text.contains("<key>2024/02/01</key>") && !text.contains("<key>2024/01/01</key>") && text.contains("herald-signature"), text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: real.path + ".keys"), "the ledger is beside the real feed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: link.path + ".keys"))
        XCTAssertEqual(try mode(real.path), 0o600, "a 0600 feed stays 0600")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: link.deletingLastPathComponent().path), ["feed.plist"])
    }

    func testACompanionLinkIsRefusedAndNothingOutsideTheFeedsFolderIsWritten() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let outside = session.directory.appendingPathComponent("outside.txt")
        try Data("not yours\n".utf8).write(to: outside)
        let feed = session.directory.appendingPathComponent("pub/feed.json")
        try FileManager.default.createDirectory(at: feed.deletingLastPathComponent(), withIntermediateDirectories: true)
        let feedText = "{\n  \"2024/01/01\": {\"Title\": \"T\", \"Message\": \"M\"}\n}\n"
        try Data(feedText.utf8).write(to: feed)
        try FileManager.default.createSymbolicLink(atPath: feed.path + ".keys", withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: feed.path + ".sig", withDestinationPath: outside.path)
        let keyFile = session.directory.appendingPathComponent("feed.key").path
        XCTAssertEqual(try session.run(["feed", "keygen", "--private-key", keyFile]).status, 0)
        let link = "it is a symbolic link, which Herald does not follow for its own files"

        XCTAssertEqual(try session.run(["feed", "remove", feed.path, "2024/01/01"]),
                       ToolRun(status: 66, output: "", errorOutput: "herald: cannot read \(feed.path).keys: \(link)\n"))
        XCTAssertEqual(try session.run(["feed", "add", feed.path, "--title", "T", "--message", "M"]),
                       ToolRun(status: 66, output: "", errorOutput: "herald: cannot read \(feed.path).keys: \(link)\n"))
        // Signing reads the ledger first, for the last version it gave.
        XCTAssertEqual(try session.run(["feed", "sign", feed.path, "--private-key", keyFile]),
                       ToolRun(status: 66, output: "", errorOutput: "herald: cannot read \(feed.path).keys: \(link)\n"))
        try FileManager.default.removeItem(atPath: feed.path + ".keys")
        XCTAssertEqual(try session.run(["feed", "sign", feed.path, "--private-key", keyFile]),
                       ToolRun(status: 73, output: "", errorOutput: "herald: cannot write \(feed.path).sig: \(link)\n"))
        XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), "not yours\n")
        XCTAssertEqual(try String(contentsOf: feed, encoding: .utf8), feedText)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: feed.path + ".sig"), outside.path)
    }

    func testAddRefusesAnIdWithALineBreakOrAControlCharacter() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let feed = session.directory.appendingPathComponent("feed.json")
        let feedText = "{\n}\n"
        try Data(feedText.utf8).write(to: feed)
        for key in ["a\nb", "a\u{1B}[2Jb", "a\u{2028}b"] {
            XCTAssertEqual(try session.run(["feed", "add", feed.path, "--key", key, "--title", "T", "--message", "M"]), ToolRun(status: 64, output: "", errorOutput: """
                herald: --key cannot hold a line break or another control character: FEED.keys keeps one id a line
                herald: see 'herald feed add --help'

                """))
            XCTAssertEqual(try String(contentsOf: feed, encoding: .utf8), feedText)
        }
    }

    func testSignRefusesAPrivateKeyOthersCanReadAndWritesNothing() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let feed = session.directory.appendingPathComponent("feed.plist")
        let feedText = Fixtures.xmlFeed(["2024/01/01": ["Title": "T", "Message": "M"]])
        try Data(feedText.utf8).write(to: feed)
        let keyFile = session.directory.appendingPathComponent("feed.key").path
        XCTAssertEqual(try session.run(["feed", "keygen", "--private-key", keyFile]).status, 0)
        XCTAssertEqual(chmod(keyFile, 0o644), 0)
        XCTAssertEqual(try session.run(["feed", "sign", feed.path, "--private-key", keyFile]), ToolRun(status: 78, output: "", errorOutput: """
            herald: not signed: the private key \(keyFile) can be read by others (mode 0644); 'chmod 600 \(keyFile)' keeps it yours

            """))
        XCTAssertEqual(try String(contentsOf: feed, encoding: .utf8), feedText)
    }

    // MARK: - Nothing waits on a FIFO

    func testPublisherCommandsOnAFIFOFeedFailAtOnce() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let feed = session.directory.appendingPathComponent("feed.plist").path
        XCTAssertEqual(mkfifo(feed, 0o644), 0)
        let key = String(repeating: "A", count: 43) + "="
        for arguments in [["feed", "add", feed, "--title", "T", "--message", "M"], ["validate", feed],
                          ["feed", "verify", feed, "--public-key", key], ["feed", "preview", feed, "--app-id", "org.example.App"],
                          ["feed", "remove", feed, "2024/01/01"]] {
            let (run, seconds) = try session.timedRun(arguments, within: 5)
            XCTAssertEqual(run, ToolRun(status: 66, output: "", errorOutput: "herald: \(feed): it is a FIFO, not a regular file\n"), arguments.joined(separator: " "))
            XCTAssertLessThan(seconds, 5, arguments.joined(separator: " "))
        }
    }

    func testPublisherCommandsOnAFIFOLedgerFailAtOnce() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let feed = session.directory.appendingPathComponent("feed.json").path
        let feedText = "{\n  \"2024/01/01\": {\"Title\": \"T\", \"Message\": \"M\"}\n}\n"
        try Data(feedText.utf8).write(to: URL(fileURLWithPath: feed))
        XCTAssertEqual(mkfifo(feed + ".keys", 0o644), 0)
        for arguments in [["feed", "add", feed, "--title", "T", "--message", "M"], ["validate", feed], ["feed", "remove", feed, "2024/01/01"]] {
            let (run, seconds) = try session.timedRun(arguments, within: 5)
            XCTAssertEqual(run, ToolRun(status: 66, output: "", errorOutput: "herald: cannot read \(feed).keys: it is a FIFO, not a regular file\n"),
                           arguments.joined(separator: " "))
            XCTAssertLessThan(seconds, 5, arguments.joined(separator: " "))
        }
        XCTAssertEqual(try String(contentsOfFile: feed, encoding: .utf8), feedText)
    }

    func testAFIFOKeyFileFailsCheckStateAndMuteAtOnce() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let feed = session.directory.appendingPathComponent("feed.plist")
        try Data(Fixtures.xmlFeed(["2024/01/01": ["Title": "T", "Message": "M"]]).utf8).write(to: feed)
        let appID = "org.example.App"
        for keyFile in [session.userKeyFile, session.systemKeyFile] {
            try FileManager.default.createDirectory(at: keyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            XCTAssertEqual(mkfifo(keyFile.path, 0o644), 0)
            let error = "herald: \(keyFile.path): it is a FIFO, not a regular file\n"
            let (mute, muteSeconds) = try session.timedRun(["mute", "--app-id", appID], within: 5)
            XCTAssertEqual(mute, ToolRun(status: 78, output: "", errorOutput: error))
            let (state, stateSeconds) = try session.timedRun(["state", "--app-id", appID], within: 5)
            XCTAssertEqual(state.status, 78, "\(state)")
            XCTAssertEqual(state.errorOutput, error)
            let (check, checkSeconds) = try session.timedRun(["check", "--feed", feed.path, "--app-id", appID, "--json"], within: 5)
            // A key file that cannot be read is a key-file failure of the check, as GLib's parse errors are.
            XCTAssertEqual(check, ToolRun(status: 78, output: """
                {"event":"failed","exitCode":78,"kind":"key-file","message":"\(keyFile.path): it is a FIFO, not a regular file"}

                """))
            for seconds in [muteSeconds, stateSeconds, checkSeconds] { XCTAssertLessThan(seconds, 5) }
            unlink(keyFile.path)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: session.environment["XDG_STATE_HOME"]!), [], "no state written")
    }

    // MARK: - herald state only reads

    func testStateLeavesADamagedStateFileWhereItIsAndCreatesNoLock() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        try session.useStandardBudget()
        defer { session.stop() }
        let appID = "org.example.App"
        let folder = URL(fileURLWithPath: session.environment["XDG_STATE_HOME"]!).appendingPathComponent("herald")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stateFile = folder.appendingPathComponent("\(appID).json")
        try Data("{ not json".utf8).write(to: stateFile)
        XCTAssertEqual(try session.run(["state", "--app-id", appID]), ToolRun(status: 73, output: "", errorOutput: """
            herald: \(stateFile.path) is damaged: it does not decode; the next check moves it aside and starts over ('herald state --app-id \(appID) --reset' forgets it now)

            """))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["\(appID).json"], "nothing moved aside, no lock")
        XCTAssertEqual(try String(contentsOf: stateFile, encoding: .utf8), "{ not json")
    }
}
