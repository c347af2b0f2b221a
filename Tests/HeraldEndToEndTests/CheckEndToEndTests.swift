import Foundation
import HeraldTestSupport
import XCTest

/// `herald check` against a real session bus, python3-dbusmock's notification server and a
/// loopback HTTP server: the whole path a user's login runs.
final class CheckEndToEndTests: XCTestCase {
    let appID = "org.example.Tested"
    let twoMessages = Fixtures.xmlFeed([
        "2024/01/10": ["Title": "Older tip", "Message": "Plain text"],
        "2024/02/20": ["Title": "New release", "Message": "See what's new", "ActionURL": "https://example.com/new", "ActionButton": "Read"],
    ])

    func check(_ session: DesktopSession, _ url: String, _ extra: [String] = []) throws -> ChildProcess {
        try session.herald(["check", "--json", "--feed", url, "--app-id", appID, "--show-on-first-launch", "--wait", "20"] + extra)
    }

    func events(_ run: ChildProcess, _ name: String) -> [[String: Any]] {
        run.events.filter { $0["event"] as? String == name }
    }

    func shownIDs(_ run: ChildProcess, count: Int) throws -> [String: Int] {
        XCTAssertTrue(eventually { events(run, "shown").count == count }, "shown: \(run.output) \(run.errorOutput)")
        return Dictionary(uniqueKeysWithValues: events(run, "shown").map { ($0["key"] as! String, $0["id"] as! Int) })
    }

