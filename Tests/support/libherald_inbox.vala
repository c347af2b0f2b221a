// An app's own "What's new" page from Vala (LibHeraldTests), built with valac's non-null checks
// (--enable-experimental-non-null --fatal-warnings): the same as libherald_inbox.py. A check
// shows one message of two, then the app prints its inbox after the answer clicked in the
// server, after an answer given on the page (record_answer), and the error of an answer Herald
// does not know.
//
//   libherald_inbox FEED_URL APP_ID

void say (string line) {
    print ("%s\n", line);
    stdout.flush ();
}

void print_inbox (Herald.Client herald) throws Error {
    int64 now = new DateTime.now_utc ().to_unix ();
    var states = (EnumClass) typeof (Herald.InboxState).class_ref ();
    foreach (unowned Herald.InboxMessage message in herald.get_inbox ()) {
        unowned EnumValue? state = states.get_value (message.state);
        DateTime? until = message.until;
        string stands = until != null ? "until in %lld h".printf ((((!) until).to_unix () - now + 1800) / 3600) : message.state_text;
        say (string.joinv (" ", { "inbox", message.id, "|", message.title, "|", message.body, "|", message.link ?? "-", "|",
                                  message.category, "|", state != null ? ((!) state).value_nick : "(unknown)", "|", stands, "|",
                                  message.last_shown != null ? "shown" : "never shown" }));
    }
}

int main (string[] args) {
    var loop = new MainLoop ();
    var herald = (Herald.Client) Object.new (typeof (Herald.Client), "feed-url", args[1], "app-id", args[2], "app-version", "1.0",
                                             "show-on-first-launch", true, "max-per-check", 1, "remind-period", 3600.0);
    herald.shown.connect ((key) => say ("shown " + key));
    herald.answered.connect ((key, answer, away) => say ("answered %s %s".printf (key, answer)));
    herald.failed.connect ((error) => say ("failed " + error.message));
    herald.check_finished.connect (() => {
        say ("finished");
        try {
            print_inbox (herald);
            herald.record_answer ("2024/01/10", "view");
            say ("recorded view");
            print_inbox (herald);
        } catch (Error error) {
            say ("unexpected " + error.message);
        }
        try {
            herald.record_answer ("2024/01/10", "later");
        } catch (Error error) {
            string kind = "code %d".printf (error.code);
            if (error is Herald.Error.CONFIGURATION) {
                kind = "configuration";
            }
            say (string.joinv (" ", { "record_answer", error.domain.to_string (), kind, error.message }));
        }
        loop.quit ();
    });
    herald.app_launched ();
    loop.run ();
    return 0;
}
