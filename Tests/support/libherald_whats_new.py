# What's new from Python (LibHeraldTests): an app at VERSION with the whats-new property,
# which prints what it shows and hears, and at the end of the check its inbox (id, title,
# category, state).
#
#   /usr/bin/python3 libherald_whats_new.py FEED_URL APP_ID VERSION
import sys
import gi
gi.require_version("Herald", "1")
from gi.repository import GLib, Herald

def say(*words):
    print(*words, flush=True)

def finished(herald):
    say("finished")
    for message in herald.get_inbox():
        say("inbox", message.get_id(), "|", message.get_title(), "|", message.get_category(), "|",
            Herald.InboxState(message.get_state()).value_nick)
    loop.quit()

loop = GLib.MainLoop()
herald = Herald.Client(feed_url=sys.argv[1], app_id=sys.argv[2], app_version=sys.argv[3], show_on_first_launch=True,
                       whats_new=True)
herald.connect("shown", lambda _, key: say("shown", key))
herald.connect("answered", lambda _, key, answer, away: say("answered", key, answer))
herald.connect("failed", lambda _, error: say("failed", error.message))
herald.connect("check-finished", finished)
herald.app_launched()
loop.run()
