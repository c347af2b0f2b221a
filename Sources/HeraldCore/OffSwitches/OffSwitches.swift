/// Who turned an app's messages off.
package enum MuteAuthority: String, Sendable, Equatable, Codable {
    /// The person at the desktop, in their own key file (`herald mute`).
    case user
    /// The machine's administrator, in a system key file under `$XDG_CONFIG_DIRS`.
    case administrator
}

/// What a mute covers.
package enum MuteScope: String, Sendable, Equatable, Codable {
    /// This app alone (an `[app ID]` group).
    case app
    /// Every app that uses Herald (the `[all]` group).
    case allApps = "all-apps"
}

/// Why an app's messages are off: who muted it, for what, and in which file.
public struct Mute: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Who muted it.
    package var by: MuteAuthority
    /// This app alone, or every app.
    package var scope: MuteScope
    /// The key file that says so.
    package var file: String

    /// Creates the record of a mute.
    package init(by: MuteAuthority, scope: MuteScope, file: String) {
        self.by = by
        self.scope = scope
        self.file = file
    }

    /// Who and what, for people: "by the administrator for every app (/etc/xdg/herald/herald.conf)".
    package var summary: String {
        let who = by == .user ? "the user" : "the administrator"
        return "by \(who) \(scope == .app ? "for this app" : "for every app") (\(file))"
    }

    /// One line for people: "muted by the administrator for every app (/etc/xdg/herald/herald.conf)".
    public var description: String { "muted " + summary }
}

/// A feed URL the administrator put in place of the app's own: an internal mirror.
public struct FeedMirror: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The URL fetched instead of the app's feed.
    public var url: String
    /// The system key file that names it.
    public var file: String

    /// Creates the record of a mirror.
    public init(url: String, file: String) {
        self.url = url
        self.file = file
    }

    /// One line for people.
    public var description: String { "\(url) (the administrator's mirror, \(file))" }
}

/// What one key file says, as values: the `[all]` group and each `[app ID]` group.
///
/// The file is a GLib key file:
///
/// ```ini
/// [all]
/// Muted=true
///
/// [app org.example.App]
/// Muted=true
/// FeedURL=https://mirror.example.com/org.example.App/feed.plist
/// ```
///
/// A key that is absent says nothing, so a less important file (or the `[all]` group) decides.
package struct OffSwitchSettings: Sendable, Equatable {
    /// The settings of one `[app ID]` group.
    package struct App: Sendable, Equatable {
        /// `Muted`: true mutes the app, false makes an exception to an `[all]` mute of the same file.
        package var muted: Bool?
        /// `FeedURL`: the feed fetched instead of the app's own (read from system files only).
        package var feedURL: String?

        /// Creates an app's settings.
        package init(muted: Bool? = nil, feedURL: String? = nil) {
            self.muted = muted
            self.feedURL = feedURL
        }
    }

    /// The group that applies to every app.
    package static let allGroup = "all"
    /// The prefix of an app's group name: `[app org.example.App]`.
    package static let appGroupPrefix = "app "
    /// The key that mutes (`true`) or unmutes (`false`).
    package static let mutedKey = "Muted"
    /// The key that re-points an app's feed.
    package static let feedURLKey = "FeedURL"

    /// The file these settings were read from.
    package var file: String
    /// `[all]` `Muted`.
    package var allMuted: Bool?
    /// The `[app ID]` groups, by app id.
    package var apps: [String: App]

    /// Creates the settings of one file.
    package init(file: String, allMuted: Bool? = nil, apps: [String: App] = [:]) {
        self.file = file
        self.allMuted = allMuted
        self.apps = apps
    }

    /// The group name of an app's settings.
    package static func group(for appID: String) -> String { appGroupPrefix + appID }

    /// The app id a group name is for, or `nil` when it is not an app's group.
    package static func appID(ofGroup group: String) -> String? {
        group.hasPrefix(appGroupPrefix) ? String(group.dropFirst(appGroupPrefix.count)) : nil
    }

    /// This file's mute of an app: its own group first, then `[all]`; `Muted=false` in the
    /// app's group is an exception to the file's `[all]`.
    func mute(of appID: String, by authority: MuteAuthority) -> Mute? {
        if let muted = apps[appID]?.muted { return muted ? Mute(by: authority, scope: .app, file: file) : nil }
        return allMuted == true ? Mute(by: authority, scope: .allApps, file: file) : nil
    }
}

