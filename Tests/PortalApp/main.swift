import CDesktopLibraries
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

// herald-portal-app: the smallest D-Bus-activatable app that uses Herald, for
// PortalActivationTests. A GApplication named APP-ID (unique, so it owns that name on the bus
// and exports its actions there) creates its Herald in the `startup` handler, as an app started
// by the desktop for an action must, and calls `appLaunched()`. Each event of its delegate is a
// line on standard output:
//
//   shown KEY | received KEY ANSWER | closed KEY REASON | away KEY ANSWER | skipped | failed | finished
//
// It holds the application while its check runs and releases it at the end; a few seconds
// after it has nothing to do it exits (GApplication's inactivity timeout), also when the bus
// started it with `--gapplication-service` for a click. With `--stay` it keeps running after its
// check, as an app with a window open does.
//
//   herald-portal-app APP-ID FEED-URL [--stay] [--gapplication-service]

/// Writes a line straight to standard output, unbuffered, so a test reads it at once.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

/// The app: its Herald, made at `startup`, and the delegate that prints its events.
@MainContext
final class PortalApp: HeraldDelegate {
    let appID: String
    let feedURL: String
    let stays: Bool
    let application: UnsafeMutablePointer<GApplication>
    var herald: Herald?

    init(appID: String, feedURL: String, stays: Bool, application: UnsafeMutablePointer<GApplication>) {
        (self.appID, self.feedURL, self.stays, self.application) = (appID, feedURL, stays, application)
    }

    /// The `startup` handler: Herald before any action can arrive, then the launch check, held.
    func startup() {
        let configuration = Herald.Configuration(feedURL: feedURL, appID: appID, appVersion: "1.0", appName: "Example App",
                                                 check: CheckConfiguration(showOnFirstLaunch: true))
        do {
            let herald = try Herald(configuration: configuration)
            herald.delegate = self
            self.herald = herald
        } catch {
            say("failed \(error)")
            return
        }
        g_application_hold(application)
        if stays { g_application_hold(application) }
        herald?.appLaunched()
    }

    func herald(_ herald: Herald, didShow notice: Notice, notificationID: UInt32) {
        if case .message(let entry) = notice { say("shown \(entry.key)") }
    }

    func herald(_ herald: Herald, didReceive answer: NoticeAnswer) {
        if case .message(let entry, let answer) = answer { say("received \(entry.key) \(answer.rawValue)") }
    }

    func herald(_ herald: Herald, didClose notice: Notice, reason: CloseReason) {
        if case .message(let entry) = notice { say("closed \(entry.key) \(reason)") }
    }

    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .answeredWhileAway(let key, let answer, _): say("away \(key) \(answer.rawValue)")
        case .checkSkipped: say("skipped")
        case .checkFailed(let error): say("failed \(error)")
        case .checkFinished:
            say("finished")
            g_application_release(application)
        default: break
        }
    }
}

/// The app id, the feed URL, `--stay`, and the arguments left for GApplication.
func parseArguments() -> (appID: String, feedURL: String, stays: Bool, rest: [String]) {
    var arguments = Array(CommandLine.arguments.dropFirst())
    let stays = arguments.contains("--stay")
    arguments.removeAll { $0 == "--stay" }
    guard arguments.count >= 2 else {
        say("usage: herald-portal-app APP-ID FEED-URL [--stay] [--gapplication-service]")
        exit(64)
    }
    return (arguments[0], arguments[1], stays, Array(arguments.dropFirst(2)))
}

let options = parseArguments()

/// Connects `handler` to a signal of the application that passes only the application; the
/// connection keeps the app until the application is finalized.
@MainContext
func connect(_ signal: String, of application: UnsafeMutablePointer<GApplication>, to app: PortalApp,
             _ handler: @convention(c) (UnsafeMutablePointer<GApplication>?, gpointer?) -> Void) {
    g_signal_connect_data(application, signal, unsafeBitCast(handler, to: GCallback.self),
                          Unmanaged.passRetained(app).toOpaque(), { pointer, _ in Unmanaged<PortalApp>.fromOpaque(pointer!).release() },
                          GConnectFlags(rawValue: 0))
}

let status = MainContext.assumeIsolated { () -> Int32 in
    do {
        try DesktopLibrary.gio.load()
    } catch {
        say("failed \(error)")
        return 69
    }
    let application = g_application_new(options.appID, G_APPLICATION_DEFAULT_FLAGS)!
    g_application_set_inactivity_timeout(application, 3000)
    let app = PortalApp(appID: options.appID, feedURL: options.feedURL, stays: options.stays, application: application)
    connect("startup", of: application, to: app) { _, pointer in
        let app = Unmanaged<PortalApp>.fromOpaque(pointer!).takeUnretainedValue()
        MainContext.assumeIsolated { app.startup() }
    }
    // Nothing to show when launched: the launch check is the app's whole work.
    connect("activate", of: application, to: app) { _, _ in }
    // GApplication reads its own options (`--gapplication-service`) from what is left.
    var argv: [UnsafeMutablePointer<CChar>?] = ([CommandLine.arguments[0]] + options.rest).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let status = g_application_run(application, Int32(argv.count - 1), &argv)
    g_object_unref(UnsafeMutableRawPointer(application))
    return status
}
exit(status)
