import Herald
import HeraldCore
import HeraldDesktop

/// A presenter that shows nothing: it records every message Herald would show and lets a
/// test answer it, so an app tests its delegate without a session bus.
///
/// ```swift
/// let desktop = TestDesktop()   // holds one, with the rest of the desktop's stand-ins
/// let herald = try desktop.herald(feedURL: feedURL, appID: "org.example.App", appVersion: "1.4")
/// herald.appLaunched()
/// try desktop.run(until: { !desktop.presenter.shown.isEmpty })
/// desktop.presenter.answer(desktop.presenter.shown[0], with: "ignore")
/// ```
@MainContext
public final class RecordingPresenter: MessagePresenter {
    /// One message as Herald handed it over.
    public final class Message: PresentedMessage {
        /// The notification's text and buttons.
        public let content: NotificationContent
        /// The link its view (or action) button opens.
        public let link: String?
        /// The id it was given: 1, 2, 3… in the order shown.
        public let id: UInt32
        /// Whether Herald took it off the screen (`close()`).
        public private(set) var isClosed = false
        fileprivate var respond: ((NotificationResponse) -> Void)?

        init(content: NotificationContent, link: String?, id: UInt32, respond: @escaping @MainContext (NotificationResponse) -> Void) {
            self.content = content
            self.link = link
            self.id = id
            self.respond = respond
        }

        /// Marks it closed; as a real server does, reports the close as `.closedByHerald`
        /// unless it was answered before.
        public func close() {
            isClosed = true
            deliver(.closed(.closedByHerald))
        }

        fileprivate func deliver(_ response: NotificationResponse) {
            guard let respond else { return }
            self.respond = nil
            respond(response)
        }
    }

    /// The capabilities it claims; by default those of a server with buttons and markup.
    public var serverCapabilities: Set<String>
    /// Whether a notification server is there; `false` makes `capabilities()` fail as on a
    /// desktop without one (DESIGN.md D12).
    public var isAvailable = true
    /// Whether the server refuses every notification.
    public var refusesMessages = false
    /// Whether every message gets id 1, as a server that hands out one id twice does.
    public var reusesIDs = false
    /// Every message shown, in order.
    public private(set) var shown: [Message] = []
    /// How often Herald asked for the capabilities.
    public private(set) var capabilityRequests = 0

    /// Creates a presenter for a server with these capabilities.
    public init(capabilities: Set<String> = ["actions", "body", "body-markup"]) {
        serverCapabilities = capabilities
    }

    /// The capabilities, or `HeraldError.noNotificationServer` when not available.
    public func capabilities() throws -> Set<String> {
        capabilityRequests += 1
        guard isAvailable else { throw HeraldError.noNotificationServer }
        return serverCapabilities
    }

    /// Records the message, or throws `HeraldError.presentation` when refusing.
    public func present(_ content: NotificationContent, link: String?,
                        respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage {
        guard !refusesMessages else { throw HeraldError.presentation("the notification server refused it") }
        let message = Message(content: content, link: link, id: reusesIDs ? 1 : UInt32(shown.count + 1), respond: respond)
        // As a server does, the new notification replaces the one that had its id: no answer
        // comes from that one any more.
        for replaced in shown where replaced.id == message.id { replaced.respond = nil }
        shown.append(message)
        return message
    }

    /// Answers a shown message with an action id, as a click would: "view", "remind",
    /// "ignore", "ok", or "default" for the body. A message answers once.
    public func answer(_ message: Message, with actionID: String) {
        message.deliver(.action(actionID))
    }

    /// Closes a shown message the way the server or the user would.
    public func close(_ message: Message, reason: CloseReason) {
        message.deliver(.closed(reason))
    }

    /// The shown messages whose summary is `summary`.
    public func shown(titled summary: String) -> [Message] {
        shown.filter { $0.content.summary == summary }
    }
}
