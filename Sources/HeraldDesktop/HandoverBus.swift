import CDesktopLibraries
import HeraldCore

/// The session bus calls that hand a message over to outlive its check (DESIGN.md D23): to
/// GNOME Shell's list (`org.gtk.Notifications`) or to the Herald agent (`org.herald.Agent1`),
/// and that take it back when the publisher withdraws it. Every call is synchronous, as
/// libnotify's are, and bounded.
package enum HandoverBus {
    /// The agent's app id and bus name.
    package static let agentName = "org.herald.Agent"
    /// The agent's object path.
    package static let agentPath = "/org/herald/Agent"
    /// The desktop's list of notifications (GNOME Shell).
    package static let desktopListName = "org.gtk.Notifications"
    /// The desktop portal, whose notification interface a Flatpak app posts through.
    package static let portalName = "org.freedesktop.portal.Desktop"
    /// The action the agent answers by, `app.answer`: its target (app id, key, answer, state
    /// folder, token), the folder the one the handover named (`Handover.stateFolder(of:)`), the
    /// token the handover's own (`Handover.token`).
    package static let agentAction = "answer"
    /// The action Herald adds to a D-Bus-activatable app inside a Flatpak sandbox,
    /// `app.herald-answer`: its target (app id, key, answer, token), as the agent's without the
    /// state folder.
    package static let appAction = "herald-answer"

    /// Which way the messages of `appID` are handed over ("Which route a herald check takes"),
    /// or `nil` for none, when the session bus can neither start nor reach the agent: then they
    /// are shown as they always were. The desktop's list is taken when it has an owner and the
    /// agent's desktop entry is installed where the shell finds it (under `environment`'s
    /// `XDG_DATA_HOME` and `XDG_DATA_DIRS`) and names a program the shell can find
    /// (`DesktopEntry.startsAProgram`); otherwise the agent holds them.
    ///
    /// Inside a Flatpak sandbox (`sandboxed`) the agent is never used: the sandbox's bus does not
    /// reach it, and the agent, outside, would record answers in the host's state files, not in
    /// the sandbox's. There the route is the notification portal, when the app can be started to
    /// take its own answers (`isActivatableApp`); otherwise there is none.
    @MainContext
    package static func route(appID: String, environment: [String: String], sandboxed: Bool = Sandbox.isFlatpak) -> Handover.Place? {
        if sandboxed { return isActivatableApp(appID, environment: environment) ? .portal : nil }
        guard (try? DesktopLibrary.gio.load()) != nil, let bus = SessionBus() else { return nil }
        guard bus.hasOwner(agentName) || bus.activatableNames().contains(agentName) else { return nil }
        if bus.hasOwner(desktopListName), DesktopEntry.installed(appID: agentName, environment: environment)?.startsAProgram(environment: environment) == true {
            return .desktopList
        }
        return .agent
    }

    /// Whether the process is the app `appID` as the desktop can start it to take an answer: its
    /// default `GApplication` has that id (so its `app.*` actions are exported on the bus under
    /// the app's name), and its desktop entry says `DBusActivatable=true` (so the bus, told by
    /// the portal or the shell, starts it when it is not running).
    @MainContext
    package static func isActivatableApp(_ appID: String, environment: [String: String]) -> Bool {
        guard ApplicationAction.defaultApplicationID == appID else { return false }
        return DesktopEntry.installed(appID: appID, environment: environment)?["DBusActivatable"] == "true"
    }

    /// Starts the agent unless it runs, and returns its process id; `nil` when it cannot be started.
    @MainContext
    package static func startAgent() -> Int32? {
        guard let bus = SessionBus() else { return nil }
        // The bus refuses to start a name no service file provides, even when it is owned.
        if bus.hasOwner(agentName) { return bus.processID(of: agentName) }
        var arguments: [OpaquePointer?] = [g_variant_new_string(agentName), g_variant_new_uint32(0)]
        guard let started = try? bus.call(SessionBus.daemon, "/org/freedesktop/DBus", SessionBus.daemon, "StartServiceByName",
                                           &arguments, reply: "(u)", timeout: 25_000) else { return nil }
        g_variant_unref(started)
        return bus.processID(of: agentName)
    }

    /// Posts a message to the desktop's list as the agent's notification `id`
    /// (`Handover.notificationID(appID:key:)`).
    ///
    /// - Throws: `HandoverFailure` with the bus's reason when the shell refuses it.
    @MainContext
    package static func addToDesktopList(_ notification: DesktopListNotification, id: String) throws(HandoverFailure) {
        try requireNoNUL([notification.appID, notification.key, notification.stateFolder ?? "", notification.token ?? "", id])
        guard let bus = SessionBus() else { throw HandoverFailure(reason: "no session bus") }
        var arguments: [OpaquePointer?] = [g_variant_new_string(agentName), g_variant_new_string(id), notification.variant()]
        g_variant_unref(try bus.call(desktopListName, "/org/gtk/Notifications", desktopListName, "AddNotification", &arguments, reply: "()"))
    }

    /// Posts an app's message through the notification portal, as the app's notification `id`
    /// (`Handover.notificationID(appID:key:)`), its buttons the app's own `app.herald-answer`,
    /// with what the portal's version knows (`DesktopSwitches.portalSound`).
    ///
    /// - Throws: `HandoverFailure` with the bus's reason when the portal refuses it.
    @MainContext
    package static func addThroughPortal(_ notification: DesktopListNotification, id: String) throws(HandoverFailure) {
        try requireNoNUL([notification.appID, notification.key, notification.token ?? "", id])
        guard let bus = SessionBus() else { throw HandoverFailure(reason: "no session bus") }
        var arguments: [OpaquePointer?] = [g_variant_new_string(id), notification.variant(portalVersion: bus.portalNotificationVersion())]
        g_variant_unref(try bus.call(portalName, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Notification", "AddNotification",
                                     &arguments, reply: "()"))
    }

    /// Gives a message to the agent to hold on screen; returns the notification's id there.
    ///
    /// - Parameters:
    ///   - stateFolder: the folder of the app's state, which holds the handover
    ///     (`Handover.stateFolder(of:)`): the agent records the answer there.
    ///   - token: the handover's token (`Handover.token`), which the agent holds it by.
    /// - Throws: `HandoverFailure` with the bus's reason when the agent refuses it (among others,
    ///   when it cannot use `stateFolder`, or holds as many as it may); the check then shows the
    ///   message itself.
    @MainContext
    package static func hold(_ notification: HeldNotification, appID: String, key: String, stateFolder: String,
                             token: String) throws(HandoverFailure) -> UInt32 {
        try requireNoNUL([appID, key, stateFolder, token])
        guard let bus = SessionBus() else { throw HandoverFailure(reason: "no session bus") }
        var arguments: [OpaquePointer?] = [g_variant_new_string(appID), g_variant_new_string(key), g_variant_new_string(stateFolder),
                                           g_variant_new_string(token), notification.variant()]
        let reply = try bus.call(agentName, agentPath, "org.herald.Agent1", "Hold", &arguments, reply: "(u)", timeout: 25_000)
        defer { g_variant_unref(reply) }
        return SessionBus.child(reply) { g_variant_get_uint32($0) } ?? 0
    }

    /// Takes a handed-over message back from where its handover says: out of the desktop's list,
    /// or off the screen when the agent (already running: it is not started for this) holds it,
    /// which takes it back only with the handover's token. A withdrawal nobody takes is not
    /// retried: the caller forgets the handover anyway.
    @MainContext
    package static func withdraw(appID: String, key: String, _ handover: Handover) {
        guard (try? requireNoNUL([appID, key, handover.token ?? ""])) != nil, (try? DesktopLibrary.gio.load()) != nil, let bus = SessionBus() else { return }
        switch handover.place {
        case .desktopList:
            var arguments = [g_variant_new_string(agentName), g_variant_new_string(Handover.notificationID(appID: appID, key: key))]
            if let reply = try? bus.call(desktopListName, "/org/gtk/Notifications", desktopListName, "RemoveNotification", &arguments,
                                         reply: "()", autoStart: false) { g_variant_unref(reply) }
        case .portal:
            var arguments = [g_variant_new_string(Handover.notificationID(appID: appID, key: key))]
            if let reply = try? bus.call(portalName, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Notification", "RemoveNotification",
                                         &arguments, reply: "()", autoStart: false) { g_variant_unref(reply) }
        case .agent:
            guard bus.hasOwner(agentName), let token = handover.token else { return }
            var arguments = [g_variant_new_string(appID), g_variant_new_string(key), g_variant_new_string(token)]
            if let reply = try? bus.call(agentName, agentPath, "org.herald.Agent1", "Withdraw", &arguments, reply: "()",
                                         autoStart: false) { g_variant_unref(reply) }
        }
    }
}

