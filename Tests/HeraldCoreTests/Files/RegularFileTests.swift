import Foundation
import Glibc
import HeraldCore
import HeraldTestSupport
import XCTest

/// One file writer that takes its mode and one write loop: a file created without replacing
/// anything (a private key) is written the way every other file is, and every byte reaches a
/// descriptor however often a signal interrupts the write.
final class RegularFileTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws { directory = try Fixtures.temporaryDirectory("herald-regular-file") }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.path + "/" + name }

    private func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() }

    /// The mode a file is promised is its mode whatever the process's umask: a umask that
    /// takes the owner's write bit away (0277) must not leave a state file its owner cannot
    /// write again.
    func testAFileHasTheModeAskedWhateverTheUmask() throws {
        let saved = umask(0o277)
        defer { umask(saved) }
        for (name, mode) in [("state.json", mode_t(0o600)), ("feed.plist", 0o644), ("key", 0o600)] {
            try RegularFile.write(Data("x".utf8), to: path(name), mode: mode, replacing: name != "key")
            XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path(name))[.posixPermissions] as? NSNumber)?.intValue, Int(mode), name)
        }
        try RegularFile.write(Data("y".utf8), to: path("state.json"))
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path("state.json"))[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try names(), ["feed.plist", "key", "state.json"], "no temporary file is left")
    }

    func testAFileWrittenWithoutReplacingNeverReplacesAFileOrALinkAndHasTheModeAsked() throws {
        try RegularFile.write(Data("key\n".utf8), to: path("new/feed.key"), mode: 0o600, replacing: false)
        XCTAssertEqual(try String(contentsOfFile: path("new/feed.key"), encoding: .utf8), "key\n")
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path("new/feed.key"))[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path("new"))[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("new")), ["feed.key"], "no temporary file is left")

        try Data("in use".utf8).write(to: URL(fileURLWithPath: path("used.key")))
        XCTAssertEqual(symlink(path("nowhere"), path("dangling.key")), 0)
        for name in ["used.key", "dangling.key"] {
            XCTAssertThrowsError(try RegularFile.write(Data("other".utf8), to: path(name), mode: 0o600, replacing: false)) {
                XCTAssertEqual($0 as? FileError, .unwritable(path: path(name), reason: "File exists"))
            }
        }
        XCTAssertEqual(try String(contentsOfFile: path("used.key"), encoding: .utf8), "in use")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("dangling.key")), path("nowhere"))
        XCTAssertEqual(try names(), ["dangling.key", "new", "used.key"], "nothing was created through the link and no temporary file is left")

        try RegularFile.write(Data("entry".utf8), to: path("entry.desktop"), mode: 0o644)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path("entry.desktop"))[.posixPermissions] as? NSNumber)?.intValue, 0o644)
    }

    /// A file's folders are made when the file cannot be created for want of them, owner-only;
    /// a folder already there keeps its mode, and a file in a folder's place is an error that
    /// names it.
    func testFoldersAreMadeWhenMissing() throws {
        try RegularFile.write(Data("state".utf8), to: path("state/herald/org.example.App.json"))
        XCTAssertEqual(try String(contentsOfFile: path("state/herald/org.example.App.json"), encoding: .utf8), "state")
        for folder in ["state", "state/herald"] {
            XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path(folder))[.posixPermissions] as? NSNumber)?.intValue, 0o700, folder)
        }
        try FileManager.default.createDirectory(atPath: path("shared"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let lock = try RegularFile.create(path("shared/ledger.lock"), O_RDWR | O_CLOEXEC, mode: 0o600)
        XCTAssertGreaterThanOrEqual(lock, 0)
        close(lock)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path("shared"))[.posixPermissions] as? NSNumber)?.intValue, 0o755)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("shared")), ["ledger.lock"])

        try Data("a file".utf8).write(to: URL(fileURLWithPath: path("plain")))
        XCTAssertThrowsError(try RegularFile.write(Data("x".utf8), to: path("plain/inbox/inbox.json"))) {
            XCTAssertEqual($0 as? FileError, .unwritable(path: path("plain/inbox"), reason: "Not a directory"))
        }
        XCTAssertEqual(try names(), ["plain", "shared", "state"], "no temporary file is left")
    }

    func testEveryByteReachesADescriptorThoughSignalsInterruptTheWrites() throws {
        // A handler installed without SA_RESTART: a blocked write returns early, short or EINTR.
        var quiet = sigaction(), previous = sigaction()
        quiet.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&quiet.sa_mask)
        quiet.sa_flags = 0
        XCTAssertEqual(sigaction(SIGALRM, &quiet, &previous), 0)
        var every = itimerval(it_interval: timeval(tv_sec: 0, tv_usec: 500), it_value: timeval(tv_sec: 0, tv_usec: 500))
        var off = itimerval()
        defer {
            setitimer(Int32(ITIMER_REAL.rawValue), &off, nil)
            sigaction(SIGALRM, &previous, nil)
        }
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let readEnd = ends[0], writeEnd = ends[1]
        let payload = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let received = Received()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                received.append(buffer[..<count])
                usleep(20)
            }
            close(readEnd)
        }
        reader.start()
        XCTAssertEqual(setitimer(Int32(ITIMER_REAL.rawValue), &every, nil), 0)
        let started = Date()
        XCTAssertTrue(RegularFile.writeAll(payload, to: writeEnd))
        setitimer(Int32(ITIMER_REAL.rawValue), &off, nil)
        close(writeEnd)
        while received.bytes.count < payload.count, Date().timeIntervalSince(started) < 10 { usleep(1000) }
        XCTAssertEqual(received.bytes, Data(payload))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}

/// What the reading end of a pipe got, read from another thread.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ bytes: ArraySlice<UInt8>) { lock.withLock { data.append(contentsOf: bytes) } }
    var bytes: Data { lock.withLock { data } }
}
