#!/usr/bin/python3
"""Checks an app's Herald feed at start-up without holding up the app's main loop.

The app starts `herald check --json` as a child process (Gio.Subprocess) and reads its event
lines one by one as they arrive, on the GLib main loop that also runs the app's windows. Herald
fetches the feed, shows the notifications and records each answer itself; the app only reacts
to the events. Here it prints one line per event:

    shown 2024/01/10
    answered 2024/01/10 view
    closed 2024/01/10 dismissed
    failed fetch
    herald exited with status 0

Usage:

    herald_at_startup.py [--herald PATH] [--feed URL] [--app-id ID] [--app-version V]
                         [-- HERALD-CHECK-OPTIONS...]

Each option defaults to an environment variable (HERALD, HERALD_FEED, HERALD_APP_ID,
HERALD_APP_VERSION), then to a built-in value. Options after `--` go to `herald check` as they
are (`--show-on-first-launch`, `--wait 60`, `--icon NAME`...).

Shipping it: install herald with your app (a distribution package puts it in /usr/bin,
`desktop/install.sh` in ~/.local/bin) and leave `--herald` out, so that `herald` is found on
PATH. When it is missing, starting it fails at once; an app says so and goes on without
messages (this example exits 1).

Quitting first: herald is a process of its own. Left alone it carries on, its notifications
stay up and it still records their answers; only its event lines go unread. An app that wants
its messages gone with it sends herald SIGTERM: herald closes what it shows (the messages come
back at the next check) and exits 143. This example does that on SIGINT and SIGTERM, and reads on
until herald has exited.

Needs PyGObject (Debian: python3-gi).
"""

import argparse
import json
import os
import signal
import sys

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402


class HeraldCheck:
    """One `herald check --json` run, its events read on the default main context."""

    def __init__(self, argv, on_event, on_exit):
        self.on_event = on_event
        self.on_exit = on_exit
        self.process = Gio.Subprocess.new(argv, Gio.SubprocessFlags.STDOUT_PIPE)
        self.lines = Gio.DataInputStream.new(self.process.get_stdout_pipe())
        self.read_next_line()

    def read_next_line(self):
        self.lines.read_line_async(GLib.PRIORITY_DEFAULT, None, self.line_read)

    def line_read(self, stream, result):
        try:
            # The _utf8 variant: PyGObject's read_line_finish gives b"" both for an empty line
            # and at the end, where this one gives None.
            line, _ = stream.read_line_finish_utf8(result)
        except GLib.Error as error:
            print(f"herald_at_startup: reading herald's events: {error.message}", file=sys.stderr)
            line = None
        if line is None:
            # End of the events: herald has exited or is about to; its status comes next.
            self.process.wait_async(None, self.exited)
            return
        try:
            event = json.loads(line)
        except ValueError:
            event = None
        if isinstance(event, dict):
            self.on_event(event)
        self.read_next_line()

    def exited(self, process, result):
        process.wait_finish(result)
        if process.get_if_exited():
            self.on_exit(f"herald exited with status {process.get_exit_status()}")
        else:
            self.on_exit(f"herald was ended by signal {process.get_term_sig()}")

    def stop(self):
        """Asks herald to close its notifications and exit; its last events still arrive."""
        self.process.send_signal(signal.SIGTERM)


def react(event):
    """What the app does with an event: here, a line each; a real app might update a window."""
    name = event.get("event")
    key = event.get("key", "")
    if name == "shown":
        print(f"shown {key}")
    elif name in ("answered", "answer-not-recorded"):
        print(f"{name} {key} {event.get('action', '')}")
    elif name == "closed":
        print(f"closed {key} {event.get('reason', '')}")
    elif name == "check-skipped":
        print(f"check-skipped {event.get('reason', '')}")
    elif name == "failed":
        print(f"failed {event.get('kind', '')}")
        print(f"herald: {event.get('message', '')}", file=sys.stderr)


def parse_arguments():
    parser = argparse.ArgumentParser(description="Check an app's Herald feed at start-up.")
    parser.add_argument("--herald", default=os.environ.get("HERALD") or "herald",
                        help="the herald executable (default: herald, found on PATH)")
    parser.add_argument("--feed", default=os.environ.get("HERALD_FEED") or "https://example.org/herald/feed.plist")
    parser.add_argument("--app-id", default=os.environ.get("HERALD_APP_ID") or "org.example.App")
    parser.add_argument("--app-version", default=os.environ.get("HERALD_APP_VERSION") or "1.0")
    parser.add_argument("check_options", nargs="*", metavar="-- HERALD-CHECK-OPTIONS",
                        help="passed on to herald check")
    return parser.parse_args()


def main():
    arguments = parse_arguments()
    # Lines must reach a pipe or a log as they happen, not when the app exits.
    sys.stdout.reconfigure(line_buffering=True)
    loop = GLib.MainLoop()

    def on_exit(line):
        print(line)
        loop.quit()

    argv = [arguments.herald, "check", "--feed", arguments.feed, "--app-id", arguments.app_id,
            "--app-version", arguments.app_version, "--json"] + arguments.check_options
    try:
        check = HeraldCheck(argv, react, on_exit)
    except GLib.Error as error:
        # No herald: the app runs on, without messages.
        print(f"herald_at_startup: cannot start herald: {error.message}", file=sys.stderr)
        return 1

    def quit_requested():
        check.stop()
        return GLib.SOURCE_CONTINUE

    watches = [GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, quit_requested)
               for number in (signal.SIGINT, signal.SIGTERM)]
    loop.run()
    for watch in watches:
        GLib.source_remove(watch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
