import CDesktopLibraries

/// An action added to the app's own `GApplication` (`app.NAME` on the session bus): what the
/// notification portal activates, through `org.freedesktop.Application.ActivateAction`, when a
/// button of a notification posted with `app.*` actions is clicked, and what D-Bus activation
/// starts a D-Bus-activatable app for when it is not running (DESIGN.md D23).
///
/// The action lives while this object does: it is removed from the application when the object
/// goes, and the box its handler is kept in is released with the action. The application is
/// held weakly: an app's `Herald` commonly outlives its `GApplication` (released at the end of
/// `main`, or from the application's own signal handlers as it is disposed), and then there is
/// nothing to remove the action from.
@MainContext
package final class ApplicationAction {
    private let application: UnsafeMutablePointer<GWeakRef>
    private let action: OpaquePointer
    private let name: String

    /// The id of the process's default `GApplication` (the one a GTK or GLib app made first),
    /// or `nil` when there is none or GIO cannot be loaded.
    package static var defaultApplicationID: String? {
        guard (try? DesktopLibrary.gio.load()) != nil, let application = g_application_get_default(),
              let id = g_application_get_application_id(application) else { return nil }
        return String(cString: id)
    }

    /// Adds `name` to the default application, its parameter of GVariant type `parameterType`
    /// (an activation with another type is refused by GIO); `onActivate` hears each activation's
    /// parameter on the main context. `nil` when there is no default application.
    package init?(name: String, parameterType: String, onActivate: @escaping @MainContext (DBusValue) -> Void) {
        guard (try? DesktopLibrary.gio.load()) != nil, let application = g_application_get_default() else { return nil }
        let type = g_variant_type_new(parameterType)
        defer { g_variant_type_free(type) }
        guard let action = g_simple_action_new(name, type) else { return nil }
        SignalHandler.connectActivation(of: action) { parameter in onActivate(parameter ?? .tuple([])) }
        g_action_map_add_action(OpaquePointer(application), action)
        self.application = .allocate(capacity: 1)
        g_weak_ref_init(self.application, UnsafeMutableRawPointer(application))
        self.action = action
        self.name = name
    }

    /// Removes the action from the application, unless the application is gone or another action
    /// has taken the name since, and lets go of it.
    deinit {
        MainContext.assumeIsolated {
            if let held = g_weak_ref_get(application) {
                let map = OpaquePointer(held)
                if g_action_map_lookup_action(map, name) == action { g_action_map_remove_action(map, name) }
                g_object_unref(held)
            }
            g_weak_ref_clear(application)
            application.deallocate()
            g_object_unref(UnsafeMutableRawPointer(action))
        }
    }
}
