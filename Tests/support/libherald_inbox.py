# An app's own "What's new" page from Python (LibHeraldTests): a check that shows one message
# of two (one a check), then the app's inbox as it reads it after the answer clicked in the
# server, after an answer given on the page (herald_client_record_answer), and the error of an
# answer Herald does not know.
#
#   /usr/bin/python3 libherald_inbox.py FEED_URL APP_ID
import sys
import gi
gi.require_version("Herald", "1")
from gi.repository import GLib, Herald

def say(*words):
    print(*words, flush=True)

def print_inbox(herald):
    now = GLib.DateTime.new_now_utc().to_unix()
    for message in herald.get_inbox():
        state = Herald.InboxState(message.get_state()).value_nick
        until = message.get_until()
        stands = f"until in {round((until.to_unix() - now) / 3600)} h" if until else message.get_state_text()
        shown = "shown" if message.get_last_shown() else "never shown"
        say("inbox", message.get_id(), "|", message.get_title(), "|", message.get_body(), "|", message.get_link() or "-", "|",
            message.get_category(), "|", state, "|", stands, "|", shown)

def finished(herald):
    say("finished")
    print_inbox(herald)
    herald.record_answer("2024/01/10", "view")
    say("recorded view")
    print_inbox(herald)
    try:
        herald.record_answer("2024/01/10", "later")
    except GLib.Error as error:
        say("record_answer", error.domain, Herald.Error(error.code).value_nick, error.message)
    loop.quit()

loop = GLib.MainLoop()
herald = Herald.Client(feed_url=sys.argv[1], app_id=sys.argv[2], app_version="1.0", show_on_first_launch=True,
                       max_per_check=1, remind_period=3600)
herald.connect("shown", lambda _, key: say("shown", key))
herald.connect("answered", lambda _, key, answer, away: say("answered", key, answer))
herald.connect("failed", lambda _, error: say("failed", error.message))
herald.connect("check-finished", finished)
herald.app_launched()
loop.run()
