# An app that draws its own interface (LibHeraldTests): its should-show handler reads the
# HeraldMessage and says no, so Herald shows nothing; it prints what it hears. Then a client whose
# feed URL is refused reports so at launch, from the loop, as a Herald.Error.
#
#   /usr/bin/python3 libherald_veto.py FEED_URL APP_ID
import sys
import gi
gi.require_version("Herald", "1")
from gi.repository import GLib, Herald

def say(*words):
    print(*words, flush=True)

def should_show(_, message):
    say("asked", message.props.id, message.get_title(), message.get_body(), message.get_action_url(), message.props.is_prompt,
        message.get_details().unpack())
    return False

loop = GLib.MainLoop()
herald = Herald.Client(feed_url=sys.argv[1], app_id=sys.argv[2], show_on_first_launch=True)
herald.connect("should-show", should_show)
herald.connect("shown", lambda _, key: say("shown", key))
herald.connect("event", lambda _, kind, subject, reason, detail: say("event", kind.value_nick, subject, reason))
herald.connect("check-finished", lambda _: loop.quit())
herald.app_launched()
loop.run()

refused = Herald.Client(feed_url="ftp://example.com/feed.plist", app_id=sys.argv[2])
refused.connect("failed", lambda _, error: (say("failed", error.domain, Herald.Error(error.code).value_nick, error.message), loop.quit()))
refused.app_launched()
say("launched")
loop.run()
