import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

/// Prints a check's events: a line per event for people, or with `--json` one JSON object per
/// event on stdout. Remembers the first failure for the exit status.
@MainContext
final class EventReporter: HeraldDelegate, HandoverObserving {
    private let json: Bool
    private let verbose: Bool
    private let onFinish: () -> Void
    /// The exit status the check earned: done, or the first failure's.
    private(set) var status = ExitStatus.done
    /// Answers the user gave that the state could not keep, by message key or prompt name, with
    /// the reason it could not.
    private var unrecorded: [String: HeraldError] = [:]
    /// The prompts file of the check, named when its prompts make the state too large to write.
    var promptsFile: String?
    /// The app the events are about, named on every line (`"app"` in JSON, `APP: ` before a
    /// line for people) when one process checks several apps (`herald check --registered`).
    var app: String?

    init(json: Bool, verbose: Bool = false, onFinish: @escaping () -> Void) {
        self.json = json
        self.verbose = verbose
        self.onFinish = onFinish
    }

    /// Writes "herald: message" on stderr, as one line (`FileHandleOutput.line`).
    nonisolated static func complain(_ message: String) {
        FileHandleOutput.standardError.line("herald: \(message)")
    }

    /// Says that a corrupt state file was moved aside, and where to.
    nonisolated static func reportCorruptStateFile(_ path: String) {
        complain("the state file was corrupt; moved aside to \(path)")
    }

    /// Lines not yet written: a feed of thousands of messages skips thousands in one turn of
    /// the loop, and one write for all of them costs a fraction of a write per line. They go
    /// out before any other event's line, when the check ends, and at the loop's next turn.
    private var pending: [UInt8] = []
    private var flushScheduled = false
    /// The reason of the last skipped line, and its sentence.
    private var lastSkip: (reason: MessageSkipReason, detail: String)?

    private func emit(_ event: String, _ fields: [String: FeedValue], text: @autoclosure () -> String) {
        write(json ? jsonLine(event, fields).jsonText : named(text()))
    }

    /// An event's `--json` line, with the app it is about when `app` is set.
    private func jsonLine(_ event: String, _ fields: [String: FeedValue]) -> FeedValue {
        Self.jsonLine(event, app.map { fields.merging(["app": .string($0)]) { own, _ in own } } ?? fields)
    }

    /// A line for people, after the app it is about when `app` is set.
    private func named(_ text: String) -> String {
        app.map { "\($0): \(text)" } ?? text
    }

    /// An event as its `--json` line holds it: its fields, and its name under "event". One
    /// writer for every line (`FeedValue`'s), keys in order; `check --explain --json` too.
    nonisolated static func jsonLine(_ event: String, _ fields: [String: FeedValue]) -> FeedValue {
        var fields = fields
        fields["event"] = .string(event)
        return .dictionary(fields)
    }

    /// Writes a line, after those still pending.
    private func write(_ line: String) {
        if pending.isEmpty { return FileHandleOutput.standardOutput.line(line) }
        hold(line)
        flush()
    }

    /// Keeps a line for the next write, its characters as `FileHandleOutput.line` writes them.
    private func hold(_ line: String) {
        hold { $0.append(contentsOf: TerminalText.visible(line).utf8) }
    }

    /// Holds the line `writeLine` appends to the pending bytes.
    private func hold(writing writeLine: (inout [UInt8]) -> Void) {
        writeLine(&pending)
        pending.append(0x0A)
        guard !flushScheduled else { return }
        flushScheduled = true
        MainContext.idle { [self] in
            flushScheduled = false
            flush()
        }
    }

    /// Writes the lines still pending, in one write.
    func flush() {
        guard !pending.isEmpty else { return }
        FileHandleOutput.standardOutput.write(pending)
        pending.removeAll(keepingCapacity: true)
    }

    private func deferred(_ reason: QuietReason) {
        emit("deferred", ["reason": .string(reason.name), "detail": .string(reason.description)], text: "not now: \(reason)")
    }

    private func checkSkipped(_ reason: CheckSkipReason) {
        emit("check-skipped", Self.fields(of: reason), text: "no check: \(reason)")
    }

    /// The fields of a `check-skipped` event: the reason's name and sentence, for a mute who
    /// muted (`by`), what (`scope`) and in which file, and for a server that asked to wait its
    /// `host` and the time (`until`). `check --explain --json` writes the same.
    nonisolated static func fields(of reason: CheckSkipReason) -> [String: FeedValue] {
        var fields: [String: FeedValue] = ["reason": .string(reason.name), "detail": .string(reason.description)]
        switch reason {
        case .muted(let mute):
            fields["by"] = .string(mute.by.rawValue)
            fields["scope"] = .string(mute.scope.rawValue)
            fields["file"] = .string(mute.file)
        case .serverAskedToWait(let host, let until):
            fields.merge(retryAfterFields(RetryAfter(host: host, until: until))) { _, new in new }
        default:
            break
        }
        return fields
    }

