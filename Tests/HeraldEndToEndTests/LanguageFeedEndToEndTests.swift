import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// A feed URL with `{lang}` through `herald check` and `herald validate`, against the loopback
/// feed server's request log: each of the user's languages, then the URL without one, and the
/// URL that answered asked alone afterwards.
final class LanguageFeedEndToEndTests: XCTestCase {
    let appID = "org.example.Languages"
    let welcome = #"{"2027/01/01": {"Title": "Welcome"}}"#

    /// A session whose notification server shows text without buttons, so a shown message is
    /// viewed at once (DESIGN.md D11) and each check ends by itself.
    func session() throws -> (DesktopSession, FeedServer) {
        let session = try DesktopSession(capabilities: "body")
        return (session, try FeedServer(directory: session.directory))
    }

    func check(_ session: DesktopSession, _ server: FeedServer, language: String, appID: String? = nil, _ extra: [String] = []) throws -> ToolRun {
        try session.run(["check", "--feed", server.url("messages.{lang}.plist"), "--app-id", appID ?? self.appID, "--show-on-first-launch"] + extra,
                        environment: ["LANG": language])
    }

    func asked(_ server: FeedServer, after count: Int = 0) -> [String] {
        server.requests.dropFirst(count).map(\.path)
    }

    func testAGermanUserAsksEachGermanFileThenTheOneWithoutALanguageAndLaterOnlyTheOneThatAnswered() throws {
        let (session, server) = try session()
        try server.publish("messages.plist", welcome)
        let first = try check(session, server, language: "de_DE.UTF-8")
        XCTAssertEqual(first, ToolRun(status: 0, output: "fetched 1 message\n1 pending: 2027/01/01\nshown 2027/01/01: Welcome\n"))
        XCTAssertEqual(asked(server), ["/messages.de_DE.plist", "/messages.de.plist", "/messages.plist"])
        let cached = try XCTUnwrap(try session.state(appID: appID)["cachedFeed"] as? [String: Any])
        XCTAssertEqual(cached["url"] as? String, server.url("messages.plist"), "the URL that answered is remembered")
        XCTAssertEqual(cached["template"] as? String, server.url("messages.{lang}.plist"))
        XCTAssertEqual(cached["languages"] as? [String], ["de_DE", "de"])

        let again = try check(session, server, language: "de_DE.UTF-8", ["--force"])
        XCTAssertEqual(again, ToolRun(status: 0, output: "feed unchanged since the last check\nskipped 2027/01/01: already viewed\nnothing pending\n"))
        XCTAssertEqual(asked(server, after: 3), ["/messages.plist"], "only the URL that answered, and conditionally")
        XCTAssertNotNil(server.requests.last?.headers["If-None-Match"])
    }

    func testAnEnglishUserGetsTheEnglishFileAndAGermanOneTheGerman() throws {
        let (session, server) = try session()
        try server.publish("messages.en.plist", welcome)
        try server.publish("messages.de.plist", #"{"2027/01/01": {"Title": "Willkommen"}}"#)
        try server.publish("messages.plist", #"{"2027/01/01": {"Title": "Fallback"}}"#)
        let english = try check(session, server, language: "en_GB.UTF-8")
        XCTAssertEqual(english, ToolRun(status: 0, output: "fetched 1 message\n1 pending: 2027/01/01\nshown 2027/01/01: Welcome\n"))
        XCTAssertEqual(asked(server), ["/messages.en_GB.plist", "/messages.en.plist"])
        let german = try check(session, server, language: "de_AT.UTF-8", appID: "org.example.German")
        XCTAssertEqual(german, ToolRun(status: 0, output: "fetched 1 message\n1 pending: 2027/01/01\nshown 2027/01/01: Willkommen\n"))
        XCTAssertEqual(asked(server, after: 2), ["/messages.de_AT.plist", "/messages.de.plist"])
    }

    func testAURLThatIsGoneOrOtherLanguagesStartTheSearchOver() throws {
        let (session, server) = try session()
        try server.publish("messages.de.plist", welcome)
        try server.publish("messages.plist", welcome)
        XCTAssertEqual(try check(session, server, language: "de_DE.UTF-8").status, 0)
        XCTAssertEqual(asked(server), ["/messages.de_DE.plist", "/messages.de.plist"])

        try FileManager.default.removeItem(at: server.root.appendingPathComponent("messages.de.plist"))
        let gone = try check(session, server, language: "de_DE.UTF-8", ["--force"])
        XCTAssertEqual(gone, ToolRun(status: 0, output: "fetched 1 message\nskipped 2027/01/01: already viewed\nnothing pending\n"))
        XCTAssertEqual(asked(server, after: 2), ["/messages.de.plist", "/messages.de_DE.plist", "/messages.plist"],
                       "the remembered URL, then the others in order: never more than the languages and one")

        let french = try check(session, server, language: "fr_FR.UTF-8", ["--force"])
        XCTAssertEqual(french, ToolRun(status: 0, output: "fetched 1 message\nskipped 2027/01/01: already viewed\nnothing pending\n"))
        XCTAssertEqual(asked(server, after: 5), ["/messages.fr_FR.plist", "/messages.fr.plist", "/messages.plist"])
        XCTAssertNil(server.requests.last?.headers["If-None-Match"], "the search over asks without the other language's validators")
    }

    func testARegistrationKeepsAPathWithLangAndItsCheckAsksTheUsersFiles() throws {
        let session = try DesktopSession(capabilities: "body")
        let folder = session.directory.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"2027/01/01": {"Title": "Willkommen"}}"#.write(to: folder.appendingPathComponent("messages.de.plist"), atomically: true, encoding: .utf8)
        try welcome.write(to: folder.appendingPathComponent("messages.plist"), atomically: true, encoding: .utf8)
        let path = session.environment["XDG_DATA_HOME"]! + "/herald/apps/\(appID).conf"
        XCTAssertEqual(try session.run(["autostart", "enable", "--feed", "messages.{lang}.plist", "--app-id", appID, "--show-on-first-launch"],
                                       workingDirectory: folder),
                       ToolRun(status: 0, output: "registered: \(path)\n"), "a path with {lang} names files that need not all be there")
        let feed = "file://\(folder.path)/messages.%7Blang%7D.plist"
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "[Herald]\nFeed=\(feed)\nShowOnFirstLaunch=true\n")
        // The check the registration asks for, as `herald check` runs it.
        let command = [TestPaths.herald, "check", "--feed", feed, "--app-id", appID, "--show-on-first-launch"]

        let login = try ChildProcess(command[0], Array(command.dropFirst()), environment: session.environment.merging(["LANG": "de_AT.UTF-8"]) { _, new in new },
                                     directory: session.directory, name: "login")
        XCTAssertEqual(ToolRun(status: login.wait(seconds: 30), output: login.output, errorOutput: login.errorOutput),
                       ToolRun(status: 0, output: "fetched 1 message\n1 pending: 2027/01/01\nshown 2027/01/01: Willkommen\n"),
                       "de_AT is missing, de is there")
    }