/// Whether an app's messages are off and where its feed comes from.
package struct OffSwitchDecision: Sendable, Equatable {
    /// Why the app is muted; `nil` when it is not. Nothing is fetched or shown while it is.
    package var mute: Mute?
    /// The administrator's feed URL for the app, if any.
    package var mirror: FeedMirror?
    /// The message categories muted for the app, and by whom.
    package var mutedCategories: [MessageCategory: Mute]
    /// The person's attention budget, under the administrator's ceiling.
    package var budget: AttentionBudget

    /// Creates a decision.
    package init(mute: Mute? = nil, mirror: FeedMirror? = nil, mutedCategories: [MessageCategory: Mute] = [:],
                 budget: AttentionBudget = .standard) {
        self.mute = mute
        self.mirror = mirror
        self.mutedCategories = mutedCategories
        self.budget = budget
    }

    /// Nothing muted, nothing re-pointed.
    package static let none = OffSwitchDecision()

    /// The feed a check fetches: the mirror's, or the app's own.
    package func feedURL(replacing own: String?) -> String? {
        guard own != nil else { return nil }
        return mirror?.url ?? own
    }

    /// Why the mirror may not be fetched under the app's rules, or `nil` when it may (or there
    /// is none): a mirror passes the same rules as any feed URL.
    package func mirrorRefusal(_ rules: URLRules) -> String? {
        guard let mirror, let refusal = rules.feedURLRefusal(mirror.url) else { return nil }
        return "the feed URL \(mirror.url) of \(mirror.file) is refused: \(refusal)"
    }

    /// What a check (or its explanation) does under this decision, before any network traffic.
    package enum Outcome: Sendable, Equatable {
        /// Stop: the app is muted.
        case muted(Mute)
        /// Fail: the mirror is refused by the URL rules; nothing is fetched, not the app's own feed.
        case refused(String)
        /// Go on with this feed (`nil` for an app with prompts only), and the mirror it is, if any.
        case fetch(feedURL: String?, mirror: FeedMirror?)
    }

    /// The outcome for an app whose own feed is `own`, under `rules`.
    package func outcome(forFeed own: String?, rules: URLRules) -> Outcome {
        if let mute { return .muted(mute) }
        let url = feedURL(replacing: own)
        guard url != nil, mirror != nil else { return .fetch(feedURL: url, mirror: nil) }
        if let refusal = mirrorRefusal(rules) { return .refused(refusal) }
        return .fetch(feedURL: url, mirror: mirror)
    }
}

