/// What a notification server does with a notification beyond what its capabilities say
/// (DESIGN.md D24; DESKTOPS.md "What each server does").
///
/// The content is built for a set of capabilities; these rules turn what a server announces into
/// the set the content must be built for, so that every server shows a message's text as typed
/// and its buttons once each.
package enum ServerTraits {
    /// The name libnotify gives the server when it sends through the notification portal (in a
    /// Flatpak or Snap sandbox).
    package static let portalName = "Portal Notification"
    /// The name xfce4-notifyd gives in `GetServerInformation`.
    package static let xfceName = "Xfce Notify Daemon"

    /// A capability Herald adds for content that must not carry the `default` action: the
    /// server would draw it as a second visible button instead of taking it as a click on the
    /// body.
    package static let drawsDefaultActionAsButton = "x-herald-default-action-is-a-button"

    /// The capabilities to build content for, from those a server announced and its name.
    ///
    /// - xfce4-notifyd draws the `default` action as a button beside the others.
    /// - Through the portal, libnotify sends `default` as a button too, and the portal's backend
    ///   hands the body as sent to a desktop server that reads markup, although libnotify's own
    ///   list of the portal's capabilities lacks `body-markup`: the body is escaped as for a
    ///   server that reads markup, so markup in a feed shows as typed.
    package static func contentCapabilities(announced: Set<String>, serverName: String) -> Set<String> {
        var capabilities = announced
        if serverName == portalName {
            capabilities.insert("body-markup")
            capabilities.insert(drawsDefaultActionAsButton)
        }
        if serverName == xfceName { capabilities.insert(drawsDefaultActionAsButton) }
        return capabilities
    }

    /// Whether the server shows what Herald calls the app's name, or libnotify complains when
    /// it is set: the portal takes the sandbox's app id and nothing else.
    package static func acceptsAppName(serverName: String) -> Bool { serverName != portalName }
}
