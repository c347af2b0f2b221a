// An app's own "What's new" page from GJS (LibHeraldTests): the same as libherald_inbox.py,
// printing the same lines.
//
//   gjs libherald_inbox.js FEED_URL APP_ID
imports.gi.versions.Herald = '1';
const {GLib, Herald} = imports.gi;

const [feedURL, appID] = ARGV;
const loop = new GLib.MainLoop(null, false);

function printInbox(herald) {
    const now = GLib.DateTime.new_now_utc().to_unix();
    for (const message of herald.get_inbox()) {
        const state = Object.keys(Herald.InboxState).find(name => Herald.InboxState[name] === message.get_state())
            .toLowerCase().replace(/_/g, '-');
        const until = message.get_until();
        const stands = until ? `until in ${Math.round((until.to_unix() - now) / 3600)} h` : message.get_state_text();
        const shown = message.get_last_shown() ? 'shown' : 'never shown';
        print(['inbox', message.get_id(), '|', message.get_title(), '|', message.get_body(), '|', message.get_link() ?? '-', '|',
            message.get_category(), '|', state, '|', stands, '|', shown].join(' '));
    }
}

const herald = new Herald.Client({feed_url: feedURL, app_id: appID, app_version: '1.0', show_on_first_launch: true,
    max_per_check: 1, remind_period: 3600});
herald.connect('shown', (_, key) => print(`shown ${key}`));
herald.connect('answered', (_, key, answer) => print(`answered ${key} ${answer}`));
herald.connect('failed', (_, error) => print(`failed ${error.message}`));
herald.connect('check-finished', () => {
    print('finished');
    printInbox(herald);
    herald.record_answer('2024/01/10', 'view');
    print('recorded view');
    printInbox(herald);
    try {
        herald.record_answer('2024/01/10', 'later');
    } catch (error) {
        const code = Object.keys(Herald.Error).find(name => Herald.Error[name] === error.code).toLowerCase().replace(/_/g, '-');
        print(`record_answer ${GLib.quark_to_string(error.domain)} ${code} ${error.message}`);
    }
    loop.quit();
});
herald.app_launched();
loop.run();
