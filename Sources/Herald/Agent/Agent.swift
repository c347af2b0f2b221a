import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// The session's Herald agent (DESIGN.md D23): the one process that answers for every app's
/// handed-over messages. D-Bus starts it by its name, `org.herald.Agent`, when a click in the
/// desktop's list calls `org.freedesktop.Application.ActivateAction`, or when `herald check`
/// hands it a message to hold on screen (`org.herald.Agent1.Hold`).
///
/// It trusts no caller (the trust model in desktop/docs/administrators.md): an answer, a hold and
/// a withdrawal each need the token the check wrote in the handover (`Handover.admits`), which
/// only the check, the desktop's list it posted to and the agent's own notifications know.
/// Every answer is recorded in that app's state file, under the same lock every check takes,
/// once (`CheckPolicy.applyHandedOver`); a view opens the link the check handed over, never one
/// a caller sends, and only when the URL rules allow it again at the click. What it shows is
/// cleaned, capped and escaped as a check's own text is, and it holds at most `heldPerApp`
/// notifications of an app and `heldInAll` in all. The state file is the one in the folder the
/// handover names (`HandoverStateFolder`), not the one the agent's own environment (the session
/// bus's) would give: a message whose folder it cannot use is refused, so the check shows it
/// itself, and an answer it cannot record is said on standard error (the user's journal) and
/// leaves the message unanswered. It exits when it holds nothing and no call came for `idleSeconds`.
@MainContext
package final class Agent {
    /// The agent's app id and bus name.
    package static let busName = "org.herald.Agent"
    /// The object both interfaces are on.
    package static let objectPath = "/org/herald/Agent"

    /// The interfaces, as D-Bus introspection data.
    static let introspection = """
        <node>
          <interface name="org.freedesktop.Application">
            <method name="Activate"><arg type="a{sv}" name="platform_data" direction="in"/></method>
            <method name="Open">
              <arg type="as" name="uris" direction="in"/><arg type="s" name="hint" direction="in"/>
              <arg type="a{sv}" name="platform_data" direction="in"/>
            </method>
            <method name="ActivateAction">
              <arg type="s" name="action_name" direction="in"/><arg type="av" name="parameter" direction="in"/>
              <arg type="a{sv}" name="platform_data" direction="in"/>
            </method>
          </interface>
          <interface name="org.herald.Agent1">
            <method name="Hold">
              <arg type="s" name="app_id" direction="in"/><arg type="s" name="message_key" direction="in"/>
              <arg type="s" name="state_folder" direction="in"/><arg type="s" name="token" direction="in"/>
              <arg type="a{sv}" name="notification" direction="in"/><arg type="u" name="id" direction="out"/>
            </method>
            <method name="Withdraw">
              <arg type="s" name="app_id" direction="in"/><arg type="s" name="message_key" direction="in"/>
              <arg type="s" name="token" direction="in"/>
            </method>
          </interface>
        </node>
        """

    private let environment: [String: String]
    private let idleSeconds: Double
    private let complain: (String) -> Void
    private let linkOpener = LinkOpener()
    private var service: SessionService?
    private var loop: MainLoop?
    /// The notifications held on screen, by `Handover.notificationID(appID:key:)`.
    private var held: [String: HeldMessage] = [:]
    private var idleTimer: UInt32 = 0
    /// The answers waiting to be recorded until another process lets go of their app's lock.
    private var recordsWaiting = 0
    private var leaving = false
    private var status = EX_OK
    private var server: NotificationServer?

    /// The most notifications of one app the agent holds at once: a check shows a few at a time.
    package nonisolated static let heldPerApp = 10
    /// The most notifications it holds at once, of every app.
    package nonisolated static let heldInAll = 50

    /// An agent for the apps whose files `environment` locates (`HeraldPaths`).
    ///
    /// - Parameters:
    ///   - idleSeconds: how long it stays with nothing held and no call before it exits.
    ///   - complain: told each problem it met (a handover it refused, an answer it could not
    ///     record, a link that did not open), one sentence each.
    package init(environment: [String: String], idleSeconds: Double, complain: @escaping (String) -> Void) {
        self.environment = environment
        self.idleSeconds = idleSeconds
        self.complain = complain
    }

    /// Exports the interfaces, owns the name and answers calls until it has been idle for
    /// `idleSeconds`; then releases the name, answers what was already sent, and returns.
    ///
    /// - Returns: `EX_OK` when it ran and went idle; `EX_UNAVAILABLE` when there is no session bus or
    ///   another process owns the name, having said why.
    package func run() -> Int32 {
        let service: SessionService
        do {
            service = try SessionService(path: Self.objectPath, introspection: Self.introspection) { [weak self] call in self?.handle(call) }
        } catch {
            complain(error.description)
            return EX_UNAVAILABLE
        }
        self.service = service
        let loop = MainLoop()
        self.loop = loop
        service.own(Self.busName) { [weak self] ownership in
            guard let self else { return }
            if ownership == .lost, !self.leaving {
                self.complain("cannot own \(Self.busName) on the session bus: another process owns it, or the bus has gone")
                self.status = EX_UNAVAILABLE
                self.leaving = true
                loop.quit()
            }
        }
        waitIdle()
        loop.run()
        service.stop()
        self.service = nil
        return status
    }

    // MARK: - Calls

    private func handle(_ call: MethodCall) {
        guard case .tuple(let arguments) = call.parameters else { return call.fail(Self.invalidArgs, "the arguments are not a tuple") }
        switch (call.interface, call.method) {
        case ("org.freedesktop.Application", "Activate"):
            // Herald itself was clicked (its entry, where the desktop's list names it): the
            // person's inbox, where every message of every app is.
            call.reply()
            var platformData: [String: String] = [:]
            if case .dictionary(let entries)? = arguments.first {
                for (name, value) in entries { if let text = value.unwrapped.string { platformData[name] = text } }
            }
            if let problem = InboxWindowProgram.launch(environment: LinkOpener.launchEnvironment(platformData: platformData)) { complain(problem) }
        case ("org.freedesktop.Application", "Open"):
            call.reply()
        case ("org.freedesktop.Application", "ActivateAction"):
            activateAction(arguments, call)
        case ("org.herald.Agent1", "Hold"):
            hold(arguments, call)
        case ("org.herald.Agent1", "Withdraw"):
            withdraw(arguments, call)
        default:
            call.fail("org.freedesktop.DBus.Error.UnknownMethod", "no method \(call.method) in \(call.interface)")
        }
        waitIdle()
    }

    /// `ActivateAction("answer", [<(app id, key, answer, state folder, token)>], platform data)`:
    /// records the answer in the state folder the target names, when the token is the
    /// handover's. A target without a token, `(app id, key, answer, state folder)` or, without
    /// a folder, `(app id, key, answer)` (recorded in the folder the agent's own environment
    /// gives), was posted to GNOME's list before handovers carried one: it is taken only from
    /// GNOME Shell, for a handover that has no token either.
    private func activateAction(_ arguments: [DBusValue], _ call: MethodCall) {
        guard arguments.count == 3, arguments[0].string == HandoverBus.agentAction else {
            return call.fail(Self.invalidArgs, "the only action is '\(HandoverBus.agentAction)'")
        }
        guard case .array(let parameter) = arguments[1], parameter.count == 1, case .tuple(let target) = parameter[0].unwrapped,
              (3...5).contains(target.count), target.allSatisfy({ $0.string != nil }), let appID = target[0].string, let key = target[1].string,
              let answerText = target[2].string
        else { return call.fail(Self.invalidArgs, "the answer's target is (app id, message key, answer, state folder, token)") }
        let token = target.count == 5 ? target[4].string : nil
        var platformData: [String: String] = [:]
        if case .dictionary(let entries) = arguments[2] {
            for (name, value) in entries { if let text = value.unwrapped.string { platformData[name] = text } }
        }
        if let refusal = Self.refusal(appID: appID, key: key) { return call.fail(Self.invalidArgs, refusal) }
        guard let answer = Answer(rawValue: answerText) else {
            return call.fail(Self.invalidArgs, "'\(answerText)' is not an answer: use \(Answer.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let stateFolder = target.count >= 4 ? target[3].string : HandoverStateFolder.own(appID: appID, environment: environment) else {
            return call.fail(Self.invalidArgs, "the answer's target names no state folder")
        }
        let holder = Holder(token: token, fromDesktopList: token == nil && HandoverBus.isDesktopList(call.sender))
        recordUnlocked(answer, appID: appID, key: key, in: stateFolder, by: holder,
                       launchEnvironment: LinkOpener.launchEnvironment(platformData: platformData)) { [weak self] problem in
            if let problem {
                self?.complain(Self.notRecorded(answer, appID: appID, key: key, problem))
                return call.fail(problem.errorName, problem.description)
            }
            self?.held.removeValue(forKey: Handover.notificationID(appID: appID, key: key))?.handle.close()
            call.reply()
        }
    }

    /// `Hold(app id, key, state folder, token, notification) -> id`: shows the notification until
    /// it is answered, when the state folder holds the app's handover of it with that token, and
    /// the agent holds fewer than it may; otherwise refuses, and the check shows the message
    /// itself. A notification held for the same message is replaced.
    private func hold(_ arguments: [DBusValue], _ call: MethodCall) {
        guard !leaving else { return call.fail(Self.failed, "the agent is exiting; ask again to start a new one") }
        guard arguments.count == 5, let appID = arguments[0].string, let key = arguments[1].string, let stateFolder = arguments[2].string,
              let token = arguments[3].string, case .dictionary(let fields) = arguments[4]
        else { return call.fail(Self.invalidArgs, "Hold takes (app id, message key, state folder, token, notification)") }
        if let refusal = Self.refusal(appID: appID, key: key) { return call.fail(Self.invalidArgs, refusal) }
        let handover: Handover
        do throws(HandoverStateProblem) {
            handover = try HandoverStateFolder(stateFolder, appID: appID, key: key, environment: environment).handover
            guard handover.admits(token) else { throw .notTheHolder }
        } catch {
            complain("refused to hold message '\(key)' of \(appID): \(error.description); the check that handed it over shows it itself")
            return call.fail(error.errorName, error.description)
        }
        let id = Handover.notificationID(appID: appID, key: key)
        if held[id] == nil, let refusal = Self.holdRefusal(appID: appID, held: held.values.map(\.appID)) {
            complain("refused to hold message '\(key)' of \(appID): \(refusal); the check that handed it over shows it itself")
            return call.fail("org.herald.Agent1.Error.HoldsEnough", refusal)
        }
        guard let server = server ?? NotificationServer(appName: "Herald") else {
            return call.fail(Self.failed, "no notification server answers on the session bus")
        }
        self.server = server
        let notification = Self.notification(fields, appID: appID, capabilities: server.contentCapabilities)
        held.removeValue(forKey: id)?.handle.close()
        let hasActionURL = notification.actions.contains { $0.id == Answer.view.rawValue }
        do {
            let handle = try notification.show { [weak self] response in
                self?.answered(id, appID: appID, key: key, response: response, hasActionURL: hasActionURL)
            }
            held[id] = HeldMessage(handle: handle, appID: appID, stateFolder: stateFolder, handover: handover)
            call.reply([.uint32(handle.id)])
        } catch {
            call.fail(Self.failed, error.description)
        }
    }

    /// `Withdraw(app id, key, token)`: closes the notification if it is held for that token;
    /// records nothing. Another caller's withdrawal is refused and closes nothing.
    private func withdraw(_ arguments: [DBusValue], _ call: MethodCall) {
        guard arguments.count == 3, let appID = arguments[0].string, let key = arguments[1].string, let token = arguments[2].string else {
            return call.fail(Self.invalidArgs, "Withdraw takes (app id, message key, token)")
        }
        let id = Handover.notificationID(appID: appID, key: key)
        guard let message = held[id] else { return call.reply() }
        guard message.handover.admits(token) else {
            let problem = HandoverStateProblem.notTheHolder
            complain("refused to withdraw message '\(key)' of \(appID): \(problem.description)")
            return call.fail(problem.errorName, problem.description)
        }
        held.removeValue(forKey: id)?.handle.close()
        call.reply()
    }

    /// A held notification's one response: a button is its answer, a close without one is
    /// what `CheckPolicy.answer(forClose:)` says (a close the agent asked for records nothing).
    private func answered(_ id: String, appID: String, key: String, response: NotificationResponse, hasActionURL: Bool) {
        guard let message = held.removeValue(forKey: id) else { return }
        let answer: Answer?
        switch response {
        case .action(let action): answer = NotificationContent.answer(forActionID: action, hasActionURL: hasActionURL)
        case .closed(.closedByHerald): return waitIdle()
        case .closed(let reason): answer = CheckPolicy.answer(forClose: reason)
        }
        recordUnlocked(answer, appID: appID, key: key, in: message.stateFolder, by: Holder(token: message.handover.token),
                       launchEnvironment: [:]) { [weak self] problem in
            if let problem { self?.complain(Self.notRecorded(answer, appID: appID, key: key, problem)) }
        }
        waitIdle()
    }

    /// How long the agent asks again for the lock of an app's state that another process
    /// holds, 5 seconds: then the answer is given up with a sentence, and the message waits.
    static let lockPatience = 5.0

    /// Records as `record` does, and tells `done` the problem, if any. The lock of the app's
    /// state is never waited on: while another process holds it, the record is tried again
    /// from a timer every tenth of a second for `lockPatience` seconds, and the loop serves the
    /// other apps' calls meanwhile; a lock held longer is the problem told.
    private func recordUnlocked(_ answer: Answer?, appID: String, key: String, in stateFolder: String, by holder: Holder,
                                launchEnvironment: [String: String], since start: Date = Date(),
                                done: @escaping (HandoverStateProblem?) -> Void) {
        do throws(HandoverStateProblem) {
            try record(answer, appID: appID, key: key, in: stateFolder, by: holder, launchEnvironment: launchEnvironment)
            done(nil)
        } catch .unusable(.locked(let path, let what, let lockHolder, _)) {
            let waited = Date().timeIntervalSince(start)
            guard waited < Self.lockPatience else {
                return done(.unusable(.locked(path: path, what: what, holder: lockHolder, seconds: Self.lockPatience)))
            }
            recordsWaiting += 1
            MainContext.after(seconds: 0.1) { [weak self] in
                guard let self else { return }
                self.recordsWaiting -= 1
                self.recordUnlocked(answer, appID: appID, key: key, in: stateFolder, by: holder, launchEnvironment: launchEnvironment,
                                    since: start, done: done)
                self.waitIdle()
            }
        } catch {
            done(error)
        }
    }

    /// Records an answer to a handed-over message in the state folder its handover named, once,
    /// when `holder` may answer it, and opens the handed-over link for a view, when the URL rules
    /// still allow it; `nil` forgets the handover without answering, so the next check shows it
    /// again.
    ///
    /// - Throws: what keeps the agent from that folder's state, that it holds no handover of the
    ///   message, or that the caller does not hold it; nothing is written then (no folder or
    ///   file is created).
    private func record(_ answer: Answer?, appID: String, key: String, in stateFolder: String, by holder: Holder,
                        launchEnvironment: [String: String]) throws(HandoverStateProblem) {
        let folder = try HandoverStateFolder(stateFolder, appID: appID, key: key, environment: environment)
        guard folder.handover.admits(holder.token, fromDesktopList: holder.fromDesktopList) else { throw .notTheHolder }
        let paths = folder.paths
        let now = Date()
        let handover: Handover?
        do {
            handover = try FileStateStore(paths: paths, lockWait: 0).update { state -> Handover? in
                guard state.handedOver[key]?.admits(holder.token, fromDesktopList: holder.fromDesktopList) == true,
                      let result = CheckPolicy.applyHandedOver(answer, to: key, state: state, now: now) else { return nil }
                state = result.state
                return result.handover
            }
        } catch {
            throw .unusable(StateStoreError(error, writing: paths.stateFile))
        }
        guard let handover else { throw .notHandedOver(paths.stateFile) }
        guard answer == .view, let link = handover.link else { return }
        if let refusal = handover.linkRefusal {
            return complain(LinkOpenerError(url: link, reason: refusal).description)
        }
        do {
            try linkOpener.open(link, launchEnvironment: launchEnvironment)
        } catch {
            complain(error.description)
        }
    }

    // MARK: - Lifetime

    /// Starts (again) the wait after which an agent that holds nothing exits.
    private func waitIdle() {
        MainContext.cancel(idleTimer)
        idleTimer = 0
        guard held.isEmpty, recordsWaiting == 0, !leaving else { return }
        idleTimer = MainContext.after(seconds: idleSeconds) { [weak self] in
            guard let self else { return }
            self.idleTimer = 0
            guard self.held.isEmpty, self.recordsWaiting == 0 else { return }
            self.leave()
        }
    }

    /// Releases the name first, so the bus starts a new agent for the next call, then answers
    /// the calls already sent to this one for a moment, and stops the loop.
    private func leave() {
        leaving = true
        service?.release()
        MainContext.after(seconds: 0.2) { [weak self] in self?.loop?.quit() }
    }

    // MARK: - Rules of the calls

    private static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    private static let failed = "org.freedesktop.DBus.Error.Failed"

    /// Why an app id and key are refused, or `nil`: the app id must be usable as a file name
    /// (`HeraldPaths.isValid`), the key not empty and an id a feed may hold
    /// (`FeedProblem.idRefusal`: no NUL, which C would cut it at, nor another control character).
    nonisolated static func refusal(appID: String, key: String) -> String? {
        if !HeraldPaths.isValid(appID: appID) { return StateStoreError.invalidAppID(appID).description }
        if key.isEmpty { return "the message key is empty" }
        return FeedProblem.idRefusal(key)
    }

    /// Why one more notification of `appID` is not held, or `nil` when it is: the agent holds
    /// `heldPerApp` of an app, and `heldInAll` in all, at most (`held`: the app of each it holds).
    nonisolated static func holdRefusal(appID: String, held: [String]) -> String? {
        if held.count >= heldInAll { return "the agent holds \(heldInAll) notifications already, as many as it holds of every app" }
        if held.count(where: { $0 == appID }) >= heldPerApp {
            return "the agent holds \(heldPerApp) notifications of \(appID) already, as many as it holds of one app"
        }
        return nil
    }

    /// The sentence said of an answer (or, for `nil`, a notification's expiry) the agent could
    /// not record.
    nonisolated static func notRecorded(_ answer: Answer?, appID: String, key: String, _ problem: HandoverStateProblem) -> String {
        let what = answer.map { "the answer '\($0.rawValue)' to" } ?? "the expiry of"
        return "cannot record \(what) message '\(key)' of \(appID): \(problem.description)" + (problem.messageWaits ? "; it stays unanswered" : "")
    }

    /// The notification `Hold` describes, held until answered (timeout 0), made safe as a check
    /// makes its own text (`NotificationText`, DESIGN.md D13): the summary, the app's name and the
    /// labels plain, one line, capped; the body cleaned, capped and escaped for a server that
    /// reads markup (`capabilities`); only the actions a check offers, each once; an icon name
    /// or file URI of a reasonable length; the category only one Herald knows; and the desktop
    /// entry the app's own id where its entry is installed, else the agent's
    /// (`DesktopSwitchFiles.desktopEntryHint`), whatever the caller named.
    nonisolated static func notification(_ fields: [String: DBusValue], appID: String, capabilities: Set<String>,
                                         environment: [String: String] = ProcessEnvironment.read()) -> DesktopNotification {
        func text(_ name: String) -> String? { fields[name]?.unwrapped.string }
        let answers = [NotificationAction.defaultID] + Answer.allCases.map(\.rawValue)
        var actions: [(id: String, label: String)] = []
        if case .array(let pairs)? = fields["actions"]?.unwrapped {
            for case .tuple(let pair) in pairs where pair.count == 2 {
                guard let id = pair[0].string, answers.contains(id), !actions.contains(where: { $0.id == id }), let label = pair[1].string else { continue }
                let shown = NotificationText.summary(label)
                actions.append((id, shown.isEmpty ? id : shown))
            }
        }
        let urgency: MessageUrgency? = switch fields["urgency"]?.unwrapped {
        case .byte(0)?: .low
        case .byte(1)?: .normal
        case .byte(2)?: .critical
        default: nil
        }
        let icon = text("icon").flatMap { $0.isEmpty || $0.utf8.count > iconLimit || URLRules.unsafeCharacter(in: $0) != nil ? nil : $0 }
        let appName = text("app-name").map(NotificationText.summary).flatMap { $0.isEmpty ? nil : $0 }
        return DesktopNotification(summary: NotificationText.summary(text("summary")),
                                   body: NotificationText.body(text("body"), markup: capabilities.contains("body-markup")), icon: icon,
                                   appName: appName, desktopEntry: DesktopSwitchFiles.desktopEntryHint(appID: appID, environment: environment),
                                   actions: actions, timeout: 0, urgency: urgency, category: text("category").flatMap(MessageCategory.init(rawValue:)))
    }

    /// The longest icon name or file URI a held notification keeps, in UTF-8 bytes (a path's
    /// most, `PATH_MAX`).
    nonisolated static let iconLimit = 4096
}

/// A notification the agent holds, with what its answer is recorded by.
private struct HeldMessage {
    /// The notification on screen.
    let handle: NotificationHandle
    /// The app it is of.
    let appID: String
    /// The state folder its handover named.
    let stateFolder: String
    /// Its handover as the state held it when it was held: its token is what `Withdraw` must
    /// present, and what its answer is recorded by.
    let handover: Handover
}

/// What a caller presented to answer a handed-over message (`Handover.admits`).
private struct Holder {
    /// The token the call carried, if any.
    var token: String?
    /// Whether the call came from the desktop's list (GNOME Shell).
    var fromDesktopList = false
}
