import CGtk
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

/// Shows Herald's messages inside the app's own window, as a banner under its content (the way
/// a browser shows an info bar), instead of as desktop notifications. The answers are the
/// notification's: each button sends its action id, the banner's close button is a
/// dismissal, so Herald records them exactly as it records a click on a notification.
@MainContext
final class BannerPresenter: MessagePresenter {
    private let container: UnsafeMutablePointer<GtkBox>
    private var shown: UInt32 = 0

    /// Banners go at the end of `container`, which is held for as long as the presenter is.
    init(container: UnsafeMutablePointer<GtkBox>) {
        self.container = container
        g_object_ref(container)
    }

    isolated deinit { g_object_unref(container) }

    /// A banner has buttons and a plain-text body; it reads no markup.
    func capabilities() throws -> Set<String> { ["actions", "body"] }

    func present(_ content: NotificationContent, link: String?,
                 respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage {
        shown += 1
        return Banner(id: shown, content: content, in: container, respond: respond)
    }
}

/// One message in the window: a title, its text, a row of answer buttons and a close button.
@MainContext
final class Banner: PresentedMessage {
    let id: UInt32
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let container: UnsafeMutablePointer<GtkBox>
    private var respond: (@MainContext (NotificationResponse) -> Void)?

    init(id: UInt32, content: NotificationContent, in container: UnsafeMutablePointer<GtkBox>,
         respond: @escaping @MainContext (NotificationResponse) -> Void) {
        self.id = id
        self.container = container
        self.respond = respond
        widget = gtk_frame_new(nil)
        g_object_ref_sink(widget)
        g_object_ref(container)
        let inner = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(inner, 12)
        }
        gtk_frame_set_child(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkFrame.self), inner)
        let banner = asBox(inner)

        let heading = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let title = Self.label(content.summary, bold: true)
        gtk_widget_set_hexpand(title, 1)
        gtk_box_append(asBox(heading), title)
        let close = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_button_set_has_frame(UnsafeMutableRawPointer(close).assumingMemoryBound(to: GtkButton.self), 0)
        gtk_widget_set_tooltip_text(close, "Close")
        connect(close, to: .closed(.dismissed))
        gtk_box_append(asBox(heading), close)
        gtk_box_append(banner, heading)
        if !content.body.isEmpty { gtk_box_append(banner, Self.label(content.body, bold: false)) }

        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 18)!
        for action in content.actions where action.id != NotificationAction.defaultID {
            let button = gtk_button_new_with_label(action.label)!
            connect(button, to: .action(action.id))
            gtk_box_append(asBox(buttons), button)
        }
        gtk_box_append(banner, buttons)
        gtk_box_append(container, widget)
    }

    isolated deinit {
        remove()
        g_object_unref(widget)
        g_object_unref(container)
    }

    /// Takes the banner out of the window; Herald reports the close itself.
    func close() {
        respond = nil
        remove()
    }

    /// A button was pressed: the banner goes, and the answer is given once.
    fileprivate func answer(_ response: NotificationResponse) {
        guard let respond else { return }
        self.respond = nil
        remove()
        respond(response)
    }

    private func remove() {
        if gtk_widget_get_parent(widget) != nil { gtk_box_remove(container, widget) }
    }

    /// Sends `response` when `button` is clicked. The handler's data names the banner weakly, so
    /// the window's widgets never keep it, and is released by GLib with the connection.
    private func connect(_ button: UnsafeMutablePointer<GtkWidget>, to response: NotificationResponse) {
        let target = Unmanaged.passRetained(ButtonTarget(banner: self, response: response)).toOpaque()
        let clicked: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { _, data in
            let target = Unmanaged<ButtonTarget>.fromOpaque(data!).takeUnretainedValue()
            MainContext.assumeIsolated { target.banner?.answer(target.response) }
        }
        g_signal_connect_data(button, "clicked", unsafeBitCast(clicked, to: GCallback.self), target,
                              { data, _ in Unmanaged<ButtonTarget>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
    }

    private static func label(_ text: String, bold: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        if bold {
            gtk_label_set_markup(OpaquePointer(label), "<b>" + markupEscaped(text) + "</b>")
        } else {
            gtk_label_set_text(OpaquePointer(label), text)
        }
        gtk_label_set_wrap(OpaquePointer(label), 1)
        gtk_label_set_xalign(OpaquePointer(label), 0)
        return label
    }
}

/// What one button of a banner answers, and for which banner.
@MainContext
private final class ButtonTarget {
    weak var banner: Banner?
    let response: NotificationResponse

    init(banner: Banner, response: NotificationResponse) {
        self.banner = banner
        self.response = response
    }
}

/// A widget seen as the box it is.
func asBox(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkBox> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self)
}

/// `text` escaped for a label's Pango markup.
func markupEscaped(_ text: String) -> String {
    let escaped = g_markup_escape_text(text, -1)!
    defer { g_free(escaped) }
    return String(cString: escaped)
}
