import Foundation

/// A certificate and its private key, as PEM files: what an https ``FeedServer`` serves.
public struct TLSIdentity: Sendable, Equatable {
    /// The certificate's PEM file.
    public var certificate: String
    /// The private key's PEM file.
    public var key: String

    /// Names a certificate and its key.
    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}

/// A certificate authority made for the tests by `Tests/support/test_ca.sh` with openssl, and
/// the server certificates it signed. Nothing is added to the system's trust store: a test hands
/// ``caFile`` to `herald --ca-file` and serves a certificate with `FeedServer(directory:tls:)`.
public final class TestCertificateAuthority: Sendable {
    /// The server certificates `test_ca.sh` makes, each `NAME.pem` with `NAME.key`.
    public enum Server: String, Sendable, CaseIterable {
        /// For IP:127.0.0.1 and DNS:localhost, valid now, signed by the test CA.
        case good
        /// As `good`, but valid only in 2020.
        case expired
        /// As `good`, but valid only from a year from now.
        case future
        /// Valid now and signed by the test CA, but for DNS:example.org only.
        case otherhost
        /// As `good`, but signed by an unrelated CA (``otherCAFile``) that Herald is never given.
        case untrusted
        /// As `good`, but signed with SHA-1, an algorithm TLS clients no longer accept.
        case insecure
    }

    /// The folder holding every file.
    public let directory: URL

    /// The test root CA's certificate (`ca.pem`): the file to pass as `--ca-file`.
    public var caFile: String { file("ca.pem") }

    /// The unrelated second CA's certificate (`other-ca.pem`), which signed ``Server/untrusted``.
    public var otherCAFile: String { file("other-ca.pem") }

    /// Makes a fresh authority and its certificates in `directory` by running `test_ca.sh`.
    public init(directory: URL) throws {
        self.directory = directory
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [TestPaths.support("test_ca.sh"), directory.path]
        process.environment = ProcessInfo.processInfo.environment
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSetupError("test_ca.sh exited \(process.terminationStatus): \(message)")
        }
        for server in Server.allCases where !FileManager.default.fileExists(atPath: certificate(named: server)) {
            throw TestSetupError("test_ca.sh made no \(server.rawValue).pem in \(directory.path)")
        }
    }

    /// The authority this test process shares: made once, on first use, in a temporary folder
    /// that is removed when the process exits. Certificates take a fraction of a second to
    /// make, but there is no need to make them for every test.
    public static func shared() throws -> TestCertificateAuthority {
        try made.get()
    }

    private static let made: Result<TestCertificateAuthority, any Error> = Result {
        let directory = try Fixtures.temporaryDirectory("herald-test-ca")
        removeAtExit = directory.path
        atexit {
            if let path = TestCertificateAuthority.removeAtExit { try? FileManager.default.removeItem(atPath: path) }
        }
        return try TestCertificateAuthority(directory: directory)
    }

    /// Written once, under the lazy initializer's lock of ``made``, then only read at exit.
    private nonisolated(unsafe) static var removeAtExit: String?

    /// The PEM certificate file of a server certificate.
    public func certificate(named server: Server) -> String { file("\(server.rawValue).pem") }

    /// The PEM private key file of a server certificate.
    public func key(named server: Server) -> String { file("\(server.rawValue).key") }

    /// A server certificate with its key, for `FeedServer(directory:tls:)`.
    public func identity(named server: Server) -> TLSIdentity {
        TLSIdentity(certificate: certificate(named: server), key: key(named: server))
    }

    private func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
