import CDesktopLibraries
import Foundation

/// The private desktop that every in-process test shares: a session bus, python3-dbusmock's
/// notification server and a loopback feed server.
///
/// libnotify and GDBus keep one session-bus connection per process, and all test targets run
/// in one process, so the library's in-process tests cannot each have a bus of their own.
/// Started on first use; its children are stopped when the test process exits.
public enum InProcessDesktop {
    /// The session; its environment is also this process's (bus address, XDG folders).
    nonisolated(unsafe) public static let session: DesktopSession = start()
    /// The loopback feed server.
    nonisolated(unsafe) public static let feedServer: FeedServer = {
        let server = try! FeedServer(directory: session.directory)
        atexit { InProcessDesktop.feedServer.stop() }
        return server
    }()

    private static func start() -> DesktopSession {
        let session = try! DesktopSession()
        setenv("DBUS_SESSION_BUS_ADDRESS", session.environment["DBUS_SESSION_BUS_ADDRESS"]!, 1)
        for name in ["XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_HOME", "XDG_DATA_DIRS"] { setenv(name, session.environment[name]!, 1) }
        // GLib ends a process whose session bus goes away; this one outlives its private bus.
        // The connection is a weakly held singleton, so the reference is kept until exit.
        if let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) { g_dbus_connection_set_exit_on_close(bus, 0) }
        // A static is never deinitialized: the bus and the servers are stopped at exit.
        atexit { InProcessDesktop.session.stop() }
        return session
    }

    /// An environment for one app's files in a folder of its own, on the shared bus.
    public static func environment(forApp appID: String) -> [String: String] {
        var environment = session.environment
        environment["XDG_STATE_HOME"] = session.directory.appendingPathComponent("state-\(appID)").path
        environment["XDG_CACHE_HOME"] = session.directory.appendingPathComponent("cache-\(appID)").path
        return environment
    }
}
