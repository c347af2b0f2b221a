import HeraldCore

/// What the window shows, as values: one group per app with its messages, newest first, then
/// its switches; then a group of the person's switches for every app. The window draws it one
/// widget per row (`InboxWindow`) and `herald-inbox --dump` prints it (`lines`), so a test reads
/// exactly what the window draws, sensitivity included.
struct InboxPage: Equatable {
    /// A switch: on is muted.
    struct Toggle: Equatable {
        var title: String
        /// What set it, or what it does.
        var subtitle: String?
        var isOn: Bool
        /// Whether the person cannot change it here (an administrator's mute, or a mute of every
        /// app that holds this one); the subtitle then names what holds it.
        var isLocked: Bool
        /// What it mutes; flipped, the change is `.mute(target, categories:, on: !isOn)`.
        var target: MuteTarget
        var categories: [MessageCategory]?

        /// The change that flipping it to `on` makes.
        func change(to on: Bool) -> SwitchChange { .mute(target, categories: categories, on: on) }
    }

    /// A figure of the person's budget.
    struct Figure: Equatable {
        var title: String
        var subtitle: String
        var value: Int
        /// The largest figure the person may choose: the administrator's ceiling, or
        /// `AttentionBudget.largest`.
        var largest: Int
        /// Whether the administrator's ceiling leaves nothing to choose (a ceiling of 0).
        var isLocked: Bool
        /// `per-day` or `per-week`, the `budget` action's first word.
        var figure: String
    }

    /// A message with the answers it can still take.
    struct Message: Equatable {
        var message: InboxMessage
        var subtitle: String
        /// The buttons: their labels and answers.
        var answers: [Button]

        struct Button: Equatable {
            var label: String
            var answer: Answer
        }
    }

    enum Row: Equatable {
        case toggle(Toggle)
        case figure(Figure)
        /// An expander holding one switch per category.
        case categories(title: String, subtitle: String, [Toggle])
        case message(Message)
        /// Nothing in the inbox.
        case empty(title: String, description: String)
    }

    struct Group: Equatable {
        var title: String
        var description: String?
        var rows: [Row]
    }

    var groups: [Group]

    /// The page for `reading`: what could not be read first, then each app that has messages or
    /// that the person muted, in app id order, then the person's switches for every app (when
    /// the key files could be read).
    init(_ reading: InboxReading) {
        groups = []
        if !reading.problems.isEmpty {
            groups.append(Group(title: "Could not read everything", description: reading.problems.joined(separator: "\n"), rows: []))
        }
        if reading.messages.isEmpty {
            groups.append(Group(title: "", rows: [.empty(
                title: "No messages",
                description: "Messages that apps send you through Herald are kept here for 180 days, shown or not.")]))
        }
        var apps = Array(Set(reading.messages.map(\.appID)))
        if let switches = reading.switches {
            apps += switches.appsMutedByUser.filter { !apps.contains($0) }
        }
        for app in apps.sorted() {
            var rows: [Row] = reading.messages.filter { $0.appID == app }.map { .message(Self.message($0)) }
            if let switches = reading.switches { rows += Self.appSwitches(app, switches) }
            groups.append(Group(title: app, rows: rows))
        }
        if let switches = reading.switches { groups.append(Self.everyApp(switches)) }
    }

    /// The group of switches for every app: the budget's two figures, the mute of every app and
    /// of each category for every app.
    static func everyApp(_ switches: OffSwitches) -> Group {
        let inForce = switches.budget
        let ceiling = switches.budgetCeiling
        func figure(_ title: String, _ word: String, _ value: Int, _ cap: Int?) -> Row {
            var subtitle = "Every app together: " + inForce.sourceSummary
            if let cap, let ceiling { subtitle += "; at most \(cap), set by the administrator in \(ceiling.file)" }
            return .figure(Figure(title: title, subtitle: subtitle, value: value, largest: cap ?? AttentionBudget.largest,
                                  isLocked: cap == 0, figure: word))
        }
        var rows = [figure("Messages a day", "per-day", inForce.budget.perDay, ceiling?.perDay),
                    figure("Messages a week", "per-week", inForce.budget.perWeek, ceiling?.perWeek)]
        let all = switches.administratorMutesAll
        rows.append(.toggle(Toggle(title: "Mute every app", subtitle: all.map(Self.lock),
                                   isOn: all != nil || switches.user.allMuted == true, isLocked: all != nil,
                                   target: .allApps, categories: nil)))
        rows.append(.categories(title: "Mute a kind of message", subtitle: "For every app",
                                MessageCategory.allCases.map { category in
            let lock = switches.administratorMute(of: category, for: .allApps)
            return Toggle(title: "Mute \(Self.plural(category))", subtitle: lock.map(Self.lock), isOn:
                            lock != nil || switches.user.allMutedCategories.contains(category), isLocked: lock != nil,
                          target: .allApps, categories: [category])
        }))
        return Group(title: "Every app", description: "Your switches for all the apps that use Herald", rows: rows)
    }

