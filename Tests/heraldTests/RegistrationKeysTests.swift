import Foundation
import Herald
import HeraldCore
import XCTest
@testable import herald

/// A registration's text read into the check it asks for, or into problems that name their line
/// (desktop/docs/registration.md), and written back (`RegistrationKeys`).
final class RegistrationKeysTests: XCTestCase {
    let file = "/usr/share/herald/apps/org.example.App.conf"
    let key = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="

    private func read(_ text: String) -> RegistrationKeys.Reading {
        RegistrationKeys.read(keyFile: Array(text.utf8), appID: "org.example.App", file: file)
    }

    private func problems(_ text: String) -> [String] {
        read(text).problems.map(\.text)
    }

    func testTheKeysAreHeraldChecksOptionsNamedFromTheOptionTable() {
        XCTAssertEqual(RegistrationKeys.options.map(\.key), [
            "Feed", "Version", "Name", "Prompts", "CheckPeriod", "RemindPeriod", "ShowOldestFirst", "ShowOnFirstLaunch", "Max",
            "AllowCriticalUrgency", "WhatsNew", "Wait", "Timeout", "ServerWait", "AllowHttp", "AllowScheme", "CaFile", "PublicKey", "Icon", "NoHandover",
        ])
    }

    func testEveryKeyIsReadByItsOptionAsHeraldCheckReadsIt() throws {
        let reading = read("""
            # every key
            [Herald]
            Feed=https://example.org/feed.plist
            Version=2.1
            Name=Example\\sApp
            Prompts=/usr/share/example/prompts.plist
            CheckPeriod=2.5
            RemindPeriod=0.25
            ShowOldestFirst=true
            ShowOnFirstLaunch=1
            Max=7
            AllowCriticalUrgency=true
            WhatsNew=true
            Wait=90
            Timeout=12
            ServerWait=5
            AllowHttp=false
            AllowScheme=example;other\\;one
            CaFile=/etc/ssl/certs/ca-certificates.crt
            PublicKey=\(key);
            Icon=dialog-information
            NoHandover=true
            """)
        var expected = CheckCommandLine(feed: "https://example.org/feed.plist", appID: "org.example.App")
        expected.appVersion = "2.1"
        expected.appName = "Example App"
        expected.prompts = "/usr/share/example/prompts.plist"
        expected.checkPeriod = 2.5
        expected.remindPeriod = 0.25
        expected.showOldestFirst = true
        expected.showOnFirstLaunch = true
        expected.max = 7
        expected.allowCriticalUrgency = true
        expected.whatsNew = true
        expected.wait = 90
        expected.timeout = 12
        expected.serverWait = 5
        expected.allowedSchemes = ["example", "other;one"]
        expected.caFile = "/etc/ssl/certs/ca-certificates.crt"
        expected.publicKeys = [key]
        expected.icon = "dialog-information"
        expected.noHandover = true
        XCTAssertEqual(reading.problems, [])
        XCTAssertEqual(reading.line, expected)
    }

    func testAFeedAloneIsACheckWithEveryDefault() {
        XCTAssertEqual(read("[Herald]\nFeed=https://example.org/feed.plist\n").line,
                       CheckCommandLine(feed: "https://example.org/feed.plist", appID: "org.example.App"))
    }

    func testATypoIsNamedWithItsFileAndLineAndTheNearestKey() {
        let reading = read("[Herald]\nFeed=https://example.org/feed.plist\n\nFeeed=x\nChekPeriod=2\nColour=red\n")
        XCTAssertNil(reading.line, "a registration with a mistake is left out")
        XCTAssertEqual(reading.problems.map(\.text), [
            "\(file):4: unknown key “Feeed”; did you mean “Feed”?",
            "\(file):5: unknown key “ChekPeriod”; did you mean “CheckPeriod”?",
            "\(file):6: unknown key “Colour”",
        ])
    }

    func testAnOptionThatMakesNoSenseInARegistrationIsRefusedAsAKeyWithWhy() {
        XCTAssertEqual(problems("""
            [Herald]
            Feed=https://example.org/feed.plist
            AppId=org.other.App
            Explain=true
            Force=true
            Json=true
            All=true
            Debug=true
            StartDelay=30
            """), [
            "\(file):3: “AppId” cannot be set in a registration: the file's name is the app id",
            "\(file):4: “Explain” cannot be set in a registration: it is for a check run by hand",
            "\(file):5: “Force” cannot be set in a registration: it is for a check run by hand",
            "\(file):6: “Json” cannot be set in a registration: it is for a check run by hand",
            "\(file):7: “All” cannot be set in a registration: it is for a check run by hand",
            "\(file):8: “Debug” cannot be set in a registration: it is for a check run by hand",
            "\(file):9: “StartDelay” cannot be set in a registration: the check of every registered app spreads its start itself",
        ])
    }

