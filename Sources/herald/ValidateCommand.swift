import ArgumentParser
import FoundationEssentials
import HeraldCore
import HeraldPublishing
import Herald
import HeraldDesktop

/// `herald validate`: a publisher's check of a feed.
struct ValidateCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "List a feed's messages in display order and every problem found.",
        discussion: """
            Each problem is an error or a warning. An error is a message a check never shows or \
            a value Herald does not take as written (a wrong type, a number out of range, an \
            unknown category, urgency or language, a version that is not dotted numbers, a \
            minimum above the maximum, a date that cannot be read, a link that would be \
            refused, a retired id). A warning is a fault that leaves every value taken (a key \
            one typo from a known one, a link in the Message, no en text). Notes (an end \
            already past, a critical urgency) are not faults. Exit \(ExitStatus.data.code) when the feed cannot be \
            used or has an error, and with --strict on a warning too; exit \(ExitStatus.done.code) otherwise, so \
            `herald validate feed.plist` can gate a publisher's CI.
            """
    )

    static let example = "herald validate feed.plist --app-version 1.4 --strict"

    @Argument(help: "The feed: a file, - for standard input, or its URL. Ids retired in FEED.keys beside a file are problems.", completion: .file())
    var feed: String

    @Option(help: "Also report messages this app version would not see.")
    var appVersion: String?

    @OptionGroup var links: URLRuleOptions

    @Flag(help: "Exit \(ExitStatus.data.code) on warnings too, not only on errors.")
    var strict = false

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if let refusal = FeedArgument.refusal(of: feed) { throw ValidationError(refusal) }
    }

    func run() throws {
        let argument = FeedArgument(feed)
        try argument.requireReadable()
        let rules = links.rules
        let keys = links.publicKey.compactMap { try? FeedSignature.publicKey(base64: $0) }
        let outcome = MainContext.assumeIsolated { links.loadOnce(feed, publicKeys: keys) }
        let loaded: LoadedFeed
        switch outcome {
        case .success(let success):
            loaded = success
        case .failure(.signature(let problem)):
            EventReporter.complain("\(feed): \(problem)")
            throw ExitCode(.data)
        case .failure(.feed(let error)):
            if json {
                say(lines: Self.json(Self.unusable(error, source: feed)))
            } else if case .rootNotDictionary = error {
                // iNotify crashes where Herald refuses: the publisher has both kinds of reader.
                EventReporter.complain(error.description(source: feed) + ": an iNotify client crashes on it")
            } else {
                EventReporter.complain(error.description(source: feed))
            }
            throw ExitCode(.data)
        case .failure(let error):
            EventReporter.complain(error.description)
            throw ExitCode(.temporaryFailure)
        }
        let decoded = loaded.feed
        let languageNote = FeedSource.languageNote(of: loaded, source: feed)
        var report = FeedValidation.report(for: decoded, appVersion: appVersion, rules: rules, now: Date())
        report.include(retired: try argument.retiredKeys().problems(for: report.messages.map(\.id)))
        if json {
            var data = Self.data(of: report, format: decoded.format)
            if languageNote != nil {
                data["url"] = .string(loaded.url)
                data["notFound"] = .array(loaded.notFound.map(FeedValue.string))
            }
            say(lines: Self.json(data))
        } else {
            if let languageNote { say(languageNote) }
            for line in Self.text(of: report, source: feed, format: decoded.format) { say(line) }
        }
        if !report.errors.isEmpty || strict && !report.problems.isEmpty { throw ExitCode(.data) }
    }

    /// The listing for people: a header, a line per message (`!` before one with faults, who
    /// it is for when it has targeting keys, and why a check would leave it out), then every
    /// problem, each named an error or a warning, under a line that counts both, and every note.
    static func text(of report: FeedReport, source: String, format: FeedFormat) -> [String] {
        let hidden = report.messages.filter { $0.notShown != nil }.count
        var lines = ["\(source): \(format.rawValue), \(counted(report.messages.count, "message"))"
            + (hidden > 0 ? " (\(hidden) not shown)" : "") + (report.byPriority ? ", by priority, then newest first:" : ", newest first:")]
        for message in report.messages {
            var line = (message.hasFindings ? "! " : "  ") + "\(message.id)  \(message.fallbackText(FeedKey.title) ?? "(no title)")"
            if let url = message.string(FeedKey.actionURL) { line += "  -> \(url)" }
            let minimum = message.text(FeedKey.minVersion), maximum = message.text(FeedKey.maxVersion)
            if minimum != nil || maximum != nil { line += "  [\(minimum ?? "")...\(maximum ?? "")]" }
            if let targeting = message.targeting { line += "  \(targeting)" }
            if let reason = message.notShown { line += "  (not shown: \(reason))" }
            lines.append(line)
        }
        let problems = report.problems, notes = report.notes
        lines.append(problems.isEmpty ? "no problems found" : problemCount(of: report))
        lines += problems.map { "  \($0.severity.rawValue): \($0)" }
        if !notes.isEmpty { lines.append("\(counted(notes.count, "note")):") }
        lines += notes.map { "  \($0)" }
        return lines
    }

    /// The report as data: the entries as written (with their id as "key"), those a check
    /// would leave out, the targeting note of those with targeting keys, and every problem and
    /// every note with its entry id, key, kind and sentence.
    static func data(of report: FeedReport, format: FeedFormat) -> [String: FeedValue] {
        [
            "usable": .bool(true), "format": .string(format.rawValue),
            "entries": .array(report.messages.map { message in
                guard case .dictionary(let fields) = message.value else { return .dictionary(["key": .string(message.id)]) }
                return .dictionary(fields.merging(["key": .string(message.id)]) { _, key in key })
            }),
            "notShown": .array(report.messages.compactMap { message in
                message.notShown.map { .dictionary(["key": .string(message.id), "reason": .string($0)]) }
            }),
            "targeting": .array(report.messages.compactMap { message in
                message.targeting.map { .dictionary(["key": .string(message.id), "note": .string($0)]) }
            }),
            "problems": .array(report.problems.map(data(of:))),
            "notes": .array(report.notes.map(data(of:))),
        ]
    }

    /// A finding as data: `{"key": entry id, "field": the entry's key or null, "kind",
    /// "severity": error, warning or note, "reason"}`.
    static func data(of finding: FeedFinding) -> FeedValue {
        .dictionary([
            "key": .string(finding.id), "field": finding.key.map(FeedValue.string) ?? .null,
            "kind": .string(finding.kind.rawValue), "severity": .string(finding.severity.rawValue), "reason": .string(finding.sentence),
        ])
    }

    /// A feed that cannot be used, as data: the message, and the format and place when known.
    static func unusable(_ error: FeedError, source: String) -> [String: FeedValue] {
        var report: [String: FeedValue] = ["usable": .bool(false), "error": .string(error.description(source: source))]
        if case .malformed(let format, let place, let reason) = error {
            report["format"] = .string(format.rawValue)
            report["reason"] = .string(reason)
            switch place {
            case .text(let line, let column)?:
                report["line"] = .integer(line)
                report["column"] = .integer(column)
            case .byte(let offset)?:
                report["byte"] = .integer(offset)
            case nil:
                break
            }
        }
        return report
    }

    /// "1 message", "2 messages".
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)" + (count == 1 ? "" : "s") }

    /// The line above the problems, counting both kinds: "1 error, 2 warnings:", "no errors, 1 warning:".
    static func problemCount(of report: FeedReport) -> String {
        func count(_ findings: [FeedFinding], _ noun: String) -> String { findings.isEmpty ? "no \(noun)s" : counted(findings.count, noun) }
        return "\(count(report.errors, "error")), \(count(report.warnings, "warning")):"
    }

    /// The report as the tool writes JSON (`FeedValue.prettyJSONText`).
    private static func json(_ object: [String: FeedValue]) -> String { FeedValue.dictionary(object).prettyJSONText }
}
