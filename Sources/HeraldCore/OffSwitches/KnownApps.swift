/// The apps Herald has seen for one user: each with a state file in `$XDG_STATE_HOME/herald`,
/// in the attention ledger (a showing, or a message waiting), or named by a group of a key file
/// (the administrator's or the user's). `herald state --all` lists the first kind; `herald mute`
/// and `herald unmute` ask all of them, to tell a typed app id that is no app's.
package struct KnownApps: Sendable, Equatable {
    /// The app ids: those that ran (a state file, the ledger) sorted, then those only a key
    /// file names sorted, so that a suggestion prefers an app that ran to a mute of a typo.
    package var ids: [String]

    /// The apps seen in the state folder's file names (`stateFiles`), the ledger and the key files.
    package init(stateFiles: some Sequence<String>, ledger: AttentionLedger, switches: OffSwitches) {
        var ran = Set(stateFiles.compactMap(Self.appID(ofStateFile:)))
        ran.formUnion(ledger.shows.map(\.app))
        ran.formUnion(ledger.waiting.keys)
        let named = Set((switches.system + [switches.user]).flatMap(\.apps.keys)).subtracting(ran)
        ids = ran.sorted() + named.sorted()
    }

    /// The app ids of the state files among `names` (the entries of `$XDG_STATE_HOME/herald`),
    /// sorted: each `<app-id>.json` whose name is a usable app id (the ledger's folder,
    /// `attention`, is none of them).
    package static func stateFileApps(_ names: some Sequence<String>) -> [String] {
        names.compactMap(appID(ofStateFile:)).sorted()
    }

    /// The app id of a state file's name, or `nil` when the name is none.
    private static func appID(ofStateFile name: String) -> String? {
        guard name.hasSuffix(".json") else { return nil }
        let appID = String(name.dropLast(".json".count))
        return HeraldPaths.isValid(appID: appID) ? appID : nil
    }

    /// Whether Herald has seen `appID`.
    package func contains(_ appID: String) -> Bool { ids.contains(appID) }

    /// The sentence for an app id Herald has not seen, with the known id it was probably meant
    /// to be (`Spelling.nearest`: the same but for case, or a typo or two away); `nil` for an
    /// app it has seen. `consequence` says what that means for the command, when no id is near.
    package func unseen(_ appID: String, consequence: String) -> String? {
        guard !contains(appID) else { return nil }
        let start = "herald has not seen \(appID) yet"
        if let meant = Spelling.nearest(to: appID, among: ids) { return "\(start); did you mean \(meant)?" }
        return "\(start); \(consequence)"
    }
}
