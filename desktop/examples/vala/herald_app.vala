// A Vala program that uses Herald through libherald-1 (desktop/examples/README.md):
//   valac --pkg herald-1 herald_app.vala && ./herald_app FEED_URL APP_ID
int main (string[] args) {
    if (args.length != 3) {
        stderr.printf ("usage: %s FEED_URL APP_ID\n", args[0]);
        return 64;
    }
    var loop = new MainLoop ();
    // show-on-first-launch: the first run shows what is due at once.
    var herald = (Herald.Client) Object.new (typeof (Herald.Client), "feed-url", args[1], "app-id", args[2],
                                             "app-version", "1.0", "show-on-first-launch", true);
    herald.shown.connect ((key) => print ("shown %s\n", key));
    herald.answered.connect ((key, answer, while_away) => print ("answered %s %s%s\n", key, answer, while_away ? " while away" : ""));
    herald.failed.connect ((error) => print ("failed %s\n", error.message));
    herald.check_finished.connect (() => print ("finished\n"));
    Unix.signal_add (15 /* SIGTERM */, () => {
        loop.quit ();
        return Source.REMOVE;
    });
    herald.app_launched ();
    loop.run ();
    // What is still shown stays answerable after the program has gone.
    herald.app_will_quit ();
    return 0;
}
