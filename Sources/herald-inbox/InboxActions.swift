import CAdwaita
import HeraldCore
import HeraldDesktop

/// The application's actions, each with a string parameter, which the window's buttons and
/// switches activate and which GApplication exports on D-Bus (org.gtk.Actions at
/// /org/herald/Inbox):
///
/// - `view`, `ignore`: "APP-ID MESSAGE-ID", a message the window shows;
/// - `mute`, `unmute`: "APP-ID" or "APP-ID CATEGORY", `*` for every app;
/// - `budget`: "per-day N" or "per-week N";
/// - `refresh` (no parameter): read the files again.
@MainContext
enum InboxActions {
    /// Adds the actions to `application`, acting on `window`.
    static func add(to application: UnsafeMutablePointer<GtkApplication>, window: InboxWindow) {
        for name in ["view", "ignore", "mute", "unmute", "budget"] {
            add(name, parameterType: "s", to: application) { parameter in
                guard case .string(let parameter)? = parameter else { return }
                run(name, parameter: parameter, window: window)
            }
        }
        add("refresh", parameterType: nil, to: application) { _ in window.refresh() }
    }

    /// What an action does with its parameter.
    static func run(_ name: String, parameter: String, window: InboxWindow) {
        switch name {
        case "view", "ignore":
            guard let message = window.messages[parameter] else {
                window.toast("No message “\(parameter)” is in the window; it was read again")
                return MainContext.idle { window.refresh() }
            }
            window.toast(window.source.answer(name == "view" ? .view : .ignore, to: message))
            MainContext.idle { window.refresh() }
        default:
            guard let change = SwitchChange(action: name, parameter: parameter) else {
                return window.toast("“\(parameter)” is not something to \(name)")
            }
            let refusal = window.source.change(change)
            if let refusal { window.toast(refusal.capitalizedFirst) }
            // A budget's figure is typed in place: drawing the page again would take its focus.
            if case .budget = change, refusal == nil { return }
            MainContext.idle { window.refresh() }
        }
    }

    /// The parameter that names `message`: "APP-ID MESSAGE-ID" (app ids have no spaces).
    static func parameter(of message: InboxMessage) -> String { message.appID + " " + message.id }

    /// Activates the application's action `name` with the string `parameter`.
    static func activate(_ name: String, _ parameter: String, in application: UnsafeMutablePointer<GtkApplication>) {
        g_action_group_activate_action(OpaquePointer(application), name, g_variant_new_string(parameter))
    }

    private static func add(_ name: String, parameterType: String?, to application: UnsafeMutablePointer<GtkApplication>,
                            _ run: @escaping @MainContext (DBusValue?) -> Void) {
        let type: OpaquePointer? = parameterType.flatMap { g_variant_type_new($0) }
        let action = g_simple_action_new(name, type)!
        if let type { g_variant_type_free(type) }
        SignalHandler.connectActivation(of: action, run)
        g_action_map_add_action(OpaquePointer(application), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }
}
