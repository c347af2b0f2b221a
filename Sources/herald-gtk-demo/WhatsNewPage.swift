import CGtk
import Herald
import HeraldCore

/// The app's own "What's new" page: a window listing the app's messages that reached the
/// person (`Herald.inbox()`), newest first, each with its title, its text and where it stands;
/// read again after each answer. Opened with Ctrl+I, or at start with --whats-new; closing it
/// hides it, so it opens again as it was.
@MainContext
final class WhatsNewPage {
    let window: UnsafeMutablePointer<GtkWindow>
    /// The list, one label: a screen reader and a screenshot read it as one text.
    let list: OpaquePointer

    init(application: UnsafeMutablePointer<GtkApplication>) {
        let widget = gtk_application_window_new(application)!
        window = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_title(window, "What's new — Herald GTK demo")
        gtk_window_set_default_size(window, 460, 360)
        gtk_window_set_icon_name(window, SampleFeed.icon)
        gtk_window_set_hide_on_close(window, 1)
        let label = gtk_label_new(nil)!
        gtk_label_set_wrap(OpaquePointer(label), 1)
        gtk_label_set_xalign(OpaquePointer(label), 0)
        gtk_widget_set_valign(label, GTK_ALIGN_START)
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(label, 18)
        }
        list = OpaquePointer(label)
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), label)
        gtk_window_set_child(window, scrolled)
        g_object_ref(UnsafeMutableRawPointer(label))
    }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(list)) }

    func present() {
        gtk_window_present(window)
    }

    /// Lists the app's messages as they stand now, and prints the list, so a script can follow
    /// along: "What's new (N):", then a line per message, its title, text and state.
    func refresh(from herald: Herald) {
        let entries: [(title: String, text: String, state: String)]
        do {
            entries = try herald.inbox().map { ($0.title, $0.message, $0.state.description) }
        } catch {
            gtk_label_set_text(list, "The app's messages cannot be read: \(error)")
            writeLine("What's new: \(error)", to: 1)
            return
        }
        if entries.isEmpty {
            gtk_label_set_text(list, "No message yet: what Herald shows this app appears here.")
        } else {
            gtk_label_set_markup(list, entries.map { "<b>\(markupEscaped($0.title))</b>\n\(markupEscaped($0.text))\n<i>\(markupEscaped($0.state))</i>" }
                .joined(separator: "\n\n"))
        }
        writeLine("What's new (\(entries.count)):", to: 1)
        for entry in entries {
            writeLine("  \(entry.title) — \(entry.text.split(whereSeparator: \.isNewline).joined(separator: " ")) — \(entry.state)", to: 1)
        }
    }
}