extension HandoverBus {
    /// Whether the caller `sender` (a unique bus name) is the desktop's list: the owner of
    /// `org.gtk.Notifications`, GNOME Shell, which calls the agent's actions for clicks in it.
    @MainContext
    package static func isDesktopList(_ sender: String) -> Bool {
        guard !sender.isEmpty, let bus = SessionBus() else { return false }
        return bus.owner(of: desktopListName) == sender
    }

    /// Refuses ids that hold a NUL character: C would cut them there, and the message would be
    /// handed over (or withdrawn) under another id than its own.
    static func requireNoNUL(_ ids: [String]) throws(HandoverFailure) {
        if let id = ids.first(where: { $0.contains("\0") }) {
            throw HandoverFailure(reason: "'\(id.replacing("\0", with: "\\0"))' holds a NUL character, which the bus cannot carry")
        }
    }
}

/// Why a handover could not be made: the bus's own words.
package struct HandoverFailure: Error, CustomStringConvertible {
    /// The reason, one line.
    package let reason: String

    /// A failure for `reason`.
    package init(reason: String) { self.reason = reason }

    /// The reason.
    package var description: String { reason }
}

/// A message as GNOME Shell's list (`org.gtk.Notifications.AddNotification`) and the
/// notification portal take it: its clicks are `app.*` actions, each targeting (app id, key,
/// answer, state folder, token) in GNOME's list and (app id, key, answer, token) through the
/// portal.
package struct DesktopListNotification {
    /// The action each click calls, `app.` and this: the agent's (`HandoverBus.agentAction`) in
    /// GNOME's list, the app's own (`HandoverBus.appAction`) through the portal.
    package var action: String
    /// The app the message is from, named in each action's target.
    package var appID: String
    /// The message's key, named in each action's target.
    package var key: String
    /// "APPNAME: SUMMARY".
    package var title: String
    /// Plain text: the shell reads no markup here.
    package var body: String
    /// "normal" or "urgent".
    package var priority: String
    /// What a click on the body answers (the first button's answer, D8).
    package var defaultAnswer: String?
    /// The buttons, by label and the answer each gives.
    package var buttons: [(label: String, answer: String)]
    /// A themed icon name, or `nil` for the agent's own icon.
    package var themedIcon: String?
    /// The folder of the app's state, named in each action's target after the answer, for the
    /// agent to record in; `nil` through the portal, where the app records its own answers.
    package var stateFolder: String?
    /// The handover's token, named last in each action's target: what the agent (or, through the
    /// portal, the app) records the click by.
    package var token: String?
    /// The message's category, which decides its sound through a portal of version 2.
    package var category: MessageCategory?

    /// Creates the message.
    package init(action: String, appID: String, key: String, title: String, body: String, priority: String, defaultAnswer: String?,
                 buttons: [(label: String, answer: String)], themedIcon: String?, stateFolder: String? = nil, token: String? = nil,
                 category: MessageCategory? = nil) {
        self.action = action
        self.category = category
        (self.appID, self.key, self.title, self.body, self.priority) = (appID, key, title, body, priority)
        (self.defaultAnswer, self.buttons, self.themedIcon, self.stateFolder, self.token) = (defaultAnswer, buttons, themedIcon, stateFolder, token)
    }

    /// The `a{sv}` AddNotification takes (floating): GNOME's list's keys, which the portal's
    /// version 1 knows too; through a portal of version 2 (`portalVersion`), also the `sound`
    /// the category asks for.
    func variant(portalVersion: UInt32? = nil) -> OpaquePointer {
        var entries: [(String, OpaquePointer)] = [("title", g_variant_new_string(title)), ("body", g_variant_new_string(body)),
                                                  ("priority", g_variant_new_string(priority))]
        if let sound = DesktopSwitches.portalSound(category: category, portalVersion: portalVersion) {
            entries.append(("sound", g_variant_new_string(sound)))
        }
        if let defaultAnswer {
            entries.append(("default-action", g_variant_new_string("app." + action)))
            entries.append(("default-action-target", target(defaultAnswer)))
        }
        let buttons = buttons.map { button in
            GVariantDictionary.make([("label", g_variant_new_string(button.label)), ("action", g_variant_new_string("app." + action)),
                                     ("target", target(button.answer))])
        }
        entries.append(("buttons", GVariantDictionary.array(of: "a{sv}", buttons)))
        if let themedIcon {
            // A serialized GThemedIcon, as g_icon_serialize writes it: ('themed', <['NAME']>).
            var names: [OpaquePointer?] = [g_variant_new_string(themedIcon)]
            let list = GVariantDictionary.array(of: "s", names.map { $0! })
            names = [g_variant_new_string("themed"), g_variant_new_variant(list)]
            entries.append(("icon", g_variant_new_tuple(&names, 2)))
        }
        return GVariantDictionary.make(entries)
    }

    /// The target of an action: app id, key, answer, then the state folder (GNOME's list) and
    /// the token.
    private func target(_ answer: String) -> OpaquePointer {
        var parts: [OpaquePointer?] = [g_variant_new_string(appID), g_variant_new_string(key), g_variant_new_string(answer)]
        if let stateFolder { parts.append(g_variant_new_string(stateFolder)) }
        if let token { parts.append(g_variant_new_string(token)) }
        return g_variant_new_tuple(&parts, gsize(parts.count))
    }
}

