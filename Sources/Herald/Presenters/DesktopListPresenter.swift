import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// Hands messages over to a list that keeps notifications whose clicks are `app.*` actions of a
/// D-Bus-activatable application, so that they wait there whatever runs, and a click starts that
/// application to record the answer:
/// - GNOME Shell's own list (`org.gtk.Notifications`, place `.desktopList`), as notifications of
///   the Herald agent, whose `app.answer` the agent takes;
/// - the notification portal (place `.portal`), from a D-Bus-activatable app inside a Flatpak
///   sandbox, as the app's own notifications, whose `app.herald-answer` its `Herald` takes
///   (`Herald.answeredThroughPortal`).
package final class DesktopListPresenter: HandingOverPresenter {
    package let today: MessagePresenter
    private let place: Handover.Place
    private let appName: String
    private let appID: String
    private let icon: String?
    private let environment: [String: String]

    /// Creates the presenter.
    ///
    /// - Parameters:
    ///   - today: shows what is not handed over (prompts, and a message the list refuses).
    ///   - place: `.desktopList` or `.portal`.
    ///   - appName, appID, icon, environment: as `DesktopPresenter` takes them.
    package init(today: MessagePresenter, place: Handover.Place, appName: String, appID: String, icon: String?, environment: [String: String]) {
        (self.today, self.place, self.appName, self.appID, self.icon, self.environment) = (today, place, appName, appID, icon, environment)
    }

    /// Buttons and plain text: GNOME Shell 43 reads no markup in the list's body, and the
    /// portal's body is plain text.
    package var handoverCapabilities: Set<String>? { ["actions", "body"] }

    package func handover(link: String?, now: Date) -> Handover? {
        Handover(place: place, link: link, since: now)
    }

    /// Posts the message; a click on the body answers what the first button does (DESIGN.md D8).
    /// In GNOME's list it is the agent's, titled "APPNAME: SUMMARY"; through the portal it is the
    /// app's own, titled with its summary. Each click in GNOME's list names `stateFolder`, where the
    /// agent records it; through the portal the app records its own answers in its own state.
    /// Each names the handover's token, which the click is recorded by.
    package func handOver(_ content: NotificationContent, key: String, as handover: Handover, stateFolder: String?) throws -> UInt32 {
        let inList = place == .desktopList
        if inList, stateFolder == nil { throw HandoverFailure.noStateFolder }
        if handover.token == nil { throw HandoverFailure.noToken }
        let sender = DesktopPresenter.sender(appName: appName, appID: appID, icon: icon, environment: environment)
        let buttons = content.actions.filter { $0.id != NotificationAction.defaultID }.map { (label: $0.label, answer: $0.id) }
        let icon = content.icon ?? sender.icon
        let notification = DesktopListNotification(
            action: inList ? HandoverBus.agentAction : HandoverBus.appAction,
            appID: appID, key: key, title: inList ? sender.name + ": " + content.summary : content.summary, body: content.body,
            priority: content.urgency == .critical ? "urgent" : "normal", defaultAnswer: buttons.first?.answer, buttons: buttons,
            // A path or file URI is no themed name: the agent's (or the app's) own icon stands in for it.
            themedIcon: icon.contains("/") ? nil : icon, stateFolder: inList ? stateFolder : nil, token: handover.token,
            category: content.category)
        let id = Handover.notificationID(appID: appID, key: key)
        if inList { try HandoverBus.addToDesktopList(notification, id: id) } else { try HandoverBus.addThroughPortal(notification, id: id) }
        return 0
    }
}
