import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// `herald state`: what Herald remembers for an app, or (`--all`) for every app with the
/// attention budget they share.
struct StateCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show (or reset) what Herald remembers for an app: answers, reminders, last check.",
        discussion: """
            Also shows whether the app is muted and by whom (herald mute, or the administrator's \
            key file), and the administrator's mirror of its feed. With --all, every app that has \
            a state: what was shown when, what waits and why, the attention budget each used, \
            and the budget in force. A message handed over to the Herald agent whose process \
            has gone (or through the portal longer ago than the default remind period) is said \
            to be shown again at the next check. Only reads, unless --reset: a \
            damaged state file is reported and left in place. Exit codes: \(ExitStatus.done.code) done, \(ExitStatus.usage.code) usage, \
            \(ExitStatus.cannotCreate.code) state unusable or damaged, \(ExitStatus.configuration.code) a key file cannot be read (the state is shown all the same).
            """
    )

    static let example = "herald state --app-id org.example.App\nherald state --all"

    @Option(help: "The app's id.")
    var appID: String?

    @Flag(help: "Every app with a state, and the attention budget they share.")
    var all = false

    @Flag(help: "Print the state as JSON.")
    var json = false

    @Flag(help: "Forget everything: the next run is a first launch again.")
    var reset = false

    func validate() throws {
        guard (appID == nil) == all else { throw ValidationError("give one app with --app-id ID, or --all") }
        if all, reset { throw ValidationError("--reset forgets one app's state: give it with --app-id ID") }
        if let appID { try AppOptions.requireUsable(appID: appID) }
    }

    func run() throws {
        guard let appID else { return try AllAppsState(json: json).run() }
        let store: FileStateStore
        do {
            store = FileStateStore(paths: try HeraldPaths(appID: appID, environment: ProcessEnvironment.read()),
                                   onCorruptFile: EventReporter.reportCorruptStateFile)
        } catch {
            EventReporter.complain(StateStoreError(error, writing: "the state").description)
            throw ExitCode(.usage)
        }
        do {
            if reset {
                try store.reset()
                if !json { say("state of \(appID) reset") }
            }
            // Only reads: no lock taken (none created), and a file that does not decode is
            // left where it is for the next check to move aside.
            guard let state = try store.inspect() else {
                EventReporter.complain("\(store.paths.stateFile) is damaged: it does not decode; the next check moves it aside and starts over"
                                       + " ('herald state --app-id \(appID) --reset' forgets it now)")
                throw ExitCode(.cannotCreate)
            }
            let switches = offSwitches(appID)
            if json {
                let shown = ShownState(state: state, muted: switches?.mute, feedMirror: switches?.mirror)
                say(lines: try FeedValue(encoding: shown).prettyJSONText)
            } else {
                for line in describe(state, path: store.paths.stateFile, switches: switches) { say(line) }
            }
            if switches == nil { throw ExitCode(.configuration) }
        } catch let error as StateStoreError {
            EventReporter.complain(error.description)
            if !reset, let hint = Self.hint(for: error, appID: appID, stateFile: store.paths.stateFile) { EventReporter.complain(hint) }
            throw ExitCode(.cannotCreate)
        }
    }

    /// What a user can do about a state file Herald refuses, when `--reset` would help: it
    /// removes the file (never what a link points to) without reading it.
    static func hint(for error: StateStoreError, appID: String, stateFile: String) -> String? {
        switch error {
        case .tooLarge(let path, _, _) where path == stateFile, .unreadable(let path, _) where path == stateFile:
            // A directory is not removed by --reset: that is for people to look at.
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
            return "'herald state --app-id \(appID) --reset' removes it; the next run is then a first launch"
        default:
            return nil
        }
    }

    /// A handed-over message in words: where it waits, or, when the handover no longer keeps
    /// it back (`Handover.isWaiting`, as a check with the default remind period decides),
    /// that the next check shows it again.
    static func describe(_ handover: Handover, key: String, now: Date) -> String {
        let since = "since \(ISO8601Moment.text(handover.since))"
        if isWaiting(handover, now: now) {
            let place = switch handover.place {
            case .desktopList: "in the desktop's list"
            case .agent: "held by the Herald agent"
            case .portal: "through the notification portal"
            }
            return "\(key) handed over, \(place), \(since)"
        }
        let lapse = switch handover.place {
        case .agent: "to the Herald agent \(since), which has gone"
        // The desktop's list keeps its message whatever runs: it never lapses.
        case .desktopList, .portal: "through the notification portal \(since), longer than the remind period"
        }
        return "\(key) handed over \(lapse): the next check shows it again"
    }

    /// Whether a handover still keeps its message from being shown at `now`: the check's rule
    /// (`Handover.isWaiting`), with the default remind period.
    static func isWaiting(_ handover: Handover, now: Date) -> Bool {
        Handover.isWaiting(handover, now: now, remindPeriod: CheckConfiguration().remindPeriod.seconds)
    }

    /// The off switches of the app, or `nil` (said on stderr) when a key file cannot be read.
    private func offSwitches(_ appID: String) -> OffSwitchDecision? {
        do {
            let environment = ProcessEnvironment.read()
            return try OffSwitchFiles.read(environment: environment).decision(for: appID)
                .adding(DesktopSwitchFiles.read(appID: appID, environment: environment))
        } catch {
            EventReporter.complain(error.description)
            return nil
        }
    }

    /// The state in lines for people; each is printed as one line, whatever its ids hold.
    private func describe(_ state: HeraldState, path: String, switches: OffSwitchDecision?) -> [String] {
        func list(_ keys: some Collection<String>) -> String { keys.isEmpty ? "none" : keys.sorted().joined(separator: ", ") }
        var lines = ["state file: \(path)"]
        if let switches {
            lines.append("muted: \(switches.mute?.summary ?? "no")")
            if let mirror = switches.mirror { lines.append("feed URL: \(mirror)") }
        }
        lines.append("first launch: \(state.ignored == nil ? "not yet" : "passed")")
        lines.append("last check: \(state.lastChecked.map(ISO8601Moment.text) ?? "never")")
        lines.append("viewed: \(list(state.viewed))")
        lines.append("ignored: \(list(state.ignored ?? []))")
        lines.append("reminded: " + (state.reminded.isEmpty ? "none" : state.reminded.sorted { $0.key < $1.key }
            .map { "\($0.key) at \(ISO8601Moment.text($0.value))" }.joined(separator: ", ")))
        for (name, prompt) in state.prompts.sorted(by: { $0.key < $1.key }) {
            var line = "prompt '\(name)': \(prompt.usesCount) uses since \(prompt.firstUsed.map(ISO8601Moment.text) ?? "never")"
            if let reminded = prompt.lastReminded { line += ", reminded at \(ISO8601Moment.text(reminded))" }
            if prompt.viewed { line += ", done" }
            if prompt.cancelled { line += ", cancelled" }
            lines.append(line)
        }
        for (key, handover) in state.handedOver.sorted(by: { $0.key < $1.key }) {
            lines.append("waiting: " + Self.describe(handover, key: key, now: Date()))
        }
        if !state.absentSince.isEmpty {
            let days = Int(CheckPolicy.answerRetention / 86_400)
            lines.append("gone from the feed: \(state.absentSince.count) answered, each forgotten \(days) days after it left")
        }
        if let failure = state.failure {
            lines.append("failing: \(failure.count) in a row, last at \(ISO8601Moment.text(failure.lastAttempt)): \(failure.reason)")
        }
        return lines
    }
}

