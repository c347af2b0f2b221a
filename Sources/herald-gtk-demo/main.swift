import CGtk
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

// A small GTK 4 app that calls Herald's launch hook from its `activate` handler, so Herald's
// callbacks run on GTK's own main loop. Each answer changes the line in the window.
//
//   herald-gtk-demo [--feed URL] [--app-id ID] [--in-window] [--whats-new]
//
// Without --feed it shows the sample feed of `herald demo`. With --in-window the messages
// appear as banners inside the window instead of as desktop notifications. Ctrl+I (or
// --whats-new, at start) opens the app's own "What's new" page, its messages read from
// `Herald.inbox()`.

/// Writes a line straight to a file descriptor, unbuffered, so a pipe sees it at once.
func writeLine(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

/// The window's state line, kept in step with Herald's events.
///
/// It holds its own reference to the label: Herald's events can arrive after GTK destroyed
/// the window (a close at shutdown), and the label must still be a label then.
@MainContext
final class DemoWindow: HeraldDelegate {
    let label: OpaquePointer
    /// The "What's new" page, once opened: read again after each answer.
    var page: WhatsNewPage?

    init(label: OpaquePointer) {
        self.label = label
        g_object_ref(UnsafeMutableRawPointer(label))
    }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(label)) }

    /// Shows a line in the window and prints it, so a script can follow along.
    func say(_ line: String) {
        gtk_label_set_text(label, line)
        writeLine(line, to: 1)
    }

    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .pending([]): say("No news right now.")
        case .checkSkipped(let reason): say("No check: \(reason)")
        case .checkFailed(let error): say("Could not check: \(error)")
        default: break
        }
    }
    func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32) {
        guard case .message(let message) = notice else { return }
        say("Showing: \(message.title ?? message.key)")
    }
    func herald(_ herald: Herald, didReceive answer: NoticeAnswer) {
        guard case .message(let message, let answer) = answer else { return }
        let choice = switch answer {
        case .view: "view"
        case .remind: "remind me later"
        case .ignore: "ignore"
        case .ok: "OK"
        }
        say("You chose \(choice): \(message.title ?? message.key)")
        page?.refresh(from: herald)
    }
    func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason) {
        guard case .message(let message) = notice else { return }
        say("Closed (\(reason.rawValue)): \(message.title ?? message.key)")
    }
}

/// What the `activate` and `shutdown` handlers need; kept alive by the signal connections.
@MainContext
final class DemoApp {
    let appID: String
    let feedURL: String?
    let inWindow: Bool
    let whatsNewAtStart: Bool
    var herald: Herald?
    var window: DemoWindow?
    var application: UnsafeMutablePointer<GtkApplication>?

    init(appID: String, feedURL: String?, inWindow: Bool, whatsNewAtStart: Bool) {
        self.appID = appID
        self.feedURL = feedURL
        self.inWindow = inWindow
        self.whatsNewAtStart = whatsNewAtStart
    }

    /// Opens the "What's new" page (the app.whats-new action), made at its first opening.
    func openWhatsNew() {
        guard let application, let window, let herald else { return }
        let page = window.page ?? WhatsNewPage(application: application)
        window.page = page
        page.refresh(from: herald)
        page.present()
    }

    func activate(_ application: UnsafeMutablePointer<GtkApplication>) {
        if window != nil { return }
        self.application = application
        let widget = gtk_application_window_new(application)!
        let gtkWindow = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_title(gtkWindow, "Herald GTK demo")
        gtk_window_set_default_size(gtkWindow, 460, 140)
        gtk_window_set_icon_name(gtkWindow, SampleFeed.icon)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        let boxPointer = asBox(box)
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(box, 24)
        }
        let heading = gtk_label_new(nil)!
        gtk_label_set_markup(OpaquePointer(heading), "<b>Herald GTK demo</b>")
        let status = gtk_label_new("Checking for news…")!
        gtk_label_set_wrap(OpaquePointer(status), 1)
        gtk_box_append(boxPointer, heading)
        gtk_box_append(boxPointer, status)
        gtk_window_set_child(gtkWindow, box)
        let delegate = DemoWindow(label: OpaquePointer(status))
        window = delegate
        gtk_window_present(gtkWindow)

