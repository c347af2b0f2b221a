import Herald
import HeraldCore

/// The keys of an app registration (desktop/docs/registration.md), read from its text and
/// written back, without touching a file: `AppRegistrations` reads the files.
///
/// The keys are the options of `herald check` that a check at login takes, named from the one
/// option table (`CheckCommandLine.options`): `--check-period` is `CheckPeriod`, `--allow-scheme`
/// `AllowScheme`; `--app-version` and `--app-name` are `Version` and `Name`. Each value is read
/// by its option's own `read`, so a number reads as `herald check` reads it, and refused as
/// `herald check` refuses it. A registration is a key file's `[Herald]` group, or the
/// `X-Herald-` keys of the app's desktop entry.
enum RegistrationKeys {
    /// The group of a registration's own key file (`<app-id>.conf`).
    static let group = "Herald"
    /// The group of a desktop entry.
    static let desktopEntryGroup = "Desktop Entry"
    /// What a key of a desktop entry starts with to be a registration's.
    static let desktopEntryPrefix = "X-Herald-"

    /// The options that make no sense in a registration, and why: their keys are refused.
    static let refused: [String: String] = [
        "--app-id": "the file's name is the app id",
        "--explain": "it is for a check run by hand", "--force": "it is for a check run by hand",
        "--json": "it is for a check run by hand", "--all": "it is for a check run by hand",
        "--debug": "it is for a check run by hand",
        "--start-delay": "the check of every registered app spreads its start itself",
    ]

    /// The keys whose names are not the option's own.
    private static let renamed = ["--app-version": "Version", "--app-name": "Name"]