    /// The fields that name a server that asked to wait: its `host` and `until` when.
    nonisolated static func retryAfterFields(_ asked: RetryAfter) -> [String: FeedValue] {
        ["host": .string(asked.host), "until": .string(ISO8601Moment.text(asked.until))]
    }

    private func fetching(from mirror: FeedMirror) {
        emit("mirror", ["url": .string(mirror.url), "file": .string(mirror.file)], text: "feed: \(mirror)")
    }

    private func fetched(_ feed: Feed, notModified: Bool) {
        emit(notModified ? "not-modified" : "fetched",
             ["format": .string(feed.format.rawValue), "entries": .integer(feed.entries.count),
              "problems": .array(feed.problems.map { .string($0.description) })],
             text: notModified ? "feed unchanged since the last check" : "fetched \(ValidateCommand.counted(feed.entries.count, "message"))")
        for problem in feed.problems where !json { Self.complain(named("feed entry skipped: \(problem)")) }
    }

    private func failed(_ error: HeraldError, herald: Herald) {
        if status == .done { status = ExitStatus(error) }
        // A feed that cannot be read is placed the way compilers place faults, so an editor
        // can jump to it: `feed.plist:23:5: …`, or the URL for a fetched one.
        var message = error.description
        // The prompts file is the one input whose size the state grows with at once.
        if case .state(.wouldBeTooLarge) = error, let promptsFile {
            message = "\(promptsFile) has more prompts than the state can keep: " + message
        }
        if case .feed(let feedError) = error, let url = herald.lastFeedURL ?? herald.configuration.feedURL {
            message = feedError.description(source: FeedSource.path(forFileURL: url) ?? url)
        }
        if json {
            var fields: [String: FeedValue] = ["kind": .string(error.kind), "message": .string(message), "exitCode": .integer(Int(ExitStatus(error).code))]
            if let asked = error.retryAfter { fields.merge(Self.retryAfterFields(asked)) { _, new in new } }
            emit("failed", fields, text: "")
        } else {
            flush()
            Self.complain(named(message))
        }
    }

    /// The attention ledger cannot be used: said, and the check goes on without the budget
    /// (the exit code stays the check's own).
    private func budgetNotKept(_ error: HeraldError) {
        let message = "the attention budget is not kept at this check, which shows as if none were set: \(error)"
        if json { return emit("budget-not-kept", ["message": .string(message)], text: "") }
        flush()
        Self.complain(named(message))
    }

    private func detected(_ messages: [FeedEntry]) {
        guard !messages.isEmpty else { return emit("not-detected", [:], text: "nothing pending") }
        emit("detected", ["keys": .array(messages.map { .string($0.key) })],
             text: "\(messages.count) pending: \(messages.map(\.key).joined(separator: ", "))")
    }

    /// A large feed skips thousands of messages in one turn of the loop: their lines are held
    /// and go out in one write.
    ///
    /// The messages a plan skips for one reason come together, so the reason's sentence is made
    /// once for each run of them, not for each line.
    private func skipped(_ key: String, reason: MessageSkipReason) {
        let detail = lastSkip.flatMap { $0.reason == reason ? $0.detail : nil } ?? reason.description
        lastSkip = (reason, detail)
        guard json else { return hold(named("skipped \(key): \(detail)")) }
        let line = jsonLine("skipped", ["key": .string(key), "reason": .string(reason.name), "detail": .string(detail)])
        hold { line.appendJSONText(to: &$0) }
    }

    /// The title is the summary line the server got, not the feed's raw Title; a message handed
    /// over says where it waits.
    private func shown(_ message: FeedEntry, notificationID: UInt32, herald: Herald, handedOver place: Handover.Place? = nil) {
        let title = NotificationContent.summary(of: message, fallback: herald.configuration.appName)
        var fields: [String: FeedValue] = ["key": .string(message.key), "id": .integer(Int(notificationID)), "title": .string(title)]
        fields["handedOver"] = place.map { .string($0.rawValue) }
        let whereShown = switch place {
        case .desktopList?: " (in the desktop's list)"
        case .agent?: " (held by the Herald agent)"
        case .portal?: " (through the notification portal)"
        case nil: ""
        }
        emit("shown", fields, text: "shown \(message.key): \(title)\(whereShown)")
    }