    func testEachPendingMessageIsShownNewestFirstWithStableActionIDs() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"))
        _ = try shownIDs(run, count: 2)
        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.map(\.summary), ["New release", "Older tip"])
        XCTAssertEqual(calls[0].actions.map(\.id), ["default", "view", "remind", "ignore"])
        XCTAssertEqual(calls[0].actions.map(\.label), ["Read", "Read", "Remind Me Later", "Ignore"])
        XCTAssertEqual(calls[1].actions.map(\.id), ["default", "ok"])
        XCTAssertEqual(calls[0].hints["desktop-entry"] as? String, "org.herald.Agent", "the agent's entry: the app has none installed")
        XCTAssertEqual(calls[0].appIcon, "org.herald.Herald", "Herald's icon unless the app gives its own")
        XCTAssertEqual(calls[0].timeout, 0, "Herald's wait limit decides, not the server")
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(), 143, "128 + SIGTERM")
    }

    func testEachSkippedLineSaysItsOwnReasonWhenReasonsAlternate() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(Fixtures.xmlFeed([
            "2024/01/01": ["Title": "A", "MinVersion": "2.0"],
            "2024/01/02": ["Title": "B", "MinVersion": "3.0"],
            #"2024/01/03 "quoted" \ key"#: ["Title": "C", "MinVersion": "2.0"],
            "2024/01/04": ["Title": "D", "MaxVersion": "0.5"],
            "2024/01/05": ["Title": "E", "MinVersion": "3.0"],
            "2024/01/06": ["Title": "F", "MinVersion": "3.0"],
        ]))
        let run = try check(session, server.url("feed.plist"), ["--app-version", "1.0"])
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(run.output, #"""
            {"entries":6,"event":"fetched","format":"xml-plist","problems":[]}
            {"detail":"app version is below MinVersion 3.0","event":"skipped","key":"2024/01/06","reason":"below-min-version"}
            {"detail":"app version is below MinVersion 3.0","event":"skipped","key":"2024/01/05","reason":"below-min-version"}
            {"detail":"app version is above MaxVersion 0.5","event":"skipped","key":"2024/01/04","reason":"above-max-version"}
            {"detail":"app version is below MinVersion 2.0","event":"skipped","key":"2024/01/03 \"quoted\" \\ key","reason":"below-min-version"}
            {"detail":"app version is below MinVersion 3.0","event":"skipped","key":"2024/01/02","reason":"below-min-version"}
            {"detail":"app version is below MinVersion 2.0","event":"skipped","key":"2024/01/01","reason":"below-min-version"}
            {"event":"not-detected"}

            """#)
    }

    func testAFeedOfManyReadsArrivesWholeWithOrWithoutAContentLength() throws {
        let session = try DesktopSession()
        // About 400 kB: several of the reads a fetch makes, each of at most 64 KiB.
        var entries: [String: [String: String]] = [:]
        for day in 1...2_000 { entries[String(format: "2024/%04d", day)] = ["Title": "Message \(day)", "MinVersion": "9"] }
        let server = try session.serveFeed(Fixtures.xmlFeed(entries))
        for path in ["feed.plist", "unsized/feed.plist"] {
            let run = try check(session, server.url(path), ["--app-version", "1", "--force"])
            XCTAssertEqual(run.wait(), 0, run.errorOutput)
            XCTAssertEqual(events(run, "fetched").first?["entries"] as? Int, 2_000, path)
            XCTAssertEqual(events(run, "skipped").count, 2_000, path)
        }
        XCTAssertEqual(server.requests.map(\.path), ["/feed.plist", "/unsized/feed.plist"])
    }

    func testViewMarksViewedOpensTheLinkAndTheMessageNeverReturns() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"), ["--max", "1"])
        let ids = try shownIDs(run, count: 1)
        try session.invoke("view", on: try XCTUnwrap(ids["2024/02/20"]))
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(events(run, "answered").first?["action"] as? String, "view")
        XCTAssertTrue(eventually { session.openedLinks == ["https://example.com/new"] }, "\(session.openedLinks)")
        XCTAssertEqual(try session.state(appID: appID)["viewed"] as? [String], ["2024/02/20"])
        XCTAssertEqual(events(run, "skipped").first?["reason"] as? String, "over-cap")

        let again = try check(session, server.url("feed.plist"), ["--force", "--max", "1"])
        let next = try shownIDs(again, count: 1)
        XCTAssertEqual(Array(next.keys), ["2024/01/10"], "a viewed message is not shown twice")
        again.signal(SIGINT)
        XCTAssertEqual(again.wait(), 130, "128 + SIGINT")
    }

    func testAnswerGoesToTheMessageShownNotToWhateverTheFeedHoldsNow() throws {
        // ORIGINALS §1.9: iNotify worked the key out again when the alert was dismissed.
        let session = try DesktopSession()
        let server = try session.serveFeed(Fixtures.xmlFeed(["2024/01/01": ["Title": "Shown"]]))
        let run = try check(session, server.url("feed.plist"))
        let ids = try shownIDs(run, count: 1)
        try server.publish("feed.plist", Fixtures.xmlFeed(["2024/01/01": ["Title": "Shown"], "2099/01/01": ["Title": "Newer"]]))
        try session.invoke("ok", on: try XCTUnwrap(ids["2024/01/01"]))
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(try session.state(appID: appID)["viewed"] as? [String], ["2024/01/01"])
    }

    func testClickOnTheBodyIsTheDefaultActionView() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"))
        let ids = try shownIDs(run, count: 2)
        try session.invoke("default", on: try XCTUnwrap(ids["2024/02/20"]))
        try session.invoke("default", on: try XCTUnwrap(ids["2024/01/10"]))
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(Set(events(run, "answered").compactMap { $0["action"] as? String }), ["view", "ok"])
        XCTAssertEqual(Set(try session.state(appID: appID)["viewed"] as? [String] ?? []), ["2024/02/20", "2024/01/10"])
    }

    func testIgnoreAndRemindAreRememberedPerMessage() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.plist", Fixtures.xmlFeed([
            "a": ["Title": "A", "ActionURL": "https://example.com/a"],
            "b": ["Title": "B", "ActionURL": "https://example.com/b"],
        ]))
        let run = try check(session, server.url("feed.plist"))
        let ids = try shownIDs(run, count: 2)
        try session.invoke("ignore", on: try XCTUnwrap(ids["a"]))
        try session.invoke("remind", on: try XCTUnwrap(ids["b"]))
        XCTAssertEqual(run.wait(), 0)
        let state = try session.state(appID: appID)
        XCTAssertEqual(state["ignored"] as? [String], ["a"])
        XCTAssertEqual((state["reminded"] as? [String: Any]).map { Array($0.keys) }, ["b"])
        XCTAssertEqual(session.openedLinks, [], "only view opens a link")

        let again = try check(session, server.url("feed.plist"), ["--force"])
        XCTAssertEqual(again.wait(), 0)
        XCTAssertEqual(Set(events(again, "skipped").compactMap { $0["reason"] as? String }), ["ignored", "remind-later"])
        XCTAssertEqual(events(again, "not-detected").count, 1)
    }

    func testDismissedCountsAsRemindLaterExpiredChangesNothing() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"))
        let ids = try shownIDs(run, count: 2)
        try session.close(try XCTUnwrap(ids["2024/02/20"]), reason: 2)
        try session.close(try XCTUnwrap(ids["2024/01/10"]), reason: 1)
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(Set(events(run, "closed").compactMap { $0["reason"] as? String }), ["dismissed", "expired"])
        let state = try session.state(appID: appID)
        XCTAssertEqual((state["reminded"] as? [String: Any]).map { Array($0.keys) }, ["2024/02/20"])
        XCTAssertEqual(state["viewed"] as? [String], [])
    }

    func testWaitLimitClosesWhatIsStillShownAndMarksNothing() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch", "--wait", "1"])
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(events(run, "closed").compactMap { $0["reason"] as? String }, ["closed-by-herald", "closed-by-herald"])
        XCTAssertEqual(Set(try session.serverCalls().filter { $0.method == "CloseNotification" }.compactMap { $0.args.first as? Int }), [1, 2])
        let state = try session.state(appID: appID)
        XCTAssertEqual(state["viewed"] as? [String], [])
        XCTAssertEqual((state["presenting"] as? [String: Any])?.count, 0)
    }

    func testSigtermGoesThroughTheLoopAndClosesTheNotifications() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"))
        _ = try shownIDs(run, count: 2)
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(), 143, "128 + SIGTERM")
        XCTAssertEqual(try session.serverCalls().filter { $0.method == "CloseNotification" }.count >= 2, true)
    }

    func testEveryStopSignalWhileWaitingClosesWhatIsShownAndDropsItsClaims() throws {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let session = try DesktopSession()
            let server = try session.serveFeed(twoMessages)
            let run = try check(session, server.url("feed.plist"))
            let shown = try shownIDs(run, count: 2)
            run.signal(signal)
            XCTAssertEqual(run.wait(), 128 + signal, "signal \(signal): exits as a shell expects, after its clean-up")
            let closed = try session.serverCalls().filter { $0.method == "CloseNotification" }.compactMap { $0.args.first as? Int }
            XCTAssertEqual(Set(closed), Set(shown.values), "signal \(signal): no dead buttons left")
            let state = try session.state(appID: appID)
            XCTAssertEqual((state["presenting"] as? [String: Any])?.count, 0, "signal \(signal)")
            XCTAssertEqual(state["viewed"] as? [String], [], "signal \(signal): closed by Herald marks nothing")
        }
    }

    func testEveryStopSignalWhileFetchingEndsTheCheckShowingAndMarkingNothing() throws {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let session = try DesktopSession()
            let server = try session.serveFeed(twoMessages)
            let run = try check(session, server.url("slow/10/feed.plist"))
            XCTAssertTrue(eventually { server.requests.contains { $0.path == "/slow/10/feed.plist" } })
            let asked = Date()
            run.signal(signal)
            XCTAssertEqual(run.wait(seconds: 5), 128 + signal, "signal \(signal)")
            XCTAssertLessThan(Date().timeIntervalSince(asked), 3, "signal \(signal) is not held up by the fetch's 10 s")
            XCTAssertEqual(run.errorOutput, "", "signal \(signal): the loop answered it, not the guard a second later")
            XCTAssertEqual(try session.notifyCalls().count, 0)
            let state = try session.state(appID: appID)
            XCTAssertNil(state["lastChecked"], "signal \(signal): the check did not happen")
            XCTAssertEqual((state["presenting"] as? [String: Any])?.count, 0)
        }
    }

    /// The shared libraries the loader mapped for one run of `herald` (its `LD_DEBUG=files` log).
    func librariesMapped(_ session: DesktopSession, _ arguments: [String]) throws -> (run: ChildProcess, libraries: Set<String>) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-ld-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try session.herald(arguments, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder.appendingPathComponent("ld").path])
        XCTAssertEqual(run.wait(), 0, "\(run.output) \(run.errorOutput)")
        var libraries = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let log = try String(contentsOfFile: folder.appendingPathComponent(name).path, encoding: .utf8)
            for line in log.split(separator: "\n") {
                guard let start = line.range(of: "file=") else { continue }
                libraries.insert(String(line[start.upperBound...].prefix { $0 != " " && $0 != "\t" }))
            }
        }
        XCTAssertTrue(libraries.contains { $0.hasPrefix("libglib-2.0") }, "the log names what was loaded: \(libraries)")
        return (run, libraries)
    }

    func testACheckThatIsNotDueMapsNeitherGIONorLibsoupNorLibnotify() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let arguments = ["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--wait", "0.5"]
        let loadedOnUse = ["libgio-2.0.so.0", "libsoup-3.0.so.0", "libnotify.so.4"]

        let firstLaunch = try librariesMapped(session, arguments)
        XCTAssertEqual(events(firstLaunch.run, "check-skipped").first?["reason"] as? String, "first-launch")
        let shown = try librariesMapped(session, arguments)
        XCTAssertEqual(events(shown.run, "shown").count, 2)
        let notDue = try librariesMapped(session, arguments)
        XCTAssertEqual(events(notDue.run, "check-skipped").first?["reason"] as? String, "check-period")

        for library in loadedOnUse {
            XCTAssertFalse(firstLaunch.libraries.contains(library), "first launch mapped \(library)")
            XCTAssertFalse(notDue.libraries.contains(library), "a check that is not due mapped \(library)")
            XCTAssertTrue(shown.libraries.contains(library), "a check that shows loads \(library) when it first calls it")
        }
    }

    func testAFileFeedIsReadWithGIOAloneWithoutLibsoup() throws {
        let session = try DesktopSession()
        let feed = session.directory.appendingPathComponent("feed.plist")
        try twoMessages.write(to: feed, atomically: true, encoding: .utf8)
        let arguments = ["check", "--json", "--force", "--feed", feed.absoluteString, "--app-id", appID, "--wait", "0.5"]
        let shown = try librariesMapped(session, arguments)
        XCTAssertEqual(events(shown.run, "shown").count, 2, shown.run.output)
        XCTAssertTrue(shown.libraries.contains("libgio-2.0.so.0"), "\(shown.libraries)")
        XCTAssertFalse(shown.libraries.contains("libsoup-3.0.so.0"), "a file feed mapped libsoup")
    }

    func testFirstLaunchFetchesNothingSecondLaunchShows() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let first = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--wait", "1"])
        XCTAssertEqual(first.wait(), 0)
        XCTAssertEqual(events(first, "check-skipped").first?["reason"] as? String, "first-launch")
        XCTAssertEqual(server.requests.count, 0)
        let second = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--wait", "1"])
        XCTAssertEqual(second.wait(), 0)
        XCTAssertEqual(events(second, "shown").count, 2)
        let third = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--wait", "1"])
        XCTAssertEqual(third.wait(), 0)
        XCTAssertEqual(events(third, "check-skipped").first?["reason"] as? String, "check-period")
    }

    func testUnchangedFeedCostsA304AndReusesTheCachedCopy() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        XCTAssertEqual(try check(session, server.url("feed.plist"), ["--wait", "0.5"]).wait(), 0)
        let second = try check(session, server.url("feed.plist"), ["--force", "--wait", "0.5"])
        XCTAssertEqual(second.wait(), 0)
        XCTAssertEqual(events(second, "not-modified").count, 1, second.output)
        XCTAssertEqual(events(second, "shown").count, 2)
        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertNil(requests[0].headers["If-None-Match"])
        XCTAssertNotNil(requests[1].headers["If-None-Match"])
        XCTAssertEqual(requests[1].headers["Cache-Control"], "no-cache")
        XCTAssertEqual(requests[0].headers["User-Agent"], "Herald/0.1.0 (\(appID)/unknown)")
    }

    func testHTTPErrorsFailTheCheckKeepLastCheckedAndBackOff() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        for status in ["404", "500"] {
            let run = try check(session, server.url("status/\(status)"), ["--force"])
            XCTAssertEqual(run.wait(), 75)
            XCTAssertEqual(events(run, "failed").first?["kind"] as? String, "fetch")
            XCTAssertTrue((events(run, "failed").first?["message"] as? String ?? "").contains(status))
        }
        let state = try session.state(appID: appID)
        XCTAssertNil(state["lastChecked"], "D4: a failed check is not a check")
        XCTAssertEqual((state["failure"] as? [String: Any])?["count"] as? Int, 2)
        let backedOff = try check(session, server.url("status/404"))
        XCTAssertEqual(backedOff.wait(), 0)
        XCTAssertEqual(events(backedOff, "check-skipped").first?["reason"] as? String, "failure-backoff")
    }

    func testSlowServerTimesOut() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("slow/5/feed.plist"), ["--timeout", "1"])
        XCTAssertEqual(run.wait(), 75)
        XCTAssertTrue((events(run, "failed").first?["message"] as? String ?? "").contains("within 1 s"), run.output)
    }

    func testRedirectsAreFollowedUpToFive() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let fine = try check(session, server.url("redirect/5/feed.plist"), ["--wait", "0.5"])
        XCTAssertEqual(fine.wait(), 0)
        XCTAssertEqual(events(fine, "shown").count, 2)
        let tooMany = try check(session, server.url("redirect/6/feed.plist"), ["--force"])
        XCTAssertEqual(tooMany.wait(), 75)
        XCTAssertTrue((events(tooMany, "failed").first?["message"] as? String ?? "").contains("redirects"))
    }

    func testOversizedFeedIsCutOff() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        let run = try check(session, server.url("big"))
        XCTAssertEqual(run.wait(), 75)
        XCTAssertTrue((events(run, "failed").first?["message"] as? String ?? "").contains("larger than"))
    }

    func testMalformedFeedAndNonDictionaryRootExit65AndMarkNothing() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("broken.plist", "<?xml version=\"1.0\"?><plist><dict><key>a</key>")
        try server.publish("array.plist", #"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#)
        for name in ["broken.plist", "array.plist"] {
            let run = try check(session, server.url(name), ["--force"])
            XCTAssertEqual(run.wait(), 65, name)
            XCTAssertEqual(events(run, "failed").first?["kind"] as? String, "feed")
        }
        XCTAssertNil(try session.state(appID: appID)["lastChecked"])
    }

    func testBadEntryIsSkippedAndReportedTheRestStillShow() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.json", #"{"bad": ["not", "a", "dictionary"], "good": {"Title": "Still here"}}"#)
        let run = try check(session, server.url("feed.json"), ["--wait", "0.5"])
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual((events(run, "fetched").first?["problems"] as? [String])?.count, 1)
        XCTAssertEqual(events(run, "shown").compactMap { $0["key"] as? String }, ["good"])
    }

    func testNoSessionBusIsAClearErrorExit69() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let server = try session.serveFeed(twoMessages)
        let run = try session.herald(["check", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch"])
        XCTAssertEqual(run.wait(), 69)
        XCTAssertTrue(run.errorOutput.contains("no notification server"), run.errorOutput)
        XCTAssertEqual(try session.state(appID: appID)["viewed"] as? [String], [])
    }

    func testNoNotificationServerIsAClearErrorExit69AndMarksNothingAndHoldsNoBackoff() throws {
        let session = try DesktopSession(capabilities: nil)
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"), ["--server-wait", "0.5"])
        XCTAssertEqual(run.wait(), 69)
        XCTAssertEqual(events(run, "failed").first?["kind"] as? String, "no-notification-server")
        let state = try session.state(appID: appID)
        XCTAssertEqual(state["viewed"] as? [String], [])
        XCTAssertNil(state["lastChecked"], "nothing could be shown, so the check does not count")
        XCTAssertNil(state["failure"], "the next login's check is not held back")
        let again = try check(session, server.url("feed.plist"), ["--server-wait", "0.5"])
        XCTAssertEqual(again.wait(), 69)
        // The copy the first check fetched is in the cache with its validators: asked again
        // conditionally, it comes back as a 304.
        XCTAssertEqual(events(again, "not-modified").count, 1, "tried again at once: \(again.output)")
        XCTAssertEqual(server.requests.map { $0.headers["If-None-Match"] != nil }, [false, true])
    }

    /// The app's own face: the Name and Icon of the desktop entry its id names; Herald's icon
    /// only where the app has none.
    func testNotificationsShowTheNameAndIconOfTheAppsDesktopEntry() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        var run = try check(session, server.url("feed.plist"), ["--wait", "0.5"])
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(try session.notifyCalls().map { [$0.appName, $0.appIcon] }, [[appID, "org.herald.Herald"], [appID, "org.herald.Herald"]])
        let applications = URL(fileURLWithPath: session.environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try "[Desktop Entry]\nType=Application\nName=Example App\nIcon=org.example.App\nExec=example\n"
            .write(to: applications.appendingPathComponent(appID + ".desktop"), atomically: true, encoding: .utf8)
        run = try check(session, server.url("feed.plist"), ["--wait", "0.5", "--force"])
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(try session.notifyCalls().suffix(2).map { [$0.appName, $0.appIcon] }, [["Example App", "org.example.App"], ["Example App", "org.example.App"]])
        run = try check(session, server.url("feed.plist"), ["--wait", "0.5", "--force", "--app-name", "Given", "--icon", "given-icon"])
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(try session.notifyCalls().suffix(2).map { [$0.appName, $0.appIcon] }, [["Given", "given-icon"], ["Given", "given-icon"]])
    }

    /// At login the check may come before the desktop's server: it waits for one to appear.
    func testACheckAtLoginWaitsForTheNotificationServerToAppear() throws {
        let session = try DesktopSession(capabilities: nil)
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"), ["--server-wait", "20", "--wait", "1"])
        // The check has fetched, and so waits for the server, before the server starts.
        XCTAssertTrue(eventually(within: 10) { !server.requests.isEmpty }, "the feed was fetched")
        try session.startMockServer(capabilities: "actions body body-markup")
        XCTAssertEqual(run.wait(), 0, run.errorOutput)
        XCTAssertEqual(events(run, "shown").count, 2, run.output)
    }

    /// A server merely installed is not started by Herald: the desktop chooses its own.
    func testWaitingForTheServerStartsNoneThatTheBusCouldActivate() throws {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let started = session.directory.appendingPathComponent("activated")
        try session.startBus(activating: "org.freedesktop.Notifications", command: "/usr/bin/touch \(started.path)")
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"), ["--server-wait", "1"])
        XCTAssertEqual(run.wait(), 69)
        XCTAssertFalse(FileManager.default.fileExists(atPath: started.path), "no server was started by the bus")
    }

    func testServerWithoutActionsShowsTextWithLinkAndRecordsViewed() throws {
        let session = try DesktopSession(capabilities: "body body-markup body-hyperlinks")
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"))
        XCTAssertEqual(run.wait(), 0)
        let calls = try session.notifyCalls()
        XCTAssertEqual(calls.count, 2)
        XCTAssertTrue(calls.allSatisfy { $0.actions.isEmpty })
        XCTAssertEqual(calls[0].body, "See what&apos;s new\n<a href=\"https://example.com/new\">https://example.com/new</a>")
        XCTAssertEqual(Set(try session.state(appID: appID)["viewed"] as? [String] ?? []), ["2024/02/20", "2024/01/10"])
    }

    func testFeedTextIsEscapedForMarkupServersAndPlainOtherwise() throws {
        let feed = Fixtures.xmlFeed(["a": ["Title": "Tom & <i>Jerry</i>\u{7}", "Message": "<b>Bold</b> & <a href='x'>link</a>"]])
        for (capabilities, body) in [("actions body body-markup", "&lt;b&gt;Bold&lt;/b&gt; &amp; &lt;a href=&apos;x&apos;&gt;link&lt;/a&gt;"),
                                     ("actions body", "<b>Bold</b> & <a href='x'>link</a>")] {
            let session = try DesktopSession(capabilities: capabilities)
            let server = try FeedServer(directory: session.directory)
            try server.publish("feed.plist", feed)
            let run = try check(session, server.url("feed.plist"), ["--wait", "0.5"])
            XCTAssertEqual(run.wait(), 0)
            let call = try XCTUnwrap(try session.notifyCalls().first)
            XCTAssertEqual(call.summary, "Tom & <i>Jerry</i>", "the summary is plain text, control characters removed")
            XCTAssertEqual(call.body, body)
        }
    }

    func testLabelsFollowTheUsersLanguage() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "A", "ActionURL": "https://example.com/a"]]))
        let run = try session.herald(["check", "--json", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch", "--wait", "0.5"],
                                     environment: ["LANG": "de_DE.UTF-8"])
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(try session.notifyCalls().first?.actions.map(\.label), ["Mehr info", "Mehr info", "Mich später erinnern", "Ignorieren"])
    }

    func testLinkWithoutHandlerIsSkippedAndDoesNotBlockOthers() throws {
        let session = try DesktopSession()
        let server = try FeedServer(directory: session.directory)
        try server.publish("feed.plist", Fixtures.xmlFeed([
            "z": ["Title": "Custom", "ActionURL": "myapp://open"],
            "a": ["Title": "Plain"],
        ]))
        let run = try check(session, server.url("feed.plist"), ["--allow-scheme", "myapp", "--wait", "0.5"])
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(events(run, "skipped").first?["reason"] as? String, "no-url-handler")
        XCTAssertEqual(events(run, "shown").compactMap { $0["key"] as? String }, ["a"])
        XCTAssertEqual(try session.state(appID: appID)["viewed"] as? [String], [], "D5: the skipped message stays unmarked")
    }

    func testUnwritableStateDirectoryIsAClearErrorExit73() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let blocker = session.directory.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let run = try session.herald(["check", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch"],
                                     environment: ["XDG_STATE_HOME": blocker.path])
        XCTAssertEqual(run.wait(), 73)
        XCTAssertTrue(run.errorOutput.contains("cannot write"), run.errorOutput)
        XCTAssertEqual(try session.notifyCalls().count, 0)
    }

    func testCorruptStateFileIsMovedAsideReportedAndTheCheckGoesOn() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let folder = session.environment["XDG_STATE_HOME"]! + "/herald"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("{\"viewed\": [tru".utf8).write(to: URL(fileURLWithPath: folder + "/\(appID).json"))
        let run = try check(session, server.url("feed.plist"), ["--wait", "0.5"])
        XCTAssertEqual(run.wait(), 0)
        XCTAssertTrue(run.errorOutput.contains("the state file was corrupt; moved aside to \(folder)/\(appID).json.corrupt-"), run.errorOutput)
        XCTAssertEqual(events(run, "shown").count, 2)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".corrupt-") }
        XCTAssertEqual(kept.count, 1, "the damaged file is kept for a person to look at")
    }

    func testPlainHTTPFeedFromAnotherMachineIsRefusedAsUsage() throws {
        let session = try DesktopSession()
        let result = try session.heraldToCompletion(["check", "--feed", "http://example.com/feed.plist", "--app-id", appID])
        XCTAssertEqual(result.status, 64)
    }

    func testAStopRequestIsHonouredWithinASecondWhileTheNotificationServerIsStuck() throws {
        let session = try DesktopSession()
        try session.answerNotificationsSlowly(after: 8)
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"))
        // The server has the first Notify, and sits on it.
        XCTAssertTrue(eventually { session.notificationServerLog.contains(" Notify ") }, run.output + run.errorOutput)
        let asked = Date()
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(seconds: 5), 143, "128 + SIGTERM")
        XCTAssertLessThan(Date().timeIntervalSince(asked), 2.5, "the guard's second ends it, not the stuck server's 8 s")
        XCTAssertEqual(run.errorOutput, "herald: the main loop did not answer the stop request within a second; its claims were released\n")
        let state = try session.state(appID: appID)
        XCTAssertEqual((state["presenting"] as? [String: Any])?.count, 0, "its claims are released, so the messages show again")
        XCTAssertEqual(state["viewed"] as? [String], [])
    }

    func testTheWaitLimitHoldsWithinASecondWhileTheNotificationServerIsStuck() throws {
        let session = try DesktopSession()
        try session.answerNotificationsSlowly(after: 8)
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"), ["--wait", "1"])
        XCTAssertTrue(eventually { session.notificationServerLog.contains(" Notify ") }, run.output + run.errorOutput)
        let firstSeen = Date()
        XCTAssertEqual(run.wait(seconds: 10), 0)
        XCTAssertLessThan(Date().timeIntervalSince(firstSeen), 2.5, "1 s of wait limit and a second of grace from the stuck Notify, not its 8 s")
        XCTAssertEqual(run.errorOutput,
                       "herald: the main loop was still waiting on the notification server a second after the wait limit; its claims were released\n")
        let state = try session.state(appID: appID)
        XCTAssertEqual((state["presenting"] as? [String: Any])?.count, 0, "its claims are released, so the messages show again")
        XCTAssertEqual(state["viewed"] as? [String], [])
    }

    func testTheWaitLimitCountsFromTheFirstNotification() throws {
        let session = try DesktopSession()
        let server = try session.serveFeed(twoMessages)
        let started = Date()
        // The feed comes a second late: a limit counted from the start would end the wait early.
        let run = try check(session, server.url("slow/1/feed.plist"), ["--wait", "1.5"])
        XCTAssertTrue(eventually { session.notificationServerLog.contains(" Notify ") }, run.output + run.errorOutput)
        let firstSeen = Date()
        XCTAssertEqual(run.wait(seconds: 10), 0)
        let ended = Date()
        XCTAssertGreaterThan(ended.timeIntervalSince(started), 2.5, "a second of fetching, then the whole limit")
        XCTAssertLessThan(ended.timeIntervalSince(firstSeen), 2.2, "1.5 s after the first notification, not a limit counted anew for each")
        XCTAssertEqual(events(run, "closed").count, 2, run.output + run.errorOutput)
        XCTAssertEqual(run.errorOutput, "", "the loop closed them itself; the guard never fired")
        let calls = session.notificationServerLog.split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst().first }
        XCTAssertEqual(calls.filter { $0 == "CloseNotification" }.count, 2, "each notification is closed once: \(calls)")
        XCTAssertEqual(calls.filter { $0 == "GetServerInformation" }.count, 2, "libnotify's own question and Herald's, for the server's name: \(calls)")
    }

    func testAServerThatGivesTwoNotificationsOneIdGetsOneAnswerPerClick() throws {
        let session = try DesktopSession()
        try session.giveEveryNotification(id: 7)
        let server = try session.serveFeed(twoMessages)
        let run = try check(session, server.url("feed.plist"))
        XCTAssertTrue(eventually { events(run, "shown").count == 2 }, run.output + run.errorOutput)
        XCTAssertEqual(events(run, "closed").map { $0["key"] as? String }, ["2024/02/20"], "the first is replaced by the second")
        try session.invoke("ok", on: 7)
        XCTAssertEqual(run.wait(), 0)
        XCTAssertEqual(events(run, "answered").map { "\($0["key"] as? String ?? "") \($0["action"] as? String ?? "")" }, ["2024/01/10 ok"])
        let state = try session.state(appID: appID)
        XCTAssertEqual(state["viewed"] as? [String], ["2024/01/10"])
        XCTAssertEqual((state["presenting"] as? [String: Any])?.count, 0)
    }
}

/// What happens beside the notification server: a terminal instead of one.
final class FallbackEndToEndTests: XCTestCase {
    let appID = "org.example.Fallback"

    func testWithoutAServerAnInteractiveTerminalAsksInstead() throws {
        let session = try DesktopSession(capabilities: nil)
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "Asked here", "ActionURL": "https://example.com/a"]]))
        let result = try runToCompletion("/usr/bin/python3", [
            TestPaths.support("in_terminal.py"), "3", "--",
            TestPaths.herald, "check", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch",
        ], environment: session.environment)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("no notification server is running; asking here instead"), result.output)
        XCTAssertTrue(result.output.contains("[1] More Info (v)  [2] Remind Me Later (r)  [3] Ignore (i)"), result.output)
        XCTAssertEqual(try session.state(appID: appID)["ignored"] as? [String], ["a"])
    }

    func testAtTheTerminalALetterAnswersAndAnAnswerThatNamesNoButtonAsksAgain() throws {
        let session = try DesktopSession(capabilities: nil)
        let server = try session.serveFeed(Fixtures.xmlFeed(["a": ["Title": "Asked here", "ActionURL": "https://example.com/a"]]))
        let result = try runToCompletion("/usr/bin/python3", [
            TestPaths.support("in_terminal.py"), "later", "r", "--",
            TestPaths.herald, "check", "--feed", server.url("feed.plist"), "--app-id", appID, "--show-on-first-launch",
        ], environment: session.environment)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("> later\r\nchoose 1-3 or v/r/i> r"), result.output)
        XCTAssertNotNil((try session.state(appID: appID)["reminded"] as? [String: Any])?["a"], result.output)
    }
}
