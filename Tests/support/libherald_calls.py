# An app that calls every method of a HeraldClient (LibHeraldTests) and prints what it hears:
# a broken prompts file and a real one, the message's details (a date and a data value among
# them), the message the server closes, a check_now() that shows it again, and
# close_shown_messages() that takes it off the screen.
#
#   /usr/bin/python3 libherald_calls.py FEED_URL APP_ID PROMPTS_FILE BROKEN_PROMPTS_FILE
import sys
import gi
gi.require_version("Herald", "1")
from gi.repository import GLib, Herald

def say(*words):
    print(*words, flush=True)

loop = GLib.MainLoop()
herald = Herald.Client(feed_url=sys.argv[1], app_id=sys.argv[2], show_on_first_launch=True)
try:
    herald.add_prompts_file(sys.argv[4])
except GLib.Error as error:
    say("add_prompts_file", error.domain, Herald.Error(error.code).value_nick, error.message)
herald.add_prompts_file(sys.argv[3])
say("add_prompts_file added")

def should_show(_, message):
    details = message.get_details()
    say("asked", message.props.id, details.print_(True))
    return True

checks = []

def shown(_, key):
    say("shown", key)
    if len(checks) == 1:
        herald.close_shown_messages()

def finished(_):
    say("finished")
    checks.append(True)
    if len(checks) == 1:
        herald.check_now()
    else:
        loop.quit()

herald.connect("should-show", should_show)
herald.connect("shown", shown)
herald.connect("closed", lambda _, key, reason: say("closed", key, reason))
herald.connect("event", lambda _, kind, subject, reason, detail: kind == Herald.EventKind.PROMPT_DECIDED and say("event", kind.value_nick, subject, reason))
herald.connect("check-finished", finished)
herald.app_launched()
loop.run()
