import CDesktopLibraries

/// A service on the session bus: one object whose interfaces are described in D-Bus
/// introspection XML, its method calls handed to Swift on the main context, and a well-known
/// name owned while it runs.
///
/// The object is exported before the name is asked for, so a call the bus queued for the name
/// (a D-Bus activation) finds it; the name is released before the process goes, and calls that
/// were already on their way are still answered until `stop()`.
@MainContext
package final class SessionService {
    /// Whether the name is owned, lost (another process owns it, or the bus went), or not known yet.
    package enum Ownership: Sendable, Equatable {
        /// The bus has not answered yet.
        case pending
        /// This process owns the name.
        case owned
        /// Another process owns it, or the bus is gone.
        case lost
    }

    private let bus: OpaquePointer
    private var registrations: [UInt32] = []
    private var ownerID: UInt32 = 0
    /// What the bus said of the name so far.
    package private(set) var ownership = Ownership.pending

    /// Connects to the session bus and exports an object at `path`, with every interface of
    /// `introspection` (a `<node>`), each call handed to `onCall` on the main context.
    ///
    /// - Throws: `SessionServiceError` when GIO cannot be loaded, the bus cannot be reached or
    ///   the object cannot be exported.
    package init(path: String, introspection: String, onCall: @escaping @MainContext (MethodCall) -> Void) throws(SessionServiceError) {
        do { try DesktopLibrary.gio.load() } catch { throw SessionServiceError(description: error.description) }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw SessionServiceError(description: "cannot connect to the session bus: " + (consume(error) ?? "unknown error"))
        }
        self.bus = bus
        guard let node = g_dbus_node_info_new_for_xml(introspection, &error) else {
            throw SessionServiceError(description: "the interface description does not parse: " + (consume(error) ?? "unknown error"))
        }
        defer { g_dbus_node_info_unref(node) }
        var index = 0
        while let interface = node.pointee.interfaces?[index] {
            index += 1
            let box = CallbackBox<MethodCall>(onCall)
            let id = g_dbus_connection_register_object(bus, path, interface, Self.vtable, box.retainedPointer(), CallbackBox<MethodCall>.release, &error)
            guard id != 0 else {
                let reason = consume(error) ?? "unknown error"
                stop()
                throw SessionServiceError(description: "cannot export \(path): \(reason)")
            }
            registrations.append(id)
        }
    }

    /// The calls' way into Swift: made once, never freed (GIO copies it in any case).
    private static let vtable: UnsafePointer<GDBusInterfaceVTable> = {
        let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        table.initialize(to: GDBusInterfaceVTable())
        table.pointee.method_call = { _, sender, _, interface, method, parameters, invocation, pointer in
            let call = MethodCall(interface: interface.map { String(cString: $0) } ?? "", method: method.map { String(cString: $0) } ?? "",
                                  sender: sender.map { String(cString: $0) } ?? "",
                                  parameters: parameters.map(DBusValue.init) ?? .tuple([]), invocation: invocation)
            CallbackBox<MethodCall>.invoke(pointer, call)
        }
        return UnsafePointer(table)
    }()

    /// Asks the bus for `name`, without queueing behind another owner; `onChange` hears
    /// `.owned` or `.lost` on the main context.
    package func own(_ name: String, onChange: @escaping @MainContext (Ownership) -> Void) {
        let acquired = CallbackBox<Ownership> { [weak self] ownership in
            self?.ownership = ownership
            onChange(ownership)
        }
        ownerID = g_bus_own_name_on_connection(
            bus, name, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
            { _, _, pointer in CallbackBox<Ownership>.invoke(pointer, .owned) },
            { _, _, pointer in CallbackBox<Ownership>.invoke(pointer, .lost) },
            acquired.retainedPointer(), CallbackBox<Ownership>.release)
    }

    /// Releases the name (the bus hears it at once), keeping the object: calls already sent
    /// to this process are still answered.
    package func release() {
        guard ownerID != 0 else { return }
        g_bus_unown_name(ownerID)
        ownerID = 0
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_flush_sync(bus, nil, &error) == 0 { _ = consume(error) }
    }

    /// Releases the name, takes the object off the bus and sends what is still queued.
    package func stop() {
        release()
        for id in registrations { _ = g_dbus_connection_unregister_object(bus, id) }
        registrations = []
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_flush_sync(bus, nil, &error) == 0 { _ = consume(error) }
    }

    deinit {
        MainContext.assumeIsolated {
            stop()
            g_object_unref(UnsafeMutableRawPointer(bus))
        }
    }
}

/// A service that could not start.
package struct SessionServiceError: Error, Equatable, CustomStringConvertible {
    /// One sentence for people: "cannot connect to the session bus: …".
    package var description: String
}

