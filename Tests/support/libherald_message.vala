// A Vala app that draws its own interface (LibHeraldTests), built with valac's non-null checks
// (--enable-experimental-non-null --fatal-warnings): its should-show handler reads every string
// of the HeraldMessage, the ones that can be null as string?, prints them and says no.
//
//   libherald_message FEED_URL APP_ID
int main (string[] args) {
    var loop = new MainLoop ();
    var herald = (Herald.Client) Object.new (typeof (Herald.Client), "feed-url", args[1], "app-id", args[2],
                                             "show-on-first-launch", true);
    herald.should_show.connect ((message) => {
        string id = message.id;
        string? title = message.title;
        string? body = message.body;
        string? link = message.action_url;
        string? label = message.button_label;
        print ("asked %s: %s, %s, %s, %s\n", id, title ?? "(no title)", body ?? "(no body)", link ?? "(no link)",
               label ?? "(Herald's label)");
        return false;
    });
    herald.check_finished.connect (() => {
        print ("finished\n");
        loop.quit ();
    });
    herald.app_launched ();
    loop.run ();
    return 0;
}
