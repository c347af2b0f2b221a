import FoundationEssentials
import Glibc

/// A message handed over to outlive the check that showed it (DESIGN.md D23): posted to the
/// desktop's own list of notifications (GNOME Shell's `org.gtk.Notifications`), where a click
/// hours later starts the Herald agent, or held on screen by the agent itself. It stays claimed
/// until it is answered or withdrawn, so no later check shows it twice.
package struct Handover: Codable, Sendable, Equatable {
    /// Where the message waits for its answer.
    package enum Place: String, Codable, Sendable {
        /// In the desktop's list (`org.gtk.Notifications`); it waits there whatever runs.
        case desktopList = "desktop-list"
        /// On screen as a freedesktop notification the agent holds; it waits while the agent
        /// process (`agentProcessID`, started at `agentStartTime`) runs, for a day at most.
        case agent
        /// Posted by a D-Bus-activatable app inside a Flatpak sandbox through the notification
        /// portal, its buttons the app's own `app.*` actions. It waits one remind period: GNOME
        /// Shell keeps it in its list, but other servers let it go from the screen, and nothing
        /// answers it then; after that a check shows it again.
        case portal
    }

    /// Where it waits.
    package var place: Place
    /// The agent's process, for `.agent`.
    package var agentProcessID: Int32?
    /// When the agent's process started (`RunningProcess.startTime`), for `.agent`: a process
    /// that has the PID but another start time is not the agent. A handover written before
    /// it was kept has none, and is judged by the PID alone.
    package var agentStartTime: UInt64?
    /// The link a view opens, as the check allowed it under the app's URL rules: the agent opens
    /// this one, never a link a click carries.
    package var link: String?
    /// When it was handed over.
    package var since: Date
    /// The capability of the process that handed it over (`newToken()`): written here before the
    /// post, and passed only to the agent's `Hold` and in the targets of the desktop list's
    /// clicks. A caller must present it to answer, hold or withdraw the message (`admits`);
    /// `nil` in a handover written before handovers carried one.
    package var token: String?
    /// The custom schemes the app's URL rules allowed when it was handed over: the link is
    /// judged by them again when a click opens it (`linkRefusal`); `nil` for none.
    package var allowedSchemes: [String]?

    /// Creates a handover.
    package init(place: Place, agentProcessID: Int32? = nil, agentStartTime: UInt64? = nil, link: String?, since: Date,
                 token: String? = nil, allowedSchemes: [String]? = nil) {
        self.place = place
        self.agentProcessID = agentProcessID
        self.agentStartTime = agentStartTime
        self.link = link
        self.since = since
        self.token = token
        self.allowedSchemes = allowedSchemes
    }

    /// A new capability: 128 random bits, as 32 lower-case hexadecimal digits.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// The handover as a check makes it: with a new token, and the custom schemes `rules` allow.
    package func issued(under rules: URLRules) -> Handover {
        var handover = self
        handover.token = Self.newToken()
        handover.allowedSchemes = rules.allowedCustomSchemes.isEmpty ? nil : rules.allowedCustomSchemes.sorted()
        return handover
    }

    /// Whether a caller that presents `token` may answer, hold or withdraw the message: only
    /// with the handover's own token. A handover written before handovers carried one is
    /// answered only by a click in the desktop's list (`fromDesktopList`: the call came from
    /// the owner of `org.gtk.Notifications`), the one place it was posted to.
    package func admits(_ token: String?, fromDesktopList: Bool = false) -> Bool {
        guard let own = self.token else { return fromDesktopList }
        guard let token else { return false }
        // Compared in full whatever differs first, so the time taken tells nothing of the token.
        let mine = Array(own.utf8), theirs = Array(token.utf8)
        var difference = UInt8(mine.count == theirs.count ? 0 : 1)
        for index in 0..<min(mine.count, theirs.count) { difference |= mine[index] ^ theirs[index] }
        return difference == 0
    }

    /// Why the link may not be opened at the click, or `nil` when it may: the URL rules (DESIGN.md
    /// D14) with the schemes the app allowed when it was handed over, judged again, so a link
    /// the state holds is never `javascript:`, `file:` or `data:`, or a scheme the app did not allow.
    package var linkRefusal: String? {
        guard let link else { return nil }
        return URLRules(allowedCustomSchemes: Set(allowedSchemes ?? [])).actionURLRefusal(link)
    }

    /// The longest a message held by the agent keeps its handover, a day: should the agent's
    /// process be taken for another (its start time unknown), or hold a notification the
    /// desktop has long let go of, the next check after that shows the message again.
    package static let agentHoldLimit: TimeInterval = 86_400

    /// Whether a handover still keeps its message from being shown at `now`, so that no check
    /// shows it twice, and none forgets it:
    ///
    /// - in the desktop's list: always, as the list keeps it whatever runs;
    /// - held by the agent: while its process runs (`process` finds it, neither gone nor a
    ///   zombie) with the start time the handover recorded (one without a start time, written
    ///   before it was kept, by the PID alone), and for `agentHoldLimit` at most;
    /// - posted through the portal: for one `remindPeriod` from when it was.
    ///
    /// - Parameter process: the process running with a PID (`RunningProcess.find`).
    package static func isWaiting(_ handover: Handover, now: Date, remindPeriod: TimeInterval,
                                  process: (Int32) -> RunningProcess? = RunningProcess.find) -> Bool {
        switch handover.place {
        case .desktopList: return true
        case .portal: return now.timeIntervalSince(handover.since) < remindPeriod
        case .agent:
            guard let processID = handover.agentProcessID, now.timeIntervalSince(handover.since) < agentHoldLimit,
                  let running = process(processID) else { return false }
            guard let recorded = handover.agentStartTime, let startTime = running.startTime else { return true }
            return recorded == startTime
        }
    }

    /// The id the desktop's list and the agent know the message by: the app id, a space and
    /// the message's key (an app id holds no space).
    package static func notificationID(appID: String, key: String) -> String {
        appID + " " + key
    }

    /// The state folder a handover names to the agent (`org.herald.Agent1.Hold`, and the target
    /// of each click in GNOME's list): the folder of `store`'s state file, every symbolic link
    /// resolved. The agent runs in the session bus's environment, whose `HOME` and
    /// `XDG_STATE_HOME` may not be the check's, so it records the answer in the folder the
    /// handover names, never in one its own environment would give. `nil` for a store that keeps
    /// no state file (in memory) or whose folder is not there: such a message is not handed over.
    package static func stateFolder(of store: any StateStore) -> String? {
        guard let store = store as? FileStateStore, let real = realpath(store.paths.stateDirectory, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The app id and key of a `notificationID(appID:key:)`, or `nil` for any other text.
    package static func parts(ofNotificationID id: String) -> (appID: String, key: String)? {
        guard let space = id.firstIndex(of: " ") else { return nil }
        let appID = String(id[..<space]), key = String(id[id.index(after: space)...])
        return appID.isEmpty || key.isEmpty ? nil : (appID, key)
    }
}

/// An answer the Herald agent recorded for a handed-over message while the app was not there to
/// hear it: kept until the app's next launch tells its delegate (`HeraldEvent.answeredWhileAway`).
package struct AnswerGivenAway: Codable, Sendable, Equatable {
    /// The answer, as its action id (`Answer.rawValue`).
    package var answer: String
    /// When it was given.
    package var at: Date

    /// An answer given at `at`.
    package init(_ answer: Answer, at: Date) {
        self.answer = answer.rawValue
        self.at = at
    }
}

extension CheckPolicy {
    /// Records that `key` was handed over: its claim by the check becomes the handover, which
    /// lapses only when the message is answered or withdrawn (or as `Handover.isWaiting` says:
    /// held by the agent, when the agent has gone or a day has passed).
    package static func handOver(_ key: String, _ handover: Handover, in state: HeraldState) -> HeraldState {
        var state = state
        state.presenting[key] = nil
        state.handedOver[key] = handover
        return state
    }

    /// Applies an answer given to a handed-over message (a click in the desktop's list or on a
    /// notification the agent holds): once. Only a message still handed over takes an answer;
    /// a second click (the list and a stale popup) finds none and changes nothing. The answer
    /// waits in `answeredAway` for the app's next launch; answers older than
    /// `answerRetention` that no launch took are forgotten then, so the list stays small.
    ///
    /// - Returns: the new state and the handover answered, or `nil` when there was none.
    package static func applyHandedOver(_ answer: Answer?, to key: String, state: HeraldState, now: Date) -> (state: HeraldState, handover: Handover)? {
        guard let handover = state.handedOver[key] else { return nil }
        var state = state
        state.handedOver[key] = nil
        if let answer {
            state = apply(answer, to: key, state: state, now: now)
            state.answeredAway = state.answeredAway.filter { now.timeIntervalSince($0.value.at) < answerRetention }
            state.answeredAway[key] = AnswerGivenAway(answer, at: now)
        }
        return (state, handover)
    }

    /// Takes the answers given to handed-over messages since the app last heard them, oldest
    /// first (then by key), out of the state: each is told to the app once.
    package static func takeAnswersGivenAway(from state: inout HeraldState) -> [(key: String, answer: Answer, at: Date)] {
        let taken = state.answeredAway.compactMap { key, given in Answer(rawValue: given.answer).map { (key: key, answer: $0, at: given.at) } }
            .sorted { ($0.at, $0.key) < ($1.at, $1.key) }
        state.answeredAway = [:]
        return taken
    }

    /// The handed-over messages the publisher has withdrawn: no longer in `feed`. Each is to be
    /// taken off every screen and out of the desktop's list, and its handover forgotten.
    package static func withdrawn(from feed: Feed, state: HeraldState) -> [String] {
        // A What's new message is Herald's own, not the publisher's: a feed without it keeps it.
        state.handedOver.keys.filter { feed.entries[$0] == nil && !WhatsNewPolicy.isMessageID($0) }.sorted()
    }

    /// Forgets the handovers of `keys` (withdrawn, or taken back by a check that closes them).
    package static func forgetHandovers(_ keys: some Sequence<String>, in state: HeraldState) -> HeraldState {
        var state = state
        for key in keys { state.handedOver[key] = nil }
        return state
    }
}

extension HeraldPaths {
    /// The folder of the state and lock files, `$XDG_STATE_HOME/herald`.
    package var stateDirectory: String { RegularFile.folder(of: stateFile) }

    /// The paths of `appID` whose state is kept in `stateDirectory`, the folder a handover named
    /// (`Handover.stateFolder(of:)`): the state and lock files there, named as
    /// `init(appID:environment:)` names them, and the cache as `environment` says; `nil` when
    /// `stateDirectory` is not a folder Herald keeps state in (an absolute `…/herald`).
    ///
    /// - Throws: `StateStoreError.invalidAppID` for an app id that is no file name.
    package init?(appID: String, stateDirectory: String, environment: [String: String]) throws {
        guard stateDirectory.hasPrefix("/"), stateDirectory.hasSuffix("/herald") else { return nil }
        var environment = environment
        environment["XDG_STATE_HOME"] = RegularFile.folder(of: stateDirectory)
        let paths = try HeraldPaths(appID: appID, environment: environment)
        guard paths.stateDirectory == stateDirectory else { return nil }
        self = paths
    }
}
