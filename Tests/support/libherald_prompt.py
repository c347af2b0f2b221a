# An app with a local prompt and no feed (LibHeraldTests): it registers one prompt, due at its
# first launch, and prints what it hears of it.
#
#   /usr/bin/python3 libherald_prompt.py APP_ID
import sys
import gi
gi.require_version("Herald", "1")
from gi.repository import GLib, Herald

def say(*words):
    print(*words, flush=True)

loop = GLib.MainLoop()
herald = Herald.Client(app_id=sys.argv[1])
herald.add_prompt("rate", "Enjoying the app?", "Rate it", None, 1, 0)
herald.connect("prompt-shown", lambda _, name: say("prompt-shown", name))
herald.connect("prompt-answered", lambda _, name, button: say("prompt-answered", name, button))
herald.connect("check-finished", lambda _: (say("finished"), loop.quit()))
herald.app_launched()
loop.run()