/// The state as `--json` prints it (`FeedValue.prettyJSONText`): the state file's fields, with
/// the app's mute and feed mirror beside them when there are any.
private struct ShownState: Encodable {
    var state: HeraldState
    var muted: Mute?
    var feedMirror: FeedMirror?

    private enum Keys: String, CodingKey {
        case muted, feedMirror
    }

    func encode(to encoder: Encoder) throws {
        try state.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(muted, forKey: .muted)
        try container.encodeIfPresent(feedMirror, forKey: .feedMirror)
    }
}

/// `herald state --all`: every app with a state file in `$XDG_STATE_HOME/herald`, what each
/// showed when, what waits and why, the attention budget each used, and the budget in force.
/// Only reads: no lock is taken and nothing is created; an app whose state cannot be read is
/// named and the others are shown (exit `.cannotCreate`), as they are when a key file cannot be read (`.configuration`).
struct AllAppsState {
    /// Whether to print JSON (`FeedValue.prettyJSONText`) instead of lines.
    var json: Bool

    /// What `--all` prints.
    private struct Report: Encodable {
        /// The budget in force and its use; `nil` when a key file cannot be read.
        var budget: BudgetReport?
        /// Each app's part, by app id.
        var apps: [String: AppReport]
    }

    /// A handed-over message: the handover's fields, and whether it still keeps the message
    /// back (`StateCommand.isWaiting`); when not, the next check shows it again.
    private struct HandoverReport: Encodable {
        var handover: Handover
        var waiting: Bool

        private enum Keys: String, CodingKey {
            case waiting
        }

        func encode(to encoder: Encoder) throws {
            try handover.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(waiting, forKey: .waiting)
        }
    }

    /// One app's part.
    private struct AppReport: Encodable {
        var stateFile: String
        /// Why the state cannot be shown, when it cannot.
        var problem: String?
        var muted: Mute?
        /// The categories muted for the app, by name, and by whom.
        var mutedCategories: [String: Mute]?
        /// How often and when each message was shown.
        var shows: [String: HeraldState.ShowRecord] = [:]
        /// The messages waiting for room in the budget or for quiet to end, from the ledger.
        var waiting: [String: AttentionLedger.Waiting] = [:]
        /// The messages put off with remind me later, and when.
        var reminded: [String: Date] = [:]
        /// The messages handed over to outlive their check.
        var handedOver: [String: HandoverReport] = [:]
        /// The budget this app's showings used.
        var used: BudgetReport.Window
    }

