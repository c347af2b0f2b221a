import Foundation
import Herald
import HeraldTestSupport
import XCTest

/// libherald-1, built by its build command (`desktop/libherald/build.sh PREFIX`) into a prefix of
/// its own, and used from there by the examples in `desktop/examples` for C (pkg-config), Python
/// (PyGObject, GTK 4), GJS and Vala (its .vapi), on a private session bus that can start the
/// Herald agent, with python3-dbusmock's notification server and a loopback feed of one message.
/// Each example prints a line per signal it hears: "shown KEY", "answered KEY ANSWER" (with
/// " while away" for an answer given while it was not running), "failed SENTENCE", "finished".
final class LibHeraldTests: XCTestCase {
    let appID = "org.example.LibHerald"
    let key = "2024/01/10"
    let feed = Fixtures.xmlFeed(["2024/01/10": ["Title": "A tip", "Message": "Plain text", "ActionURL": "https://example.com/tip"]])

    // MARK: The build command's contract

    /// build.sh makes every file its header names, the library's SONAME is libherald-1.so.0, it
    /// exports its C API and GType functions alone, and it needs no Swift library at run time
    /// (nor libstdc++, linked in).
    func testTheBuildCommandMakesTheLibraryItsIntrospectionDataAndVapiAndTheLibraryExportsHeraldsCAPIAlone() throws {
        let prefix = try InstalledLibHerald.prefix()
        let contract = ["include/herald-1/herald.h", "lib/libherald-1.so.0.0.0", "lib/libherald-1.so.0", "lib/libherald-1.so",
                        "lib/pkgconfig/herald-1.pc", "share/gir-1.0/Herald-1.gir", "lib/girepository-1.0/Herald-1.typelib",
                        "share/vala/vapi/herald-1.vapi", "share/vala/vapi/herald-1.deps"]
        XCTAssertEqual(contract.filter { !FileManager.default.fileExists(atPath: prefix.appendingPathComponent($0).path) }, [], "missing")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: prefix.appendingPathComponent("lib/libherald-1.so").path), "libherald-1.so.0")
        let library = prefix.appendingPathComponent("lib/libherald-1.so.0.0.0").path
        let dynamic = try runToCompletion("/usr/bin/readelf", ["-d", library], environment: [:]).output
        let needed = dynamic.split(separator: "\n").filter { $0.contains("(NEEDED)") || $0.contains("(SONAME)") || $0.contains("PATH)") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(needed.sorted(), ["[ld-linux-x86-64.so.2]", "[libc.so.6]", "[libgcc_s.so.1]", "[libglib-2.0.so.0]", "[libgobject-2.0.so.0]",
                                         "[libherald-1.so.0]", "[libm.so.6]"], "no Swift library nor libstdc++, no run path")
        let exported = try runToCompletion("/usr/bin/nm", ["-D", "--defined-only", "--format=just-symbols", library], environment: [:]).output
        XCTAssertEqual(exported.split(separator: "\n").map { String($0.split(separator: "@").first!) }.sorted(), [
            "herald_client_add_prompt", "herald_client_add_prompts_file", "herald_client_app_launched",
            "herald_client_app_will_quit", "herald_client_check_now", "herald_client_close_shown_messages",
            "herald_client_get_inbox", "herald_client_get_type", "herald_client_new", "herald_client_record_answer",
            "herald_error_get_type", "herald_error_quark", "herald_event_kind_get_type", "herald_inbox_message_get_body",
            "herald_inbox_message_get_button_label", "herald_inbox_message_get_category", "herald_inbox_message_get_id",
            "herald_inbox_message_get_last_shown", "herald_inbox_message_get_link",
            "herald_inbox_message_get_muted_by_administrator", "herald_inbox_message_get_reached",
            "herald_inbox_message_get_state", "herald_inbox_message_get_state_text", "herald_inbox_message_get_title",
            "herald_inbox_message_get_type", "herald_inbox_message_get_until", "herald_inbox_message_get_withdrawn_since",
            "herald_inbox_state_get_type", "herald_message_get_action_url", "herald_message_get_body",
            "herald_message_get_button_label", "herald_message_get_details", "herald_message_get_id",
            "herald_message_get_is_prompt", "herald_message_get_title", "herald_message_get_type",
        ])
        XCTAssertEqual(try InstalledLibHerald.pkgConfig(["--modversion", "herald-1"]), ["0.1.0"])
    }

    /// The client's number and switch properties default to Herald's configuration, whose
    /// defaults they are read from, so that a client made without them behaves as Herald does.
    func testTheClientsPropertiesDefaultToHeraldsConfiguration() throws {
        let prefix = try InstalledLibHerald.prefix()
        let run = try runToCompletion("/usr/bin/python3", [TestPaths.support("libherald_defaults.py")], environment: [
            "GI_TYPELIB_PATH": prefix.appendingPathComponent("lib/girepository-1.0").path, "LD_LIBRARY_PATH": prefix.appendingPathComponent("lib").path,
        ])
        XCTAssertEqual(run.status, 0, run.output)
        let herald = Herald.Configuration(feedURL: nil, appID: "", appVersion: nil, environment: [:])
        let python = { (flag: Bool) in flag ? "True" : "False" }
        XCTAssertEqual(run.output, """
            check-period \(herald.check.checkPeriod / .seconds(1))
            remind-period \(herald.check.remindPeriod / .seconds(1))
            timeout \(herald.timeout / .seconds(1))
            wait-limit \((herald.waitLimit ?? .zero) / .seconds(1))
            max-per-check \(herald.check.maxNotificationsPerCheck)
            show-on-first-launch \(python(herald.check.showOnFirstLaunch))
            show-oldest-first \(python(herald.check.showOldestFirst))
            check-at-launch \(python(herald.checkAtLaunch))
            debug \(python(herald.check.debug))
            allow-critical-urgency \(python(herald.check.allowsCriticalUrgency))
            allow-plain-http-feed \(python(herald.urlRules.allowPlainHTTPFeed))
            whats-new \(python(herald.whatsNew))

            """)
        XCTAssertEqual(run.output.split(separator: "\n").first, "check-period 43200.0", "12 hours, as documented")
    }

    // MARK: C (pkg-config --cflags --libs herald-1)

    func testCProgramHearsTheAnswerClickedInTheServer() throws {
        try assertTheClickReachesTheApp(try cExample(), answer: "ignore")
    }

    func testCProgramHearsAtItsNextLaunchTheAnswerTheAgentTookAfterItQuit() throws {
        try assertTheAnswerGivenAwayReachesTheNextLaunch(try cExample())
    }

    func testCProgramHearsTheButtonClickedOnXfce4Notifyd() throws {
        try assertTheButtonClickedOnXfce4NotifydReachesTheApp(try cExample())
    }

    // MARK: Python (PyGObject, GTK 4)

    func testPythonGTKAppHearsTheAnswerClickedInTheServer() throws {
        try assertTheClickReachesTheApp(try pythonExample(), answer: "view", display: true)
        XCTAssertEqual(lastSession?.openedLinks, ["https://example.com/tip"], "Herald opens the link of a view")
    }

    func testPythonGTKAppHearsAtItsNextLaunchTheAnswerTheAgentTookAfterItQuit() throws {
        try assertTheAnswerGivenAwayReachesTheNextLaunch(try pythonExample(), display: true)
    }

    /// The Python example's "What's new" page (--whats-new opens it at start) lists the app's
    /// own messages: none before the check, and, read again when the answer clicked in the
    /// server arrives, the message the check showed, ignored.
    func testPythonGTKAppsWhatsNewPageListsItsOwnMessagesAgainAfterTheAnswer() throws {
        let session = try agentSession(display: true)
        let server = try session.serveFeed(feed)
        let app = try start(try pythonExample(), environment: session.environment, in: session.directory,
                            arguments: [server.url("feed.plist"), appID, "--whats-new"])
        XCTAssertTrue(eventually { app.output == "what's new: nothing yet\nshown \(key)\n" }, "\(app.output)\(app.errorOutput)")
        XCTAssertTrue(eventually { (try? session.windows(named: "^What's new$").isEmpty) == false }, "the page appears")
        try session.invoke("ignore", on: 1)
        let answered = "what's new: nothing yet\nshown \(key)\nanswered \(key) ignore\nwhat's new: \(key) ignored\nfinished\n"
        XCTAssertTrue(eventually { app.output == answered }, "\(app.output)\(app.errorOutput)")
        app.signal(SIGTERM)
        XCTAssertEqual(app.wait(), 0, app.errorOutput)
        XCTAssertEqual(app.output, answered)
    }

    /// On a real server, xfce4-notifyd on an X display, the button the user clicks (found on
    /// the screen by its label) reaches the Python app's `answered` handler.
    func testPythonGTKAppHearsTheButtonClickedOnXfce4Notifyd() throws {
        try assertTheButtonClickedOnXfce4NotifydReachesTheApp(try pythonExample())
    }

    /// Starts the example `command` beside xfce4-notifyd on an X display, clicks the Ignore
    /// button the server draws (found on the screen by its label), and expects the example's
    /// `answered` handler to hear it.
    private func assertTheButtonClickedOnXfce4NotifydReachesTheApp(_ command: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let desktop = try startRealDesktop(.xfce4Notifyd)
        let feedServer = try FeedServer(directory: desktop.directory.appendingPathComponent("feed"))
        addTeardownBlock { feedServer.stop() }
        try feedServer.publish("feed.plist", feed)
        let app = try start(command, environment: desktop.environment, in: desktop.directory, arguments: [feedServer.url("feed.plist"), appID])
        XCTAssertTrue(eventually(within: 20) { app.output == "shown \(key)\n" }, "\(app.output)\(app.errorOutput)", file: file, line: line)
        let seen = try XCTUnwrap(try desktop.drawnText(within: 12) { $0.centre(of: "Ignore") != nil }, "xfce4-notifyd draws the Ignore button",
                                 file: file, line: line)
        let point = try XCTUnwrap(seen.text.centre(of: "Ignore"), file: file, line: line)
        try desktop.click(x: point.x, y: point.y)
        XCTAssertTrue(eventually(within: 10) { app.output == "shown \(key)\nanswered \(key) ignore\nfinished\n" }, "\(app.output)\(app.errorOutput)",
                      file: file, line: line)
        app.signal(SIGTERM)
        XCTAssertEqual(app.wait(), 0, app.errorOutput, file: file, line: line)
    }

    // MARK: GJS

    func testGJSScriptHearsTheAnswerClickedInTheServer() throws {
        try assertTheClickReachesTheApp(try gjsExample(), answer: "remind")
    }

    func testGJSScriptHearsAtItsNextLaunchTheAnswerTheAgentTookAfterItQuit() throws {
        try assertTheAnswerGivenAwayReachesTheNextLaunch(try gjsExample())
    }

    func testGJSScriptHearsTheButtonClickedOnXfce4Notifyd() throws {
        try assertTheButtonClickedOnXfce4NotifydReachesTheApp(try gjsExample())
    }

    // MARK: Vala (valac --pkg herald-1)

    func testValaProgramHearsTheAnswerClickedInTheServer() throws {
        try assertTheClickReachesTheApp(try valaExample(), answer: "ignore")
    }

    func testValaProgramHearsAtItsNextLaunchTheAnswerTheAgentTookAfterItQuit() throws {
        try assertTheAnswerGivenAwayReachesTheNextLaunch(try valaExample())
    }

    func testValaProgramHearsTheButtonClickedOnXfce4Notifyd() throws {
        try assertTheButtonClickedOnXfce4NotifydReachesTheApp(try valaExample())
    }

    // MARK: Ownership and memory

    /// From C: the client and each message are finalized exactly once (a message the app keeps
    /// when the client goes too, once the app lets it go), and so is each message of the app's
    /// inbox read after the answer (where it stands: ignored), the user data of every handler is
    /// freed once, and each failing call gives a GError of the HERALD_ERROR domain to free; the
    /// check's other events arrive as `event` with a kind an app can switch on. Every handler
    /// runs on the main thread, and a call from another thread while the main loop runs is
    /// refused with a critical warning, rather than racing Herald.
    func testClientAndMessagesAreFinalizedOnceAndEveryHandlersUserDataIsFreedOnce() throws {
        let session = try agentSession(display: false)
        let server = try session.serveFeed(feed)
        let program = try InstalledLibHerald.buildC(TestPaths.support("libherald_ownership.c"), named: "libherald_ownership")
        let app = try start([program], in: session, feed: server.url("feed.plist"))
        XCTAssertTrue(eventually { app.output.hasSuffix("shown \(key)\n") }, "\(app.output)\(app.errorOutput)")
        try session.invoke("ignore", on: 1)
        XCTAssertEqual(app.wait(), 0, app.errorOutput)
        XCTAssertEqual(app.output, """
            add_prompts_file: g-file-error-quark -: Failed to open file “/nonexistent/prompts.plist”: No such file or directory
            add_prompt: herald-error-quark configuration: the prompt's link javascript:alert(1) cannot be offered: the javascript: scheme is never opened
            event feed-fetched - fetched
            event pending \(key) -
            should-show \(key): A tip, {'ActionURL': <'https://example.com/tip'>, 'Message': <'Plain text'>, 'Title': <'A tip'>}
            shown \(key)
            answered \(key) ignore
            inbox \(key): A tip, Plain text, https://example.com/tip, announcement, reached given, last shown given, ignored (ignored), until -, withdrawn -
            record_answer: herald-error-quark configuration: the answer maybe is none of Herald's: view, remind, ignore, ok
            handlers called off the main thread: 0
            clients finalized: 1
            user data freed: 5 of 5
            messages finalized while the app keeps one: 0 of 1
            messages finalized: 1 of 1
            inbox messages finalized while the app keeps one: 0 of 1
            inbox messages finalized: 1 of 1

            """, app.errorOutput)
        XCTAssertTrue(app.errorOutput.contains("herald_client_close_shown_messages: called from a thread other than the one that runs the GLib default main context"),
                      app.errorOutput)
    }

    /// From C: a client whose last reference is dropped on another thread while the main loop
    /// runs lives on until its bridge to Herald is freed where Herald runs, and is then finalized
    /// there, on the main thread, exactly once; the user data of its handlers is freed once, and
    /// no handler hears anything after the release, not even the answer Herald still records.
    func testAClientReleasedOnAnotherThreadIsFinalizedOnceOnTheMainThreadAndHearsNothingAfter() throws {
        let session = try agentSession(display: false)
        let server = try session.serveFeed(feed)
        let program = try InstalledLibHerald.buildC(TestPaths.support("libherald_release.c"), named: "libherald_release")
        let app = try start([program], in: session, feed: server.url("feed.plist"))
        let released = "shown \(key)\nreleased; clients finalized when the other thread's unref returned: 0\n"
        XCTAssertTrue(eventually { app.output == released }, "\(app.output)\(app.errorOutput)")
        try session.invoke("ignore", on: 1)
        XCTAssertTrue(eventually { (try? session.state(appID: appID)["ignored"]) as? [String] == [key] }, "Herald records the answer")
        app.signal(SIGTERM)
        XCTAssertEqual(app.wait(), 0, app.errorOutput)
        XCTAssertEqual(app.output, released + """
            clients finalized: 1, on the main thread: 1
            user data freed: 5 of 5
            handlers called after the release: 0

            """, app.errorOutput)
        XCTAssertEqual(app.errorOutput, "", "no critical warning")
    }

    /// From C: a client created in a thread of the app's while it pushed a GMainContext of its
    /// own is refused at construction with a critical warning (Herald runs on the default
    /// context, which that thread does not run), and its launch reports `failed` in the
    /// thread's own context.
    func testAClientCreatedWhileAnotherMainContextIsThreadDefaultIsRefused() throws {
        let session = try agentSession(display: false)
        let program = try InstalledLibHerald.buildC(TestPaths.support("libherald_context.c"), named: "libherald_context")
        let app = try start([program], in: session, arguments: [appID])
        XCTAssertEqual(app.wait(), 0, app.errorOutput)
        XCTAssertEqual(app.output, """
            failed herald-error-quark configuration: the client was made while another GMainContext than the GLib default \
            main context was thread-default (in the thread's own context: yes)
            thread done

            """, app.errorOutput)
        XCTAssertTrue(app.errorOutput.contains("herald_client_new: called while another GMainContext than the default one is thread-default"),
                      app.errorOutput)
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing reached the server")
    }

    /// From Python: a should-show handler that reads the HeraldMessage (every key of the feed in
    /// its details) and says no keeps the message off the screen, and the check reports it
    /// left out at the app's word. A configuration that cannot work is a `failed` GError of the
    /// HERALD_ERROR domain, from the loop after app_launched() returned.
    func testAShouldShowHandlerThatSaysNoKeepsTheMessageOffTheScreen() throws {
        let session = try agentSession(display: false)
        let server = try session.serveFeed(feed)
        let app = try start(["/usr/bin/python3", TestPaths.support("libherald_veto.py")], in: session, feed: server.url("feed.plist"))
        XCTAssertEqual(app.wait(), 0, app.errorOutput)
        XCTAssertEqual(app.output, """
            event feed-fetched None fetched
            event pending \(key) None
            asked \(key) A tip Plain text https://example.com/tip False {'ActionURL': 'https://example.com/tip', 'Message': 'Plain text', 'Title': 'A tip'}
            event message-skipped \(key) delegate-declined
            launched
            failed herald-error-quark configuration feed URL refused: feeds are fetched over https, http or file, not ftp:

            """, app.errorOutput)
        XCTAssertEqual(try session.notifyCalls().count, 0, "nothing reached the server")
    }

    /// From Vala with its non-null checks: the .vapi marks the HeraldMessage and
    /// HeraldInboxMessage strings that can be NULL as `string?`, and a program that reads them so builds without a warning and hears a
    /// message with no button label as null.
    func testTheVapiMarksTheMessageStringsThatCanBeNullAndAValaProgramBuildsWithNonNullChecks() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valac") else { throw XCTSkip("valac is not installed (Debian: valac)") }
        let prefix = try InstalledLibHerald.prefix()
        let vapi = try String(contentsOf: prefix.appendingPathComponent("share/vala/vapi/herald-1.vapi"), encoding: .utf8)
        XCTAssertEqual(vapi.split(separator: "\n").filter { $0.contains(" { ") && $0.contains("string") }.map { $0.trimmingCharacters(in: .whitespaces) }, [
            "public string[]? allowed_schemes { owned get; construct; }",
            "public string app_id { owned get; construct; }",
            "public string? app_name { owned get; construct; }",
            "public string? app_version { owned get; construct; }",
            "public string? ca_file { owned get; construct; }",
            "public string? feed_url { owned get; construct; }",
            "public string? icon { owned get; construct; }",
            "public string[]? public_keys { owned get; construct; }",
            "public string body { get; construct; }",
            "public string? button_label { get; construct; }",
            "public string category { get; construct; }",
            "public string id { get; construct; }",
            "public string? link { get; construct; }",
            "public string state_text { get; construct; }",
            "public string title { get; construct; }",
            "public string? action_url { get; construct; }",
            "public string? body { get; construct; }",
            "public string? button_label { get; construct; }",
            "public string id { get; construct; }",
            "public string? title { get; construct; }",
        ])
        let program = try InstalledLibHerald.buildVala(TestPaths.support("libherald_message.vala"), named: "libherald_message")
        let session = try agentSession(display: false)
        let server = try session.serveFeed(feed)
        let app = try start([program], in: session, feed: server.url("feed.plist"))
        XCTAssertEqual(app.wait(), 0, app.errorOutput)
        XCTAssertEqual(app.output, "asked \(key): A tip, Plain text, https://example.com/tip, (Herald's label)\nfinished\n", app.errorOutput)
    }

    /// From Python: a prompt registered one by one, due at the first launch, is shown, and its
    /// button clicked in the server reaches `prompt-answered`.
    func testAPromptRegisteredOneByOneIsShownAndItsButtonHeard() throws {
        let session = try agentSession(display: false)
        let app = try start(["/usr/bin/python3", TestPaths.support("libherald_prompt.py")], in: session, arguments: [appID])
        XCTAssertTrue(eventually { app.output == "prompt-shown rate\n" }, "\(app.output)\(app.errorOutput)")
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["Enjoying the app?"])
        try session.invoke("action", on: 1)
        XCTAssertEqual(app.wait(), 0, app.errorOutput)
        XCTAssertEqual(app.output, "prompt-shown rate\nprompt-answered rate action\nfinished\n", app.errorOutput)
    }

    /// From Python, every method as an app calls it: a broken prompts file is a GError of the
    /// HERALD_ERROR domain and a real one registers its prompts; should-show's message carries
    /// the feed's date (seconds since 1970) and data (bytes) values; a message the server
    /// closes reaches `closed` with its reason, check_now() shows it again at once, and
    /// close_shown_messages() takes it off the screen (`closed`, closed-by-herald) and ends
    /// the check.
    func testEveryMethodOfTheClientReachesItsSignalsFromPython() throws {
        let session = try agentSession(display: false)
        let server = try session.serveFeed("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
              <key>\(key)</key>
              <dict>
                <key>Title</key><string>A tip</string>
                <key>Message</key><string>Plain text</string>
                <key>Published</key><date>2024-01-10T12:00:00Z</date>
                <key>Checksum</key><data>AAEC/w==</data>
              </dict>
            </dict>
            </plist>

            """)
        let prompts = session.directory.appendingPathComponent("prompts.json")
        try #"{"pro": {"title": "Go Pro", "message": "Unlock sync.", "usesUntilPrompt": 10}}"#.write(to: prompts, atomically: true, encoding: .utf8)
        let broken = session.directory.appendingPathComponent("broken.json")
        try #"{"pro": "#.write(to: broken, atomically: true, encoding: .utf8)
        let app = try start(["/usr/bin/python3", TestPaths.support("libherald_calls.py")], in: session,
                            arguments: [server.url("feed.plist"), appID, prompts.path, broken.path])
        XCTAssertTrue(eventually { app.output.hasSuffix("shown \(key)\nevent prompt-decided pro days\n") }, "\(app.output)\(app.errorOutput)")
        try session.close(1, reason: 1)
        XCTAssertEqual(app.wait(), 0, app.errorOutput)
        let details = "{'Checksum': <[byte 0x00, 0x01, 0x02, 0xff]>, 'Message': <'Plain text'>, 'Published': <int64 1704888000>, 'Title': <'A tip'>}"
        XCTAssertEqual(app.output, """
            add_prompts_file herald-error-quark feed the prompts file cannot be used: line 1, column 9: the document ends early: a value is missing (JSON)
            add_prompts_file added
            asked \(key) \(details)
            shown \(key)
            event prompt-decided pro days
            closed \(key) expired
            finished
            asked \(key) \(details)
            shown \(key)
            closed \(key) closed-by-herald
            finished

            """, app.errorOutput)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["A tip", "A tip"])
    }

    // MARK: The app's own inbox (its "What's new" page)

    /// A feed of two messages, the older a tip, for a check that shows one per check.
    let inboxFeed = Fixtures.xmlFeed([
        "2024/01/10": ["Title": "A tip", "Message": "Plain text", "ActionURL": "https://example.com/tip", "Category": "tip"],
        "2024/01/12": ["Title": "Version 2", "Message": "Out now", "ActionURL": "https://example.com/v2"],
    ])

    /// From Python: after a real check that shows the newer message (the other is past the
    /// per-check cap) and hears "remind me later" clicked in the server, the app reads its own
    /// inbox newest first, each message with its texts, link, category and where it stands; an
    /// answer given on the app's page is recorded and read back, and an answer Herald does not
    /// know is a GError of the HERALD_ERROR domain.
    func testAPythonAppReadsItsOwnInboxWithEachMessagesStateAfterARealCheck() throws {
        try assertTheAppReadsItsInboxAfterARealCheck(["/usr/bin/python3", TestPaths.support("libherald_inbox.py")])
    }

    /// From GJS: the same inbox, read the same way.
    func testAGJSScriptReadsItsOwnInboxWithEachMessagesStateAfterARealCheck() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gjs") else { throw XCTSkip("gjs is not installed (Debian: gjs)") }
        try assertTheAppReadsItsInboxAfterARealCheck(["/usr/bin/gjs", TestPaths.support("libherald_inbox.js")])
    }

    /// From Vala, built with its non-null checks: the same inbox, read the same way through the
    /// .vapi (the list handed over, the nullable link and times).
    func testAValaAppReadsItsOwnInboxWithEachMessagesStateAfterARealCheck() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valac") else { throw XCTSkip("valac is not installed (Debian: valac)") }
        try assertTheAppReadsItsInboxAfterARealCheck([try InstalledLibHerald.buildVala(TestPaths.support("libherald_inbox.vala"), named: "libherald_inbox")])
    }

    /// The app (libherald_inbox.py, .js or .vala) shows the newer message, hears "remind" clicked, and
    /// prints its inbox before and after recording "view" for the other one; muted by the person
    /// (`herald mute`), its next launch shows nothing and its inbox says the newer one is muted.
    func assertTheAppReadsItsInboxAfterARealCheck(_ command: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let session = try agentSession(display: false)
        let server = try session.serveFeed(inboxFeed)
        let app = try start(command, in: session, feed: server.url("feed.plist"))
        XCTAssertTrue(eventually { app.output == "shown 2024/01/12\n" }, "\(app.output)\(app.errorOutput)", file: file, line: line)
        try session.invoke("remind", on: 1)
        XCTAssertEqual(app.wait(), 0, app.errorOutput, file: file, line: line)
        let newer = "inbox 2024/01/12 | Version 2 | Out now | https://example.com/v2 | announcement | remind-later | until in 1 h | shown"
        let older = "inbox 2024/01/10 | A tip | Plain text | https://example.com/tip | tip"
        XCTAssertEqual(app.output, """
            shown 2024/01/12
            answered 2024/01/12 remind
            finished
            \(newer)
            \(older) | due | not shown yet: a coming check shows it | never shown
            recorded view
            \(newer)
            \(older) | viewed | viewed | never shown
            record_answer herald-error-quark configuration the answer later is none of Herald's: view, remind, ignore, ok

            """, app.errorOutput, file: file, line: line)
        XCTAssertEqual(try session.state(appID: appID)["viewed"] as? [String], ["2024/01/10"], "the page's answer is Herald's state",
                       file: file, line: line)
        // Muted by the person: the next launch shows nothing, and the page says why the message waits.
        XCTAssertEqual(try session.run(["mute", "--app-id", appID]).status, 0, file: file, line: line)
        let muted = try start(command, in: session, feed: server.url("feed.plist"))
        XCTAssertEqual(muted.wait(), 0, muted.errorOutput, file: file, line: line)
        let mutedNewer = "inbox 2024/01/12 | Version 2 | Out now | https://example.com/v2 | announcement | app-muted | its app is muted by the person | shown"
        let viewedOlder = "\(older) | viewed | viewed | never shown"
        XCTAssertEqual(muted.output, """
            finished
            \(mutedNewer)
            \(viewedOlder)
            recorded view
            \(mutedNewer)
            \(viewedOlder)
            record_answer herald-error-quark configuration the answer later is none of Herald's: view, remind, ignore, ok

            """, muted.errorOutput, file: file, line: line)
        XCTAssertEqual(try session.notifyCalls().count, 1, "the muted launch showed nothing", file: file, line: line)
    }

    /// From Python, with the whats-new property: the first run only records the app's version;
    /// a run of a newer version shows "What's new in" it, made from the app's AppStream release
    /// notes, whose answer the app hears, and the app's own inbox keeps it as an announcement.
    func testThePythonWhatsNewPropertyShowsTheNotesAfterAnUpdateAndTheAppsInboxKeepsThem() throws {
        let session = try agentSession(display: false)
        let server = try session.serveFeed("{}")
        let data = session.directory.appendingPathComponent("system-data")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("metainfo"), withIntermediateDirectories: true)
        try Fixtures.metainfo(appID: appID).write(to: data.appendingPathComponent("metainfo/\(appID).metainfo.xml"), atomically: true,
                                                  encoding: .utf8)
        var environment = session.environment
        environment["XDG_DATA_DIRS"] = data.path + ":/usr/share"
        let command = ["/usr/bin/python3", TestPaths.support("libherald_whats_new.py")]
        let first = try start(command, environment: environment, in: session.directory, arguments: [server.url("feed.plist"), appID, "1.0"])
        XCTAssertEqual(first.wait(), 0, first.errorOutput)
        XCTAssertEqual(first.output, "finished\n", "a first run records the version")
        let updated = try start(command, environment: environment, in: session.directory, arguments: [server.url("feed.plist"), appID, "1.2"])
        XCTAssertTrue(eventually { updated.output == "shown whats-new/1.2\n" }, "\(updated.output)\(updated.errorOutput)")
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["What's new in 1.2"])
        try session.invoke("ok", on: 1)
        XCTAssertEqual(updated.wait(), 0, updated.errorOutput)
        XCTAssertEqual(updated.output, """
            shown whats-new/1.2
            answered whats-new/1.2 ok
            finished
            inbox whats-new/1.2 | What's new in 1.2 | announcement | viewed

            """, updated.errorOutput)
    }

    /// The C example under valgrind's memcheck (Tests/scripts/libherald-memcheck.sh runs this
    /// test alone): it shows the message, hears the click and quits, no block that libherald-1
    /// allocated is definitely lost (what GLib's module loader leaks is GLib's), and no value it
    /// reads is uninitialised, apart from the one misreading Tests/support/libherald.supp
    /// explains (an enum's tag read beside payload bits).
    func testTheCExampleLosesNoMemoryOfItsOwnUnderValgrind() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else { throw XCTSkip("valgrind is not installed (Debian: valgrind)") }
        let session = try agentSession(display: false)
        let server = try session.serveFeed(feed)
        let log = session.directory.appendingPathComponent("valgrind.log").path
        let app = try start(["/usr/bin/valgrind", "--leak-check=full", "--show-leak-kinds=definite", "--log-file=" + log,
                             "--suppressions=" + TestPaths.support("libherald.supp")] + (try cExample()),
                            in: session, feed: server.url("feed.plist"))
        XCTAssertTrue(eventually(within: 60) { app.output == "shown \(key)\n" }, "\(app.output)\(app.errorOutput)")
        try session.invoke("ignore", on: 1)
        XCTAssertTrue(eventually(within: 30) { app.output == "shown \(key)\nanswered \(key) ignore\nfinished\n" }, app.output)
        app.signal(SIGTERM)
        XCTAssertEqual(app.wait(seconds: 60), 0, app.errorOutput)
        let report = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(report.contains("LEAK SUMMARY") || report.contains("All heap blocks were freed"), report)
        XCTAssertEqual(Self.records(in: report) { $0.contains("are definitely lost in loss record") }.filter { $0.contains("libherald-1.so") },
                       [], "blocks libherald-1 lost")
        XCTAssertEqual(Self.records(in: report) { $0.contains("uninitialised value") }.filter { $0.contains("libherald-1.so") },
                       [], "uninitialised values libherald-1 reads")
    }

    /// The ownership program under valgrind's memcheck (Tests/scripts/libherald-memcheck.sh runs
    /// it): reading the app's inbox, its messages kept past the list and the answer refused on
    /// the page lose no block libherald-1 allocated, and read no uninitialised value.
    func testReadingTheInboxLosesNoMemoryOfItsOwnUnderValgrind() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else { throw XCTSkip("valgrind is not installed (Debian: valgrind)") }
        let session = try agentSession(display: false)
        let server = try session.serveFeed(feed)
        let log = session.directory.appendingPathComponent("valgrind.log").path
        let program = try InstalledLibHerald.buildC(TestPaths.support("libherald_ownership.c"), named: "libherald_ownership")
        let app = try start(["/usr/bin/valgrind", "--leak-check=full", "--show-leak-kinds=definite", "--log-file=" + log,
                             "--suppressions=" + TestPaths.support("libherald.supp"), program], in: session, feed: server.url("feed.plist"))
        XCTAssertTrue(eventually(within: 60) { app.output.hasSuffix("shown \(key)\n") }, "\(app.output)\(app.errorOutput)")
        try session.invoke("ignore", on: 1)
        XCTAssertEqual(app.wait(seconds: 60), 0, app.errorOutput)
        XCTAssertTrue(app.output.hasSuffix("inbox messages finalized while the app keeps one: 0 of 1\ninbox messages finalized: 1 of 1\n"), app.output)
        let report = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(report.contains("LEAK SUMMARY") || report.contains("All heap blocks were freed"), report)
        XCTAssertEqual(Self.records(in: report) { $0.contains("are definitely lost in loss record") }.filter { $0.contains("libherald-1.so") },
                       [], "blocks libherald-1 lost")
        XCTAssertEqual(Self.records(in: report) { $0.contains("uninitialised value") }.filter { $0.contains("libherald-1.so") },
                       [], "uninitialised values libherald-1 reads")
    }

    /// Each record of a memcheck report whose first line passes `opening`, with its stack.
    static func records(in report: String, opening: (String) -> Bool) -> [String] {
        var records: [String] = []
        var current: [String]?
        for line in report.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = String(line.replacing(/^==\d+== ?/, with: ""))
            if opening(text) {
                current = [text]
            } else if current != nil {
                if text.isEmpty {
                    records.append(current!.joined(separator: "\n"))
                    current = nil
                } else {
                    current!.append(text)
                }
            }
        }
        return records
    }

    // MARK: The rules, the same for every language

    /// The session of the test running, for a look at what it recorded.
    var lastSession: DesktopSession?

    /// A session whose bus can start the built Herald agent, with the mock notification server,
    /// and an X display for a GTK app.
    func agentSession(display: Bool) throws -> DesktopSession {
        let session = try DesktopSession(server: .none, bus: false, display: display)
        addTeardownBlock { session.stop() }
        try session.startBus(activating: "org.herald.Agent", command: TestPaths.agent + " --idle-exit 5")
        try session.startMockServer(capabilities: "actions body body-markup")
        lastSession = session
        return session
    }

    /// The app shows the message, hears the answer clicked in the server (its ActionInvoked)
    /// from its `answered` handler, and the end of the check; it quits on SIGTERM.
    func assertTheClickReachesTheApp(_ command: [String], answer: String, display: Bool = false,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let session = try agentSession(display: display)
        let server = try session.serveFeed(feed)
        let app = try start(command, in: session, feed: server.url("feed.plist"))
        XCTAssertTrue(eventually { app.output == "shown \(key)\n" }, "\(app.output)\(app.errorOutput)", file: file, line: line)
        try session.invoke(answer, on: 1)
        XCTAssertTrue(eventually { app.output == "shown \(key)\nanswered \(key) \(answer)\nfinished\n" }, "\(app.output)\(app.errorOutput)",
                      file: file, line: line)
        app.signal(SIGTERM)
        XCTAssertEqual(app.wait(), 0, app.errorOutput, file: file, line: line)
    }

    /// The app shows the message and quits (SIGTERM, on which it calls app_will_quit): the agent
    /// takes the message over and shows it; its click is recorded with no app running, and the
    /// next launch hears it from `answered`, marked as given while away, once.
    func assertTheAnswerGivenAwayReachesTheNextLaunch(_ command: [String], display: Bool = false,
                                                      file: StaticString = #filePath, line: UInt = #line) throws {
        let session = try agentSession(display: display)
        let server = try session.serveFeed(feed)
        let first = try start(command, in: session, feed: server.url("feed.plist"))
        XCTAssertTrue(eventually { first.output == "shown \(key)\n" }, "\(first.output)\(first.errorOutput)", file: file, line: line)
        first.signal(SIGTERM)
        XCTAssertEqual(first.wait(), 0, first.errorOutput, file: file, line: line)
        // The app's notification was 1; the agent shows the message again as 2.
        XCTAssertTrue(eventually { (try? session.notifyCalls().count) == 2 }, "the agent shows the message", file: file, line: line)
        XCTAssertEqual(try session.notifyCalls().map(\.summary), ["A tip", "A tip"], file: file, line: line)
        try session.invoke("ignore", on: 2)
        XCTAssertTrue(eventually { ((try? session.state(appID: appID)["answeredAway"]) as? [String: Any])?.keys.sorted() == [key] },
                      "the agent records the answer for the app", file: file, line: line)
        let second = try start(command, in: session, feed: server.url("feed.plist"))
        XCTAssertTrue(eventually { second.output == "answered \(key) ignore while away\nfinished\n" }, "\(second.output)\(second.errorOutput)",
                      file: file, line: line)
        second.signal(SIGTERM)
        XCTAssertEqual(second.wait(), 0, second.errorOutput, file: file, line: line)
        XCTAssertEqual(try session.notifyCalls().count, 2, "an ignored message is not shown again", file: file, line: line)
    }

    /// Starts an example against `url`, with the installed library found as an app finds it
    /// under a prefix: GI_TYPELIB_PATH, and the loader's path.
    func start(_ command: [String], in session: DesktopSession, feed url: String) throws -> ChildProcess {
        try start(command, environment: session.environment, in: session.directory, arguments: [url, appID])
    }

    /// Starts a program of the tests with its own arguments.
    func start(_ command: [String], in session: DesktopSession, arguments: [String]) throws -> ChildProcess {
        try start(command, environment: session.environment, in: session.directory, arguments: arguments)
    }

    /// Starts a program with `arguments` in a desktop's `environment`.
    func start(_ command: [String], environment desktop: [String: String], in directory: URL, arguments: [String]) throws -> ChildProcess {
        let prefix = try InstalledLibHerald.prefix()
        var environment = desktop
        environment["GI_TYPELIB_PATH"] = prefix.appendingPathComponent("lib/girepository-1.0").path
        environment["LD_LIBRARY_PATH"] = prefix.appendingPathComponent("lib").path
        let app = try ChildProcess(command[0], Array(command.dropFirst()) + arguments, environment: environment,
                                   directory: directory, name: "app")
        addTeardownBlock { app.stop() }
        return app
    }

    // MARK: The examples

    func example(_ path: String) -> String { TestPaths.packageRoot.appendingPathComponent("desktop/examples/" + path).path }

    func pythonExample() throws -> [String] {
        guard FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-4.0.typelib") else {
            throw XCTSkip("GTK 4's typelib is not installed (Debian: gir1.2-gtk-4.0)")
        }
        return ["/usr/bin/python3", example("python/herald_app.py")]
    }

    func gjsExample() throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gjs") else { throw XCTSkip("gjs is not installed (Debian: gjs)") }
        return ["/usr/bin/gjs", example("gjs/herald_app.js")]
    }

    /// Builds the C example with the command its header gives, warnings as errors.
    func cExample() throws -> [String] {
        [try InstalledLibHerald.buildC(example("c/herald_app.c"), named: "herald_app_c")]
    }

    /// Builds the Vala example with valac and the installed .vapi.
    func valaExample() throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valac") else { throw XCTSkip("valac is not installed (Debian: valac)") }
        let prefix = try InstalledLibHerald.prefix()
        let program = prefix.appendingPathComponent("herald_app_vala").path
        try InstalledLibHerald.build("/usr/bin/valac", ["--vapidir", prefix.appendingPathComponent("share/vala/vapi").path, "--pkg", "herald-1",
                                                         "-o", program, example("vala/herald_app.vala")])
        return [program]
    }
}

/// libherald-1 as its build command installs it, built once for the test run into a temporary prefix.
enum InstalledLibHerald {
    private static let built: Result<URL, any Error> = Result {
        let prefix = try Fixtures.temporaryDirectory("libherald-prefix")
        let build = try runToCompletion(TestPaths.packageRoot.appendingPathComponent("desktop/libherald/build.sh").path, [prefix.path],
                                        environment: ProcessInfo.processInfo.environment)
        guard build.status == 0 else { throw TestSetupError("desktop/libherald/build.sh failed (its messages are above): \(build.output)") }
        return prefix
    }

    /// The prefix, built on first use.
    static func prefix() throws -> URL { try built.get() }

    /// The environment that finds the installed library's pkg-config file.
    static func environment() throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PKG_CONFIG_PATH"] = try prefix().appendingPathComponent("lib/pkgconfig").path
        return environment
    }

    /// pkg-config's words for `arguments`, with the installed herald-1.pc.
    static func pkgConfig(_ arguments: [String]) throws -> [String] {
        let run = try runToCompletion("/usr/bin/pkg-config", arguments, environment: try environment())
        guard run.status == 0 else { throw TestSetupError("pkg-config \(arguments.joined(separator: " ")) failed") }
        return run.output.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Builds the Vala program `source` into the prefix as `name` with the installed herald-1.vapi
    /// and valac's non-null checks, warnings as errors; its path.
    static func buildVala(_ source: String, named name: String) throws -> String {
        let program = try prefix().appendingPathComponent(name).path
        try build("/usr/bin/valac", ["--enable-experimental-non-null", "--fatal-warnings", "--vapidir", try prefix().appendingPathComponent("share/vala/vapi").path,
                                     "--pkg", "herald-1", "-o", program, source])
        return program
    }

    /// Builds the C program `source` into the prefix as `name` with the command the C example's
    /// header gives (gcc, pkg-config's herald-1), warnings as errors; its path.
    static func buildC(_ source: String, named name: String) throws -> String {
        let program = try prefix().appendingPathComponent(name).path
        try build("/usr/bin/gcc", ["-Wall", "-Wextra", "-Werror", "-o", program, source] + pkgConfig(["--cflags", "--libs", "herald-1"]))
        return program
    }

    /// Runs a compiler with the installed library's pkg-config file in reach.
    static func build(_ compiler: String, _ arguments: [String]) throws {
        let run = try runToCompletion(compiler, arguments, environment: try environment())
        guard run.status == 0 else { throw TestSetupError("\(compiler) did not build the example (its messages are above)") }
    }
}
