import CGObject
import Foundation
import HeraldCore
import HeraldDesktop
import HeraldTestSupport
import XCTest

/// The attention settings of the key files (issue 27): `MutedCategories` lists and the
/// `[budget]` group, read from the user's and the administrator's `herald.conf` and written to
/// the user's, in the temporary folders of `OffSwitchFilesTests`.
extension OffSwitchFilesTests {
    func apply(_ edits: [OffSwitchEdit]) throws {
        try OffSwitchFiles.change(environment: environment) { _ in (edits, ()) }
    }

    func testCategoryMutesAndTheBudgetAreReadFromBothFilesAndDecided() throws {
        try write("[all]\nMutedCategories=survey\n\n[budget]\nPerDay=2\n\n[app org.example.App]\nMutedCategories=tip;\n", to: systemFile)
        try write("[all]\nMutedCategories=Promotion; survey\n\n[budget]\nPerDay=5\nPerWeek=12\n", to: userFile)
        let switches = try OffSwitchFiles.read(environment: environment)
        XCTAssertEqual(switches.system[1], OffSwitchSettings(file: systemFile, allMutedCategories: [.survey],
                                                             apps: ["org.example.App": .init(mutedCategories: [.tip])], budget: .init(perDay: 2)))
        XCTAssertEqual(switches.user, OffSwitchSettings(file: userFile, allMutedCategories: [.promotion, .survey], budget: .init(perDay: 5, perWeek: 12)))
        let decision = switches.decision(for: "org.example.App")
        XCTAssertEqual(decision.mutedCategories, [.tip: Mute(by: .administrator, scope: .app, file: systemFile),
                                                  .survey: Mute(by: .administrator, scope: .allApps, file: systemFile),
                                                  .promotion: Mute(by: .user, scope: .allApps, file: userFile)])
        XCTAssertEqual(decision.budget, AttentionBudget(perDay: 2, perWeek: 12))
    }

    func testAnUnknownCategoryOrABudgetThatIsNoWholeNumberIsAnErrorNamingTheFile() throws {
        let refused: [(text: String, reason: String)] = [
            ("[all]\nMutedCategories=promotion;surveys\n", "[all] MutedCategories names no category 'surveys' (did you mean survey?)"),
            ("[app org.example.App]\nMutedCategories=ads\n",
             "[app org.example.App] MutedCategories names no category 'ads' (the categories are announcement, tip, promotion, security, survey)"),
            ("[budget]\nPerDay=two\n", "[budget] PerDay must be a whole number from 0 to 1000, not 'two'"),
            ("[budget]\nPerWeek=-1\n", "[budget] PerWeek must be a whole number from 0 to 1000, not '-1'"),
            ("[budget]\nPerWeek=1001\n", "[budget] PerWeek must be a whole number from 0 to 1000, not '1001'"),
            ("[budget]\nPerDay=2.5\n", "[budget] PerDay must be a whole number from 0 to 1000, not '2.5'"),
        ]
        for path in [systemFile, userFile] {
            for (text, reason) in refused {
                try write(text, to: path)
                XCTAssertThrowsError(try OffSwitchFiles.read(environment: environment), text) { error in
                    XCTAssertEqual(error as? OffSwitchFileError, OffSwitchFileError(file: path, reason: reason))
                }
            }
            try FileManager.default.removeItem(atPath: path)
        }
        try write("[budget]\nPerDay= 0 \nPerWeek=1000\n", to: userFile)
        XCTAssertEqual(try OffSwitchFiles.read(environment: environment).user.budget, .init(perDay: 0, perWeek: 1000))
    }

    func testListAndNumberEditsKeepTheRestOfTheFile() throws {
        try write("# mine\n[all]\nMuted=false\n", to: userFile)
        try apply([.setList(group: "all", key: "MutedCategories", values: ["promotion", "survey"])])
        try apply([.setNumber(group: "budget", key: "PerDay", value: 2), .setNumber(group: "budget", key: "PerWeek", value: 6)])
        XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8),
                       "# mine\n[all]\nMuted=false\nMutedCategories=promotion;survey\n\n[budget]\nPerDay=2\nPerWeek=6\n")
        try apply([.setList(group: "all", key: "MutedCategories", values: ["survey"]), .remove(group: "budget", key: "PerDay")])
        XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8), "# mine\n[all]\nMuted=false\nMutedCategories=survey\n\n[budget]\nPerWeek=6\n")
    }

    /// `KeyFile`'s lists are GLib's: what `g_key_file_get_string_list` reads from a value, and
    /// what it reads back from the value `setStringList` writes.
    func testAListReadsAndWritesAsGLibsKeyFileReadsIt() throws {
        let values = [#"a;b"#, #"a\;b;c"#, #"a;;b;"#, #" x\sy ;z\\;w"#, "", ";"]
        for value in values {
            let text = "[g]\nL=\(value)\n"
            XCTAssertEqual(try KeyFile(text).stringList(group: "g", key: "L"), try glibList(text), value)
        }
        for items in [["promotion", "survey"], ["a;b", "c\\d", " lead", "new\nline"], ["one"]] {
            var keyFile = KeyFile()
            keyFile.setStringList(items, group: "g", key: "L")
            XCTAssertEqual(try glibList(keyFile.text), items)
            XCTAssertEqual(keyFile.stringList(group: "g", key: "L"), items)
        }
    }

    /// GLib's reading of the list `L` in group `g` of a key file's text.
    func glibList(_ text: String) throws -> [String] {
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_data(keyFile, text, gsize(text.utf8.count), G_KEY_FILE_NONE, &error) != 0 else {
            defer { g_error_free(error) }
            throw NSError(domain: "GKeyFile", code: 1, userInfo: [NSLocalizedDescriptionKey: String(cString: error!.pointee.message)])
        }
        var length: gsize = 0
        guard let list = g_key_file_get_string_list(keyFile, "g", "L", &length, &error) else {
            g_error_free(error)
            return []
        }
        defer { g_strfreev(list) }
        return (0..<Int(length)).map { String(cString: list[$0]!) }
    }
}
