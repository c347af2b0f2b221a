import FoundationEssentials

/// Where the desktop's own notification settings find Herald's messages (DESIGN.md D28), and
/// what the person turned off there.
///
/// - Plasma: Herald installs `knotifications5/herald.notifyrc` (and `knotifications6/`), one
///   `[Event/CATEGORY]` per `MessageCategory`; each notification names it with the hints
///   `x-kde-appname` and `x-kde-eventId`, so System Settings → Notifications lists Herald and its
///   categories. Plasma's server shows every notification it is sent whatever the event's
///   settings say: KNotifications, in the sending program, reads the person's
///   `herald.notifyrc` and sends no popup for an event whose `Action` lacks `Popup`. Herald does
///   the same: such a category counts as muted by the person for every app.
/// - GNOME: the `desktop-entry` hint names the app's installed entry, whose switch in GNOME
///   Settings then governs the app's messages; without one, the agent's (`org.herald.Agent`), so
///   that the switch of "Herald" governs the messages of apps GNOME Settings cannot list.
package enum DesktopSwitches {
    /// The notifyrc's name: `herald.notifyrc`, the hint `x-kde-appname`.
    package static let notifyRcName = "herald"

    /// The notifyrc's file name.
    package static let notifyRcFile = notifyRcName + ".notifyrc"

    /// The folders under `$XDG_DATA_DIRS` the installed notifyrc lies in: KDE Frameworks 5's
    /// (Plasma 5) and 6's (Plasma 6).
    package static let notifyRcFolders = ["knotifications5", "knotifications6"]

    /// The `desktop-entry` hint for `appID`'s messages: the app's own id when it has an installed
    /// desktop entry (`hasEntry`), else `agentID`.
    package static func desktopEntry(appID: String, hasEntry: Bool, agentID: String) -> String {
        hasEntry ? appID : agentID
    }

    /// The hints naming Herald's notifyrc and the message's category as its event, in the order
    /// sent; none for a notification of no category (a prompt).
    package static func kdeHints(category: MessageCategory?) -> [(name: String, value: String)] {
        guard let category else { return [] }
        return [("x-kde-appname", notifyRcName), ("x-kde-eventId", category.rawValue)]
    }

    /// The categories a notifyrc turns off, with the file that does: for each category, the
    /// first file of `files` (the person's first, the installed defaults last, as KNotifications
    /// reads them) whose `[Event/CATEGORY]` has an `Action` decides; the category is off when
    /// that `Action` (`Popup|Sound`, `None`, empty) names no `Popup`.
    package static func categoriesOff(in files: [(path: String, keyFile: KeyFile)]) -> [MessageCategory: String] {
        var off: [MessageCategory: String] = [:]
        for category in MessageCategory.allCases {
            for file in files {
                guard let action = file.keyFile.string(group: "Event/" + category.rawValue, key: "Action") else { continue }
                if !action.split(separator: "|").contains(where: { $0.filter { $0 != " " } == "Popup" }) {
                    off[category] = file.path
                }
                break
            }
        }
        return off
    }

    /// The `sound` a message of `category` asks the notification portal for: `silent` for a tip,
    /// an offer or a survey, which no one needs to hear, where the portal's version is 2 or more
    /// (a portal of version 1 knows no `sound`); `nil` to send none, for the desktop's default.
    package static func portalSound(category: MessageCategory?, portalVersion: UInt32?) -> String? {
        guard let portalVersion, portalVersion >= 2, let category, [.tip, .promotion, .survey].contains(category) else { return nil }
        return "silent"
    }

    /// The id GNOME keeps an app's notification settings under: lower case, every character
    /// but a letter, a digit or a dash a dash, no two dashes in a row (GNOME Shell's
    /// `_canonicalizeId`).
    package static func gnomeSettingsID(appID: String) -> String {
        var id = ""
        for character in appID.lowercased() {
            let kept: Character = character.isASCII && (character.isLetter || character.isNumber || character == "-") ? character : "-"
            if kept == "-", id.hasSuffix("-") { continue }
            id.append(kept)
        }
        return id
    }

    /// Whether the session is GNOME's (`XDG_CURRENT_DESKTOP` names GNOME, as in `ubuntu:GNOME`):
    /// the only one whose shell obeys GNOME Settings' per-app switches.
    package static func isGnomeSession(_ environment: [String: String]) -> Bool {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").contains("GNOME")
    }

    /// The settings path of an app's switch in GNOME
    /// (`org.gnome.desktop.notifications.application`).
    package static func gnomeSettingsPath(appID: String) -> String {
        "/org/gnome/desktop/notifications/application/\(gnomeSettingsID(appID: appID))/"
    }
}

/// What the person turned off in the desktop's own notification settings.
package struct DesktopSwitchSettings: Sendable, Equatable {
    /// The categories a `herald.notifyrc` turns off, each with the file that does.
    package var categoriesOff: [MessageCategory: String]
    /// Where the app's own switch in GNOME Settings is off, that switch's settings path; else `nil`.
    package var gnomeAppSwitchOff: String?

    /// Creates the settings.
    package init(categoriesOff: [MessageCategory: String] = [:], gnomeAppSwitchOff: String? = nil) {
        self.categoriesOff = categoriesOff
        self.gnomeAppSwitchOff = gnomeAppSwitchOff
    }
}

extension OffSwitchDecision {
    /// The decision with the desktop's switches added where Herald's own files leave a thing on:
    /// GNOME's switch off mutes the app, a category off in the notifyrc mutes it for every app,
    /// both as the person's own.
    package func adding(_ desktop: DesktopSwitchSettings) -> OffSwitchDecision {
        var decision = self
        if decision.mute == nil, let path = desktop.gnomeAppSwitchOff {
            decision.mute = Mute(by: .user, scope: .app, file: "GNOME's notification settings, " + path)
        }
        for (category, file) in desktop.categoriesOff where decision.mutedCategories[category] == nil {
            decision.mutedCategories[category] = Mute(by: .user, scope: .allApps, file: file)
        }
        return decision
    }
}
