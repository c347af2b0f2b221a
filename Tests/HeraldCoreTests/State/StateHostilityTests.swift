import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// DESIGN.md D16 against a hostile disk: whatever is wrong with Herald's files, the answers a
/// user gave are never replaced, nothing is written outside Herald's folders, and the error
/// says what is wrong in a sentence.
final class StateFileHostilityTests: XCTestCase {
    var directory: URL!
    var paths: HeraldPaths!
    var outside: String { directory.path + "/outside" }

    override func setUpWithError() throws {
        directory = try Fixtures.temporaryDirectory()
        paths = try HeraldPaths(appID: "org.example.App", environment: [
            "HOME": directory.path, "XDG_STATE_HOME": directory.path + "/state", "XDG_CACHE_HOME": directory.path + "/cache",
        ])
        try FileManager.default.createDirectory(atPath: directory.path + "/state/herald", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func write(_ text: String, to path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
    func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// Asserts that `update` fails with exactly `expected` and that `load` does too.
    func assertRefused(_ expected: StateStoreError, file: StaticString = #filePath, line: UInt = #line) {
        let store = FileStateStore(paths: paths)
        XCTAssertThrowsError(try store.update { $0.viewed.insert("new") }, file: file, line: line) { error in
            XCTAssertEqual(error as? StateStoreError, expected, file: file, line: line)
        }
        XCTAssertThrowsError(try store.load(), file: file, line: line) { error in
            XCTAssertEqual(error as? StateStoreError, expected, file: file, line: line)
        }
    }

    func testStateFileThatIsASymbolicLinkIsRefusedAndItsTargetUntouched() throws {
        try write(#"{"viewed":["elsewhere"]}"#, to: outside + "/target.json")
        try FileManager.default.createSymbolicLink(atPath: paths.stateFile, withDestinationPath: outside + "/target.json")
        assertRefused(.unreadable(path: paths.stateFile, reason: "it is a symbolic link, which Herald does not follow for its own files"))
        XCTAssertEqual(try contents(outside + "/target.json"), #"{"viewed":["elsewhere"]}"#)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: paths.stateFile), outside + "/target.json")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), ["target.json"])
    }

    func testStateFileThatIsAFIFOIsRefusedWithoutWaitingOnIt() throws {
        XCTAssertEqual(mkfifo(paths.stateFile, 0o600), 0)
        // Were it opened for reading without O_NONBLOCK, this would wait for a writer forever.
        assertRefused(.unreadable(path: paths.stateFile, reason: "it is a FIFO, not a regular file"))
    }

    func testStateFileThatIsADirectoryIsRefusedAndLeftAsItIs() throws {
        try FileManager.default.createDirectory(atPath: paths.stateFile + "/inside", withIntermediateDirectories: true)
        assertRefused(.unreadable(path: paths.stateFile, reason: "it is a directory, not a regular file"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: paths.stateFile), ["inside"])
    }

    func testStateFileOverTheSizeLimitIsRefusedUnreadAndLeftAsItIs() throws {
        // A million answered ids is some 42 MB of JSON: refused from its size alone, never read.
        let size = 42 * 1024 * 1024
        XCTAssertTrue(FileManager.default.createFile(atPath: paths.stateFile, contents: nil))
        XCTAssertEqual(truncate(paths.stateFile, off_t(size)), 0)
        assertRefused(.tooLarge(path: paths.stateFile, size: size, limit: 4 * 1024 * 1024))
        XCTAssertEqual(StateStoreError.tooLarge(path: paths.stateFile, size: size, limit: FileStateStore.sizeLimit).description,
                       "cannot use \(paths.stateFile): it is 42 MiB, more than the 4 MiB a state file may hold")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: paths.stateFile)[.size] as? Int, size)
    }

    func testStateThatWouldOutgrowTheSizeLimitIsNotWrittenAndTheOldFileStays() throws {
        let store = FileStateStore(paths: paths)
        try store.update { $0.viewed = ["kept"] }
        let before = try contents(paths.stateFile)
        XCTAssertThrowsError(try store.update { state in
            // 40,000 ids of some 120 bytes: past the limit, with few ids to sort and encode.
            let padding = String(repeating: "x", count: 100)
            state.viewed.formUnion((0..<40_000).map { "2026/01/01/\(padding)-\($0)" })
        }) { error in
            guard case .wouldBeTooLarge(let path, _, let limit) = error as? StateStoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, self.paths.stateFile)
            XCTAssertEqual(limit, FileStateStore.sizeLimit)
        }
        XCTAssertEqual(try contents(paths.stateFile), before)
    }

    func testLockFileThatIsASymbolicLinkIsRefusedAndNothingIsCreatedWhereItPoints() throws {
        try FileManager.default.createSymbolicLink(atPath: paths.lockFile, withDestinationPath: outside + "/planted.lock")
        assertRefused(.unlockable(path: paths.lockFile, reason: "it is a symbolic link, which Herald does not follow for its own files"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths.stateFile))
    }

    func testLockFileThatIsAFIFOIsRefusedWithoutWaitingOnIt() throws {
        XCTAssertEqual(mkfifo(paths.lockFile, 0o600), 0)
        assertRefused(.unlockable(path: paths.lockFile, reason: "it is a FIFO, not a regular file"))
    }

    func testLockFileThatIsADirectoryIsRefused() throws {
        try FileManager.default.createDirectory(atPath: paths.lockFile, withIntermediateDirectories: true)
        assertRefused(.unlockable(path: paths.lockFile, reason: "it is a directory, not a regular file"))
    }

    func testALinkPlantedAsTheTemporaryFileIsReplacedNotWrittenThrough() throws {
        try write("outside", to: outside + "/victim")
        try FileManager.default.createSymbolicLink(atPath: paths.stateFile + ".tmp-\(getpid())", withDestinationPath: outside + "/victim")
        try FileStateStore(paths: paths).update { $0.viewed = ["a"] }
        XCTAssertEqual(try contents(outside + "/victim"), "outside")
        XCTAssertEqual(try FileStateStore(paths: paths).load().viewed, ["a"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/state/herald").sorted(),
                       ["org.example.App.json", "org.example.App.lock"])
    }

    func testCachedFeedThatIsAFIFOCountsAsNoCachedCopy() throws {
        let store = FileStateStore(paths: paths)
        try store.storeCachedFeed(Data("feed".utf8))
        XCTAssertTrue(store.hasCachedFeed)
        XCTAssertEqual(unlink(paths.cachedFeedFile), 0)
        XCTAssertEqual(mkfifo(paths.cachedFeedFile, 0o600), 0)
        XCTAssertFalse(store.hasCachedFeed)
        XCTAssertNil(store.cachedFeed())
        try store.storeCachedFeed(Data("fresh".utf8))
        XCTAssertEqual(store.cachedFeed(), Data("fresh".utf8))
    }

    func testResetRemovesALinkInTheStatesPlaceButNotWhatItPointsTo() throws {
        try write("outside", to: outside + "/target.json")
        try FileManager.default.createSymbolicLink(atPath: paths.stateFile, withDestinationPath: outside + "/target.json")
        let store = FileStateStore(paths: paths)
        try store.reset()
        XCTAssertEqual(try store.load(), HeraldState())
        XCTAssertEqual(try contents(outside + "/target.json"), "outside")
    }

    func testResetRefusesADirectoryInTheStatesPlace() throws {
        try FileManager.default.createDirectory(atPath: paths.stateFile, withIntermediateDirectories: true)
        XCTAssertThrowsError(try FileStateStore(paths: paths).reset()) { error in
            XCTAssertEqual(error as? StateStoreError, .unwritable(path: self.paths.stateFile, reason: "it is a directory, not a regular file"))
        }
    }

    func testStateFileThisUserCannotReadIsAnErrorNotAFirstLaunch() throws {
        // Root reads any file; FaultTests runs this as another user, through `herald`.
        guard getuid() != 0 else { throw XCTSkip("root reads any file; covered by FaultTests with setpriv") }
        try write(#"{"viewed":["kept"]}"#, to: paths.stateFile)
        XCTAssertEqual(chmod(paths.stateFile, 0), 0)
        defer { chmod(paths.stateFile, 0o600) }
        assertRefused(.unreadable(path: paths.stateFile, reason: "Permission denied"))
        chmod(paths.stateFile, 0o600)
        XCTAssertEqual(try contents(paths.stateFile), #"{"viewed":["kept"]}"#)
    }
}

/// The leftovers of crashes and corruption do not pile up or overwrite each other.
final class StateFileLeftoverTests: XCTestCase {
    var directory: URL!
    var paths: HeraldPaths!
    var stateDirectory: String { directory.path + "/state/herald" }

    override func setUpWithError() throws {
        directory = try Fixtures.temporaryDirectory()
        paths = try HeraldPaths(appID: "org.example.App", environment: ["HOME": directory.path, "XDG_STATE_HOME": directory.path + "/state"])
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testCorruptFilesMovedAsideInTheSameSecondKeepEachTheirCopy() throws {
        // Copies already there for this second and the next: the new one must take a new name,
        // whichever second the move falls in.
        let second = Int(Date().timeIntervalSince1970)
        for taken in [second, second + 1] {
            try Data("older \(taken)".utf8).write(to: URL(fileURLWithPath: paths.stateFile + ".corrupt-\(taken)"))
        }
        let reported = LockedBox<[String]>([])
        let store = FileStateStore(paths: paths, onCorruptFile: { reported.value.append($0) })
        for text in ["{ first", "{ second"] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: paths.stateFile))
            XCTAssertEqual(try store.load(), HeraldState())
        }
        func aside(_ second: Int, _ suffix: String) -> String { paths.stateFile + ".corrupt-\(second)" + suffix }
        let possible = [
            [aside(second, "-2"), aside(second, "-3")],
            [aside(second, "-2"), aside(second + 1, "-2")],
            [aside(second + 1, "-2"), aside(second + 1, "-3")],
        ]
        XCTAssertTrue(possible.contains(reported.value), "\(reported.value)")
        XCTAssertEqual(try reported.value.map { try String(contentsOfFile: $0, encoding: .utf8) }, ["{ first", "{ second"])
        for taken in [second, second + 1] {
            XCTAssertEqual(try String(contentsOfFile: paths.stateFile + ".corrupt-\(taken)", encoding: .utf8), "older \(taken)")
        }
    }

    func testTemporaryFileOfAKilledWriterIsRemovedAtTheNextWrite() throws {
        let dead = try deadProcessID()
        let live = getppid()
        try Data("half a state".utf8).write(to: URL(fileURLWithPath: paths.stateFile + ".tmp-\(dead)"))
        try Data("being written".utf8).write(to: URL(fileURLWithPath: paths.stateFile + ".tmp-\(live)"))
        try FileStateStore(paths: paths).update { $0.viewed = ["a"] }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stateDirectory).sorted(),
                       ["org.example.App.json", "org.example.App.json.tmp-\(live)", "org.example.App.lock"],
                       "a live process's temporary file stays: it may be renamed in a moment")
    }

    func testStateOnAFullDiskIsNotReplacedAndTheWriteIsReported() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root; FaultTests covers the tool") }
        let mountPoint = directory.path + "/state"
        guard "size=64k".withCString({ mount("tmpfs", mountPoint, "tmpfs", 0, $0) }) == 0 else { throw XCTSkip("cannot mount a tmpfs here: \(String(cString: strerror(errno)))") }
        defer { umount(mountPoint) }
        let store = FileStateStore(paths: paths)
        try store.update { $0.viewed = ["kept"] }
        let filler = mountPoint + "/filler"
        let descriptor = open(filler, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0, count: 4096)
        while write(descriptor, block, block.count) > 0 {}
        close(descriptor)
        XCTAssertThrowsError(try store.update { $0.viewed.insert("new") }) { error in
            XCTAssertEqual(error as? StateStoreError, .unwritable(path: self.paths.stateFile, reason: "No space left on device"))
        }
        XCTAssertEqual(try store.load().viewed, ["kept"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/herald").sorted(),
                       ["org.example.App.json", "org.example.App.lock"])
    }

    /// The id of a process that has ended and been reaped.
    func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
