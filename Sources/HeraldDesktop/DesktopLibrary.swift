import CDesktopLibraries

/// GIO, libsoup 3 and libnotify: loaded the first time Herald needs one, so that a check that
/// is not due maps none of them.
package enum DesktopLibrary: Sendable {
    /// GIO (`libgio-2.0.so.0`): files, D-Bus, settings, TLS, opening links.
    case gio
    /// libsoup 3 (`libsoup-3.0.so.0`): the feed's HTTP requests.
    case libsoup
    /// libnotify (`libnotify.so.4`): the notifications.
    case libnotify

    /// Loads the library and finds every function of it that Herald calls, once; later calls
    /// return at once.
    ///
    /// - Throws: `DesktopLibraryUnavailable` naming the library and the loader's reason, when it
    ///   is not installed or lacks a function: the process goes on, and the caller reports it.
    package func load() throws(DesktopLibraryUnavailable) {
        let library: HeraldLibrary = switch self {
        case .gio: HERALD_GIO
        case .libsoup: HERALD_LIBSOUP
        case .libnotify: HERALD_LIBNOTIFY
        }
        let reason = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer -> String? in
            herald_library_load(library, buffer.baseAddress, buffer.count) == 1 ? nil : String(cString: buffer.baseAddress!)
        }
        if let reason { throw DesktopLibraryUnavailable(description: reason) }
    }
}

/// A library Herald needs that cannot be loaded.
package struct DesktopLibraryUnavailable: Error, Equatable, CustomStringConvertible {
    /// "cannot load libsoup-3.0.so.0: the loader's reason".
    package var description: String
}
