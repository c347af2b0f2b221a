import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// A value every process shares in one file (`SharedValueFile`): a store that remembers what it
/// last read still reads what another writer put there since, whatever its size, and reads what
/// it wrote as the file holds it.
final class SharedValueFileTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws { directory = try Fixtures.temporaryDirectory("herald-shared-value") }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    func store() -> FileInboxStore {
        FileInboxStore(folder: directory.path, fileName: "inbox", name: "the inbox", empty: Inbox(), sizeLimit: 1 << 20, lockWait: 1,
                       remembering: true)
    }

    func inbox(_ title: String, reached: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> Inbox {
        Inbox(apps: ["org.example.App": ["k": .init(title: title, message: "m", category: "news", reached: reached)]])
    }

    func testWhatAStoreWroteIsReadAsTheFileHoldsIt() throws {
        let mine = store()
        // The file keeps whole seconds; every process must read the same value from it.
        try mine.update { $0 = inbox("now", reached: Date(timeIntervalSince1970: 1_800_000_000.75)) }
        XCTAssertEqual(try mine.snapshot(), inbox("now"))
        XCTAssertEqual(try mine.snapshot(), try store().snapshot())
    }

    func testAValueAnotherWriterChangedIsReadAsItNowIs() throws {
        let mine = store(), other = store()
        try mine.update { $0 = inbox("first") }
        XCTAssertEqual(try mine.snapshot(), inbox("first"))
        // The same length, written by another store (another process's).
        try other.update { $0 = inbox("again") }
        XCTAssertEqual(try mine.snapshot(), inbox("again"))
        try mine.update { $0.apps["org.example.App"]?["k"]?.message = "changed" }
        var expected = inbox("again")
        expected.apps["org.example.App"]?["k"]?.message = "changed"
        XCTAssertEqual(try other.snapshot(), expected, "the update started from the other writer's value")
        // Bytes put there by hand, and then none at all.
        try Data(inbox("by hand").encoded).write(to: URL(fileURLWithPath: mine.file))
        XCTAssertEqual(try mine.snapshot(), inbox("by hand"))
        try FileManager.default.removeItem(atPath: mine.file)
        XCTAssertEqual(try mine.snapshot(), Inbox())
    }

    func testAFileThatDoesNotDecodeIsReadAsEmptyEachTime() throws {
        let mine = store()
        try mine.update { $0 = inbox("first") }
        try Data("{".utf8).write(to: URL(fileURLWithPath: mine.file))
        XCTAssertEqual(try mine.snapshot(), Inbox())
        XCTAssertEqual(try mine.snapshot(), Inbox())
        try mine.update { $0 = inbox("after") }
        XCTAssertEqual(try store().snapshot(), inbox("after"))
    }
}
