import CAdwaita
import HeraldCore
import HeraldDesktop

/// The window: a header bar and the page (`InboxPage`) drawn with libadwaita's preference
/// widgets, under a toast overlay that says what each answer and switch did. Every answer and
/// switch goes through the application's actions (`InboxActions`), so D-Bus reaches exactly
/// what a click does; after each the page is read and drawn again.
@MainContext
final class InboxWindow {
    let application: UnsafeMutablePointer<GtkApplication>
    let source: any InboxSource
    private var overlay: OpaquePointer?
    private var window: UnsafeMutablePointer<GtkWidget>?
    /// The messages drawn, by "APP-ID ID", for the actions that answer one.
    private(set) var messages: [String: InboxMessage] = [:]

    init(application: UnsafeMutablePointer<GtkApplication>, source: any InboxSource) {
        self.application = application
        self.source = source
    }

    /// Shows the window, making it the first time.
    func present() {
        if let window { return gtk_window_present(asWindow(window)) }
        let widget = adw_application_window_new(application)!
        window = widget
        gtk_window_set_title(asWindow(widget), InboxApp.title)
        gtk_window_set_icon_name(asWindow(widget), InboxApp.id)
        gtk_window_set_default_size(asWindow(widget), 720, 820)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let header = adw_header_bar_new()!
        let reload = gtk_button_new_from_icon_name("view-refresh-symbolic")!
        gtk_widget_set_tooltip_text(reload, "Read the messages again")
        gtk_actionable_set_action_name(OpaquePointer(reload), "app.refresh")
        adw_header_bar_pack_end(OpaquePointer(header), reload)
        gtk_box_append(asBox(box), header)
        let overlay = adw_toast_overlay_new()!
        gtk_widget_set_vexpand(overlay, 1)
        gtk_box_append(asBox(box), overlay)
        self.overlay = OpaquePointer(overlay)
        adw_application_window_set_content(OpaquePointer(widget), box)
        refresh()
        gtk_window_present(asWindow(widget))
    }

    /// Reads the source and draws the page again.
    func refresh() {
        guard let overlay else { return }
        let reading = source.read()
        messages = Dictionary(reading.messages.map { (InboxActions.parameter(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        adw_toast_overlay_set_child(overlay, draw(InboxPage(reading)))
    }

    /// Says `text` in a toast at the foot of the window. libadwaita 1.2 reads a toast's title as
    /// markup, and the text may hold a feed's words: it is escaped first.
    func toast(_ text: String) {
        guard let overlay, let escaped = g_markup_escape_text(text, -1) else { return }
        defer { g_free(escaped) }
        adw_toast_overlay_add_toast(overlay, adw_toast_new(escaped))
    }

    private func draw(_ page: InboxPage) -> UnsafeMutablePointer<GtkWidget> {
        let pageWidget = adw_preferences_page_new()!
        for group in page.groups {
            let groupWidget = adw_preferences_group_new()!
            adw_preferences_group_set_title(OpaquePointer(groupWidget), group.title)
            if let description = group.description { adw_preferences_group_set_description(OpaquePointer(groupWidget), description) }
            for row in group.rows { adw_preferences_group_add(OpaquePointer(groupWidget), draw(row)) }
            adw_preferences_page_add(OpaquePointer(pageWidget), OpaquePointer(groupWidget))
        }
        return pageWidget
    }

    private func draw(_ row: InboxPage.Row) -> UnsafeMutablePointer<GtkWidget> {
        switch row {
        case .toggle(let toggle): return draw(toggle)
        case .figure(let figure):
            let rowWidget = actionRow(figure.title, subtitle: figure.subtitle)
            let spin = gtk_spin_button_new_with_range(0, Double(figure.largest), 1)!
            gtk_spin_button_set_value(OpaquePointer(spin), Double(figure.value))
            gtk_widget_set_valign(spin, GTK_ALIGN_CENTER)
            if figure.isLocked { gtk_widget_set_sensitive(rowWidget, 0) }
            let word = figure.figure
            SignalHandler.connect(UnsafeMutableRawPointer(spin), "value-changed") { [application] in
                let value = gtk_spin_button_get_value_as_int(OpaquePointer(spin))
                InboxActions.activate("budget", "\(word) \(value)", in: application)
            }
            adw_action_row_add_suffix(OpaquePointer(rowWidget), spin)
            return rowWidget
        case .categories(let title, let subtitle, let toggles):
            let expander = adw_expander_row_new()!
            adw_preferences_row_set_title(OpaquePointer(expander), title)
            adw_preferences_row_set_use_markup(OpaquePointer(expander), 0)
            adw_expander_row_set_subtitle(OpaquePointer(expander), subtitle)
            for toggle in toggles { adw_expander_row_add_row(OpaquePointer(expander), draw(toggle)) }
            return expander
        case .message(let message):
            let rowWidget = actionRow(message.message.title, subtitle: message.subtitle)
            for button in message.answers {
                let buttonWidget = gtk_button_new_with_label(button.label)!
                gtk_widget_set_valign(buttonWidget, GTK_ALIGN_CENTER)
                gtk_actionable_set_action_name(OpaquePointer(buttonWidget), button.answer == .view ? "app.view" : "app.ignore")
                gtk_actionable_set_action_target_value(OpaquePointer(buttonWidget), g_variant_new_string(InboxActions.parameter(of: message.message)))
                adw_action_row_add_suffix(OpaquePointer(rowWidget), buttonWidget)
            }
            return rowWidget
        case .empty(let title, let description):
            let status = adw_status_page_new()!
            adw_status_page_set_icon_name(OpaquePointer(status), "mail-read-symbolic")
            adw_status_page_set_title(OpaquePointer(status), title)
            adw_status_page_set_description(OpaquePointer(status), description)
            return status
        }
    }

    /// A switch's row: on is muted; greyed where the person cannot change it.
    private func draw(_ toggle: InboxPage.Toggle) -> UnsafeMutablePointer<GtkWidget> {
        let rowWidget = actionRow(toggle.title, subtitle: toggle.subtitle)
        let switchWidget = gtk_switch_new()!
        gtk_switch_set_active(OpaquePointer(switchWidget), toggle.isOn ? 1 : 0)
        gtk_widget_set_valign(switchWidget, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(OpaquePointer(rowWidget), switchWidget)
        adw_action_row_set_activatable_widget(OpaquePointer(rowWidget), switchWidget)
        if toggle.isLocked { gtk_widget_set_sensitive(rowWidget, 0) }
        SignalHandler.connectIgnoringArgument(UnsafeMutableRawPointer(switchWidget), "notify::active") { [application] in
            let action = toggle.change(to: gtk_switch_get_active(OpaquePointer(switchWidget)) != 0).action
            InboxActions.activate(action.name, action.parameter, in: application)
        }
        return rowWidget
    }

    /// An action row with a plain-text title and subtitle (text from feeds is never markup).
    private func actionRow(_ title: String, subtitle: String?) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_use_markup(OpaquePointer(row), 0)
        adw_preferences_row_set_title(OpaquePointer(row), title)
        if let subtitle { adw_action_row_set_subtitle(OpaquePointer(row), subtitle) }
        return row
    }
}

func asWindow(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWindow> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkWindow.self)
}

func asBox(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkBox> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self)
}
