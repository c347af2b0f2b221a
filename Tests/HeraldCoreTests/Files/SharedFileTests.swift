import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// A file two processes may edit: links resolved to the real file, companions never followed,
/// modes kept, and nothing that waits on a FIFO.
final class SharedFileTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws { directory = try Fixtures.temporaryDirectory("herald-shared-file") }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.path + "/" + name }

    func testALinkedFileIsWrittenWhereItPointsAndTheLinkStaysALink() throws {
        try FileManager.default.createDirectory(atPath: path("real"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: path("real/feed.plist")))
        XCTAssertEqual(chmod(path("real/feed.plist"), 0o600), 0)
        XCTAssertEqual(symlink(path("real/feed.plist"), path("feed.plist")), 0)
        let file = try SharedFile(path("feed.plist"))
        XCTAssertEqual(file.path, path("real/feed.plist"))
        try file.withLock { try file.write(Data("new".utf8)) }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("feed.plist")), path("real/feed.plist"))
        XCTAssertEqual(try String(contentsOfFile: path("real/feed.plist"), encoding: .utf8), "new")
        let mode = try FileManager.default.attributesOfItem(atPath: path("real/feed.plist"))[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
    }

    func testACompanionLinkIsRefusedAndWhatItPointsToIsLeftAlone() throws {
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path("elsewhere")))
        XCTAssertEqual(symlink(path("elsewhere"), path("feed.json.keys")), 0)
        XCTAssertEqual(symlink(path("elsewhere"), path("feed.json.sig")), 0)
        let file = try SharedFile(path("feed.json"))
        let link = "it is a symbolic link, which Herald does not follow for its own files"
        XCTAssertThrowsError(try file.appendToCompanion(".keys", "x\n", header: "")) {
            XCTAssertEqual($0 as? FileError, .unwritable(path: path("feed.json.keys"), reason: link))
        }
        XCTAssertThrowsError(try file.writeCompanion(".sig", Data("sig".utf8))) {
            XCTAssertEqual($0 as? FileError, .unwritable(path: path("feed.json.sig"), reason: link))
        }
        XCTAssertThrowsError(try RegularFile.read(file.companion(".keys"), limit: 100)) {
            XCTAssertEqual($0 as? FileError, .unreadable(path: path("feed.json.keys"), reason: link))
        }
        XCTAssertEqual(try String(contentsOfFile: path("elsewhere"), encoding: .utf8), "mine")
    }

    func testALinkToNothingIsRefused() throws {
        XCTAssertEqual(symlink(path("gone"), path("feed.plist")), 0)
        XCTAssertThrowsError(try SharedFile(path("feed.plist"))) {
            XCTAssertEqual($0 as? FileError, .unwritable(path: path("feed.plist"), reason: "it is a symbolic link to a file that is not there"))
        }
    }

    func testAFIFOOrAFileOverTheLimitIsRefusedAtOnce() throws {
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        let started = Date()
        XCTAssertThrowsError(try RegularFile.read(path("fifo"), limit: 100, followingLinks: true)) {
            XCTAssertEqual($0 as? FileError, .unreadable(path: path("fifo"), reason: "it is a FIFO, not a regular file"))
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        try Data(count: 101).write(to: URL(fileURLWithPath: path("big")))
        XCTAssertThrowsError(try RegularFile.read(path("big"), limit: 100)) {
            XCTAssertEqual($0 as? FileError, .tooLarge(path: path("big"), size: 101, limit: 100))
        }
    }

    func testTheLockIsHeldUntilTheEditEnds() throws {
        let file = try SharedFile(path("feed.json"))
        try file.withLock {
            let folder = open(directory.path, O_RDONLY | O_DIRECTORY)
            defer { close(folder) }
            XCTAssertEqual(flock(folder, LOCK_EX | LOCK_NB), -1, "another edit waits")
            XCTAssertEqual(errno, EWOULDBLOCK)
        }
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        XCTAssertEqual(flock(folder, LOCK_EX | LOCK_NB), 0, "and goes on once it is over")
    }
}
