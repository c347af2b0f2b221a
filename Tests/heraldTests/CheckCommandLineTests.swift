import Herald
import HeraldCore
import XCTest
@testable import herald

/// `CheckCommandLine(plainArguments:)` reads `herald check`'s plain forms into the same values
/// the parser gives, and leaves every other form to the parser.
final class CheckCommandLineTests: XCTestCase {
    let required = ["--feed", "https://example.org/feed.plist", "--app-id", "org.example.App"]

    func testEveryOptionInItsPlainFormIsRead() throws {
        let line = try XCTUnwrap(CheckCommandLine(plainArguments: required + [
            "--app-version", "2.1", "--app-name", "Example", "--prompts", "prompts.plist", "--start-delay", "30", "--explain",
            "--check-period", "2.5", "--remind-period", "0.25", "--show-oldest-first", "--show-on-first-launch", "--debug",
            "--force", "--max", "7", "--all", "--wait", "90", "--timeout", "12", "--allow-http", "--allow-scheme", "example",
            "--ca-file", "ca.pem", "--public-key", "KEY", "--icon", "dialog-information", "--json",
        ]))
        var expected = CheckCommandLine(feed: "https://example.org/feed.plist", appID: "org.example.App")
        expected.appVersion = "2.1"
        expected.appName = "Example"
        expected.prompts = "prompts.plist"
        expected.startDelay = 30
        expected.explain = true
        expected.checkPeriod = 2.5
        expected.remindPeriod = 0.25
        expected.showOldestFirst = true
        expected.showOnFirstLaunch = true
        expected.debug = true
        expected.force = true
        expected.max = 7
        expected.all = true
        expected.wait = 90
        expected.timeout = 12
        expected.allowHttp = true
        expected.allowedSchemes = ["example"]
        expected.caFile = "ca.pem"
        expected.publicKeys = ["KEY"]
        expected.icon = "dialog-information"
        expected.json = true
        XCTAssertEqual(line, expected)
    }

    func testThePeriodsInDaysAndTheWaitsInSecondsBecomeTheLibrarysDurations() throws {
        let line = try XCTUnwrap(CheckCommandLine(plainArguments: required + [
            "--check-period", "0.25", "--remind-period", "2", "--timeout", "12", "--wait", "90",
        ]))
        let configuration = line.configuration
        XCTAssertEqual(configuration.check.checkPeriod, .seconds(6 * 3600))
        XCTAssertEqual(configuration.check.remindPeriod, .seconds(2 * 86_400))
        XCTAssertEqual(configuration.timeout, .seconds(12))
        XCTAssertEqual(configuration.waitLimit, .seconds(90))
        let defaults = try XCTUnwrap(CheckCommandLine(plainArguments: required)).configuration
        XCTAssertEqual([defaults.check.checkPeriod, defaults.check.remindPeriod, defaults.timeout, defaults.waitLimit],
                       [.seconds(12 * 3600), .seconds(86_400), .seconds(60), .seconds(600)])
    }

    func testOptionsComeInAnyOrderAndThoseLeftOutKeepTheParsersDefaults() throws {
        let line = try XCTUnwrap(CheckCommandLine(plainArguments: ["--app-id", "org.example.App", "--feed", "https://example.org/feed.plist"]))
        XCTAssertEqual(line, CheckCommandLine(feed: "https://example.org/feed.plist", appID: "org.example.App"))
        XCTAssertEqual([line.startDelay, line.checkPeriod, line.remindPeriod, line.wait, line.timeout], [0, 0.5, 1, 600, 60])
        XCTAssertEqual(line.max, 3)
        XCTAssertFalse(line.explain || line.force || line.json || line.allowHttp || line.all || line.debug)
        XCTAssertNil(line.appVersion ?? line.appName ?? line.prompts ?? line.caFile ?? line.icon)
        XCTAssertEqual(line.publicKeys, [])
    }

    func testAllowSchemeMayBeGivenAgainAndKeepsItsOrder() throws {
        let line = try XCTUnwrap(CheckCommandLine(plainArguments: required + ["--allow-scheme", "b", "--allow-scheme", "a"]))
        XCTAssertEqual(line.allowedSchemes, ["b", "a"])
    }

    func testPublicKeyMayBeGivenAgainForEveryKeyTheAppTrusts() throws {
        let line = try XCTUnwrap(CheckCommandLine(plainArguments: required + ["--public-key", "NEW", "--public-key", "OLD"]))
        XCTAssertEqual(line.publicKeys, ["NEW", "OLD"])
    }

    func testNumbersAreReadAsTheParserReadsThem() throws {
        let line = try XCTUnwrap(CheckCommandLine(plainArguments: required + ["--wait", "1e2", "--timeout", "nan", "--max", "+4"]))
        XCTAssertEqual(line.wait, 100)
        XCTAssertTrue(line.timeout.isNaN)
        XCTAssertEqual(line.max, 4)
    }

