import HeraldCore
import XCTest

private let app = "org.example.App"
private let etc = "/etc/xdg/herald/herald.conf"
private let site = "/usr/local/etc/xdg/herald/herald.conf"
private let home = "/home/ada/.config/herald/herald.conf"

/// Settings of one file: `[all] Muted` and `[app ID]` groups.
private func file(_ path: String, all: Bool? = nil, _ apps: [String: OffSwitchSettings.App] = [:]) -> OffSwitchSettings {
    OffSwitchSettings(file: path, allMuted: all, apps: apps)
}

/// The administrator's files (most important first) and the user's.
private func switches(system: [OffSwitchSettings] = [], user: OffSwitchSettings = file(home)) -> OffSwitches {
    OffSwitches(system: system, user: user)
}

/// Whether an app is muted, by whom and which feed it fetches, from the files as values.
final class OffSwitchDecisionTests: XCTestCase {
    func testNoFilesMuteNothingAndTheAppKeepsItsFeed() {
        let decision = switches(system: [file(etc)]).decision(for: app)
        XCTAssertEqual(decision, .none)
        XCTAssertEqual(decision.feedURL(replacing: "https://example.com/feed.plist"), "https://example.com/feed.plist")
    }

    func testTheUsersMuteOfAnAppMutesThatAppAlone() {
        let user = file(home, [app: .init(muted: true)])
        XCTAssertEqual(switches(user: user).decision(for: app).mute, Mute(by: .user, scope: .app, file: home))
        XCTAssertNil(switches(user: user).decision(for: "org.example.Other").mute)
    }

    func testTheUsersMuteOfAllAppsSparesTheAppsTheUserUnmutedOneByOne() {
        let user = file(home, all: true, ["org.example.Spared": .init(muted: false)])
        XCTAssertEqual(switches(user: user).decision(for: app).mute, Mute(by: .user, scope: .allApps, file: home))
        XCTAssertNil(switches(user: user).decision(for: "org.example.Spared").mute)
    }

    func testTheAdministratorsMuteComesBeforeTheUsersAndNamesItsFile() {
        let decision = switches(system: [file(etc, [app: .init(muted: true)])], user: file(home, all: true)).decision(for: app)
        XCTAssertEqual(decision.mute, Mute(by: .administrator, scope: .app, file: etc))
        XCTAssertEqual(decision.mute?.description, "muted by the administrator for this app (\(etc))")
    }

    func testTheUsersFileCannotUnmuteWhatTheAdministratorMuted() {
        let user = file(home, all: false, [app: .init(muted: false)])
        XCTAssertEqual(switches(system: [file(etc, all: true)], user: user).decision(for: app).mute,
                       Mute(by: .administrator, scope: .allApps, file: etc))
    }

    func testAnAppTheAdministratorSparesFromMutingAllCanStillBeMutedByTheUser() {
        let system = [file(etc, all: true, [app: .init(muted: false)])]
        XCTAssertNil(switches(system: system).decision(for: app).mute)
        XCTAssertEqual(switches(system: system, user: file(home, [app: .init(muted: true)])).decision(for: app).mute,
                       Mute(by: .user, scope: .app, file: home))
    }

    func testTheMostImportantSystemFileThatSetsAKeyDecidesIt() {
        let first = file(site, all: false, ["org.example.Loud": .init(feedURL: "https://mirror.example.com/first.plist")])
        let second = file(etc, all: true, [app: .init(muted: true), "org.example.Loud": .init(feedURL: "https://mirror.example.com/second.plist")])
        let files = switches(system: [first, second])
        XCTAssertNil(files.decision(for: "org.example.Loud").mute, "the first file's [all] Muted=false decides")
        XCTAssertNil(files.decision(for: app).mute, "a less important file's app mute cannot undo what the first file said of all apps")
        let siteMutesAll = switches(system: [file(site, all: true), file(etc, [app: .init(muted: false)])])
        XCTAssertEqual(siteMutesAll.decision(for: app).mute, Mute(by: .administrator, scope: .allApps, file: site),
                       "a package's default in a less important file cannot spare an app from the site's mute")
        XCTAssertEqual(switches(system: [file(site), file(etc, [app: .init(muted: true)])]).decision(for: app).mute,
                       Mute(by: .administrator, scope: .app, file: etc), "a file that says nothing passes the word on")
        XCTAssertEqual(files.decision(for: "org.example.Loud").mirror, FeedMirror(url: "https://mirror.example.com/first.plist", file: site))
    }

    func testTheMirrorReplacesTheAppsFeedButGivesNoFeedToAnAppWithoutOne() {
        let decision = switches(system: [file(etc, [app: .init(feedURL: "https://mirror.example.com/feed.plist")])]).decision(for: app)
        XCTAssertEqual(decision.feedURL(replacing: "https://example.com/feed.plist"), "https://mirror.example.com/feed.plist")
        XCTAssertNil(decision.feedURL(replacing: nil), "an app with prompts only fetches nothing")
        XCTAssertNil(switches(system: [file(etc)]).decision(for: "org.example.Other").mirror)
    }