    private func answered(_ message: FeedEntry, _ answer: Answer) {
        if let error = unrecorded.removeValue(forKey: message.key) {
            emit("answer-not-recorded", ["key": .string(message.key), "action": .string(answer.rawValue), "message": .string(error.description)],
                 text: "\(message.key): \(answer.rawValue), not recorded: \(error)")
        } else {
            emit("answered", ["key": .string(message.key), "action": .string(answer.rawValue)], text: "\(message.key): \(answer.rawValue)")
        }
    }

    private func notRecorded(_ key: String, error: HeraldError) {
        unrecorded[key] = error
        if status == .done { status = ExitStatus(error) }
    }

    private func notOpened(_ url: String, reason: String) {
        emit("open-failed", ["url": .string(url), "message": .string(reason)], text: "could not open \(url): \(reason)")
    }

    /// A dismissal is kept as "remind later"; one the state could not keep is said to be lost.
    private func closed(_ message: FeedEntry, reason: CloseReason) {
        if let error = unrecorded.removeValue(forKey: message.key) {
            emit("close-not-recorded", ["key": .string(message.key), "reason": .string(reason.rawValue), "message": .string(error.description)],
                 text: "\(message.key): closed (\(reason.rawValue)), not recorded: \(error)")
        } else {
            emit("closed", ["key": .string(message.key), "reason": .string(reason.rawValue)], text: "\(message.key): closed (\(reason.rawValue))")
        }
    }

    private func decided(_ decision: PromptDecision, for prompt: Prompt) {
        guard json || verbose || prompt.verboseLogging else { return }
        emit("prompt-decision", ["prompt": .string(prompt.name), "decision": .string(decision.name), "detail": .string(decision.description)],
             text: "'\(prompt.name)' \(decision)")
    }

    private func shown(_ prompt: Prompt, notificationID: UInt32) {
        emit("prompt-shown", ["prompt": .string(prompt.name), "id": .integer(Int(notificationID)), "title": .string(prompt.title)],
             text: "shown prompt '\(prompt.name)': \(prompt.title)")
    }

    private func answered(_ prompt: Prompt, _ button: PromptButton) {
        if let error = unrecorded.removeValue(forKey: prompt.name) {
            emit("prompt-answer-not-recorded", ["prompt": .string(prompt.name), "button": .string(button.rawValue), "message": .string(error.description)],
                 text: "'\(prompt.name)': \(button.rawValue), not recorded: \(error)")
        } else {
            emit("prompt-answered", ["prompt": .string(prompt.name), "button": .string(button.rawValue)], text: "'\(prompt.name)': \(button.rawValue)")
        }
    }

    private func closed(_ prompt: Prompt, reason: CloseReason) {
        emit("prompt-closed", ["prompt": .string(prompt.name), "reason": .string(reason.rawValue)],
             text: "'\(prompt.name)': closed (\(reason.rawValue))")
    }

    private func finished() {
        flush()
        onFinish()
    }

    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .checkSkipped(let reason): checkSkipped(reason)
        case .checkDeferred(let reason): deferred(reason)
        case .fetchingMirror(let mirror): fetching(from: mirror)
        case .feedFetched(let feed, let notModified): fetched(feed, notModified: notModified)
        case .checkFailed(let error): failed(error, herald: herald)
        case .budgetNotKept(let error): budgetNotKept(error)
        case .pending(let messages): detected(messages)
        case .messageSkipped(let key, let reason): skipped(key, reason: reason)
        case .promptDecided(let prompt, let decision): decided(decision, for: prompt)
        case .linkNotOpened(let url, let reason): notOpened(url, reason: reason)
        case .answerNotRecorded(let key, let error): notRecorded(key, error: error)
        case .checkFinished: finished()
        // The tool leaves the answers given away for the app (`reportsAnswersGivenAway`).
        case .answeredWhileAway: break
        }
    }

    func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32) {
        switch notice {
        case .message(let message): shown(message, notificationID: notificationID, herald: herald)
        case .prompt(let prompt): shown(prompt, notificationID: notificationID)
        }
    }

    func herald(_ herald: Herald, didHandOver notice: Notice, to place: Handover.Place, notificationID: UInt32) {
        guard case .message(let message) = notice else { return self.herald(herald, didShow: notice, notificationID: notificationID) }
        shown(message, notificationID: notificationID, herald: herald, handedOver: place)
    }

    func herald(_ herald: Herald, didReceive answer: NoticeAnswer) {
        switch answer {
        case .message(let message, let answer): answered(message, answer)
        case .prompt(let prompt, let button): answered(prompt, button)
        }
    }

    func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason) {
        switch notice {
        case .message(let message): closed(message, reason: reason)
        case .prompt(let prompt): closed(prompt, reason: reason)
        }
    }
}