/// A message as the agent holds it (`org.herald.Agent1.Hold`): a freedesktop notification
/// built as the check built it for the server's capabilities.
package struct HeldNotification: Equatable {
    /// The summary line.
    package var summary: String
    /// The body, plain text: the agent cleans, caps and escapes it for its server as a check does
    /// its own (`NotificationText`).
    package var body: String
    /// The sender's name.
    package var appName: String
    /// An icon name or file URI; empty for none.
    package var icon: String
    /// 0 low, 1 normal, 2 critical.
    package var urgency: UInt8
    /// The actions, by id and label, exactly as the content has them.
    package var actions: [NotificationAction]
    /// The app id hint.
    package var desktopEntry: String
    /// The message's category (Plasma's event), `nil` for none.
    package var category: MessageCategory?

    /// Creates the message.
    package init(summary: String, body: String, appName: String, icon: String, urgency: UInt8, actions: [NotificationAction], desktopEntry: String,
                 category: MessageCategory? = nil) {
        (self.summary, self.body, self.appName, self.icon) = (summary, body, appName, icon)
        (self.urgency, self.actions, self.desktopEntry, self.category) = (urgency, actions, desktopEntry, category)
    }

    /// The `a{sv}` Hold takes (floating); `category` only for a message that has one.
    func variant() -> OpaquePointer {
        let actions = actions.map { action in
            var pair: [OpaquePointer?] = [g_variant_new_string(action.id), g_variant_new_string(action.label)]
            return g_variant_new_tuple(&pair, 2)!
        }
        var entries: [(String, OpaquePointer)] = [
            ("summary", g_variant_new_string(summary)), ("body", g_variant_new_string(body)), ("app-name", g_variant_new_string(appName)),
            ("icon", g_variant_new_string(icon)), ("urgency", g_variant_new_byte(urgency)),
            ("actions", GVariantDictionary.array(of: "(ss)", actions)), ("desktop-entry", g_variant_new_string(desktopEntry)),
        ]
        if let category { entries.append(("category", g_variant_new_string(category.rawValue))) }
        return GVariantDictionary.make(entries)
    }
}