/// The key files of one user, read: the administrator's system files and the user's own.
///
/// The pure half of the off switches (the files are read by `HeraldDesktop.OffSwitchFiles`).
/// The administrator's word comes first and the user's file cannot override it: a user's
/// `Muted=false` unmutes only what the user muted.
package struct OffSwitches: Sendable, Equatable {
    /// The system files, most important first (the order of `$XDG_CONFIG_DIRS`).
    package var system: [OffSwitchSettings]
    /// The user's file.
    package var user: OffSwitchSettings

    /// Creates the settings from files read.
    package init(system: [OffSwitchSettings], user: OffSwitchSettings) {
        self.system = system
        self.user = user
    }

    /// The administrator's mute of an app, if any, naming the file that decided it. As the XDG
    /// base directory rules have it, the most important file that says anything decides: in
    /// it, the app's own `Muted` before its `[all]`; a less important file (a package's
    /// default, say) cannot undo what a more important one said.
    package func administratorMute(of appID: String) -> Mute? {
        for file in system {
            if let muted = file.apps[appID]?.muted { return muted ? Mute(by: .administrator, scope: .app, file: file.file) : nil }
            if let all = file.allMuted { return all ? Mute(by: .administrator, scope: .allApps, file: file.file) : nil }
        }
        return nil
    }

    /// The administrator's mute of every app, if any.
    package var administratorMutesAll: Mute? {
        guard let file = system.first(where: { $0.allMuted != nil }), file.allMuted == true else { return nil }
        return Mute(by: .administrator, scope: .allApps, file: file.file)
    }

    /// Whether an app is muted, by whom, and which feed it fetches.
    package func decision(for appID: String) -> OffSwitchDecision {
        let mirror = system.lazy.compactMap { file in file.apps[appID]?.feedURL.map { FeedMirror(url: $0, file: file.file) } }.first
        return OffSwitchDecision(mute: administratorMute(of: appID) ?? user.mute(of: appID, by: .user), mirror: mirror)
    }

    /// The apps the user muted one by one, sorted.
    package var appsMutedByUser: [String] { user.apps.filter { $0.value.muted == true }.map(\.key).sorted() }
}

/// What `herald mute` and `herald unmute` act on.
package enum MuteTarget: Sendable, Equatable {
    /// One app, by id.
    case app(String)
    /// Every app (`--all`).
    case allApps
}

/// One change to the user's key file; the rest of the file (comments included) stays.
package enum OffSwitchEdit: Sendable, Equatable {
    /// Sets a boolean key of a group, adding the group when needed.
    case set(group: String, key: String, value: Bool)
    /// Removes a key, and its group when nothing else is left in it.
    case remove(group: String, key: String)
}

extension OffSwitches {
    /// The change to the user's file that mutes `target`, or `nil` when the file says so already.
    ///
    /// An app muted on its own stays muted after an `unmute --all`, so muting an app that is
    /// muted only by the user's `[all]` still writes its own `Muted=true`.
    package func muting(_ target: MuteTarget) -> OffSwitchEdit? {
        switch target {
        case .app(let appID):
            if user.apps[appID]?.muted == true { return nil }
            return .set(group: OffSwitchSettings.group(for: appID), key: OffSwitchSettings.mutedKey, value: true)
        case .allApps:
            if user.allMuted == true { return nil }
            return .set(group: OffSwitchSettings.allGroup, key: OffSwitchSettings.mutedKey, value: true)
        }
    }

    /// The change to the user's file that unmutes `target`: `nil` when the user has not muted
    /// it, or the administrator's mute when that is what keeps it muted, which the user's
    /// file cannot override.
    ///
    /// Unmuting one app while the user mutes every app makes that app an exception
    /// (`Muted=false`); otherwise the app's `Muted` goes.
    package func unmuting(_ target: MuteTarget) -> Result<OffSwitchEdit?, AdministratorMute> {
        switch target {
        case .app(let appID):
            if let mute = administratorMute(of: appID) { return .failure(AdministratorMute(mute: mute)) }
            guard user.mute(of: appID, by: .user) != nil else { return .success(nil) }
            let group = OffSwitchSettings.group(for: appID)
            if user.allMuted == true { return .success(.set(group: group, key: OffSwitchSettings.mutedKey, value: false)) }
            return .success(.remove(group: group, key: OffSwitchSettings.mutedKey))
        case .allApps:
            if let mute = administratorMutesAll { return .failure(AdministratorMute(mute: mute)) }
            guard user.allMuted == true else { return .success(nil) }
            return .success(.remove(group: OffSwitchSettings.allGroup, key: OffSwitchSettings.mutedKey))
        }
    }
}

/// An unmute the user's file cannot make: the administrator's mute stands.
package struct AdministratorMute: Error, Sendable, Equatable {
    /// The administrator's mute.
    package var mute: Mute

    /// Creates the refusal.
    package init(mute: Mute) { self.mute = mute }
}
