import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// Hands messages over to the Herald agent (`org.herald.Agent1.Hold`), which holds them on
/// screen as freedesktop notifications for as long as they are there and records the answers:
/// one process for every app, started by the session bus.
package final class AgentPresenter: HandingOverPresenter {
    package let today: MessagePresenter
    private let appName: String
    private let appID: String
    private let icon: String?
    private let environment: [String: String]
    /// The agent's process and its start time, once started; `nil` before, or when it could
    /// not be started.
    private var agent: (processID: Int32, startTime: UInt64?)?
    private var started = false

    /// Creates the presenter.
    ///
    /// - Parameters:
    ///   - today: shows what is not handed over (prompts, and a message the agent refuses).
    ///   - appName, appID, icon, environment: as `DesktopPresenter` takes them.
    package init(today: MessagePresenter, appName: String, appID: String, icon: String?, environment: [String: String]) {
        (self.today, self.appName, self.appID, self.icon, self.environment) = (today, appName, appID, icon, environment)
    }

    /// The server's own, without markup: the agent shows the content on the same server, and
    /// escapes the plain body it is given for that server itself, as it takes no caller's text
    /// as markup.
    package var handoverCapabilities: Set<String>? { (try? today.capabilities())?.subtracting(["body-markup", "body-hyperlinks"]) }

    /// Starts the agent (once) and names its process; `nil` when it cannot be started.
    package func handover(link: String?, now: Date) -> Handover? {
        if !started {
            started = true
            // Named by its start time too: another process may take its PID once it has gone.
            agent = HandoverBus.startAgent().map { ($0, RunningProcess.find($0)?.startTime) }
        }
        return agent.map { Handover(place: .agent, agentProcessID: $0.processID, agentStartTime: $0.startTime, link: link, since: now) }
    }

    package func handOver(_ content: NotificationContent, key: String, as handover: Handover, stateFolder: String?) throws -> UInt32 {
        guard let stateFolder else { throw HandoverFailure.noStateFolder }
        guard let token = handover.token else { throw HandoverFailure.noToken }
        let sender = DesktopPresenter.sender(appName: appName, appID: appID, icon: icon, environment: environment)
        let urgency: UInt8 = switch content.urgency { case .low?: 0; case .critical?: 2; default: 1 }
        let notification = HeldNotification(summary: content.summary, body: content.body, appName: sender.name, icon: content.icon ?? sender.icon,
                                            urgency: urgency, actions: content.actions, desktopEntry: appID, category: content.category)
        return try HandoverBus.hold(notification, appID: appID, key: key, stateFolder: stateFolder, token: token)
    }
}
