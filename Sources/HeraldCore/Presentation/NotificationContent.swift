/// An action offered on a notification: a stable id and its label (DESIGN.md D9).
public struct NotificationAction: Sendable, Equatable {
    /// The id sent back by the server: "default", "view", "remind", "ignore" or "ok".
    public var id: String
    /// The visible label.
    public var label: String

    /// Creates an action.
    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }

    /// The id of a click on the notification body (the spec's default action, DESIGN.md D8).
    public static let defaultID = "default"

    /// The first button, after the body click that does the same (D8) where the server takes
    /// `default` as a click on the body rather than drawing it as a second button (D24).
    static func primary(_ action: NotificationAction, capabilities: Set<String>) -> [NotificationAction] {
        let bodyClick = NotificationAction(id: defaultID, label: action.label)
        return capabilities.contains(ServerTraits.drawsDefaultActionAsButton) ? [action] : [bodyClick, action]
    }
}

/// What a message looks like on a given server: text made safe and the actions it offers.
public struct NotificationContent: Sendable, Equatable {
    /// The summary line, plain text.
    public var summary: String
    /// The body, escaped when the server reads markup.
    public var body: String
    /// The actions, "default" first where the server takes it as a click on the body (D24);
    /// empty when the server has no actions (DESIGN.md D11).
    public var actions: [NotificationAction]
    /// The urgency the message asks for (`Urgency`), critical only where the app allows it.
    package var urgency: MessageUrgency?
    /// The message's own themed icon (`Icon`), shown in place of the app's.
    public var icon: String?
    /// The message's kind (`Category`), which the desktop's own settings can turn off
    /// (`DesktopSwitches`); `nil` for a prompt.
    package var category: MessageCategory?

    /// Whether answers can come back; without, showing the message counts as viewing it.
    public var isInteractive: Bool { !actions.isEmpty }

    /// Builds the content of an entry (DESIGN.md D8, D9, D11, D13).
    ///
    /// - Parameters:
    ///   - fallbackSummary: shown when the entry has no Title (usually the app's name).
    ///   - capabilities: the server's capabilities ("actions", "body-markup", "body-hyperlinks"), as
    ///     `ServerTraits.contentCapabilities` makes them.
    ///   - allowsCriticalUrgency: whether `Urgency: critical` stays critical; otherwise normal.
    package static func make(for entry: FeedEntry, labels: Labels, capabilities: Set<String>, fallbackSummary: String,
                            allowsCriticalUrgency: Bool = false) -> NotificationContent {
        let markup = capabilities.contains("body-markup")
        var body = NotificationText.body(entry.message, markup: markup)
        var actions: [NotificationAction] = []
        if capabilities.contains("actions") {
            if entry.actionURL != nil {
                let view = entry.actionButton.map(NotificationText.summary).flatMap { $0.isEmpty ? nil : $0 } ?? labels.moreInfo
                actions += NotificationAction.primary(NotificationAction(id: Answer.view.rawValue, label: view), capabilities: capabilities)
                if !labels.remind.isEmpty { actions.append(NotificationAction(id: Answer.remind.rawValue, label: labels.remind)) }
                actions.append(NotificationAction(id: Answer.ignore.rawValue, label: labels.ignore))
            } else {
                actions = NotificationAction.primary(NotificationAction(id: Answer.ok.rawValue, label: labels.ok), capabilities: capabilities)
            }
        } else if let url = entry.actionURL {
            let link = capabilities.contains("body-hyperlinks") && markup ? NotificationText.hyperlink(url) : (markup ? NotificationText.escape(url) : url)
            body = body.isEmpty ? link : body + "\n" + link
        }
        var content = NotificationContent(summary: summary(of: entry, fallback: fallbackSummary), body: body, actions: actions)
        content.urgency = entry.urgency == .critical && !allowsCriticalUrgency ? .normal : entry.urgency
        content.icon = entry.icon
        content.category = entry.category
        return content
    }

    /// The summary line an entry is shown with: its Title made safe (DESIGN.md D13), or
    /// `fallback` (the app's name) when nothing of it is left.
    package static func summary(of entry: FeedEntry, fallback: String) -> String {
        let title = NotificationText.summary(entry.title)
        return title.isEmpty ? NotificationText.summary(fallback) : title
    }

    /// The answer an action id stands for; "default" is view, or OK without ActionURL.
    package static func answer(forActionID id: String, entry: FeedEntry) -> Answer? {
        answer(forActionID: id, hasActionURL: entry.actionURL != nil)
    }

    /// The answer an action id stands for, where only whether the message has an ActionURL is
    /// known (a notification held for a check that has gone): "default" is view, or OK without.
    package static func answer(forActionID id: String, hasActionURL: Bool) -> Answer? {
        if id == NotificationAction.defaultID { return hasActionURL ? .view : .ok }
        return Answer(rawValue: id)
    }
}
