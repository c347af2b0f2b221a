import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// What the inbox window shows and changes: the person's messages, answers to them, and the
/// person's switches. `PersonFiles` is the one real source; the window never reads a file
/// itself.
@MainContext
protocol InboxSource {
    /// Every app's messages (app id order, each app's newest first) and the key files' switches
    /// they were read under; `problems` names what could not be read, in sentences.
    func read() -> InboxReading
    /// Records `answer` to `message` as its notification's button would (a view opens its link by
    /// the URL rules), and says what happened in one sentence.
    func answer(_ answer: Answer, to message: InboxMessage) -> String
    /// Makes `change` in the person's key file, as `herald mute`, `unmute` and `budget` do; a
    /// sentence when it was refused or failed, `nil` when it was made.
    func change(_ change: SwitchChange) -> String?
}

/// What the window shows at one moment.
struct InboxReading {
    /// The messages, every app's.
    var messages: [InboxMessage]
    /// The key files; `nil` when they cannot be read (the switches are not shown then).
    var switches: OffSwitches?
    /// What could not be read, in sentences.
    var problems: [String]
}

/// The person's files: the inbox, the apps' state, the attention ledger and the key files
/// (`PersonInbox`, `OffSwitchFiles`), in the environment's `XDG_*` folders.
@MainContext
struct PersonFiles: InboxSource {
    /// The environment whose folders hold the files.
    var environment: [String: String]

    /// The inbox at this moment.
    private var inbox: PersonInbox {
        PersonInbox(environment: environment, now: Date())
    }

    func read() -> InboxReading {
        var problems: [String] = []
        let switches: OffSwitches?
        do throws(OffSwitchFileError) { switches = try OffSwitchFiles.read(environment: environment) } catch {
            problems.append(error.description)
            switches = nil
        }
        do throws(PersonInboxError) {
            let listing = try inbox.messages(of: nil, switches: switches)
            return InboxReading(messages: listing.messages, switches: switches,
                                problems: problems + listing.leftOut.map(\.description))
        } catch {
            return InboxReading(messages: [], switches: switches, problems: problems + [error.description])
        }
    }

    func answer(_ answer: Answer, to message: InboxMessage) -> String {
        let inbox = inbox
        let title = "“\(message.title)”"
        do throws(PersonInboxError) {
            if let earlier = try inbox.record(answer, to: message) { return "\(title) was \(earlier) already" }
        } catch {
            return error.description
        }
        guard answer == .view else { return "\(title) ignored: it is not shown again" }
        switch inbox.openLink(of: message) {
        case .none: return "\(title) marked as read"
        case .opened(let link): return "\(title) viewed: opened \(link)"
        case .refused(let refusal): return "\(title) viewed; its link is not opened: \(refusal)"
        case .failed(let reason): return "\(title) viewed; its link could not be opened: \(reason)"
        }
    }

    func change(_ change: SwitchChange) -> String? {
        do {
            return try OffSwitchFiles.change(environment: environment) { switches -> (edits: [OffSwitchEdit], outcome: String?) in
                switch change.edits(under: switches) {
                case .success(let edits): return (edits, nil)
                case .failure(let refusal): return ([], refusal.description)
                }
            }
        } catch let error as OffSwitchEditError {
            return error.description
        } catch {
            return "the key file could not be changed"
        }
    }
}
