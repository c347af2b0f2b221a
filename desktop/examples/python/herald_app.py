#!/usr/bin/python3
# A GTK 4 app that uses Herald through libherald-1 (desktop/examples/README.md):
#   GI_TYPELIB_PATH=PREFIX/lib/girepository-1.0 LD_LIBRARY_PATH=PREFIX/lib /usr/bin/python3 herald_app.py FEED_URL APP_ID
import signal, sys
import gi
gi.require_version("Gtk", "4.0")
gi.require_version("Herald", "1")
from gi.repository import GLib, Gtk, Herald

def say(*words):
    print(*words, flush=True)

class App(Gtk.Application):
    def do_startup(self):
        Gtk.Application.do_startup(self)
        # show-on-first-launch: the first run shows what is due at once.
        self.herald = Herald.Client(feed_url=sys.argv[1], app_id=sys.argv[2], app_version="1.0", show_on_first_launch=True)
        self.herald.connect("shown", lambda _, key: say("shown", key))
        self.herald.connect("answered", lambda _, key, answer, away: say("answered", key, answer, *(["while away"] if away else [])))
        self.herald.connect("failed", lambda _, error: say("failed", error.message))
        self.herald.connect("check-finished", lambda _: say("finished"))
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, self.quit)
        self.herald.app_launched()
    def do_activate(self):
        Gtk.ApplicationWindow(application=self, title="Herald from Python").present()
    def do_shutdown(self):
        self.herald.app_will_quit()  # what is still shown stays answerable after the app has gone
        Gtk.Application.do_shutdown(self)

App(application_id=sys.argv[2]).run([sys.argv[0]])
