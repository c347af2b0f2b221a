import Foundation

/// Stand-ins for GNOME Shell's list (`--gtk`), the Herald agent (`--agent`) and the notification
/// portal (`--portal`) on a session's bus, recording every call (Tests/support/handover_mocks.py).
/// Its properties are set once and its log is read from the file each time, so any thread may
/// read it.
public final class HandoverStandIns: @unchecked Sendable {
    /// The stand-ins' process.
    public let process: ChildProcess
    private let log: URL

    /// Starts the stand-ins `mocks` names on `session`'s bus and waits until they own their names.
    public init(_ mocks: [String], in session: DesktopSession) throws {
        log = session.directory.appendingPathComponent("handover-calls-\(UUID().uuidString).log")
        let process = try ChildProcess("/usr/bin/python3", [TestPaths.support("handover_mocks.py"), log.path] + mocks,
                                       environment: session.environment, directory: session.directory, name: "handover-mocks")
        guard eventually({ process.output == "ready\n" }) else {
            process.stop()
            throw TestSetupError("the stand-ins did not start: \(process.errorOutput)")
        }
        self.process = process
    }

    /// The stand-ins' process id.
    public var processID: Int32 { process.process.processIdentifier }

    /// Every call received, in order: its method and its arguments, unpacked.
    public var calls: [(method: String, args: [Any])] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let call = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (call["method"] as? String ?? "", call["args"] as? [Any] ?? [])
        }
    }

    /// The calls of `method`, their arguments.
    public func calls(of method: String) -> [[Any]] { calls.filter { $0.method == method }.map(\.args) }

    /// The calls of `method`, their arguments as GVariant text (types annotated), exactly as sent.
    public func texts(of method: String) -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let call = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], call["method"] as? String == method else { return nil }
            return call["text"] as? String
        }
    }

    /// Stops them.
    public func stop() { process.stop() }
}

extension DesktopSession {
    /// Installs the agent's desktop entry where GNOME Shell (and `HandoverBus.route`) looks for
    /// it, under the session's `XDG_DATA_HOME`, naming `program`: the desktop's list is then the
    /// way a check hands its messages over, when `org.gtk.Notifications` has an owner.
    public func installAgentDesktopEntry(program: String = TestPaths.agent) throws {
        let applications = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Herald\nNoDisplay=true\nDBusActivatable=true\nExec=\(program)\nIcon=org.herald.Herald\n"
            .write(to: applications.appendingPathComponent("org.herald.Agent.desktop"), atomically: true, encoding: .utf8)
    }
}
