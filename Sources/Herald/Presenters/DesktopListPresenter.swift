import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// Hands messages over to the desktop's own list (GNOME Shell's `org.gtk.Notifications`), as
/// notifications of the Herald agent whose clicks are its `app.answer` actions: they wait there,
/// stored by the shell, whatever runs, and a click starts the agent, which records the answer.
package final class DesktopListPresenter: HandingOverPresenter {
    package let today: MessagePresenter
    private let appName: String
    private let appID: String
    private let icon: String?
    private let environment: [String: String]

    /// Creates the presenter.
    ///
    /// - Parameters:
    ///   - today: shows what is not handed over (prompts, and a message the shell refuses).
    ///   - appName, appID, icon, environment: as `DesktopPresenter` takes them.
    package init(today: MessagePresenter, appName: String, appID: String, icon: String?, environment: [String: String]) {
        (self.today, self.appName, self.appID, self.icon, self.environment) = (today, appName, appID, icon, environment)
    }

    /// Buttons and plain text: GNOME Shell 43 reads no markup in the list's body.
    package var handoverCapabilities: Set<String>? { ["actions", "body"] }

    package func handover(link: String?, now: Date) -> Handover? {
        Handover(place: .desktopList, link: link, since: now)
    }

    /// Posts the message as "APPNAME: SUMMARY"; a click on the body answers what the first
    /// button does (DESIGN.md D8).
    package func handOver(_ content: NotificationContent, key: String, as handover: Handover) throws -> HandedOverMessage {
        let sender = DesktopPresenter.sender(appName: appName, appID: appID, icon: icon, environment: environment)
        let buttons = content.actions.filter { $0.id != NotificationAction.defaultID }.map { (label: $0.label, answer: $0.id) }
        let icon = content.icon ?? sender.icon
        let notification = DesktopListNotification(
            appID: appID, key: key, title: sender.name + ": " + content.summary, body: content.body,
            priority: content.urgency == .critical ? "urgent" : "normal", defaultAnswer: buttons.first?.answer, buttons: buttons,
            // A path or file URI is no themed name: the agent's own icon stands in for it.
            themedIcon: icon.contains("/") ? nil : icon)
        try HandoverBus.addToDesktopList(notification, id: Handover.notificationID(appID: appID, key: key))
        return HandedOverNotice(id: 0, handover: handover, appID: appID, key: key)
    }
}