    func testANumberIsReadAndHeldToItsRangeAsHeraldCheckHoldsIt() {
        XCTAssertEqual(problems("[Herald]\nFeed=https://example.org/feed.plist\nCheckPeriod=two\nMax=0\nTimeout=nan\nWait=1e9\n"), [
            "\(file):3: “CheckPeriod” is not a number: “two”",
            "\(file):4: “Max” must be at least 1",
            "\(file):5: “Timeout” " + String(CheckOptionLimits.timeoutRefusal(.nan)!.dropFirst("--timeout ".count)),
            "\(file):6: “Wait” " + String(CheckOptionLimits.waitRefusal(1e9)!.dropFirst("--wait ".count)),
        ])
    }

    func testAFlagIsTrueOrFalse() {
        XCTAssertEqual(read("[Herald]\nFeed=https://example.org/feed.plist\nShowOldestFirst=false\n").line?.showOldestFirst, false)
        XCTAssertEqual(problems("[Herald]\nFeed=https://example.org/feed.plist\nShowOldestFirst=yes\n"),
                       ["\(file):3: “ShowOldestFirst” is true or false, not “yes”"])
    }

    func testARegistrationNamesItsFeedByURLOrAbsolutePath() {
        XCTAssertEqual(problems("[Herald]\nName=Example\n"),
                       ["\(file): no “Feed”: a registration names the app's feed (Feed=https://…)"])
        XCTAssertEqual(problems("[Herald]\nFeed=feed.plist\n"),
                       ["\(file):2: “Feed” is a relative path: give the feed's URL or an absolute path"])
        XCTAssertEqual(problems("[Herald]\nFeed=file:feed.plist\n"),
                       ["\(file):2: “Feed” is a file: URL of a relative path: give file:///… or an absolute path"])
        XCTAssertEqual(read("[Herald]\nFeed=file:///srv/feed.plist\n").line?.feed, "file:///srv/feed.plist")
        XCTAssertEqual(problems("[Herald]\nFeed=-\n"), ["\(file):2: “Feed” cannot be standard input: give the feed's URL"])
        XCTAssertEqual(problems("[Herald]\nFeed=http://example.org/feed.plist\n"),
                       ["\(file):2: " + FeedCheckArguments.feedRefusal("http://example.org/feed.plist", rules: URLRules())!])
        XCTAssertEqual(problems("[Herald]\nFeed=http://example.org/feed.plist\nAllowHttp=true\n"), [])
        XCTAssertEqual(read("[Herald]\nFeed=/usr/share/example/feed.plist\n").line?.feed, "/usr/share/example/feed.plist")
    }

    func testFilesAreGivenByAbsolutePathAndPublicKeysMustBeKeys() {
        XCTAssertEqual(problems("[Herald]\nFeed=https://example.org/feed.plist\nPrompts=prompts.plist\nPublicKey=AAAA\n"), [
            "\(file):3: “Prompts” is a relative path: give an absolute path",
            "\(file):4: " + URLRuleOptions.refusal(caFile: nil, publicKeys: ["AAAA"])!,
        ])
    }

    func testAFileKeyIsNeverResolvedAgainstAFolderNorAHome() {
        XCTAssertEqual(problems("[Herald]\nFeed=https://example.org/feed.plist\nPrompts=~/prompts.plist\nCaFile=certs/ca.pem\n"), [
            "\(file):3: “Prompts” is a relative path: give an absolute path",
            "\(file):4: “CaFile” is a relative path: give an absolute path",
        ])
        XCTAssertEqual(read("[Herald]\nFeed=https://example.org/feed.plist\nPrompts=/usr/share/example/prompts.plist\n").line?.prompts,
                       "/usr/share/example/prompts.plist")
    }

    func testALineThatIsNotAKeyFileLineIsNamedByItsNumber() {
        XCTAssertEqual(problems("[Herald]\nFeed=https://example.org/feed.plist\nthis is not a key\n"),
                       ["\(file):3: the line is not a group, a key=value pair or a comment"])
    }

    func testTheKeysGoInTheHeraldGroup() {
        XCTAssertEqual(problems("[Herlad]\nFeed=https://example.org/feed.plist\n"), [
            "\(file): unknown group [Herlad]: the keys go in [Herald]",
            "\(file): no “Feed”: a registration names the app's feed (Feed=https://…)",
        ])
    }

