import Foundation
import Glibc
import HeraldCore
import HeraldTestSupport
import XCTest

/// No lock is waited on forever: every lock Herald takes gives up after its bound, naming the
/// process that holds it.
final class LockWaitTests: XCTestCase {
    var directory: URL!
    var environment: [String: String] { ["HOME": directory.path, "XDG_STATE_HOME": directory.path + "/state"] }

    override func setUpWithError() throws { directory = try Fixtures.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Holds `flock`'s lock on `path` through a descriptor of its own, as another process would
    /// (a lock belongs to the open file, so a second `open` in this process waits for it too).
    private func hold(_ path: String, directory: Bool = false) throws -> Int32 {
        try FileManager.default.createDirectory(atPath: RegularFile.folder(of: path), withIntermediateDirectories: true)
        let descriptor = directory ? open(path, O_RDONLY | O_DIRECTORY) : open(path, O_RDWR | O_CREAT, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0)
        return descriptor
    }

    /// Runs `body`, which must throw, and says how long it took.
    private func secondsUntilItThrows(_ body: () throws -> Void, _ check: (any Error) -> Void) -> TimeInterval {
        let started = Date()
        XCTAssertThrowsError(try body(), "", check)
        return Date().timeIntervalSince(started)
    }

    func testAStateLockHeldByAnotherProcessFailsTheChangeAfterItsBoundNamingTheHolder() throws {
        let paths = try HeraldPaths(appID: "org.example.App", environment: environment)
        let held = try hold(paths.lockFile)
        defer { close(held) }
        let store = FileStateStore(paths: paths, lockWait: 0.3)
        let seconds = secondsUntilItThrows({ try store.update { _ = $0.viewed.insert("a") } }) { error in
            XCTAssertEqual(error as? StateStoreError, .locked(path: paths.lockFile, what: "the state of org.example.App", holder: getpid(), seconds: 0.3))
            XCTAssertEqual(String(describing: error),
                           "the state of org.example.App is locked by another process (pid \(getpid())) for more than 0.3 s "
                           + "(lock file \(paths.lockFile)); try again once that process has finished, or end it")
        }
        XCTAssertGreaterThanOrEqual(seconds, 0.3)
        XCTAssertLessThan(seconds, 2)
        XCTAssertEqual(try store.inspect(), HeraldState(), "nothing was written")
    }

    func testALockLetGoDuringTheWaitIsTaken() throws {
        let paths = try HeraldPaths(appID: "org.example.App", environment: environment)
        let held = try hold(paths.lockFile)
        let letGo = Thread { usleep(200_000); close(held) }
        letGo.start()
        let started = Date()
        try FileStateStore(paths: paths, lockWait: 10).update { _ = $0.viewed.insert("a") }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertEqual(try FileStateStore(paths: paths).inspect()?.viewed, ["a"])
    }

    func testTheAttentionLedgersLockHasItsBoundToo() throws {
        let ledger = FileAttentionLedgerStore(environment: environment, lockWait: 0.2)
        let held = try hold(ledger.lockFile)
        defer { close(held) }
        let seconds = secondsUntilItThrows({ try ledger.update { $0.shows = [] } }) { error in
            XCTAssertEqual(error as? StateStoreError, .locked(path: ledger.lockFile, what: "the attention ledger", holder: getpid(), seconds: 0.2))
        }
        XCTAssertLessThan(seconds, 2)
    }

    func testAFoldersEditLockHasItsBoundToo() throws {
        let file = try SharedFile(directory.path + "/feed.json")
        let held = try hold(file.folder, directory: true)
        defer { close(held) }
        let seconds = secondsUntilItThrows({ try file.withLock(waitingAtMost: 0.2) {} }) { error in
            XCTAssertEqual(error as? FileError, .locked(path: file.folder, holder: getpid(), seconds: 0.2))
            XCTAssertEqual(String(describing: error),
                           "\(file.folder) is locked by another process (pid \(getpid())) for more than 0.2 s; try again once that process has finished, or end it")
        }
        XCTAssertLessThan(seconds, 2)
    }

    func testALockAskedForWithoutWaitingFailsAtOnce() throws {
        let paths = try HeraldPaths(appID: "org.example.App", environment: environment)
        let held = try hold(paths.lockFile)
        defer { close(held) }
        let seconds = secondsUntilItThrows({ try FileStateStore(paths: paths, lockWait: 0).update { _ = $0.viewed.insert("a") } }) { error in
            XCTAssertEqual(error as? StateStoreError, .locked(path: paths.lockFile, what: "the state of org.example.App", holder: getpid(), seconds: 0))
        }
        XCTAssertLessThan(seconds, 0.1)
    }

    func testTheHolderIsTheProcessProcLocksNamesForTheFileNotAWaiterOrAnotherFile() {
        let table = """
            1: POSIX  ADVISORY  WRITE 1183 fe:00:385771 0 EOF
            2: FLOCK  ADVISORY  WRITE 500 fe:01:16220698 0 EOF
            3: FLOCK  ADVISORY  WRITE 600 fe:00:16220698 0 EOF
            3: -> FLOCK  ADVISORY  WRITE 700 fe:00:16220698 0 EOF
            4: FLOCK  ADVISORY  WRITE 0 08:10:99 0 EOF

            """
        XCTAssertEqual(RegularFile.lockHolder(in: table, device: (0xfe, 0), inode: 16_220_698), 600)
        XCTAssertEqual(RegularFile.lockHolder(in: table, device: (0xfe, 1), inode: 16_220_698), 500)
        XCTAssertNil(RegularFile.lockHolder(in: table, device: (0xfe, 0), inode: 385_771), "a POSIX lock is not flock's")
        XCTAssertNil(RegularFile.lockHolder(in: table, device: (8, 0x10), inode: 99), "a process outside this PID namespace is named 0")
        XCTAssertNil(RegularFile.lockHolder(in: "", device: (0xfe, 0), inode: 1))
    }
}