    func testEveryOtherFormIsLeftToTheParser() {
        let others: [[String]] = [
            [],
            ["--feed", "https://example.org/feed.plist"],
            ["--app-id", "org.example.App"],
            ["--feed=https://example.org/feed.plist", "--app-id", "org.example.App"],
            required + ["--help"], required + ["-h"], required + ["help"], required + ["--version"],
            required + ["--"], required + ["--bogus"], required + ["extra"],
            required + ["--json=true"],
            required + ["--max", "2", "--max", "3"],
            required + ["--json", "--json"],
            required + ["--feed", "https://example.org/other.plist"],
            required + ["--max"],
            required + ["--app-name", "-x"],
            required + ["--check-period", "-1"],
            required + ["--max", "two"], required + ["--max", "2.5"], required + ["--wait", "soon"], required + ["--timeout", ""],
            required + ["--experimental-dump-help"], required + ["--generate-completion-script", "bash"],
        ]
        for arguments in others {
            XCTAssertNil(CheckCommandLine(plainArguments: arguments), "\(arguments)")
        }
    }

    /// The parser's first refusal of `herald check` with `arguments`, in the words and with the
    /// status `herald` ends with, or `nil` when the parser accepts them.
    func parserRefusal(_ arguments: [String]) -> (message: String, status: Int32)? {
        do {
            _ = try CheckCommand.parse(arguments)
            return nil
        } catch {
            return (HeraldCommand.sentence(CheckCommand.message(for: error)), CheckCommand.exitCode(for: error).rawValue)
        }
    }

    /// `required` with `option` set to `value`: given once, replacing the feed or the app id.
    func arguments(_ values: [(option: String, value: String)]) -> [String] {
        var named = [("--feed", required[1]), ("--app-id", required[3])]
        for (option, value) in values {
            if let index = named.firstIndex(where: { $0.0 == option }) { named[index].1 = value } else { named.append((option, value)) }
        }
        return named.flatMap { [$0.0, $0.1] }
    }

    /// Every value-taking option with values near and past each limit, and texts each rule
    /// refuses, alone, with every flag, and two mistakes at a time: wherever the plain reading reads a command line, it
    /// finds the mistake the parser reports first (so the line goes to the parser, which
    /// exits 64), and finds none where the parser finds none. A check written into one
    /// reading only fails here.
    func testThePlainReadingRefusesWhatTheParserRefusesWithTheParsersFirstMessage() throws {
        // The parser takes about a tenth of a second per command line in a debug build, so each
        // value here stands for a rule: a limit, a path, a key, a feed URL.
        let values = ["0", "inf", "1000000", "../x", "/nonexistent/ca.pem", "http://example.org/feed.plist", "not base64"]
        let flags = CheckCommandLine.options.filter { $0.kind == .flag }.map(\.name)
        var singles: [[(option: String, value: String)]] = []
        for option in CheckCommandLine.options where option.kind != .flag {
            for value in values { singles.append([(option.name, value)]) }
        }
        var refused: [[(option: String, value: String)]] = []
        var counts = (read: 0, refused: 0)
        func compare(_ values: [(option: String, value: String)], flags: [String] = []) {
            let arguments = arguments(values) + flags
            guard let line = CheckCommandLine(plainArguments: arguments) else { return }
            counts.read += 1
            let parser = parserRefusal(arguments)
            XCTAssertEqual(line.usageProblem, parser?.message, "\(arguments)")
            if let parser {
                counts.refused += 1
                XCTAssertEqual(parser.status, 64, "\(arguments)")
            }
        }
        for single in singles {
            compare(single)
            guard let line = CheckCommandLine(plainArguments: arguments(single)), line.usageProblem != nil else { continue }
            refused.append(single)
        }
        // Each option's first mistake with every flag, and two of them in both orders: the
        // parser reports the one of the group it validates first.
        let firstMistakes = Dictionary(refused.map { ($0[0].option, $0) }, uniquingKeysWith: { first, _ in first })
        let options = firstMistakes.keys.sorted()
        for (index, option) in options.enumerated() {
            compare(firstMistakes[option]!, flags: flags)
            for other in options[(index + 1)...] {
                compare(firstMistakes[option]! + firstMistakes[other]!)
                compare(firstMistakes[other]! + firstMistakes[option]!)
            }
        }
        // Every rule is met: the app id, the CA file, a key, each number, the feed and the start delay.
        XCTAssertEqual(Set(firstMistakes.keys), [
            "--feed", "--app-id", "--start-delay", "--check-period", "--remind-period", "--max", "--wait", "--timeout", "--server-wait",
            "--ca-file", "--public-key",
        ])
        XCTAssertGreaterThan(counts.refused, 100)
        XCTAssertGreaterThan(counts.read - counts.refused, 30)
    }

    func testNumbersOutOfRangeAreRefusedInTheParsersWords() {
        var line = CheckCommandLine(feed: "f", appID: "a")
        XCTAssertNil(line.numberRefusal)
        line.max = 0
        XCTAssertEqual(line.numberRefusal, "--max must be at least 1")
        line.wait = .infinity
        XCTAssertEqual(line.numberRefusal, "--wait must be more than 0 and at most 604800 seconds, not inf")
        line.checkPeriod = -1
        XCTAssertEqual(line.numberRefusal, "--check-period must be from 0 to 3650 days, not -1")
    }
}
