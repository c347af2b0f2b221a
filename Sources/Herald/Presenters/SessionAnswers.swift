import HeraldCore
import HeraldDesktop

/// What the session answers a check before its first message, kept for every check of one run
/// (`herald check --registered`, DESIGN.md D27): the notification server (whether it is there,
/// its capabilities and name) and the way messages are handed over. Each is asked by the first
/// check that needs it; within the run's few seconds no answer changes what a check does, so
/// twenty apps ask the bus these once, not twenty times. A single check asks for itself (no
/// `SessionAnswers`). The agent's process is not kept: each handover names the agent that
/// holds it, asked at the time, as the agent may have ended and started again since.
///
/// The route does not depend on the app in a process that is no app itself: outside a sandbox
/// it is the session's, and inside one only the app the process is can take the portal.
@MainContext
package final class SessionAnswers {
    private var server: NotificationServer?
    private var route: Handover.Place??

    /// Answers still to be asked.
    package init() {}

    /// The session's notification server, connected for `appName` by the first check that asks;
    /// `nil` while none answers, asked again by the next check, since a server may yet start.
    package func notificationServer(appName: String) -> NotificationServer? {
        if server == nil { server = NotificationServer(appName: appName) }
        return server
    }

    /// Whether a check of the run found the notification server: the next need not wait for
    /// one to appear.
    package var foundServer: Bool { server != nil }

    /// Which way messages are handed over (`HandoverBus.route`), asked by the first check that
    /// has something to show.
    package func handoverRoute(appID: String, environment: [String: String]) -> Handover.Place? {
        if let route { return route }
        let asked = HandoverBus.route(appID: appID, environment: environment)
        route = .some(asked)
        return asked
    }
}