/// One method call to an exported object, answered exactly once: with `reply`, with `fail`, or
/// (when dropped unanswered) with `org.freedesktop.DBus.Error.Failed`.
@MainContext
package final class MethodCall {
    /// The interface called, e.g. `org.freedesktop.Application`.
    package let interface: String
    /// The method, e.g. `ActivateAction`.
    package let method: String
    /// The caller's unique bus name.
    package let sender: String
    /// The parameters, as the tuple the introspection data declared (GIO checked their types).
    package let parameters: DBusValue
    /// Made on the main context by GIO's call back, answered there; `nil` once answered.
    nonisolated(unsafe) private var invocation: OpaquePointer?

    nonisolated init(interface: String, method: String, sender: String, parameters: DBusValue, invocation: OpaquePointer?) {
        self.interface = interface
        self.method = method
        self.sender = sender
        self.parameters = parameters
        self.invocation = invocation
    }

    /// Answers with `values` as the reply's tuple (none for a method that returns nothing).
    package func reply(_ values: [DBusValue] = []) {
        guard let invocation else { return }
        self.invocation = nil
        g_dbus_method_invocation_return_value(invocation, DBusValue.tuple(values).variant)
    }

    /// Answers with a D-Bus error: `name` (e.g. `org.freedesktop.DBus.Error.InvalidArgs`) and one sentence.
    package func fail(_ name: String, _ message: String) {
        guard let invocation else { return }
        self.invocation = nil
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }

    deinit {
        if let invocation { g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed", "the call was not answered") }
    }
}

/// A D-Bus value read out of a GVariant, or to be written into one: the types Herald's
/// interfaces use.
package enum DBusValue: Sendable, Equatable {
    /// `s`, `o` or `g`.
    case string(String)
    /// `b`.
    case boolean(Bool)
    /// `y`.
    case byte(UInt8)
    /// `u`.
    case uint32(UInt32)
    /// `i`.
    case int32(Int32)
    /// A tuple (`(…)`) or dictionary entry (`{…}`).
    case tuple([DBusValue])
    /// An array of any element type but dictionary entries with string keys.
    case array([DBusValue])
    /// `a{s…}`: a dictionary with string keys.
    case dictionary([String: DBusValue])
    /// `v`.
    case variant(Box)
    /// A type Herald does not read (doubles, handles, 64-bit numbers…).
    case unread(String)

    /// A `v`'s value, boxed to keep the enum finite.
    package final class Box: Sendable, Equatable {
        /// The value inside.
        package let value: DBusValue
        /// Boxes a value.
        package init(_ value: DBusValue) { self.value = value }
        /// Equal when the values are.
        package static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
    }

    /// Reads a GVariant, without taking its reference.
    init(_ variant: OpaquePointer) {
        let type = String(cString: g_variant_get_type_string(variant))
        switch g_variant_classify(variant) {
        case G_VARIANT_CLASS_STRING, G_VARIANT_CLASS_OBJECT_PATH, G_VARIANT_CLASS_SIGNATURE:
            self = .string(String(cString: g_variant_get_string(variant, nil)))
        case G_VARIANT_CLASS_BOOLEAN: self = .boolean(g_variant_get_boolean(variant) != 0)
        case G_VARIANT_CLASS_BYTE: self = .byte(g_variant_get_byte(variant))
        case G_VARIANT_CLASS_UINT32: self = .uint32(g_variant_get_uint32(variant))
        case G_VARIANT_CLASS_INT32: self = .int32(g_variant_get_int32(variant))
        case G_VARIANT_CLASS_VARIANT:
            let inner = g_variant_get_variant(variant)!
            defer { g_variant_unref(inner) }
            self = .variant(Box(DBusValue(inner)))
        case G_VARIANT_CLASS_TUPLE, G_VARIANT_CLASS_DICT_ENTRY: self = .tuple(Self.children(of: variant))
        case G_VARIANT_CLASS_ARRAY:
            let children = Self.children(of: variant)
            if type.hasPrefix("a{s") {
                var dictionary: [String: DBusValue] = [:]
                for case .tuple(let entry) in children where entry.count == 2 {
                    if case .string(let key) = entry[0] { dictionary[key] = entry[1] }
                }
                self = .dictionary(dictionary)
            } else {
                self = .array(children)
            }
        default: self = .unread(type)
        }
    }

    private static func children(of variant: OpaquePointer) -> [DBusValue] {
        (0..<g_variant_n_children(variant)).map { index in
            let child = g_variant_get_child_value(variant, index)!
            defer { g_variant_unref(child) }
            return DBusValue(child)
        }
    }

    /// A new floating GVariant of the value; an `.unread` or empty array or dictionary has
    /// no type to write and becomes an empty string array or `a{sv}`.
    var variant: OpaquePointer {
        switch self {
        case .string(let text): return g_variant_new_string(text)
        case .boolean(let value): return g_variant_new_boolean(value ? 1 : 0)
        case .byte(let value): return g_variant_new_byte(value)
        case .uint32(let value): return g_variant_new_uint32(value)
        case .int32(let value): return g_variant_new_int32(value)
        case .variant(let box): return g_variant_new_variant(box.value.variant)
        case .tuple(let values):
            var children: [OpaquePointer?] = values.map(\.variant)
            return g_variant_new_tuple(&children, gsize(children.count))
        case .array(let values):
            var children: [OpaquePointer?] = values.map(\.variant)
            let type = values.isEmpty ? g_variant_type_new("s") : nil
            defer { if let type { g_variant_type_free(type) } }
            return g_variant_new_array(type, &children, gsize(children.count))
        case .dictionary(let entries):
            let type = g_variant_type_new("{sv}")
            defer { g_variant_type_free(type) }
            var children: [OpaquePointer?] = entries.sorted { $0.key < $1.key }.map { key, value in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.unwrapped.variant))
            }
            return g_variant_new_array(type, &children, gsize(children.count))
        case .unread: return g_variant_new_string("")
        }
    }

    /// The text of a `.string`, or of a `.variant` holding one.
    package var string: String? {
        switch self {
        case .string(let text): return text
        case .variant(let box): return box.value.string
        default: return nil
        }
    }

    /// The value inside a `.variant`; any other value itself.
    package var unwrapped: DBusValue {
        if case .variant(let box) = self { return box.value.unwrapped }
        return self
    }
}
