import CAdwaita
import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

// herald-inbox: the person's inbox window, org.herald.Inbox. Every message that reached them
// through Herald in the last 180 days, per app, newest first, with where it stands; View and
// Ignore as the notification's buttons; and their switches (mutes, the budget), written as
// `herald mute`, `unmute` and `budget` write them.
//
//   herald-inbox [--dump]
//
// --dump prints what the window would show, in lines, and exits without a display.

/// The application's names.
enum InboxApp {
    /// Its id, D-Bus name and icon.
    static let id = "org.herald.Inbox"
    /// The window's title, as the desktop entry names the app.
    static let title = "Messages from Apps"
    /// The usage line.
    static let usage = "usage: herald-inbox [--dump]"
}

/// Writes a line to a file descriptor, unbuffered.
func writeLine(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--help"] || arguments == ["-h"] {
    writeLine(InboxApp.usage, to: 1)
    exit(EX_OK)
}
guard arguments.isEmpty || arguments == ["--dump"] else {
    writeLine(InboxApp.usage, to: 2)
    exit(EX_USAGE)
}

let status = MainContext.assumeIsolated {
    let source = PersonFiles(environment: ProcessEnvironment.read())
    if arguments == ["--dump"] {
        // Feeds' words, printed as every herald command prints them: no escape sequence acts.
        for line in InboxPage(source.read()).lines { writeLine(TerminalText.visible(line), to: 1) }
        return EX_OK
    }
    let application = UnsafeMutableRawPointer(adw_application_new(InboxApp.id, GApplicationFlags(rawValue: 0))!)
        .assumingMemoryBound(to: GtkApplication.self)
    let window = InboxWindow(application: application, source: source)
    InboxActions.add(to: application, window: window)
    SignalHandler.connect(UnsafeMutableRawPointer(application), "activate") { window.present() }
    // Ctrl+W closes the window, Ctrl+R reads the messages again, as in other GNOME apps.
    for (action, accelerator) in [("window.close", "<Control>w"), ("app.refresh", "<Control>r")] {
        accelerator.withCString { accelerator in
            var accelerators: [UnsafePointer<CChar>?] = [accelerator, nil]
            gtk_application_set_accels_for_action(application, action, &accelerators)
        }
    }
    return MainContext.run(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self))
}
exit(status)