    /// An app's switches: its mute, and each category's for it.
    static func appSwitches(_ app: String, _ switches: OffSwitches) -> [Row] {
        let decision = switches.decision(for: app)
        let appMute = decision.mute
        let appToggle = Toggle(title: "Mute this app", subtitle: appMute.flatMap(Self.hold), isOn: appMute != nil,
                               isLocked: appMute.map { $0.by == .administrator || $0.scope == .allApps } ?? false,
                               target: .app(app), categories: nil)
        let toggles = MessageCategory.allCases.map { category in
            let mute = decision.mutedCategories[category]
            return Toggle(title: "Mute \(Self.plural(category))", subtitle: mute.flatMap(Self.hold), isOn: mute != nil,
                          isLocked: mute.map { $0.by == .administrator || $0.scope == .allApps } ?? false,
                          target: .app(app), categories: [category])
        }
        let muted = toggles.filter { $0.isOn }.count
        return [.toggle(appToggle), .categories(title: "Mute a kind of message",
                                                subtitle: muted == 0 ? "None muted" : "\(muted) muted", toggles)]
    }

    /// What holds a mute, for its switch: the administrator's file, or the person's mute of
    /// every app; nothing for a mute of the person's that the switch undoes.
    static func hold(_ mute: Mute) -> String? {
        if mute.by == .administrator { return lock(mute) }
        return mute.scope == .allApps ? "Muted for every app" : nil
    }

    /// An administrator's mute, for a greyed switch.
    static func lock(_ mute: Mute) -> String { "Set by the administrator in \(mute.file)" }

    /// "announcements", "tips", "promotions", "security messages", "surveys".
    static func plural(_ category: MessageCategory) -> String {
        category == .security ? "security messages" : category.rawValue + "s"
    }

    /// A message's row: its text, then its kind and where it stands; View (or OK, without a
    /// link) and Ignore while it is not answered and not withdrawn.
    static func message(_ message: InboxMessage) -> Message {
        let subtitle = message.message + "\n" + message.category.capitalizedFirst + " · "
            + message.state.description(writing: LocalTime.text).capitalizedFirst
        let answerable = switch message.state {
        case .viewed, .ignored, .withdrawn: false
        default: true
        }
        let view = message.link == nil ? "OK" : (message.button ?? "View")
        return Message(message: message, subtitle: subtitle,
                       answers: answerable ? [.init(label: view, answer: .view), .init(label: "Ignore", answer: .ignore)] : [])
    }

    /// The page in lines, for `--dump`: each group's title, then its rows indented, a switch
    /// as `[x]` (on) or `[ ]`, "(greyed)" where the person cannot change it.
    var lines: [String] {
        var lines: [String] = []
        func toggle(_ toggle: Toggle, indent: String) {
            lines.append(indent + (toggle.isOn ? "[x] " : "[ ] ") + toggle.title + (toggle.isLocked ? " (greyed)" : "")
                         + (toggle.subtitle.map { ": " + $0 } ?? ""))
        }
        for group in groups {
            lines.append("# " + group.title + (group.description.map { ": " + $0 } ?? ""))
            for row in group.rows {
                switch row {
                case .toggle(let switchRow): toggle(switchRow, indent: "  ")
                case .figure(let figure):
                    lines.append("  \(figure.title): \(figure.value) (0 to \(figure.largest))\(figure.isLocked ? " (greyed)" : ""): \(figure.subtitle)")
                case .categories(let title, let subtitle, let toggles):
                    lines.append("  \(title): \(subtitle)")
                    for each in toggles { toggle(each, indent: "    ") }
                case .message(let message):
                    lines.append("  \(message.message.id): \(message.message.title)"
                                 + message.answers.map { " [\($0.label)]" }.joined())
                    lines += message.subtitle.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
                case .empty(let title, let description):
                    lines.append("  \(title): \(description)")
                }
            }
        }
        return lines
    }
}

extension String {
    /// The text with its first letter upper case.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
