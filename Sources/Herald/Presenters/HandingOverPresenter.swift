import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// A presenter that hands messages over to outlive the check (DESIGN.md D23): to the desktop's
/// list or to the Herald agent. What it cannot hand over it shows as `MessagePresenter` always
/// has; prompts go that way too.
@MainContext
package protocol HandingOverPresenter: MessagePresenter {
    /// What shows the messages that are not handed over, as today.
    var today: MessagePresenter { get }
    /// The capabilities a handed-over message's content is built for; `nil` for the server's own
    /// (`capabilities()`).
    var handoverCapabilities: Set<String>? { get }
    /// The handover a message whose view opens `link` would make now, or `nil` when it cannot be
    /// handed over (it is shown as today). Asked before the check records it and posts.
    func handover(link: String?, now: Date) -> Handover?
    /// Posts the message `key` where `handover` says; nothing waits on it in this process.
    ///
    /// - Parameter stateFolder: the folder of the app's state that holds the handover
    ///   (`Handover.stateFolder(of:)`), named to the agent, which records the answer there;
    ///   `nil` when the state is kept in no folder, and then only the portal can take it.
    /// - Throws: when it was not taken (the agent refuses a folder it cannot use); the check
    ///   then forgets the handover and shows it as today.
    /// - Returns: the id it has where it waits (0 in a desktop's list).
    func handOver(_ content: NotificationContent, key: String, as handover: Handover, stateFolder: String?) throws -> UInt32
}

extension HandingOverPresenter {
    /// The capabilities of `today`'s server.
    package func capabilities() throws -> Set<String> { try today.capabilities() }

    /// Shows the message as today.
    package func present(_ content: NotificationContent, link: String?, respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage {
        try today.present(content, link: link, respond: respond)
    }
}

/// Hears of a message handed over instead of `HeraldDelegate.herald(_:didShow:notificationID:)`
/// (`Herald.handoverObserver`): the `herald` tool, which says where each message went.
@MainContext
package protocol HandoverObserving: AnyObject {
    /// `message` was handed over to `place`, with the id it has there (0 in the desktop's list).
    func herald(_ herald: Herald, didHandOver message: Notice, to place: Handover.Place, notificationID: UInt32)
}

/// Hands a `herald check`'s messages over the way the session allows ("Which route a herald
/// check takes"): it asks the session bus once, when the check first has something to show, and
/// then hands over through a `DesktopListPresenter` or an `AgentPresenter`, or through neither
/// where no agent can run, so that the check shows everything as it always has.
package final class HandoverRoutePresenter: HandingOverPresenter {
    package let today: MessagePresenter
    private let appID: String
    private let appName: String
    private let icon: String?
    private let environment: [String: String]
    private let shared: SessionAnswers?
    private var route: HandingOverPresenter?
    private var chosen = false

    /// Creates the presenter; nothing touches the bus until the first message.
    ///
    /// - Parameters:
    ///   - today: shows what is not handed over.
    ///   - appName, appID, icon, environment: as `DesktopPresenter` takes them.
    ///   - shared: the route as the run of several checks asks it once for all; `nil` to ask it here.
    package init(today: MessagePresenter, appName: String, appID: String, icon: String?, environment: [String: String],
                 shared: SessionAnswers? = nil) {
        (self.today, self.appName, self.appID, self.icon, self.environment, self.shared) = (today, appName, appID, icon, environment, shared)
    }

    package func capabilities() throws -> Set<String> {
        if !chosen {
            chosen = true
            let place = if let shared { shared.handoverRoute(appID: appID, environment: environment) }
                else { HandoverBus.route(appID: appID, environment: environment) }
            switch place {
            case .agent?: route = AgentPresenter(today: today, appName: appName, appID: appID, icon: icon, environment: environment)
            case let place?:
                route = DesktopListPresenter(today: today, place: place, appName: appName, appID: appID, icon: icon, environment: environment)
            case nil: route = nil
            }
        }
        return try today.capabilities()
    }

    package var handoverCapabilities: Set<String>? { route?.handoverCapabilities }

    package func handover(link: String?, now: Date) -> Handover? { route?.handover(link: link, now: now) }

    package func handOver(_ content: NotificationContent, key: String, as handover: Handover, stateFolder: String?) throws -> UInt32 {
        guard let route else { throw HandoverFailure(reason: "no route to hand messages over") }
        return try route.handOver(content, key: key, as: handover, stateFolder: stateFolder)
    }
}

extension HandoverFailure {
    /// The agent records answers in a state folder: a state kept elsewhere (in memory) is not
    /// handed to it.
    static let noStateFolder = HandoverFailure(reason: "the app's state is kept in no folder the Herald agent could record answers in")

    /// A click is recorded only by the token its handover holds: a handover without one is not
    /// posted.
    static let noToken = HandoverFailure(reason: "the handover holds no token that its answers could be recorded by")
}
