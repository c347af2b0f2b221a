#!/usr/bin/python3
# A GTK 4 app that uses Herald through libherald-1 (desktop/examples/README.md):
#   GI_TYPELIB_PATH=PREFIX/lib/girepository-1.0 LD_LIBRARY_PATH=PREFIX/lib /usr/bin/python3 herald_app.py FEED_URL APP_ID [--whats-new]
# Ctrl+I (or --whats-new, at start) opens the app's own "What's new" page.
import signal, sys
import gi
gi.require_version("Gtk", "4.0")
gi.require_version("Herald", "1")
from gi.repository import Gio, GLib, Gtk, Herald

def say(*words):
    print(*words, flush=True)

class WhatsNew(Gtk.Window):
    """The app's own "What's new" page: its messages that reached the person, newest first,
    each with where it stands, read again after each answer."""
    def __init__(self, app):
        super().__init__(application=app, title="What's new", default_width=420, default_height=360, hide_on_close=True)
        self.herald = app.herald
        self.list = Gtk.Label(xalign=0, valign=Gtk.Align.START, wrap=True,
                              margin_top=18, margin_bottom=18, margin_start=18, margin_end=18)
        self.set_child(Gtk.ScrolledWindow(child=self.list))
        self.herald.connect("answered", lambda *_: self.refresh())
        self.refresh()

    def refresh(self):
        try:
            inbox = self.herald.get_inbox()
        except GLib.Error as error:
            self.list.set_text(f"The app's messages cannot be read: {error.message}")
            return
        text = lambda value: GLib.markup_escape_text(value)
        self.list.set_markup("\n\n".join(f"<b>{text(m.get_title())}</b>\n{text(m.get_body())}\n<i>{text(m.get_state_text())}</i>"
                                         for m in inbox) or "No message yet.")
        for message in inbox:
            say("what's new:", message.get_id(), Herald.InboxState(message.get_state()).value_nick)
        if not inbox:
            say("what's new: nothing yet")

class App(Gtk.Application):
    def do_startup(self):
        Gtk.Application.do_startup(self)
        # show-on-first-launch: the first run shows what is due at once.
        self.herald = Herald.Client(feed_url=sys.argv[1], app_id=sys.argv[2], app_version="1.0", show_on_first_launch=True)
        self.herald.connect("shown", lambda _, key: say("shown", key))
        self.herald.connect("answered", lambda _, key, answer, away: say("answered", key, answer, *(["while away"] if away else [])))
        self.herald.connect("failed", lambda _, error: say("failed", error.message))
        self.herald.connect("check-finished", lambda _: say("finished"))
        self.whats_new = None
        action = Gio.SimpleAction.new("whats-new", None)
        action.connect("activate", lambda *_: self.open_whats_new())
        self.add_action(action)
        self.set_accels_for_action("app.whats-new", ["<Control>i"])
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, self.quit)
        self.herald.app_launched()
    def do_activate(self):
        Gtk.ApplicationWindow(application=self, title="Herald from Python").present()
        if "--whats-new" in sys.argv[3:]:
            self.open_whats_new()
    def open_whats_new(self):
        if self.whats_new is None:
            self.whats_new = WhatsNew(self)
        else:
            self.whats_new.refresh()
        self.whats_new.present()
    def do_shutdown(self):
        self.herald.app_will_quit()  # what is still shown stays answerable after the app has gone
        Gtk.Application.do_shutdown(self)

App(application_id=sys.argv[2]).run([sys.argv[0]])
