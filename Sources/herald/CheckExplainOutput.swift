import ArgumentParser
import FoundationEssentials
import Herald
import HeraldCore

/// `herald check --explain`: what a check would do with each message of the feed now, and why,
/// without showing anything or touching the state.
///
/// The feed is fetched as a check fetches it (the feed argument's forms, `{lang}`, the public
/// key) but without the cached copy, so no conditional request and nothing cached; the state
/// file is read without the lock, so not even the lock file is created. The prompts of a
/// prompts file follow the messages, decided as a launch check decides them (none with
/// `--force`: a manual check shows no prompt).
@MainContext
struct CheckExplanation {
    let line: CheckCommandLine
    let prompts: [Prompt]

    /// Prints the explanation and returns the exit status: done, or the failure's as for a check.
    func run() -> Int32 {
        let configuration = line.configuration
        let json = line.json
        let made: (herald: Herald, file: FileStateStore?)
        do { made = try CheckSession.makeHerald(configuration, store: nil) } catch { return error.rawValue }
        // Without a store of its own, the Herald is on the app's state file.
        let herald = made.herald, store = made.file!
        if !line.force { for prompt in prompts { herald.register(prompt) } }
        var state = HeraldState()
        do {
            if let read = try store.inspect() {
                state = read
            } else {
                EventReporter.complain("\(store.paths.stateFile) does not decode (a check would move it aside): explained as a first launch")
            }
        } catch {
            EventReporter.complain(StateStoreError(error, writing: "the state").description)
            return ExitStatus.cannotCreate.code
        }
        // The stages go in a check's order: the off switches first, so a muted app fetches
        // nothing, and the administrator's mirror is the feed explained.
        switch herald.explainCheck(state: state, force: line.force, load: { source, accepted in source.loadOnce(accepted: accepted) }) {
        case .stopped(.muted(let mute)):
            let skip = CheckSkipReason.muted(mute)
            say(json ? Self.event("check-skipped", EventReporter.fields(of: skip))
                  : "no check: \(skip); no message\(herald.registeredPrompts.isEmpty ? "" : " or prompt") is shown")
            return ExitStatus.done.code
        case .stopped(.keyFile(let problem)):
            EventReporter.complain(problem)
            return ExitStatus(HeraldError.keyFile(problem)).code
        case .notFetched(let error, let prompts):
            EventReporter.complain(error.description)
            sayPrompts(prompts)
            return ExitStatus(error).code
        case .explained(let skip, let loaded, let messages, let prompts):
            if let skip {
                say(json ? Self.event("check-skipped", EventReporter.fields(of: skip))
                      : "no check now (\(skip)); a due check would decide:")
            }
            if let note = FeedSource.languageNote(of: loaded, source: line.feed) {
                say(json ? Self.event("feed-url", ["url": .string(loaded.url), "notFound": .array(loaded.notFound.map(FeedValue.string))]) : note)
            }
            for explanation in messages { say(json ? Self.data(of: explanation) : Self.line(for: explanation)) }
            sayPrompts(prompts)
            return ExitStatus.done.code
        }
    }

    /// Prints a line per prompt.
    private func sayPrompts(_ prompts: [PromptExplanation]) {
        for explanation in prompts {
            say(line.json ? Self.data(of: explanation) : "prompt '\(explanation.name)' \(explanation)")
        }
    }

    /// `{"event": "prompt-explained", "prompt", "decision", "reason", "detail"}`.
    static func data(of explanation: PromptExplanation) -> String {
        event("prompt-explained", [
            "prompt": .string(explanation.name), "decision": .string(explanation.verdict),
            "reason": .string(explanation.reason), "detail": .string(explanation.detail),
        ])
    }

    /// `2027/01/01  New release: shows`, `2026/12/01  For KDE users: not shown: not for this desktop (other-desktop)`.
    static func line(for explanation: MessageExplanation) -> String {
        "\(explanation.key)  \(explanation.title ?? "(no title)"): \(explanation.verdict)"
    }

    /// `{"event": "explained", "key", "title", "decision", "reason", "detail"}`, with `null`
    /// where there is no title, reason or detail.
    static func data(of explanation: MessageExplanation) -> String {
        let verdict = explanation.verdict
        return event("explained", [
            "key": .string(explanation.key), "title": explanation.title.map(FeedValue.string) ?? .null,
            "decision": .string(verdict.decision), "reason": verdict.reason.map(FeedValue.string) ?? .null,
            "detail": verdict.detail.map(FeedValue.string) ?? .null,
        ])
    }

    private static func event(_ name: String, _ fields: [String: FeedValue]) -> String {
        EventReporter.jsonLine(name, fields).jsonText
    }
}
