import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest
@testable import Herald

/// The agent writes only into the state folder a handover names, and only when that folder is
/// the user's own `…/herald` folder, reached through no link, whose state file for the app
/// holds a handover of the message: it takes no caller's word for more than the path.
final class HandoverStateFolderTests: XCTestCase {
    let appID = "org.example.App"
    let key = "2026/01/01"
    var directory: URL!
    var folder: String!

    override func setUpWithError() throws {
        directory = try Fixtures.temporaryDirectory()
        folder = directory.resolvingSymlinksInPath().path + "/state/herald"
        let paths = try XCTUnwrap(try HeraldPaths(appID: appID, stateDirectory: folder, environment: [:]))
        try FileStateStore(paths: paths).update { state in
            state = CheckPolicy.handOver(key, Handover(place: .agent, agentProcessID: 1, link: nil, since: Date()), in: state)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// What `HandoverStateFolder` refuses `path` for, or `nil` when it takes it.
    func problem(_ path: String, key: String? = nil, owner: uid_t = getuid()) -> HandoverStateProblem? {
        do throws(HandoverStateProblem) {
            _ = try HandoverStateFolder(path, appID: appID, key: key ?? self.key, environment: [:], owner: owner)
            return nil
        } catch {
            return error
        }
    }

    func testTheUsersOwnFolderWhoseStateHoldsTheHandoverIsTaken() throws {
        XCTAssertNil(problem(folder))
        let paths = try HandoverStateFolder(folder, appID: appID, key: key, environment: [:]).paths
        XCTAssertEqual(paths.stateFile, folder + "/\(appID).json")
    }

    func testAFolderOfAnotherUserIsRefused() {
        let other = getuid() + 1
        XCTAssertEqual(problem(folder, owner: other), .unreachable(folder, "it belongs to user \(getuid()), not to this user (\(other))"))
    }

    func testAFolderReachedThroughASymbolicLinkIsRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/linked", withDestinationPath: folder + "/..")
        let linked = directory.resolvingSymlinksInPath().path + "/linked/herald"
        XCTAssertEqual(problem(linked), .unreachable(linked, "it is reached through a symbolic link (to \(folder!))"))
        let dotted = directory.resolvingSymlinksInPath().path + "/state/../state/herald"
        XCTAssertEqual(problem(dotted), .unreachable(dotted, "it is reached through a symbolic link (to \(folder!))"), "only the path itself is taken")
    }

    func testAFolderThatIsNotThereOrNoHeraldFolderIsRefusedAndNothingIsCreated() {
        let missing = directory.path + "/missing/herald"
        XCTAssertEqual(problem(missing), .unreachable(missing, "No such file or directory"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
        for path in ["relative/herald", directory.path + "/state", folder + "\0/x/herald"] {
            XCTAssertEqual(problem(path), .notAStateFolder(path))
        }
    }

    func testAFolderWithoutTheAppsStateOrWithoutTheMessagesHandoverIsRefused() throws {
        let stateFile = folder + "/\(appID).json"
        XCTAssertEqual(problem(folder, key: "2026/01/02"), .notHandedOver(stateFile))
        try FileManager.default.removeItem(atPath: stateFile)
        XCTAssertEqual(problem(folder), .noState(stateFile, "No such file or directory"))
        try FileManager.default.createSymbolicLink(atPath: stateFile, withDestinationPath: directory.path + "/elsewhere.json")
        XCTAssertEqual(problem(folder), .noState(stateFile, "it is not a file of this user"))
    }

    func testEachRefusalIsASentenceAndOnlyAMissingHandoverMeansTheMessageIsNoLongerWaiting() {
        XCTAssertEqual(Agent.notRecorded(.view, appID: appID, key: key, .unreachable("/s/herald", "No such file or directory")),
                       "cannot record the answer 'view' to message '\(key)' of \(appID): cannot use the state folder /s/herald: "
                       + "No such file or directory; it stays unanswered")
        XCTAssertEqual(Agent.notRecorded(nil, appID: appID, key: key, .notHandedOver("/s/herald/\(appID).json")),
                       "cannot record the expiry of message '\(key)' of \(appID): /s/herald/\(appID).json holds no handover of it: "
                       + "it was answered or withdrawn already, or handed over from another state folder")
        XCTAssertEqual([HandoverStateProblem.notAStateFolder("x"), .notHandedOver("y")].map(\.errorName),
                       ["org.herald.Agent1.Error.StateUnreachable", "org.herald.Agent1.Error.NotHandedOver"])
    }
}