    func testWhenNoURLOfATemplateIsThereTheErrorNamesEveryURLAsked() throws {
        let (session, server) = try session()
        let template = server.url("messages.{lang}.plist")
        let urls = ["messages.de_DE.plist", "messages.de.plist", "messages.plist"].map(server.url)
        let sentence = "none of the feed's URLs is there; asked " + urls.joined(separator: ", ")
        let failed = try check(session, server, language: "de_DE.UTF-8")
        XCTAssertEqual(failed.status, 75, failed.description)
        XCTAssertEqual(failed.errorOutput, "herald: \(sentence)\n")
        XCTAssertEqual(asked(server), ["/messages.de_DE.plist", "/messages.de.plist", "/messages.plist"])

        let validated = try session.run(["validate", template], environment: ["LANG": "de_DE.UTF-8"])
        XCTAssertEqual(validated, ToolRun(status: 75, output: "", errorOutput: "herald: \(sentence)\n"))

        let withoutLanguage = try check(session, server, language: "C", appID: "org.example.NoLanguage")
        XCTAssertEqual(withoutLanguage.errorOutput, "herald: none of the feed's URLs is there; asked \(server.url("messages.plist"))\n",
                       "a user without a language asks one URL, and is told which")

        let plain = try session.run(["check", "--feed", server.url("messages.plist"), "--app-id", "org.example.Plain", "--show-on-first-launch"])
        XCTAssertEqual(plain, ToolRun(status: 75, output: "", errorOutput: "herald: the feed server answered HTTP 404\n"), "a feed URL without {lang} is one URL")

        let folder = session.directory.appendingPathComponent("no-files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let local = try session.run(["check", "--feed", "messages.{lang}.plist", "--app-id", "org.example.Local", "--show-on-first-launch"],
                                    environment: ["LANG": "de_DE.UTF-8"], workingDirectory: folder)
        let files = ["messages.de_DE.plist", "messages.de.plist", "messages.plist"].map { "file://\(folder.path)/\($0)" }
        XCTAssertEqual(local, ToolRun(status: 75, output: "", errorOutput: "herald: none of the feed's URLs is there; asked \(files.joined(separator: ", "))\n"),
                       "a path with {lang} whose files are all missing")
    }

    func testValidateSaysWhichURLOfATemplateAnswered() throws {
        let (session, server) = try session()
        try server.publish("messages.de.plist", welcome)
        let template = server.url("messages.{lang}.plist")
        let run = try session.run(["validate", template], environment: ["LANG": "de_CH.UTF-8"])
        XCTAssertEqual(run, ToolRun(status: 0, output: """
            \(template): \(server.url("messages.de.plist")) answered (not found: \(server.url("messages.de_CH.plist")))
            \(template): json, 1 message, newest first:
              2027/01/01  Welcome
            no problems found

            """))
        XCTAssertEqual(asked(server), ["/messages.de_CH.plist", "/messages.de.plist"])
    }
}
