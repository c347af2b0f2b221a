import FoundationEssentials
import HeraldCore

/// The person's inbox as the files hold it: every app's messages with where each stands
/// (`InboxPolicy.messages`, from the inbox, the app's state, the attention ledger and the off
/// switches), and answers given from it as the notification's buttons give them. What
/// `herald inbox` and the inbox window (herald-inbox) both read and write.
package struct PersonInbox {
    /// The environment whose `XDG_*` folders hold the files.
    package var environment: [String: String]
    /// The moment the inbox is read at.
    package var now: Date
    /// Whether the check holding a claim on a showing still runs.
    package var isLive: (HeraldState.Claim) -> Bool

    /// The inbox of `environment` at `now`; by default a claim holds while its process runs.
    package init(environment: [String: String], now: Date = Date(), isLive: @escaping (HeraldState.Claim) -> Bool = \.processRuns) {
        self.environment = environment
        self.now = now
        self.isLive = isLive
    }

    /// What reading the inbox found.
    package struct Listing: Equatable {
        /// The messages, in app id order, each app's newest first.
        package var messages: [InboxMessage] = []
        /// A sentence for each app left out of a listing of every app, saying so: its state
        /// cannot be read, so where its messages stand is not known. The other apps are listed.
        package var leftOut: [PersonInboxError] = []
    }

    /// The messages of `appID`, or of every app in app id order, each app's newest first;
    /// `switches` says which apps and categories are muted and the budget (`nil`: none muted,
    /// the standard budget), with what the desktop's own settings turn off (`DesktopSwitchFiles`).
    /// The inbox or the ledger that cannot be read, or `appID`'s state, is an error; in a
    /// listing of every app, an app whose state cannot be read is left out and named.
    package func messages(of appID: String?, switches: OffSwitches?) throws(PersonInboxError) -> Listing {
        let inbox: Inbox
        do {
            inbox = try FileInboxStore(environment: environment).snapshot()
        } catch {
            throw PersonInboxError(StateStoreError(error, writing: "the inbox").description)
        }
        let ledger: AttentionLedger
        do {
            ledger = try FileAttentionLedgerStore(environment: environment).snapshot()
        } catch {
            throw PersonInboxError(StateStoreError(error, writing: "the attention ledger").description)
        }
        let apps = appID.map { [$0] } ?? inbox.apps.keys.sorted()
        var listing = Listing()
        for app in apps {
            let state: HeraldState
            do throws(PersonInboxError) { state = try self.state(of: app) } catch {
                if appID != nil { throw error }
                listing.leftOut.append(PersonInboxError(error.description + "; its messages are left out"))
                continue
            }
            // The desktop's own switches too, as the app's check adds them (`Herald`'s off switches).
            let decision = (switches?.decision(for: app) ?? .none).adding(DesktopSwitchFiles.read(appID: app, environment: environment))
            let standing = InboxPolicy.Standing(state: state, ledger: ledger, switches: decision)
            listing.messages += InboxPolicy.messages(of: app, in: inbox, standing: standing, now: now, isLive: isLive)
        }
        return listing
    }

    /// The state file of `appID`.
    package func store(of appID: String) throws(PersonInboxError) -> FileStateStore {
        do {
            return FileStateStore(paths: try HeraldPaths(appID: appID, environment: environment))
        } catch {
            throw PersonInboxError(StateStoreError(error, writing: "the state").description)
        }
    }

    /// The state file of `appID`, read without its lock; none, or a damaged one, is empty.
    private func state(of appID: String) throws(PersonInboxError) -> HeraldState {
        do {
            return try store(of: appID).inspect() ?? HeraldState()
        } catch let error as PersonInboxError {
            throw error
        } catch {
            throw PersonInboxError("\(appID): " + StateStoreError(error, writing: "the state").description)
        }
    }

    /// Records `answer` to `message` as the notification's button would (`CheckPolicy.applyFromApp`,
    /// in the app's locked state update; the attention budget is not touched). A view of a
    /// message without a link is recorded as an acknowledgement (OK), as its notification's only
    /// button does. A message viewed or ignored already is left as it was. A message handed over
    /// (to GNOME Shell's list, the portal or the agent) is taken off the screen as its own
    /// button's answer takes it: its notification would answer nothing any more.
    ///
    /// - Returns: the earlier answer ("viewed", "ignored") when there was one, and nothing was
    ///   recorded; `nil` when `answer` was.
    @MainContext
    package func record(_ answer: Answer, to message: InboxMessage) throws(PersonInboxError) -> String? {
        let store = try store(of: message.appID)
        let context = PolicyContext(configuration: CheckConfiguration(), now: now, isLive: isLive)
        let given: Answer = answer == .view && message.link == nil ? .ok : answer
        do {
            var handedOver: Handover?
            let earlier = try store.update { state -> String? in
                if state.ignored?.contains(message.id) == true { return "ignored" }
                if state.viewed.contains(message.id) { return "viewed" }
                handedOver = state.handedOver[message.id]
                state = CheckPolicy.applyFromApp(given, to: message.id, state: state, in: context)
                return nil
            }
            if let handedOver { HandoverBus.withdraw(appID: message.appID, key: message.id, handedOver) }
            return earlier
        } catch {
            throw PersonInboxError("\(message.appID): " + StateStoreError(error, writing: "the state").description)
        }
    }

    /// What opening a viewed message's link came to.
    package enum LinkOutcome: Equatable {
        /// The message has no link.
        case none
        /// Opened with the desktop's handler.
        case opened(String)
        /// Not opened: the URL rules refuse it (the sentence says why).
        case refused(String)
        /// The desktop could not open it (the reason).
        case failed(String)
    }

    /// Opens `message`'s link under the URL rules, as the notification's view button does.
    package func openLink(of message: InboxMessage) -> LinkOutcome {
        guard let link = message.link else { return .none }
        if let refusal = URLRules().actionURLRefusal(link) { return .refused(refusal) }
        do throws(LinkOpenerError) {
            try LinkOpener().open(link)
            return .opened(link)
        } catch {
            return .failed(error.reason)
        }
    }
}

/// The inbox or a state file cannot be read or written: a sentence naming the file and why.
package struct PersonInboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence.
    package var description: String

    /// The error saying `description`.
    package init(_ description: String) { self.description = description }
}
