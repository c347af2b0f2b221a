import Foundation

/// The loopback feed server of `Tests/support/feed_server.py`, one per test.
public final class FeedServer {
    /// The folder it serves; write feeds here.
    public let root: URL
    /// Its port on 127.0.0.1.
    public let port: Int
    /// The certificate it serves https with, or `nil` for plain http.
    public let tls: TLSIdentity?
    private let child: ChildProcess
    private let log: URL

    /// Starts a plain http server serving a new folder inside `directory`.
    public convenience init(directory: URL) throws {
        try self.init(directory: directory, tls: nil)
    }

    /// Starts a server serving a new folder inside `directory`: https with `tls`'s certificate
    /// when given (see ``TestCertificateAuthority``), plain http otherwise.
    ///
    /// A plain server keeps its files directly in `directory` (`feeds`, `requests.log`); an https
    /// server gets a folder of its own there, so a test can run one of each side by side.
    public init(directory: URL, tls: TLSIdentity?) throws {
        let folder = tls == nil ? directory : directory.appendingPathComponent("https-server-\(UUID().uuidString.prefix(8))")
        root = folder.appendingPathComponent("feeds")
        log = folder.appendingPathComponent("requests.log")
        self.tls = tls
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Long enough for the in-process suite that shares one server (its racing checks alone
        // take minutes on a loaded machine), short enough that a test that dies leaves none.
        var arguments = [TestPaths.support("feed_server.py"), "--root", root.path, "--log", log.path, "--lifetime", "1800"]
        if let tls { arguments += ["--tls", tls.certificate, tls.key] }
        let child = try ChildProcess("/usr/bin/python3", arguments,
                                 environment: ProcessInfo.processInfo.environment, directory: folder, name: "feed-server")
        guard eventually({ child.output.hasSuffix("\n") }), let port = Int(child.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            child.stop()
            throw TestSetupError("the feed server did not start: \(child.errorOutput)")
        }
        self.port = port
        self.child = child
    }

    deinit { stop() }

    /// Stops the server.
    public func stop() { child.stop() }

    /// The URL of a path on this server: `https://127.0.0.1:PORT/path` with TLS, `http://…` without.
    public func url(_ path: String) -> String { "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)/\(path)" }

    /// The URL of a path on this server that answers 302 with `Location: target` (any absolute
    /// URL, on another server too).
    public func redirect(to target: String) -> String {
        url("to/" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target))
    }

    /// The URL of a path on this server that redirects to itself, forever.
    public var redirectLoop: String { url("loop") }

    /// Writes a feed file to serve.
    public func publish(_ name: String, _ contents: String) throws {
        try Data(contents.utf8).write(to: root.appendingPathComponent(name))
    }

    /// The requests received so far: path and headers.
    public var requests: [(path: String, headers: [String: String])] {
        logEntries.compactMap { object in
            guard let path = object["path"] as? String else { return nil }
            return (path, object["headers"] as? [String: String] ?? [:])
        }
    }

    /// The TLS handshakes that failed on the server's side so far, as OpenSSL names the reason
    /// (`TLSV1_ALERT_UNKNOWN_CA`, say). A client that completes the handshake and then hangs up
    /// because it does not like the certificate, as glib-networking does, leaves no entry.
    public var tlsErrors: [String] { logEntries.compactMap { $0["tls-error"] as? String } }

    private var logEntries: [[String: Any]] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
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

    /// The built `herald-agent`, which D-Bus starts for `org.herald.Agent`.
    public static var agent: String { product("herald-agent") }

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