        let environment = ProcessEnvironment.read()
        do {
            let feed = try feedURL ?? SampleFeed.install(appID: appID, environment: environment)
            let herald = try Herald(configuration: .init(
                feedURL: feed, appID: appID, appVersion: HeraldVersion.current, appName: "Herald GTK demo",
                check: CheckConfiguration(showOnFirstLaunch: true, debug: feedURL == nil), icon: SampleFeed.icon, environment: environment),
                presenter: inWindow ? BannerPresenter(container: boxPointer) : nil)
            herald.delegate = delegate
            self.herald = herald
            herald.appLaunched()
            if whatsNewAtStart { openWhatsNew() }
        } catch {
            delegate.say("Herald is not set up: \(error)")
        }
    }

    /// The app is quitting (its last window closed, or a signal): Herald hands what is still on
    /// the desktop's screen to the Herald agent, or takes it off the screen where no agent can
    /// run, while the window's delegate can still hear about it.
    func shutdown() {
        herald?.appWillQuit()
    }
}

/// The app id and feed from the command line.
func parseArguments() -> (appID: String, feedURL: String?, inWindow: Bool, whatsNew: Bool) {
    var arguments = Array(CommandLine.arguments.dropFirst())[...]
    var appID = "org.herald.GtkDemo"
    var feedURL: String?
    var inWindow = false
    var whatsNew = false
    while let argument = arguments.popFirst() {
        switch argument {
        case "--feed": feedURL = arguments.popFirst()
        case "--app-id": appID = arguments.popFirst() ?? appID
        case "--in-window": inWindow = true
        case "--whats-new": whatsNew = true
        default:
            writeLine("usage: herald-gtk-demo [--feed URL] [--app-id ID] [--in-window] [--whats-new]", to: 2)
            exit(EX_USAGE)
        }
    }
    return (appID, feedURL, inWindow, whatsNew)
}

let options = parseArguments()

/// Connects a handler for a `GApplication` signal that takes no arguments but the app; the
/// connection holds the `DemoApp` until the application is finalized.
@MainContext
func connect(_ signal: String, of application: UnsafeMutablePointer<GtkApplication>, to demo: DemoApp,
             _ handler: @convention(c) (UnsafeMutablePointer<GtkApplication>?, gpointer?) -> Void) {
    g_signal_connect_data(application, signal, unsafeBitCast(handler, to: GCallback.self),
                          Unmanaged.passRetained(demo).toOpaque(), { pointer, _ in Unmanaged<DemoApp>.fromOpaque(pointer!).release() },
                          GConnectFlags(rawValue: 0))
}

let status = MainContext.assumeIsolated {
    let demo = DemoApp(appID: options.appID, feedURL: options.feedURL, inWindow: options.inWindow, whatsNewAtStart: options.whatsNew)
    let application = gtk_application_new(options.appID, G_APPLICATION_NON_UNIQUE)!
    connect("activate", of: application, to: demo) { application, pointer in
        nonisolated(unsafe) let application = application!
        let demo = Unmanaged<DemoApp>.fromOpaque(pointer!).takeUnretainedValue()
        MainContext.assumeIsolated { demo.activate(application) }
    }
    connect("shutdown", of: application, to: demo) { _, pointer in
        let demo = Unmanaged<DemoApp>.fromOpaque(pointer!).takeUnretainedValue()
        MainContext.assumeIsolated { demo.shutdown() }
    }
    // The "What's new" page, as an action of the app's.
    let whatsNew = g_simple_action_new("whats-new", nil)
    let opened: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, pointer in
        let demo = Unmanaged<DemoApp>.fromOpaque(pointer!).takeUnretainedValue()
        MainContext.assumeIsolated { demo.openWhatsNew() }
    }
    g_signal_connect_data(UnsafeMutableRawPointer(whatsNew), "activate", unsafeBitCast(opened, to: GCallback.self),
                          Unmanaged.passRetained(demo).toOpaque(), { pointer, _ in Unmanaged<DemoApp>.fromOpaque(pointer!).release() },
                          GConnectFlags(rawValue: 0))
    g_action_map_add_action(OpaquePointer(application), whatsNew)
    g_object_unref(UnsafeMutableRawPointer(whatsNew))
    // Ctrl+W closes the window, as in other GNOME apps; Ctrl+I opens "What's new".
    for (action, key) in [("window.close", "<Control>w"), ("app.whats-new", "<Control>i")] {
        key.withCString { accelerator in
            var accelerators: [UnsafePointer<CChar>?] = [accelerator, nil]
            gtk_application_set_accels_for_action(application, action, &accelerators)
        }
    }
    // A stop signal quits the app the way closing its window does: the shutdown handler takes
    // Herald's notifications off the screen, and the process then exits with 128 + the signal.
    return MainContext.run(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self))
}
exit(status)
