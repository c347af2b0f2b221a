import Foundation

/// The loopback feed server of `Tests/support/feed_server.py`, one per test.
public final class FeedServer {
    /// The folder it serves; write feeds here.
    public let root: URL
    /// Its port on 127.0.0.1.
    public let port: Int
    private let child: ChildProcess
    private let log: URL

    /// Starts a server serving a new folder inside `directory`.
    public init(directory: URL) throws {
        root = directory.appendingPathComponent("feeds")
        log = directory.appendingPathComponent("requests.log")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let child = try ChildProcess("/usr/bin/python3", [TestPaths.support("feed_server.py"), "--root", root.path, "--log", log.path, "--lifetime", "300"],
                                 environment: ProcessInfo.processInfo.environment, directory: directory, name: "feed-server")
        guard eventually({ child.output.hasSuffix("\n") }), let port = Int(child.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            child.stop()
            throw TestSetupError("the feed server did not start: \(child.errorOutput)")
        }
        self.port = port
        self.child = child
    }

    deinit { child.stop() }

    /// The URL of a path on this server.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Writes a feed file to serve.
    public func publish(_ name: String, _ contents: String) throws {
        try Data(contents.utf8).write(to: root.appendingPathComponent(name))
    }

    /// The requests received so far: path and headers.
    public var requests: [(path: String, headers: [String: String])] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["path"] as? String ?? "", object["headers"] as? [String: String] ?? [:])
        }
    }
}

/// A test's environment could not be set up.
public struct TestSetupError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}

/// Paths of the repository's test scripts and built tools.
public enum TestPaths {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A script in `Tests/support`.
    public static func support(_ name: String) -> String { packageRoot.appendingPathComponent("Tests/support/\(name)").path }

    /// The built `herald` tool, next to the test bundle.
    public static var herald: String { product("herald") }

    /// A built executable of the package, next to the test bundle.
    public static func product(_ name: String) -> String {
        let beside = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name).path
        if let beside, FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for bundle in Bundle.allBundles {
            let candidate = bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/\(name)").path
    }
}
