import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// `herald state`: what Herald remembers for an app.
struct StateCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show (or reset) what Herald remembers for an app: answers, reminders, last check.",
        discussion: """
            Also shows whether the app is muted and by whom (herald mute, or the administrator's \
            key file), and the administrator's mirror of its feed. Only reads, unless --reset: a \
            damaged state file is reported and left in place. Exit codes: 0 done, 64 usage, \
            73 state unusable or damaged, 78 a key file cannot be read (the state is shown all the same).
            """
    )

    static let example = "herald state --app-id org.example.App"

    @Option(help: "The app's id.")
    var appID: String

    @Flag(help: "Print the state as JSON.")
    var json = false

    @Flag(help: "Forget everything: the next run is a first launch again.")
    var reset = false

    func validate() throws { try AppOptions.requireUsable(appID: appID) }

    func run() throws {
        let store: FileStateStore
        do {
            store = FileStateStore(paths: try HeraldPaths(appID: appID, environment: ProcessEnvironment.read()),
                                   onCorruptFile: EventReporter.reportCorruptStateFile)
        } catch {
            EventReporter.complain(StateStoreError(error, writing: "the state").description)
            throw ExitCode(64)
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
                throw ExitCode(73)
            }
            let switches = offSwitches()
            if json {
                let shown = ShownState(state: state, muted: switches?.mute, feedMirror: switches?.mirror)
                say(lines: try FeedValue(encoding: shown).prettyJSONText)
            } else {
                for line in describe(state, path: store.paths.stateFile, switches: switches) { say(line) }
            }
            if switches == nil { throw ExitCode(78) }
        } catch let error as StateStoreError {
            EventReporter.complain(error.description)
            if !reset, let hint = Self.hint(for: error, appID: appID, stateFile: store.paths.stateFile) { EventReporter.complain(hint) }
            throw ExitCode(73)
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

    /// The off switches of the app, or `nil` (said on stderr) when a key file cannot be read.
    private func offSwitches() -> OffSwitchDecision? {
        do {
            return try OffSwitchFiles.read(environment: ProcessEnvironment.read()).decision(for: appID)
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
