import ArgumentParser
import FoundationEssentials
import HeraldCore
import Herald
import HeraldDesktop

/// `herald validate`: a publisher's check of a feed.
struct ValidateCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "List a feed's messages in display order and every problem found.",
        discussion: "Exit 65 when the feed cannot be used at all (or, with --strict, when any problem is found)."
    )

    static let example = "herald validate feed.plist --app-version 1.4 --strict"

    @Argument(help: "The feed: a file, - for standard input, or its URL. Ids retired in FEED.keys beside a file are problems.")
    var feed: String

    @Option(help: "Also report messages this app version would not see.")
    var appVersion: String?

    @OptionGroup var links: URLRuleOptions

    @Flag(help: "Exit 65 on any problem, not only an unusable feed.")
    var strict = false

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let argument = FeedArgument(feed)
        try argument.requireReadable()
        let rules = links.rules
        let key = links.publicKey.flatMap { try? FeedSignature.publicKey(base64: $0) }
        let outcome = MainContext.assumeIsolated { links.loadOnce(feed, publicKey: key) }
        let decoded: Feed
        switch outcome {
        case .success(let loaded):
            decoded = loaded.feed
        case .failure(.signature(let problem)):
            EventReporter.complain("\(feed): \(problem)")
            throw ExitCode(65)
        case .failure(.feed(let error)):
            if json {
                print(try Self.json(["usable": .bool(false), "error": .string(error.description)]))
            } else {
                EventReporter.complain("\(feed): \(error)")
            }
            throw ExitCode(65)
        case .failure(let error):
            EventReporter.complain(error.description)
            throw ExitCode(75)
        }
        var problems = decoded.problems + FeedValidation.warnings(for: decoded, appVersion: appVersion, rules: rules)
        problems += try argument.retiredKeys().problems(for: Set(decoded.entries.keys).union(decoded.problems.map(\.key)))
        let ordered = CheckPolicy.order(Array(decoded.entries.values), oldestFirst: false)
        if json {
            let report: [String: FeedValue] = [
                "usable": .bool(true), "format": .string(decoded.format.rawValue),
                "entries": .array(ordered.map { entry in
                    .dictionary(entry.details.merging(["key": .string(entry.key)]) { _, key in key })
                }),
                "problems": .array(problems.map { .dictionary(["key": .string($0.key), "reason": .string($0.reason)]) }),
            ]
            print(try Self.json(report))
        } else {
            print("\(feed): \(decoded.format.rawValue), \(ordered.count) messages, newest first:")
            for entry in ordered {
                var line = "  \(entry.key)  \(entry.title ?? "(no title)")"
                if let url = entry.actionURL { line += "  -> \(url)" }
                if entry.minVersion != nil || entry.maxVersion != nil { line += "  [\(entry.minVersion ?? "")...\(entry.maxVersion ?? "")]" }
                print(line)
            }
            print(problems.isEmpty ? "no problems found" : "\(problems.count) problem(s):")
            for problem in problems { print("  \(problem)") }
        }
        if strict, !problems.isEmpty { throw ExitCode(65) }
    }

    private static func json(_ object: [String: FeedValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(FeedValue.dictionary(object)), as: UTF8.self)
    }
}
