/// A mute still in force after an unmute, as `herald unmute` names it: what it keeps back, whose
/// it is and the key file that says so.
package struct StandingMute: Sendable, Equatable, CustomStringConvertible {
    /// What a mute keeps back.
    package enum Subject: Sendable, Equatable {
        /// Every message and prompt of one app.
        case app(String)
        /// Messages of these categories, of one app or of every app.
        case categories([MessageCategory], of: MuteTarget)
    }

    /// What it keeps back.
    package var subject: Subject
    /// Who muted it.
    package var by: MuteAuthority
    /// The key file that says so.
    package var file: String

    /// Creates the record.
    package init(_ subject: Subject, by: MuteAuthority, file: String) {
        self.subject = subject
        self.by = by
        self.file = file
    }

    /// One line for people: "still muted: promotion, survey for every app by the user (PATH)".
    package var description: String {
        let what = switch subject {
        case .app(let appID): appID
        case .categories(let categories, of: .allApps): "\(Self.names(categories)) for every app"
        case .categories(let categories, of: .app(let appID)): "\(Self.names(categories)) for \(appID)"
        }
        return "still muted: \(what) by \(by == .user ? "the user" : "the administrator") (\(file))"
    }

    /// Categories in sentences: "promotion, survey".
    package static func names(_ categories: [MessageCategory]) -> String { categories.map(\.rawValue).joined(separator: ", ") }
}

extension OffSwitches {
    /// The mutes that still keep something of `target` back once the user's file no longer
    /// mutes it: of its `categories` only when given, of anything otherwise. Some apps stay
    /// muted after an unmute of every app: those the user muted one by one, the categories the
    /// user muted for every app or for one, and whatever the administrator muted, which the
    /// user's file cannot undo. For one app, the categories muted for it. The user's mutes
    /// come first, then the administrator's (for one app, in the order of the categories); each
    /// file's mutes of one kind on one line.
    package func standingMutes(of target: MuteTarget, categories: [MessageCategory]? = nil) -> [StandingMute] {
        func kept(_ listed: [MessageCategory]) -> [MessageCategory] {
            let named = categories ?? MessageCategory.allCases
            return MessageCategory.allCases.filter { listed.contains($0) && named.contains($0) }
        }
        switch target {
        case .app(let appID):
            let decision = decision(for: appID)
            var standing = categories == nil ? decision.mute.map { [StandingMute(.app(appID), by: $0.by, file: $0.file)] } ?? [] : []
            let muted = kept(Array(decision.mutedCategories.keys)).compactMap { category in decision.mutedCategories[category].map { (category, $0) } }
            for (mute, categories) in Self.grouped(muted) {
                standing.append(StandingMute(.categories(categories, of: mute.scope == .app ? target : .allApps), by: mute.by, file: mute.file))
            }
            return standing
        case .allApps:
            var standing: [StandingMute] = []
            if categories == nil { standing += appsMutedByUser.map { StandingMute(.app($0), by: .user, file: user.file) } }
            if !kept(user.allMutedCategories).isEmpty {
                standing.append(StandingMute(.categories(kept(user.allMutedCategories), of: .allApps), by: .user, file: user.file))
            }
            for (appID, settings) in user.apps.sorted(by: { $0.key < $1.key }) where !kept(settings.mutedCategories).isEmpty {
                standing.append(StandingMute(.categories(kept(settings.mutedCategories), of: .app(appID)), by: .user, file: user.file))
            }
            let named = Set(system.flatMap(\.apps.keys)).sorted()
            if categories == nil {
                for appID in named {
                    guard let mute = administratorMute(of: appID), mute.scope == .app else { continue }
                    standing.append(StandingMute(.app(appID), by: .administrator, file: mute.file))
                }
            }
            standing += administratorCategoryMutes(of: .allApps, kept: kept)
            for appID in named { standing += administratorCategoryMutes(of: .app(appID), kept: kept) }
            return standing
        }
    }

    /// The administrator's category mutes of `target` in its own group (`[all]` for every
    /// app), a line for each file.
    private func administratorCategoryMutes(of target: MuteTarget, kept: ([MessageCategory]) -> [MessageCategory]) -> [StandingMute] {
        let mutes = MessageCategory.allCases.compactMap { category in
            administratorMute(of: category, for: target).flatMap { mute in
                mute.scope == (target == .allApps ? .allApps : .app) ? (category, mute.file) : nil
            }
        }
        return Self.grouped(mutes).compactMap { file, muted in
            kept(muted).isEmpty ? nil : StandingMute(.categories(kept(muted), of: target), by: .administrator, file: file)
        }
    }

    /// Categories gathered by what mutes them, in the order each first comes.
    private static func grouped<Key: Equatable>(_ muted: [(MessageCategory, Key)]) -> [(Key, [MessageCategory])] {
        muted.reduce(into: []) { groups, pair in
            if let index = groups.firstIndex(where: { $0.0 == pair.1 }) { groups[index].1.append(pair.0) } else { groups.append((pair.1, [pair.0])) }
        }
    }
}