    func run() throws {
        let environment = ProcessEnvironment.read()
        let folder = KnownApps.stateFolder
        var switches: OffSwitches?
        do throws(OffSwitchFileError) { switches = try OffSwitchFiles.read(environment: environment) } catch {
            EventReporter.complain(error.description)
        }
        let now = Date()
        // A ledger that cannot be read is named (by `ledger()`), its budget left out, and every
        // app is listed still.
        let read = try? BudgetCommand.ledger()
        let ledger = AttentionPolicy.pruned(read ?? AttentionLedger(), now: now, isLive: \.processRuns)
        var report = Report(budget: read == nil ? nil : switches.map { BudgetReport($0, ledger: ledger, now: now) }, apps: [:])
        var unreadable = read == nil
        for appID in KnownApps.stateFileApps(in: folder) {
            let paths: HeraldPaths
            do { paths = try HeraldPaths(appID: appID, environment: environment) } catch { continue }
            var app = AppReport(stateFile: paths.stateFile,
                                used: BudgetReport.used(AttentionLedger(shows: ledger.shows.filter { $0.app == appID }), now: now))
            if let decision = switches?.decision(for: appID).adding(DesktopSwitchFiles.read(appID: appID, environment: environment)) {
                app.muted = decision.mute
                app.mutedCategories = Dictionary(uniqueKeysWithValues: decision.mutedCategories.map { ($0.key.rawValue, $0.value) })
            }
            app.waiting = ledger.waiting[appID] ?? [:]
            do {
                if let state = try FileStateStore(paths: paths).inspect() {
                    app.shows = state.shows
                    app.reminded = state.reminded
                    app.handedOver = state.handedOver.mapValues { HandoverReport(handover: $0, waiting: StateCommand.isWaiting($0, now: now)) }
                } else {
                    app.problem = "damaged: it does not decode; the next check moves it aside and starts over"
                }
            } catch let error as StateStoreError {
                app.problem = error.description
            }
            if let problem = app.problem {
                unreadable = true
                EventReporter.complain("\(appID): \(problem)")
            }
            report.apps[appID] = app
        }
        if json {
            say(lines: try FeedValue(encoding: report).prettyJSONText)
        } else {
            if let budget = report.budget { for line in budget.lines { say(line) } }
            if report.apps.isEmpty { say("no app has a state yet (\(folder))") }
            for (appID, app) in report.apps.sorted(by: { $0.key < $1.key }) {
                for line in Self.describe(app, appID: appID, now: now) { say(line) }
            }
        }
        if switches == nil { throw ExitCode(.configuration) }
        if unreadable { throw ExitCode(.cannotCreate) }
    }

    /// One app's part in lines for people, its details indented under its id.
    private static func describe(_ app: AppReport, appID: String, now: Date) -> [String] {
        var lines = ["\(appID) (\(app.stateFile))"]
        if let problem = app.problem { lines.append("  state: \(problem)") }
        if let muted = app.mutedCategories {
            lines.append("  muted: \(app.muted?.summary ?? "no")")
            lines.append("  muted categories: " + (muted.isEmpty ? "none" : muted.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value.summary)" }.joined(separator: ", ")))
        }
        let shown = app.shows.sorted { $0.key < $1.key }
        // A state that cannot be read says nothing of what was shown: no "none" then.
        if shown.isEmpty, app.problem == nil { lines.append("  shown: none") }
        for (key, record) in shown {
            lines.append("  shown: \(key) \(record.count == 1 ? "once" : "\(record.count) times"), last at \(ISO8601Moment.text(record.last))")
        }
        var waiting: [(key: String, line: String)] = app.waiting.map { key, entry in
            let why = entry.reason == .budget ? "for room in the budget" : "for quiet to end"
            return (key, "\(key) \(why) since \(ISO8601Moment.text(entry.since)), priority \(NumberText.plain(entry.priority))")
        }
        waiting += app.reminded.map { key, at in (key, "\(key) reminded at \(ISO8601Moment.text(at))") }
        waiting += app.handedOver.map { key, report in (key, StateCommand.describe(report.handover, key: key, now: now)) }
        if waiting.isEmpty { lines.append("  waiting: none") }
        for entry in waiting.sorted(by: { ($0.key, $0.line) < ($1.key, $1.line) }) { lines.append("  waiting: " + entry.line) }
        lines.append("  budget used: \(app.used.day) in the last 24 hours, \(app.used.week) in the last 7 days")
        return lines
    }
}
