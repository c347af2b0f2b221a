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
/// MutedCategories=promotion;survey
/// FeedURL=https://mirror.example.com/org.example.App/feed.plist
///
/// [budget]
/// PerDay=2
/// PerWeek=6
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
        /// `MutedCategories`: the kinds of message muted for this app, as the file lists them.
        package var mutedCategories: [MessageCategory]

        /// Creates an app's settings.
        package init(muted: Bool? = nil, feedURL: String? = nil, mutedCategories: [MessageCategory] = []) {
            self.muted = muted
            self.feedURL = feedURL
            self.mutedCategories = mutedCategories
        }
    }

    /// The `[budget]` group: each figure `nil` when the file does not give it.
    package struct Budget: Sendable, Equatable {
        /// `PerDay`.
        package var perDay: Int?
        /// `PerWeek`.
        package var perWeek: Int?

        /// Creates a budget group's figures.
        package init(perDay: Int? = nil, perWeek: Int? = nil) {
            self.perDay = perDay
            self.perWeek = perWeek
        }

        /// Whether the group gives either figure.
        package var isEmpty: Bool { perDay == nil && perWeek == nil }
    }

    /// The group that applies to every app.
    package static let allGroup = "all"
    /// The prefix of an app's group name: `[app org.example.App]`.
    package static let appGroupPrefix = "app "
    /// The key that mutes (`true`) or unmutes (`false`).
    package static let mutedKey = "Muted"
    /// The key that re-points an app's feed.
    package static let feedURLKey = "FeedURL"
    /// The key that lists the message categories muted (a key-file string list).
    package static let mutedCategoriesKey = "MutedCategories"
    /// The group of the attention budget: the person's in their file, a ceiling in a system file.
    package static let budgetGroup = "budget"
    /// The budget's showings in any 24 hours.
    package static let perDayKey = "PerDay"
    /// The budget's showings in any 7 days.
    package static let perWeekKey = "PerWeek"

    /// The file these settings were read from.
    package var file: String
    /// `[all]` `Muted`.
    package var allMuted: Bool?
    /// `[all]` `MutedCategories`: the kinds of message muted for every app.
    package var allMutedCategories: [MessageCategory]
    /// The `[app ID]` groups, by app id.
    package var apps: [String: App]
    /// The `[budget]` group.
    package var budget: Budget

    /// Creates the settings of one file.
    package init(file: String, allMuted: Bool? = nil, allMutedCategories: [MessageCategory] = [], apps: [String: App] = [:],
                 budget: Budget = Budget()) {
        self.file = file
        self.allMuted = allMuted
        self.allMutedCategories = allMutedCategories
        self.apps = apps
        self.budget = budget
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

    /// This file's mute of a category for an app: the app's own list first, then `[all]`'s.
    /// A list only adds: no list unmutes what another lists.
    func mute(of category: MessageCategory, for appID: String, by authority: MuteAuthority) -> Mute? {
        if apps[appID]?.mutedCategories.contains(category) == true { return Mute(by: authority, scope: .app, file: file) }
        return allMutedCategories.contains(category) ? Mute(by: authority, scope: .allApps, file: file) : nil
    }

    /// The list of muted categories of a mute's target: `[all]`'s, or the app's.
    func mutedCategories(of target: MuteTarget) -> [MessageCategory] {
        switch target {
        case .app(let appID): return apps[appID]?.mutedCategories ?? []
        case .allApps: return allMutedCategories
        }
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

    /// Whether an app is muted, by whom, which feed it fetches, which categories are muted for
    /// it and the attention budget.
    package func decision(for appID: String) -> OffSwitchDecision {
        let mirror = system.lazy.compactMap { file in file.apps[appID]?.feedURL.map { FeedMirror(url: $0, file: file.file) } }.first
        return OffSwitchDecision(mute: administratorMute(of: appID) ?? user.mute(of: appID, by: .user), mirror: mirror,
                                 mutedCategories: mutedCategories(for: appID), budget: budget.budget)
    }

    /// The administrator's mute of a category for an app (`.app`) or for every app (`.allApps`,
    /// only an `[all]` list), naming the most important system file that mutes it.
    package func administratorMute(of category: MessageCategory, for target: MuteTarget) -> Mute? {
        for file in system {
            switch target {
            case .app(let appID):
                if let mute = file.mute(of: category, for: appID, by: .administrator) { return mute }
            case .allApps:
                if file.allMutedCategories.contains(category) { return Mute(by: .administrator, scope: .allApps, file: file.file) }
            }
        }
        return nil
    }

    /// The categories muted for an app, each with the mute that applies: the administrator's
    /// first, then the user's.
    package func mutedCategories(for appID: String) -> [MessageCategory: Mute] {
        var muted: [MessageCategory: Mute] = [:]
        for category in MessageCategory.allCases {
            muted[category] = administratorMute(of: category, for: .app(appID)) ?? user.mute(of: category, for: appID, by: .user)
        }
        return muted
    }

    /// The administrator's ceiling on the attention budget, if any: the `[budget]` group of the
    /// most important system file that has one. A figure it does not give is not capped.
    package var budgetCeiling: BudgetCeiling? {
        guard let file = system.first(where: { !$0.budget.isEmpty }) else { return nil }
        return BudgetCeiling(perDay: file.budget.perDay, perWeek: file.budget.perWeek, file: file.file)
    }

    /// The budget the person set in their file, a figure they did not set the standard's.
    package var userBudget: AttentionBudget {
        AttentionBudget(perDay: user.budget.perDay ?? AttentionBudget.standard.perDay,
                        perWeek: user.budget.perWeek ?? AttentionBudget.standard.perWeek)
    }

    /// The budget in force, and what set it: the person's (or the standard) held under the
    /// administrator's ceiling.
    package var budget: BudgetInForce {
        let own = userBudget
        let source: BudgetInForce.Source = user.budget.isEmpty ? .standard : .user(file: user.file)
        guard let ceiling = budgetCeiling, own.held(under: ceiling.budget) != own else { return BudgetInForce(budget: own, source: source) }
        return BudgetInForce(budget: own.held(under: ceiling.budget), source: .ceiling(ceiling))
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

/// The administrator's ceiling on the attention budget: no person's budget goes above it.
package struct BudgetCeiling: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The most showings in any 24 hours; `nil` when the file does not cap them.
    package var perDay: Int?
    /// The most showings in any 7 days; `nil` when the file does not cap them.
    package var perWeek: Int?
    /// The system file that sets it.
    package var file: String

    /// Creates a ceiling.
    package init(perDay: Int?, perWeek: Int?, file: String) {
        self.perDay = perDay
        self.perWeek = perWeek
        self.file = file
    }

    /// The ceiling as a budget to hold another under, a figure it does not cap
    /// `AttentionBudget.largest`.
    package var budget: AttentionBudget {
        AttentionBudget(perDay: perDay ?? AttentionBudget.largest, perWeek: perWeek ?? AttentionBudget.largest)
    }

    /// The figures it caps: "2 a day, 6 a week", "2 a day".
    package var figures: String {
        [perDay.map { "\($0) a day" }, perWeek.map { "\($0) a week" }].compactMap(\.self).joined(separator: ", ")
    }

    /// "2 a day, 6 a week (/etc/xdg/herald/herald.conf)".
    package var description: String { "\(figures) (\(file))" }
}

/// The attention budget a check keeps to, and what set it.
package struct BudgetInForce: Sendable, Equatable {
    /// What set the budget.
    package enum Source: Sendable, Equatable {
        /// Nobody: `AttentionBudget.standard`.
        case standard
        /// The person, in their file.
        case user(file: String)
        /// The administrator's ceiling, lower than what the person has (or the standard).
        case ceiling(BudgetCeiling)
    }

    /// The budget.
    package var budget: AttentionBudget
    /// What set it.
    package var source: Source

    /// Creates the record.
    package init(budget: AttentionBudget, source: Source) {
        self.budget = budget
        self.source = source
    }

    /// What set it, for people: "the default", "the user's file (PATH)", "capped by the
    /// administrator's file (PATH)".
    package var sourceSummary: String {
        switch source {
        case .standard: return "the default"
        case .user(let file): return "the user's file (\(file))"
        case .ceiling(let ceiling): return "capped by the administrator's file (\(ceiling.file))"
        }
    }
}

/// One change to the user's key file; the rest of the file (comments included) stays.
package enum OffSwitchEdit: Sendable, Equatable {
    /// Sets a boolean key of a group, adding the group when needed.
    case set(group: String, key: String, value: Bool)
    /// Sets a string-list key of a group (`MutedCategories=promotion;survey`), adding the group
    /// when needed.
    case setList(group: String, key: String, values: [String])
    /// Sets a whole-number key of a group, adding the group when needed.
    case setNumber(group: String, key: String, value: Int)
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

extension OffSwitches {
    /// The change to the user's file that mutes `categories` for `target`, or `nil` when its
    /// list names them all already. As for an app, a category the user mutes for every app is
    /// still written into an app's own list, so that it stays muted after an unmute of all.
    package func muting(_ categories: [MessageCategory], for target: MuteTarget) -> OffSwitchEdit? {
        let listed = user.mutedCategories(of: target)
        let added = categories.reduce(into: [MessageCategory]()) { list, category in
            if !listed.contains(category), !list.contains(category) { list.append(category) }
        }
        guard !added.isEmpty else { return nil }
        return .setList(group: target.group, key: OffSwitchSettings.mutedCategoriesKey, values: (listed + added).map(\.rawValue))
    }

    /// The change to the user's file that unmutes `categories` for `target`: `nil` when its
    /// list names none of them, or the administrator's mute of one, which the user's file
    /// cannot override (nothing is changed then).
    package func unmuting(_ categories: [MessageCategory], for target: MuteTarget) -> Result<OffSwitchEdit?, AdministratorMute> {
        for category in categories {
            if let mute = administratorMute(of: category, for: target) { return .failure(AdministratorMute(mute: mute)) }
        }
        let listed = user.mutedCategories(of: target)
        let kept = listed.filter { !categories.contains($0) }
        guard kept.count != listed.count else { return .success(nil) }
        let key = OffSwitchSettings.mutedCategoriesKey
        if kept.isEmpty { return .success(.remove(group: target.group, key: key)) }
        return .success(.setList(group: target.group, key: key, values: kept.map(\.rawValue)))
    }

    /// The changes to the user's file that set the budget's figures given (`nil` leaves one as
    /// it is), or the administrator's ceiling that a figure goes above (nothing is changed then).
    /// Figures the file gives already make no change.
    package func settingBudget(perDay: Int?, perWeek: Int?) -> Result<[OffSwitchEdit], BudgetAboveCeiling> {
        if let ceiling = budgetCeiling {
            let day = perDay.flatMap { asked in ceiling.perDay.map { asked > $0 } } == true ? perDay : nil
            let week = perWeek.flatMap { asked in ceiling.perWeek.map { asked > $0 } } == true ? perWeek : nil
            if day != nil || week != nil { return .failure(BudgetAboveCeiling(ceiling: ceiling, perDay: day, perWeek: week)) }
        }
        var edits: [OffSwitchEdit] = []
        let group = OffSwitchSettings.budgetGroup
        if let perDay, perDay != user.budget.perDay { edits.append(.setNumber(group: group, key: OffSwitchSettings.perDayKey, value: perDay)) }
        if let perWeek, perWeek != user.budget.perWeek {
            edits.append(.setNumber(group: group, key: OffSwitchSettings.perWeekKey, value: perWeek))
        }
        return .success(edits)
    }
}

extension MuteTarget {
    /// The group of the user's file that holds this target's settings.
    var group: String {
        switch self {
        case .app(let appID): return OffSwitchSettings.group(for: appID)
        case .allApps: return OffSwitchSettings.allGroup
        }
    }
}

/// A budget the user's file cannot set: the administrator's ceiling is lower.
package struct BudgetAboveCeiling: Error, Sendable, Equatable, CustomStringConvertible {
    /// The administrator's ceiling.
    package var ceiling: BudgetCeiling
    /// The day's figure asked for, when it is above the ceiling's.
    package var perDay: Int?
    /// The week's figure asked for, when it is above the ceiling's.
    package var perWeek: Int?

    /// Creates the refusal.
    package init(ceiling: BudgetCeiling, perDay: Int? = nil, perWeek: Int? = nil) {
        self.ceiling = ceiling
        self.perDay = perDay
        self.perWeek = perWeek
    }

    /// "5 a day is above the administrator's ceiling of 2 a day (/etc/xdg/herald/herald.conf)".
    package var description: String {
        let asked = [perDay.map { "\($0) a day" }, perWeek.map { "\($0) a week" }].compactMap(\.self)
        let capped = [perDay.flatMap { _ in ceiling.perDay.map { "\($0) a day" } }, perWeek.flatMap { _ in ceiling.perWeek.map { "\($0) a week" } }]
            .compactMap(\.self)
        return "\(asked.joined(separator: ", ")) \(asked.count == 1 ? "is" : "are") above the administrator's ceiling of "
            + "\(capped.joined(separator: ", ")) (\(ceiling.file))"
    }
}

/// An unmute the user's file cannot make: the administrator's mute stands.
package struct AdministratorMute: Error, Sendable, Equatable {
    /// The administrator's mute.
    package var mute: Mute

    /// Creates the refusal.
    package init(mute: Mute) { self.mute = mute }
}

extension MessageCategory {
    /// The category a person names, in a key file or on the command line: case and
    /// surrounding whitespace aside, as a feed's `Category` is read; `nil` for no category.
    package static func named(_ text: String) -> MessageCategory? {
        MessageCategory(rawValue: NotificationText.trimmed(text).lowercased())
    }

    /// What follows the name of a category that is none in an error: the one probably meant, or
    /// every category.
    package static func choices(for typed: String) -> String {
        let names = allCases.map(\.rawValue)
        if let meant = Spelling.nearest(to: typed, among: names) { return " (did you mean \(meant)?)" }
        return " (the categories are \(names.joined(separator: ", ")))"
    }
}