    func testAKeySetTwiceKeepsItsLastValueAsGLibReadsIt() {
        XCTAssertEqual(read("[Herald]\nFeed=https://example.org/a\nFeed=https://example.org/b\n").line?.feed, "https://example.org/b")
    }

    func testADesktopEntryRegistersByItsXHeraldKeysWithItsOwnNameAndIcon() {
        let entry = """
            [Desktop Entry]
            Type=Application
            Name=Example
            Icon=org.example.App
            Exec=example
            X-Herald-Feed=https://example.org/feed.plist
            X-Herald-CheckPeriod=1

            [Desktop Action new]
            Name=New window
            """
        var expected = CheckCommandLine(feed: "https://example.org/feed.plist", appID: "org.example.App")
        expected.appName = "Example"
        expected.icon = "org.example.App"
        expected.checkPeriod = 1
        let reading = RegistrationKeys.read(desktopEntry: Array(entry.utf8), appID: "org.example.App", file: "/usr/share/applications/org.example.App.desktop")
        XCTAssertEqual(reading.problems, [])
        XCTAssertEqual(reading.line, expected)
        let named = RegistrationKeys.read(desktopEntry: Array((entry + "\n").replacing("X-Herald-CheckPeriod=1", with: "X-Herald-Name=Messages of Example").utf8),
                                          appID: "org.example.App", file: "x.desktop")
        XCTAssertEqual(named.line?.appName, "Messages of Example", "the registration's own Name comes first")
    }

    func testADesktopEntryWithoutXHeraldKeysIsNoRegistrationAndOneWithoutFeedIsAProblem() {
        let plain = RegistrationKeys.read(desktopEntry: Array("[Desktop Entry]\nName=Example\nExec=example\n".utf8), appID: "a.b", file: "/a.desktop")
        XCTAssertNil(plain.line)
        XCTAssertEqual(plain.problems, [])
        let typo = RegistrationKeys.read(desktopEntry: Array("[Desktop Entry]\nName=Example\nX-Herald-Fed=https://e.org/f\n".utf8), appID: "a.b", file: "/a.desktop")
        XCTAssertEqual(typo.problems.map(\.text), [
            "/a.desktop:3: unknown key “X-Herald-Fed”; did you mean “X-Herald-Feed”?",
            "/a.desktop: no “X-Herald-Feed”: a registration names the app's feed (X-Herald-Feed=https://…)",
        ])
    }

    func testADesktopEntryWithXHeraldKeysThatIsNoValidEntryIsAProblemNamedByLine() {
        let broken = RegistrationKeys.read(desktopEntry: Array("[Desktop Entry]\nName=Example\nX-Herald-Feed=https://e.org/f\nnot a key\n".utf8),
                                           appID: "a.b", file: "/a.desktop")
        XCTAssertNil(broken.line)
        XCTAssertEqual(broken.problems.map(\.text), ["/a.desktop:4: the line is not a group, a key=value pair or a comment"])
        let nul = RegistrationKeys.read(desktopEntry: Array("[Desktop Entry]\nName=Ex\u{0}ample\nX-Herald-Feed=https://e.org/f\n".utf8),
                                        appID: "a.b", file: "/a.desktop")
        XCTAssertNil(nul.line, "a Name with a NUL is no app name")
        XCTAssertEqual(nul.problems.map(\.text), ["/a.desktop:2: the line holds a NUL byte"])
    }

    func testTheKeyFileWrittenForACheckReadsBackAsTheSameCheck() throws {
        var line = CheckCommandLine(feed: "https://example.org/feed.plist", appID: "org.example.App")
        line.appName = "Example; App"
        line.checkPeriod = 3
        line.showOnFirstLaunch = true
        line.allowedSchemes = ["example", "other"]
        line.publicKeys = [key]
        line.startDelay = 120
        let text = RegistrationKeys.keyFileText(for: line)
        XCTAssertEqual(text, """
            [Herald]
            Feed=https://example.org/feed.plist
            Name=Example; App
            CheckPeriod=3
            ShowOnFirstLaunch=true
            AllowScheme=example;other
            PublicKey=\(key)

            """)
        var expected = line
        expected.startDelay = CheckCommandLine.Defaults.startDelay
        XCTAssertEqual(read(text).line, expected, "the start delay is not kept")
    }

    func testTheFormatsPageListsEveryKeyWithItsOption() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("desktop/docs/registration.md"), encoding: .utf8)
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { row in
            row.split(separator: "|").prefix(2).map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        }
        XCTAssertEqual(rows, RegistrationKeys.options.map { [$0.key, $0.option.name] })
    }
}