    func testAMirrorMustPassTheSameURLRulesAsAFeed() {
        func refusal(_ url: String, _ rules: URLRules = URLRules()) -> String? {
            switches(system: [file(etc, [app: .init(feedURL: url)])]).decision(for: app).mirrorRefusal(rules)
        }
        XCTAssertNil(refusal("https://mirror.example.com/feed.plist"))
        XCTAssertNil(refusal("http://127.0.0.1:8080/feed.plist"))
        XCTAssertEqual(refusal("http://mirror.example.com/feed.plist"),
                       "the feed URL http://mirror.example.com/feed.plist of \(etc) is refused: plain http is refused for feeds outside this machine (use https, or allow http)")
        XCTAssertNil(refusal("http://mirror.example.com/feed.plist", URLRules(allowPlainHTTPFeed: true)))
        XCTAssertEqual(refusal("ftp://mirror.example.com/feed.plist"), "the feed URL ftp://mirror.example.com/feed.plist of \(etc) is refused: feeds are fetched over https, http or file, not ftp:")
        XCTAssertNil(OffSwitchDecision.none.mirrorRefusal(URLRules()))
    }

    func testAMuteIsACheckSkipReasonNamedMuted() {
        let reason = CheckSkipReason.muted(Mute(by: .user, scope: .allApps, file: home))
        XCTAssertEqual(reason.name, "muted")
        XCTAssertEqual(reason.description, "muted by the user for every app (\(home))")
    }

    func testAnAppsGroupIsNamedAfterItsID() {
        XCTAssertEqual(OffSwitchSettings.group(for: app), "app org.example.App")
        XCTAssertEqual(OffSwitchSettings.appID(ofGroup: "app org.example.App"), app)
        XCTAssertNil(OffSwitchSettings.appID(ofGroup: "all"))
    }
}

/// What `herald mute` and `herald unmute` change in the user's file.
final class MuteEditTests: XCTestCase {
    let muted = OffSwitchEdit.set(group: "app org.example.App", key: "Muted", value: true)

    func testMutingAnAppWritesItsOwnMuteEvenWhileAllAppsAreMuted() {
        XCTAssertEqual(switches().muting(.app(app)), muted)
        XCTAssertEqual(switches(user: file(home, all: true)).muting(.app(app)), muted, "so it stays muted after unmute --all")
        XCTAssertEqual(switches(user: file(home, [app: .init(muted: false)])).muting(.app(app)), muted)
    }

    func testMutingWhatTheUserMutedAlreadyChangesNothing() {
        XCTAssertNil(switches(user: file(home, [app: .init(muted: true)])).muting(.app(app)))
        XCTAssertNil(switches(user: file(home, all: true)).muting(.allApps))
        XCTAssertEqual(switches().muting(.allApps), .set(group: "all", key: "Muted", value: true))
    }

    func testUnmutingAnAppRemovesItsMuteOrSparesItFromTheUsersMuteOfAll() {
        XCTAssertEqual(switches(user: file(home, [app: .init(muted: true)])).unmuting(.app(app)), .success(.remove(group: "app org.example.App", key: "Muted")))
        XCTAssertEqual(switches(user: file(home, all: true)).unmuting(.app(app)), .success(.set(group: "app org.example.App", key: "Muted", value: false)))
        XCTAssertEqual(switches(user: file(home, all: true, [app: .init(muted: true)])).unmuting(.app(app)),
                       .success(.set(group: "app org.example.App", key: "Muted", value: false)))
    }

    func testUnmutingWhatIsNotMutedChangesNothing() {
        XCTAssertEqual(switches().unmuting(.app(app)), .success(nil))
        XCTAssertEqual(switches(user: file(home, all: true, [app: .init(muted: false)])).unmuting(.app(app)), .success(nil))
        XCTAssertEqual(switches(user: file(home, [app: .init(muted: true)])).unmuting(.allApps), .success(nil))
    }

    func testUnmutingAllLeavesTheAppsMutedOneByOne() {
        let files = switches(user: file(home, all: true, [app: .init(muted: true), "org.example.B": .init(muted: true), "org.example.C": .init(muted: false)]))
        XCTAssertEqual(files.unmuting(.allApps), .success(.remove(group: "all", key: "Muted")))
        XCTAssertEqual(files.appsMutedByUser, ["org.example.App", "org.example.B"])
    }

    func testWhatTheAdministratorMutedCannotBeUnmutedByTheUser() {
        let byApp = Mute(by: .administrator, scope: .app, file: etc)
        let byAll = Mute(by: .administrator, scope: .allApps, file: etc)
        let user = file(home, all: true, [app: .init(muted: true)])
        XCTAssertEqual(switches(system: [file(etc, [app: .init(muted: true)])], user: user).unmuting(.app(app)), .failure(AdministratorMute(mute: byApp)))
        XCTAssertEqual(switches(system: [file(etc, all: true)], user: user).unmuting(.app(app)), .failure(AdministratorMute(mute: byAll)))
        XCTAssertEqual(switches(system: [file(etc, all: true)], user: user).unmuting(.allApps), .failure(AdministratorMute(mute: byAll)))
        XCTAssertEqual(switches(system: [file(etc, [app: .init(muted: true)])], user: user).unmuting(.allApps),
                       .success(.remove(group: "all", key: "Muted")), "an administrator's mute of one app leaves the user's --all theirs")
    }
}
