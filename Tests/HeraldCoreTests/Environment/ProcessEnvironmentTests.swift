import Foundation
import HeraldCore
import XCTest

/// `ProcessEnvironment` reads only the variables Herald uses, and each reader of an environment
/// finds in them what it finds in the whole environment.
final class ProcessEnvironmentTests: XCTestCase {
    /// Each variable the tests set, with its value before them (`nil`: it was not set).
    private var saved: [(name: String, value: String?)] = []

    /// Variables near the ones Herald reads, which a reader might come to read by mistake.
    private let unread = ["XDG_RUNTIME_DIR", "LC_CTYPE", "XDG_SESSION_DESKTOP", "DESKTOP_SESSION"]

    override func setUp() {
        saved = (ProcessEnvironment.names + unread).map { name in (name, getenv(name).map { String(cString: $0) }) }
    }

    override func tearDown() {
        for (name, value) in saved { set(name, value) }
        saved = []
    }

    private func set(_ name: String, _ value: String?) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }

    func testEachReaderFindsInTheVariablesReadWhatItFindsInTheWholeEnvironment() throws {
        let settings: [[String: String?]] = [
            ["HOME": "/home/ada", "XDG_STATE_HOME": "/tmp/state", "XDG_CACHE_HOME": "/tmp/cache", "XDG_CONFIG_HOME": "/tmp/config",
             "XDG_CONFIG_DIRS": "/etc/a:/etc/b", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "LANGUAGE": "pt_BR:de", "LC_ALL": nil,
             "LC_MESSAGES": nil, "LANG": "fr_FR.UTF-8"],
            ["HOME": "/root", "XDG_STATE_HOME": nil, "XDG_CACHE_HOME": "relative", "XDG_CONFIG_HOME": nil, "XDG_CONFIG_DIRS": nil,
             "XDG_CURRENT_DESKTOP": nil, "LANGUAGE": nil, "LC_ALL": "de_DE", "LC_MESSAGES": "es_ES", "LANG": nil],
            ["HOME": nil, "XDG_STATE_HOME": nil, "XDG_CACHE_HOME": nil, "XDG_CONFIG_HOME": nil, "XDG_CONFIG_DIRS": nil,
             "XDG_CURRENT_DESKTOP": "KDE", "LANGUAGE": nil, "LC_ALL": nil, "LC_MESSAGES": "es_ES.UTF-8", "LANG": "fr_FR"],
        ]
        for (index, setting) in settings.enumerated() {
            for (name, value) in setting { set(name, value) }
            for name in unread { set(name, index == 1 ? nil : "/unread/\(name.lowercased())") }
            let read = ProcessEnvironment.read(), whole = ProcessInfo.processInfo.environment
            XCTAssertEqual(try HeraldPaths(appID: "org.example.App", environment: read), try HeraldPaths(appID: "org.example.App", environment: whole))
            XCTAssertEqual(Audience(environment: read), Audience(environment: whole))
            XCTAssertEqual(Labels.languageCode(read), Labels.languageCode(whole))
        }
    }

    func testOnlyTheVariablesHeraldUsesAreRead() {
        set("XDG_RUNTIME_DIR", "/somewhere")
        set("LANG", "it_IT.UTF-8")
        let read = ProcessEnvironment.read()
        XCTAssertNil(read["XDG_RUNTIME_DIR"])
        XCTAssertEqual(read["LANG"], "it_IT.UTF-8")
    }
}
