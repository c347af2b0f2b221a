import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

final class StateStoreTests: XCTestCase {
    var directory: URL!
    var environment: [String: String] { ["HOME": directory.path, "XDG_STATE_HOME": directory.path + "/state", "XDG_CACHE_HOME": directory.path + "/cache"] }

    override func setUpWithError() throws { directory = try Fixtures.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func store() throws -> FileStateStore { FileStateStore(paths: try HeraldPaths(appID: "org.example.App", environment: environment)) }

    func testPathsFollowXDGVariables() throws {
        let paths = try HeraldPaths(appID: "org.example.App", environment: environment)
        XCTAssertEqual(paths.stateFile, directory.path + "/state/herald/org.example.App.json")
        XCTAssertEqual(paths.cachedFeedFile, directory.path + "/cache/herald/org.example.App.feed")
        let defaults = try HeraldPaths(appID: "a", environment: ["HOME": "/home/u", "XDG_STATE_HOME": "relative"])
        XCTAssertEqual(defaults.stateFile, "/home/u/.local/state/herald/a.json", "relative XDG paths are ignored, as the spec says")
    }

    func testAppIDThatIsNotAFileNameIsRefused() {
        for bad in ["", "../x", ".hidden", "a/b", "a b"] {
            XCTAssertThrowsError(try HeraldPaths(appID: bad, environment: environment), bad)
        }
    }

    func testStateSurvivesARoundTrip() throws {
        let store = try store()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try store.update { state in
            state = CheckPolicy.apply(.view, to: "a", state: state, now: now)
            state = CheckPolicy.apply(.remind, to: "b", state: state, now: now)
            state = CheckPolicy.recordSuccess(state, now: now)
        }
        let loaded = try store.load()
        XCTAssertEqual(loaded.viewed, ["a"])
        XCTAssertEqual(loaded.reminded, ["b": now])
        XCTAssertEqual(loaded.lastChecked, now)
        XCTAssertEqual(loaded.ignored, [])
    }

    func testLoadingCreatesNoFolderOrLockForAnAppNeverWrittenFor() throws {
        let store = try store()
        XCTAssertEqual(try store.load(), HeraldState())
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path + "/state"))
        // A state file with no lock beside it (copied from another machine) is read as it is.
        try FileManager.default.createDirectory(atPath: directory.path + "/state/herald", withIntermediateDirectories: true)
        try Data(#"{"viewed": ["copied"]}"#.utf8).write(to: URL(fileURLWithPath: store.paths.stateFile))
        XCTAssertEqual(try store.load().viewed, ["copied"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/state/herald"), ["org.example.App.json"])
    }

    func testCorruptStateFileIsMovedAsideAndReported() throws {
        let reported = LockedBox<String?>(nil)
        let store = FileStateStore(paths: try HeraldPaths(appID: "org.example.App", environment: environment), onCorruptFile: { reported.value = $0 })
        try FileManager.default.createDirectory(atPath: directory.path + "/state/herald", withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: store.paths.stateFile))
        XCTAssertEqual(try store.load(), HeraldState())
        let aside = try XCTUnwrap(reported.value)
        XCTAssertTrue(aside.contains(".corrupt-"))
        XCTAssertEqual(try String(contentsOfFile: aside, encoding: .utf8), "{ not json")
    }

    func testInspectingReadsTheFileAsItIsAndChangesNothingEvenWhenItIsCorrupt() throws {
        let store = try store()
        XCTAssertEqual(try store.inspect(), HeraldState(), "no file is the empty state")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path + "/state"), "no folder, no lock")
        try FileManager.default.createDirectory(atPath: directory.path + "/state/herald", withIntermediateDirectories: true)
        try Data(#"{"viewed": ["kept"]}"#.utf8).write(to: URL(fileURLWithPath: store.paths.stateFile))
        XCTAssertEqual(try store.inspect()?.viewed, ["kept"])
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: store.paths.stateFile))
        XCTAssertNil(try store.inspect(), "a corrupt file is said to be one, not moved aside")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/state/herald"), ["org.example.App.json"])
        XCTAssertEqual(try String(contentsOfFile: store.paths.stateFile, encoding: .utf8), "{ not json")
    }

    func testUnwritableStateDirectoryIsAClearErrorAndLosesNothing() throws {
        let store = try store()
        try store.update { $0.viewed = ["kept"] }
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path + "/state/herald")
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path + "/state/herald") }
        guard getuid() != 0 else {
            // root ignores directory modes; use a path under a regular file instead.
            let blocked = FileStateStore(paths: try HeraldPaths(appID: "x", environment: ["XDG_STATE_HOME": store.paths.stateFile, "HOME": "/"]))
            XCTAssertThrowsError(try blocked.update { $0.viewed = ["x"] }) { error in
                guard case .unwritable = error as? StateStoreError else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(try store.load().viewed, ["kept"])
            return
        }
        XCTAssertThrowsError(try store.update { $0.viewed.insert("new") })
        XCTAssertEqual(try store.load().viewed, ["kept"])
    }

    func testConcurrentWritersNeverLoseEachOthersAnswers() throws {
        let paths = try HeraldPaths(appID: "org.example.App", environment: environment)
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            let store = FileStateStore(paths: paths)
            try! store.update { $0.viewed.insert("m\(index)") }
        }
        XCTAssertEqual(try FileStateStore(paths: paths).load().viewed.count, 40)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/state/herald").filter { $0.contains(".tmp") }
        XCTAssertEqual(leftovers, [], "no half-written temporary files remain")
    }

    /// A cached copy stored again with the bytes it holds is left as it is (the same file, the
    /// same time); other bytes, even of the same size, replace it.
    func testStoringTheCachedFeedItHoldsAlreadyLeavesTheFileUntouched() throws {
        let store = try store()
        func identity() throws -> (inode: UInt64, modified: Date) {
            let attributes = try FileManager.default.attributesOfItem(atPath: store.paths.cachedFeedFile)
            return ((attributes[.systemFileNumber] as! NSNumber).uint64Value, attributes[.modificationDate] as! Date)
        }
        try store.storeCachedFeed(Data("feed one".utf8))
        let first = try identity()
        try store.storeCachedFeed(Data("feed one".utf8))
        let again = try identity()
        XCTAssertEqual(again.inode, first.inode)
        XCTAssertEqual(again.modified, first.modified)
        try store.storeCachedFeed(Data("feed two".utf8))
        XCTAssertNotEqual(try identity().inode, first.inode, "bytes of the same size that differ are written")
        XCTAssertEqual(store.cachedFeed(), Data("feed two".utf8))
    }

    func testResetRemovesStateAndCachedFeed() throws {
        let store = try store()
        try store.update { $0.viewed = ["a"] }
        try store.storeCachedFeed(Data("x".utf8))
        try store.reset()
        XCTAssertEqual(try store.load(), HeraldState())
        XCTAssertNil(store.cachedFeed())
    }
}

/// A value shared with a `@Sendable` closure in a test.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
