import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// Something a check shows: a feed message or a local prompt.
///
/// The check shows both the same way (content for the server's capabilities, claim, show,
/// answer, record); this type holds the few places where they differ: their content, what
/// an action or a close means for them, and which delegate events they send.
public enum Notice: Equatable {
    /// A message of the feed.
    case message(FeedEntry)
    /// A local prompt (iPrompt's job).
    case prompt(Prompt)

    /// What a claim and the check's list of what is on screen are keyed by.
    enum Subject: Hashable {
        case message(String)
        case prompt(String)
    }

    /// What the user's answer, or a close that counts as one, records.
    enum Response {
        case message(Answer)
        case prompt(PromptButton)
    }

    var subject: Subject {
        switch self {
        case .message(let entry): return .message(entry.key)
        case .prompt(let prompt): return .prompt(prompt.name)
        }
    }

    /// The link the view (or action) button opens.
    var link: String? {
        switch self {
        case .message(let entry): return entry.actionURL
        case .prompt(let prompt): return prompt.actionURL
        }
    }

    var messageKeys: [String] { if case .message(let entry) = self { [entry.key] } else { [] } }
    var promptNames: [String] { if case .prompt(let prompt) = self { [prompt.name] } else { [] } }

    /// The notification for the server's capabilities (DESIGN.md D8, D9, D11, D13).
    func content(labels: Labels, capabilities: Set<String>, appName: String, allowsCriticalUrgency: Bool) -> NotificationContent {
        switch self {
        case .message(let entry):
            return NotificationContent.make(for: entry, labels: labels, capabilities: capabilities, fallbackSummary: appName,
                                            allowsCriticalUrgency: allowsCriticalUrgency)
        case .prompt(let prompt):
            return PromptPolicy.content(of: prompt, labels: labels, capabilities: capabilities)
        }
    }

    /// What a response records: an action by its id ("default" is the body click, D8), a
    /// dismissal as remind later (D7); `nil` for a close that changes nothing or an unknown id.
    func answer(for response: NotificationResponse) -> Response? {
        switch (self, response) {
        case (.message(let entry), .action(let id)): return NotificationContent.answer(forActionID: id, entry: entry).map(Response.message)
        case (.prompt, .action(let id)): return PromptPolicy.button(forActionID: id).map(Response.prompt)
        case (.message, .closed(let reason)): return CheckPolicy.answer(forClose: reason).map(Response.message)
        case (.prompt, .closed(let reason)): return CheckPolicy.answer(forClose: reason) == .remind ? .prompt(.remind) : nil
        }
    }

    /// The state after the answer, with this item's claim dropped.
    func record(_ response: Response, in state: HeraldState, now: Date) -> HeraldState {
        switch (self, response) {
        case (.message(let entry), .message(let answer)): return CheckPolicy.apply(answer, to: entry.key, state: state, now: now)
        case (.prompt(let prompt), .prompt(let button)): return PromptPolicy.apply(button, to: prompt, in: state, now: now)
        default: return state
        }
    }

    /// Without action buttons there is no answer: showing is viewing, or the prompt's action (D11).
    func recordShownWithoutButtons(in state: HeraldState, now: Date) -> HeraldState {
        switch self {
        case .message: return record(.message(.view), in: state, now: now)
        case .prompt: return record(.prompt(.action), in: state, now: now)
        }
    }

    // MARK: - Events

    @MainContext
    func reportShown(notificationID: UInt32, herald: Herald) {
        herald.delegate?.herald(herald, didShow: self, notificationID: notificationID)
    }

    /// Tells the `Herald`'s handover observer the message was handed over to `place`; without
    /// one, the delegate hears it as shown.
    @MainContext
    func reportHandedOver(to place: Handover.Place, notificationID: UInt32, herald: Herald) {
        guard let observer = herald.handoverObserver else { return reportShown(notificationID: notificationID, herald: herald) }
        observer.herald(herald, didHandOver: self, to: place, notificationID: notificationID)
    }

    @MainContext
    func reportClosed(_ reason: CloseReason, herald: Herald) {
        herald.delegate?.herald(herald, didClose: self, reason: reason)
    }

    /// The message's key or the prompt's name.
    var name: String {
        switch self {
        case .message(let entry): return entry.key
        case .prompt(let prompt): return prompt.name
        }
    }

    /// Tells the delegate that the user's answer could not be written, before `act` reports it.
    @MainContext
    func reportUnrecorded(_ failure: HeraldError, herald: Herald) {
        herald.delegate?.herald(herald, didReport: .answerNotRecorded(key: name, error: failure))
    }

    /// After the answer is recorded: tells the delegate, and opens the link of a view or a
    /// prompt's action with `opener` (after the delegate heard of it, as ORIGINALS.md §1.10
    /// orders it).
    @MainContext
    func act(on answer: Response?, response: NotificationResponse, herald: Herald, opener: any LinkOpening) {
        let delegate = herald.delegate
        switch (self, answer, response) {
        case (_, _, .closed(let reason)):
            reportClosed(reason, herald: herald)
        case (.message(let entry), .message(let answer)?, .action):
            delegate?.herald(herald, didReceive: .message(entry, answer))
            if answer == .view, let url = entry.actionURL { Self.open(url, with: opener, herald: herald) }
        case (.prompt(let prompt), .prompt(let button)?, .action):
            delegate?.herald(herald, didReceive: .prompt(prompt, button))
            if button == .action, let url = prompt.actionURL, delegate?.herald(herald, shouldOpenActionURLFor: prompt) ?? true {
                Self.open(url, with: opener, herald: herald)
            }
        default:
            reportClosed(.undefined, herald: herald)
        }
    }

    /// Opens a link, telling the delegate when no application could be started for it.
    @MainContext
    static func open(_ url: String, with opener: any LinkOpening, herald: Herald) {
        do { try opener.open(url) } catch { herald.delegate?.herald(herald, didReport: .linkNotOpened(url: url, reason: error.reason)) }
    }
}
