import ArgumentParser
import Foundation
import HeraldCore
import HeraldDesktop
import XCTest
@testable import herald

/// herald(1) is made from the program's declarations: every section a manual page has, the exit
/// statuses of `ExitStatus.table`, a synopsis for every command, and roff that renders cleanly.
final class ManualPageTests: XCTestCase {
    let page = ManualPage.text(date: "2025-01-31")

    /// The page's lines between `.SH name` and the next section.
    func section(_ name: String) -> [String] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0 == ".SH \(name)" || $0 == ".SH \"\(name)\"" }) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.hasPrefix(".SH ") })
    }

    /// roff text as it reads: `\-` a minus, `\e` a backslash.
    func plain(_ roff: String) -> String {
        roff.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
    }

    func testManualPageHasEverySectionOfAManualPage() {
        XCTAssertTrue(page.hasPrefix(".TH HERALD 1 \"2025-01-31\" "))
        for name in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "FILES", "ENVIRONMENT", "EXAMPLES"] {
            XCTAssertFalse(section(name).filter { !$0.isEmpty }.isEmpty, "\(name) is in the page and has something in it")
        }
    }

    func testManualPagesExitStatusTableIsExitStatusTable() {
        var rows: [(code: String, meaning: String)] = []
        let lines = section("EXIT STATUS")
        for (index, line) in lines.enumerated() where line == ".TP" && index + 2 < lines.count {
            XCTAssertTrue(lines[index + 1].hasPrefix(".B "))
            rows.append((plain(String(lines[index + 1].dropFirst(3))), plain(lines[index + 2])))
        }
        XCTAssertEqual(rows.map { "\($0.code) \($0.meaning)" }, ExitStatus.table.map { "\($0.code) \($0.meaning)" })
    }

    func testEveryCommandHasASynopsis() {
        var expected: [String] = []
        func walk(_ command: ParsableCommand.Type, _ path: [String]) {
            for subcommand in command.configuration.subcommands where subcommand.configuration.shouldDisplay {
                expected.append((path + [subcommand._commandName]).joined(separator: " "))
                walk(subcommand, path + [subcommand._commandName])
            }
        }
        walk(HeraldCommand.self, ["herald"])
        XCTAssertTrue(expected.contains("herald feed add") && expected.contains("herald autostart status"))
        let synopses = section("SYNOPSIS").filter { $0.hasPrefix(".SY ") }.map { plain(String($0.dropFirst(4))).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        XCTAssertEqual(synopses, expected)
        XCTAssertFalse(page.contains("_man"), "the hidden command that writes the page is not in it")
    }

    func testEveryVariableTheProgramReadsIsInEnvironment() {
        let named = Set(section("ENVIRONMENT").filter { $0.hasPrefix(".B ") }.map { plain(String($0.dropFirst(3))) })
        XCTAssertEqual(Set(ProcessEnvironment.names).subtracting(named), [])
        XCTAssertTrue(named.contains("DBUS_SESSION_BUS_ADDRESS"))
    }

    func testEveryFileInFilesIsWhereTheProgramLooksForIt() throws {
        let environment = ["HOME": "/home/h", "XDG_STATE_HOME": "/state", "XDG_CACHE_HOME": "/cache",
                           "XDG_CONFIG_HOME": "/config", "XDG_CONFIG_DIRS": "/admin:/vendor",
                           "XDG_DATA_HOME": "/data", "XDG_DATA_DIRS": "/share"]
        let appID = "org.example.App"
        let lines = section("FILES")
        let named = lines.indices.filter { lines[$0] == ".TP" && $0 + 1 < lines.count }.map { plain(String(lines[$0 + 1].dropFirst(3))) }
        var paths: [String] = []
        for pattern in named {
            var path = pattern.replacingOccurrences(of: "APP", with: appID)
            for name in ["XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"] {
                path = path.replacingOccurrences(of: "$" + name, with: environment[name]!)
            }
            if let list = ["XDG_CONFIG_DIRS", "XDG_DATA_DIRS"].first(where: { path.hasPrefix("$" + $0) }) {
                paths += environment[list]!.split(separator: ":").map { path.replacingOccurrences(of: "$" + list, with: String($0)) }
            } else {
                paths.append(path)
            }
        }
        let herald = try HeraldPaths(appID: appID, environment: environment)
        XCTAssertEqual(paths, [herald.stateFile, herald.lockFile, FileAttentionLedgerStore(environment: environment).file,
                               FileInboxStore(environment: environment).file, herald.cachedFeedFile,
                               OffSwitchFiles.userFile(environment: environment)]
                           + OffSwitchFiles.systemFiles(environment: environment)
                           + [AppRegistrations.userFile(appID: appID, environment: environment)]
                           + BaseDirectories(environment: environment).dataDirs.map { "\($0)/\(AppRegistrations.folder)/\(appID).conf" }
                           + [Autostart.path(appID: appID, environment: environment)])
    }

    func testManualPageRendersWithoutWarnings() throws {
        let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("herald-\(getpid()).1")
        try Data(page.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for (tool, arguments) in [("/usr/bin/groff", ["-man", "-ww", "-z", file.path]), ("/usr/bin/man", ["-l", "-Tutf8", file.path])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANWIDTH": "80"]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, tool)
            XCTAssertEqual(warnings, "", tool)
        }
    }
}