    /// A key's name for an option: its words capitalised and joined (`--check-period` is
    /// `CheckPeriod`), or its own name (`Version`, `Name`).
    static func key(for option: String) -> String {
        renamed[option] ?? option.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The options a registration takes, with their keys, in the table's order.
    static var options: [(key: String, option: CheckOption)] {
        CheckCommandLine.options.filter { refused[$0.name] == nil }.map { (key(for: $0.name), $0) }
    }

    /// What a registration's text gives: the check's values, or the problems that leave it out;
    /// neither for a desktop entry that is no registration.
    struct Reading {
        /// The check `herald check` would run with these values; `nil` when there are problems.
        var line: CheckCommandLine?
        /// Every mistake, each naming its line where it has one.
        var problems: [RegistrationProblem] = []
    }

    /// Reads a registration key file (`<app-id>.conf`): its `[Herald]` group.
    static func read(keyFile bytes: some BidirectionalCollection<UInt8>, appID: String, file: String) -> Reading {
        let keyFile: KeyFile
        do throws(KeyFileError) { keyFile = try KeyFile(bytes) } catch { return Reading(problems: [problem(error, file: file)]) }
        var problems = keyFile.groups.filter { $0 != group }.map { name in
            RegistrationProblem(file: file, line: nil, description: "unknown group [\(name)]: the keys go in [\(group)]")
        }
        let entries = keyFile.numberedEntries(in: group)
        var reading = read(entries, prefix: "", appID: appID, file: file)
        problems += reading.problems
        if !problems.isEmpty { reading.line = nil }
        reading.problems = problems
        return reading
    }

    /// Reads the `X-Herald-` keys of an app's installed desktop entry: a registration when it
    /// has `X-Herald-Feed`, nothing when it has no such key; its `Name` and `Icon` are the
    /// entry's own unless given. A text that is not a key file is a problem named by its line
    /// (the registrations read only the entries that mention `X-Herald-`).
    static func read(desktopEntry bytes: some BidirectionalCollection<UInt8>, appID: String, file: String) -> Reading {
        let keyFile: KeyFile
        do throws(KeyFileError) { keyFile = try KeyFile(bytes) } catch { return Reading(problems: [problem(error, file: file)]) }
        let all = keyFile.numberedEntries(in: desktopEntryGroup)
        let entries = all.filter { $0.key.hasPrefix(desktopEntryPrefix) }
        guard !entries.isEmpty else { return Reading() }
        var reading = read(entries, prefix: desktopEntryPrefix, appID: appID, file: file)
        if var line = reading.line {
            line.appName = line.appName ?? keyFile.string(group: desktopEntryGroup, key: "Name")
            line.icon = line.icon ?? keyFile.string(group: desktopEntryGroup, key: "Icon")
            reading.line = line
        }
        return reading
    }

    /// Reads a group's keys, each named `prefix` + key.
    private static func read(_ entries: [(key: String, rawValue: String, line: Int)], prefix: String, appID: String, file: String) -> Reading {
        var line = CheckCommandLine(feed: "", appID: appID)
        var problems: [RegistrationProblem] = []
        var lineOfKey: [String: Int] = [:]
        func problem(_ number: Int?, _ sentence: String) {
            problems.append(RegistrationProblem(file: file, line: number, description: sentence))
        }
        let options = Self.options
        for (written, raw, number) in entries {
            let key = String(written.dropFirst(prefix.count))
            guard let option = options.first(where: { $0.key == key })?.option else {
                if let refusedOption = refused.keys.first(where: { Self.key(for: $0) == key }) {
                    problem(number, "“\(written)” cannot be set in a registration: \(refused[refusedOption]!)")
                } else {
                    problem(number, "unknown key “\(written)”" + suggestion(key, among: options.map(\.key), prefix: prefix))
                }
                continue
            }
            lineOfKey[key] = number
            switch option.kind {
            case .flag:
                guard let value = KeyFile.boolean(raw) else {
                    problem(number, "“\(written)” is true or false, not “\(KeyFile.unescaped(raw))”")
                    continue
                }
                if value { _ = option.read(&line, "") }
            case .repeatedValue:
                for item in KeyFile.list(rawValue: raw) { _ = option.read(&line, item) }
            case .value:
                let value = KeyFile.unescaped(raw)
                guard option.read(&line, value) else {
                    problem(number, "“\(written)” is not a number: “\(value)”")
                    continue
                }
                // Each number is held to its own range, so the mistake names its line.
                var alone = CheckCommandLine(feed: "", appID: appID)
                _ = option.read(&alone, value)
                if let refusal = alone.numberRefusal, refusal.hasPrefix(option.name + " ") {
                    problem(number, "“\(written)” " + refusal.dropFirst(option.name.count + 1))
                }
            }
        }
        let feedKey = key(for: "--feed")
        guard let feedLine = lineOfKey[feedKey] else {
            problem(nil, "no “\(prefix)\(feedKey)”: a registration names the app's feed (\(prefix)\(feedKey)=https://…)")
            return Reading(problems: problems)
        }
        let argument = FeedArgument(line.feed)
        if argument.isStandardInput {
            problem(feedLine, "“\(prefix)\(feedKey)” cannot be standard input: give the feed's URL")
        } else if URLRules.scheme(of: line.feed) == nil, !line.feed.hasPrefix("/") {
            problem(feedLine, "“\(prefix)\(feedKey)” is a relative path: give the feed's URL or an absolute path")
        } else if URLRules.scheme(of: line.feed)?.lowercased() == "file", !line.feed.dropFirst("file:".count).hasPrefix("/") {
            problem(feedLine, "“\(prefix)\(feedKey)” is a file: URL of a relative path: give file:///… or an absolute path")
        } else if let refusal = FeedCheckArguments.feedRefusal(line.feed, rules: line.rules) {
            problem(feedLine, refusal)
        }
        for (option, path) in [("--prompts", line.prompts), ("--ca-file", line.caFile)] {
            if let path, !path.hasPrefix("/") {
                problem(lineOfKey[key(for: option)], "“\(prefix)\(key(for: option))” is a relative path: give an absolute path")
            }
        }
        if let number = lineOfKey[key(for: "--public-key")], let refusal = URLRuleOptions.refusal(caFile: nil, publicKeys: line.publicKeys) {
            problem(number, refusal)
        }
        if problems.isEmpty, let refusal = line.usageProblem { problem(nil, refusal) }
        return problems.isEmpty ? Reading(line: line) : Reading(problems: problems)
    }

    /// "; did you mean “Feed”?" when a known name is one typo from `typed`, else nothing.
    private static func suggestion(_ typed: String, among known: [String], prefix: String = "") -> String {
        Spelling.nearest(to: typed, among: known).map { "; did you mean “\(prefix)\($0)”?" } ?? ""
    }

    /// A line that is not a key file's, as a problem of its line: "the line is not a group, …".
    private static func problem(_ error: KeyFileError, file: String) -> RegistrationProblem {
        let named = "line \(error.line) "
        let sentence = error.reason.hasPrefix(named) ? "the line " + error.reason.dropFirst(named.count) : error.reason
        return RegistrationProblem(file: file, line: error.line, description: sentence)
    }

    /// A registration key file (`<app-id>.conf`) for the check `line` asks for: a `[Herald]`
    /// group with a key for each option the table writes for it (the feed as a URL, files by
    /// absolute path, only the other options that differ from their defaults).
    static func keyFileText(for line: CheckCommandLine) -> String {
        var file = KeyFile()
        for (key, option) in options {
            let arguments = option.write(line)
            guard !arguments.isEmpty else { continue }
            switch option.kind {
            case .flag: file.set("true", group: group, key: key)
            case .value: file.set(arguments[1], group: group, key: key)
            case .repeatedValue: file.setStringList(stride(from: 1, to: arguments.count, by: 2).map { arguments[$0] }, group: group, key: key)
            }
        }
        return file.text
    }
}