/// Builds the `a{sv}` dictionaries and arrays of the handover's calls.
private enum GVariantDictionary {
    /// An `a{sv}` of the entries, each value wrapped in a variant (floating).
    static func make(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        array(of: "{sv}", entries.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1)) })
    }

    /// An array of `elementType` (floating); the type makes an empty one.
    static func array(of elementType: String, _ elements: [OpaquePointer]) -> OpaquePointer {
        let type = g_variant_type_new(elementType)
        defer { g_variant_type_free(type) }
        var children: [OpaquePointer?] = elements
        return g_variant_new_array(type, &children, gsize(children.count))
    }
}

/// A connection to the session bus, for the handover's calls.
@MainContext
struct SessionBus {
    /// The bus's own name.
    static let daemon = "org.freedesktop.DBus"
    private let connection: OpaquePointer

    /// The process's one session bus connection, kept once made.
    private static var shared: OpaquePointer?

    /// Connects (once per process); `nil` without a session bus.
    init?() {
        if let shared = Self.shared {
            connection = shared
            return
        }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        Self.shared = connection
        self.connection = connection
    }

    /// One call; its reply (to be released), or `HandoverFailure` with the bus's message.
    func call(_ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: inout [OpaquePointer?],
              reply: String, timeout: Int32 = 5000, autoStart: Bool = true) throws(HandoverFailure) -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let replyType = g_variant_type_new(reply)
        defer { g_variant_type_free(replyType) }
        let tuple = g_variant_new_tuple(&arguments, gsize(arguments.count))
        let flags = autoStart ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START
        guard let answer = g_dbus_connection_call_sync(connection, destination, path, interface, method, tuple, replyType, flags,
                                                       timeout, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "\(method) failed"
            g_clear_error(&error)
            throw HandoverFailure(reason: reason)
        }
        return answer
    }

    /// Whether `name` has an owner now.
    func hasOwner(_ name: String) -> Bool {
        var arguments = [g_variant_new_string(name)]
        guard let reply = try? call(Self.daemon, "/org/freedesktop/DBus", Self.daemon, "NameHasOwner", &arguments, reply: "(b)",
                                    timeout: 1000) else { return false }
        defer { g_variant_unref(reply) }
        return Self.child(reply) { g_variant_get_boolean($0) != 0 } ?? false
    }

    /// The names the bus can start.
    func activatableNames() -> Set<String> {
        var none: [OpaquePointer?] = []
        guard let reply = try? call(Self.daemon, "/org/freedesktop/DBus", Self.daemon, "ListActivatableNames", &none, reply: "(as)",
                                    timeout: 1000) else { return [] }
        defer { g_variant_unref(reply) }
        return Self.child(reply) { list in
            Set((0..<g_variant_n_children(list)).compactMap { index -> String? in
                guard let name = g_variant_get_child_value(list, index) else { return nil }
                defer { g_variant_unref(name) }
                return String(cString: g_variant_get_string(name, nil))
            })
        } ?? []
    }

    /// The unique name of the connection that owns `name`, or `nil`.
    func owner(of name: String) -> String? {
        var arguments = [g_variant_new_string(name)]
        guard let reply = try? call(Self.daemon, "/org/freedesktop/DBus", Self.daemon, "GetNameOwner", &arguments, reply: "(s)",
                                    timeout: 1000) else { return nil }
        defer { g_variant_unref(reply) }
        return Self.child(reply) { String(cString: g_variant_get_string($0, nil)) }
    }

    /// The process that owns `name`, or `nil`.
    func processID(of name: String) -> Int32? {
        var arguments = [g_variant_new_string(name)]
        guard let reply = try? call(Self.daemon, "/org/freedesktop/DBus", Self.daemon, "GetConnectionUnixProcessID", &arguments,
                                    reply: "(u)", timeout: 1000) else { return nil }
        defer { g_variant_unref(reply) }
        return Self.child(reply) { Int32(bitPattern: g_variant_get_uint32($0)) }
    }

    /// The version of the notification portal (its `version` property), or `nil` when it
    /// does not say.
    func portalNotificationVersion() -> UInt32? {
        var arguments = [g_variant_new_string("org.freedesktop.portal.Notification"), g_variant_new_string("version")]
        guard let reply = try? call(HandoverBus.portalName, "/org/freedesktop/portal/desktop", "org.freedesktop.DBus.Properties", "Get",
                                    &arguments, reply: "(v)", timeout: 1000, autoStart: false) else { return nil }
        defer { g_variant_unref(reply) }
        return Self.child(reply) { boxed -> UInt32? in
            guard let value = g_variant_get_variant(boxed) else { return nil }
            defer { g_variant_unref(value) }
            return g_variant_classify(value) == G_VARIANT_CLASS_UINT32 ? g_variant_get_uint32(value) : nil
        } ?? nil
    }

    /// Reads the first value of a reply tuple.
    static func child<Value>(_ reply: OpaquePointer, _ read: (OpaquePointer) -> Value) -> Value? {
        guard let value = g_variant_get_child_value(reply, 0) else { return nil }
        defer { g_variant_unref(value) }
        return read(value)
    }
}
