#!/usr/bin/gjs
// A GJS script that uses Herald through libherald-1 (desktop/examples/README.md):
//   GI_TYPELIB_PATH=PREFIX/lib/girepository-1.0 LD_LIBRARY_PATH=PREFIX/lib gjs herald_app.js FEED_URL APP_ID
imports.gi.versions.Herald = '1';
const {GLib, Herald} = imports.gi;

const [feedURL, appID] = ARGV;
const loop = new GLib.MainLoop(null, false);
// show_on_first_launch: the first run shows what is due at once.
const herald = new Herald.Client({feed_url: feedURL, app_id: appID, app_version: '1.0', show_on_first_launch: true});
herald.connect('shown', (_, key) => print(`shown ${key}`));
herald.connect('answered', (_, key, answer, whileAway) => print(`answered ${key} ${answer}${whileAway ? ' while away' : ''}`));
herald.connect('failed', (_, error) => print(`failed ${error.message}`));
herald.connect('check-finished', () => print('finished'));
GLib.unix_signal_add(GLib.PRIORITY_HIGH, 15 /* SIGTERM */, () => {
    loop.quit();
    return GLib.SOURCE_REMOVE;
});
herald.app_launched();
loop.run();
// What is still shown stays answerable after the script has gone.
herald.app_will_quit();
