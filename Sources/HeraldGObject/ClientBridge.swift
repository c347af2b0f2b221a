import FoundationEssentials
import Glibc
import Herald
import libherald

/// One `HeraldClient`'s Herald, and the delegate that reports its events to the client's
/// signals through libherald's callbacks.
///
/// Held by the client (`libherald_bridge_new` to `libherald_bridge_free`); the `Herald` keeps
/// itself alive while a check runs, and once the client lets the bridge go it reports nothing.
@MainContext
final class ClientBridge: HeraldDelegate {
    let herald: Herald
    private let callbacks: LibheraldCallbacks
    /// The `HeraldClient`, until it lets go of this bridge.
    private var client: UnsafeMutableRawPointer?

    init(herald: Herald, callbacks: LibheraldCallbacks, client: UnsafeMutableRawPointer) {
        self.herald = herald
        self.callbacks = callbacks
        self.client = client
    }

    /// Reports nothing more, and leaves the Herald to finish its check alone.
    func detach() {
        client = nil
        herald.delegate = nil
    }

    func herald(_ herald: Herald, shouldShow notice: Notice) -> Bool {
        guard let client, let ask = callbacks.should_show else { return true }
        let shown = ShownNotice(notice)
        return withCStrings([shown.id, shown.title, shown.body, shown.actionURL, shown.buttonLabel]) { texts in
            ask(client, texts[0], texts[1], texts[2], texts[3], texts[4], shown.details, gboolean(shown.isPrompt)) != 0
        }
    }

    func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32) {
        guard let client, let report = callbacks.shown else { return }
        let shown = ShownNotice(notice)
        withCStrings([shown.id]) { report(client, $0[0], gboolean(shown.isPrompt)) }
    }

    func herald(_ herald: Herald, didReceive answer: NoticeAnswer) {
        switch answer {
        case .message(let entry, let answer): reportAnswer(id: entry.key, answer: answer.rawValue, isPrompt: false, whileAway: false)
        case .prompt(let prompt, let button): reportAnswer(id: prompt.name, answer: button.rawValue, isPrompt: true, whileAway: false)
        }
    }

    func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason) {
        guard let client, let report = callbacks.closed else { return }
        let shown = ShownNotice(notice)
        withCStrings([shown.id, reason.rawValue]) { report(client, $0[0], $0[1], gboolean(shown.isPrompt)) }
    }

    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .checkSkipped(let reason): reportEvent(HERALD_EVENT_CHECK_SKIPPED, reason: reason.name, detail: reason.description)
        case .checkDeferred(let quiet): reportEvent(HERALD_EVENT_CHECK_DEFERRED, reason: quiet.name, detail: quiet.description)
        case .fetchingMirror(let mirror): reportEvent(HERALD_EVENT_FETCHING_MIRROR, subject: mirror.url, detail: mirror.description)
        case .feedFetched(_, let notModified): reportEvent(HERALD_EVENT_FEED_FETCHED, reason: notModified ? "not-modified" : "fetched")
        case .budgetNotKept(let error): reportEvent(HERALD_EVENT_BUDGET_NOT_KEPT, reason: error.kind, detail: error.description)
        case .pending(let entries): reportEvent(HERALD_EVENT_PENDING, subject: entries.map(\.key).joined(separator: "\n"))
        case .messageSkipped(let key, let reason):
            reportEvent(HERALD_EVENT_MESSAGE_SKIPPED, subject: key, reason: reason.name, detail: reason.description)
        case .promptDecided(let prompt, let decision):
            reportEvent(HERALD_EVENT_PROMPT_DECIDED, subject: prompt.name, reason: decision.name, detail: decision.description)
        case .linkNotOpened(let url, let reason): reportEvent(HERALD_EVENT_LINK_NOT_OPENED, subject: url, detail: reason)
        case .answerNotRecorded(let key, let error):
            reportEvent(HERALD_EVENT_ANSWER_NOT_RECORDED, subject: key, reason: error.kind, detail: error.description)
        case .checkFailed(let error):
            guard let client, let report = callbacks.failed else { return }
            withCStrings([error.description]) { report(client, error.errorCode, $0[0]) }
        case .checkFinished:
            guard let client, let report = callbacks.check_finished else { return }
            report(client)
        case .answeredWhileAway(let key, let answer, _):
            reportAnswer(id: key, answer: answer.rawValue, isPrompt: false, whileAway: true)
        }
    }

    private func reportAnswer(id: String, answer: String, isPrompt: Bool, whileAway: Bool) {
        guard let client, let report = callbacks.answered else { return }
        withCStrings([id, answer]) { report(client, $0[0], $0[1], gboolean(isPrompt), gboolean(whileAway)) }
    }

    private func reportEvent(_ kind: HeraldEventKind, subject: String? = nil, reason: String? = nil, detail: String? = nil) {
        guard let client, let report = callbacks.event else { return }
        withCStrings([subject, reason, detail]) { report(client, Int32(kind.rawValue), $0[0], $0[1], $0[2]) }
    }
}

/// What the client's signals say of a message or a prompt.
struct ShownNotice {
    let id: String
    let title: String?
    let body: String?
    let actionURL: String?
    let buttonLabel: String?
    let isPrompt: Bool
    /// The feed's keys as a{sv}, floating; made only when asked for.
    var details: OpaquePointer {
        GVariantValue.dictionary(fields)
    }
    private let fields: [String: FeedValue]

    init(_ notice: Notice) {
        switch notice {
        case .message(let entry):
            (id, title, body, actionURL, buttonLabel, isPrompt) = (entry.key, entry.title, entry.message, entry.actionURL, entry.actionButton, false)
            fields = entry.details
        case .prompt(let prompt):
            (id, title, body, actionURL, buttonLabel, isPrompt) = (prompt.name, prompt.title, prompt.message, prompt.actionURL, prompt.actionButton, true)
            fields = [:]
        }
    }
}

/// C copies of `strings` (`nil` stays `NULL`) for the time of `body`.
func withCStrings<Result>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
    let copies = strings.map { $0.map { UnsafePointer(strdup($0)!) } }
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    return body(copies)
}

/// The C `gboolean` of a Swift `Bool`.
func gboolean(_ value: Bool) -> gboolean { value ? 1 : 0 }

extension SwiftHeraldError {
    /// The code of this error's kind (`kind`) in the `HERALD_ERROR` domain.
    var errorCode: Int32 {
        let code: libherald.HeraldError = switch self {
        case .configuration: HERALD_ERROR_CONFIGURATION
        case .keyFile: HERALD_ERROR_KEY_FILE
        case .fetch: HERALD_ERROR_FETCH
        case .feed: HERALD_ERROR_FEED
        case .noNotificationServer: HERALD_ERROR_NO_NOTIFICATION_SERVER
        case .presentation: HERALD_ERROR_PRESENTATION
        case .libraryUnavailable: HERALD_ERROR_LIBRARY_UNAVAILABLE
        case .state(.locked): HERALD_ERROR_STATE_LOCKED
        case .state: HERALD_ERROR_STATE
        case .signature(.replayed): HERALD_ERROR_FEED_REPLAYED
        case .signature(.expired): HERALD_ERROR_FEED_EXPIRED
        case .signature(.forAnotherApp): HERALD_ERROR_FEED_FOR_ANOTHER_APP
        case .signature: HERALD_ERROR_SIGNATURE
        }
        return Int32(code.rawValue)
    }
}
