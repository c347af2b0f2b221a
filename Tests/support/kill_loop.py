#!/usr/bin/python3
"""Kills `herald check` processes at random moments while they claim and answer, and then
holds the state to two rules: the file always parses, and no answer a process confirmed
(an `answered` event, or a `closed` event for a dismissal, printed before it died) is lost.

Runs against python3-dbusmock's notification server on the session bus of its environment
(DBUS_SESSION_BUS_ADDRESS) and a loopback feed server serving --feed-root at --feed-url;
Herald's files go where the XDG_* variables of its environment say.

Each round publishes a feed of fresh message ids, starts --parallel checks that show them
(--force, so no gate holds them back), answers every shown notification after a random
delay of at most --answer-delay seconds with a random action, and kills each check with
SIGKILL at a random moment within the kill window of its start, unless it ended first;
half the time an answer moves that moment to within --answer-kill-window seconds of it, so
kills land while answers are written. The kill window is twice the median time the last
twenty checks took to show their first notification (first measured by a round that kills
nothing), so kills spread over start-up, fetch, claim, show and answer however loaded the
machine is; --kill-window fixes it instead.
Every kill reads the state file too, so it is read while other checks write it. Rounds go
on until --kills processes were killed (at most --max-rounds rounds, --time-limit seconds).
A last round kills nothing and answers everything: its writes must remove the temporary
files the killed writers left. Prints one JSON object with the numbers and every problem;
exits 1 when there is a problem.
"""
import argparse
import collections
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time

import dbus

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
# What each action records, as the check's policy applies it (DESIGN.md D7, D8).
RECORDED = {"view": "viewed", "ok": "viewed", "ignore": "ignored", "remind": "reminded"}
# A process that outlives its kill moment by this much has hung.
HANG_SECONDS = 20


def feed_plist(keys, with_link):
    entries = []
    for key in keys:
        link = f"<key>ActionURL</key><string>https://example.com/{key}</string>" if with_link[key] else ""
        entries.append(f"<key>{key}</key><dict><key>Title</key><string>Message {key}</string>{link}</dict>")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>'
            + "".join(entries) + "</dict></plist>\n")


def publish(root, text):
    """Replaces the served feed in one rename, so the server never sends half of it."""
    temporary = os.path.join(root, "feed.plist.new")
    with open(temporary, "w") as out:
        out.write(text)
    os.replace(temporary, os.path.join(root, "feed.plist"))


class Check:
    """One `herald check` process and what it printed."""

    def __init__(self, arguments, kill_at, work, number):
        self.error_path = os.path.join(work, f"check-{number}.err")
        with open(self.error_path, "w") as error:
            self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=error, stdin=subprocess.DEVNULL)
        os.set_blocking(self.process.stdout.fileno(), False)
        self.started = time.monotonic()
        self.kill_at = kill_at
        self.shown_after = None
        # Its own wait limit ends it well before this; a check still there has hung.
        self.give_up_at = time.monotonic() + HANG_SECONDS + 5
        self.buffer = b""
        self.events = []
        self.killed = False
        self.status = None

    def read(self):
        """Reads what is there; returns the new events, or None at the end of the output."""
        try:
            chunk = os.read(self.process.stdout.fileno(), 65536)
        except BlockingIOError:
            return []
        if not chunk:
            return None
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        new = []
        for line in lines:
            try:
                new.append(json.loads(line))
            except ValueError:
                new.append({"event": "unparsable-line", "line": line.decode(errors="replace")})
        self.events += new
        return new


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--herald", required=True)
    parser.add_argument("--app-id", required=True)
    parser.add_argument("--feed-root", required=True)
    parser.add_argument("--feed-url", required=True)
    parser.add_argument("--work", required=True, help="a folder for the checks' error output")
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--messages", type=int, default=3)
    parser.add_argument("--kill-window", type=float, default=0, help="seconds; default: adapts to the machine")
    parser.add_argument("--answer-delay", type=float, default=0.05)
    parser.add_argument("--answer-kill-window", type=float, default=0.015,
                        help="half the answered checks are killed within this many seconds of the answer")
    parser.add_argument("--max-rounds", type=int, default=0, help="default: four rounds per kill")
    parser.add_argument("--time-limit", type=float, default=0, help="seconds; default: 60 plus one per kill")
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args()

    seed = options.seed if options.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)
    state_home = os.environ.get("XDG_STATE_HOME") or os.path.join(os.environ["HOME"], ".local/state")
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ["HOME"], ".cache")
    state_file = os.path.join(state_home, "herald", options.app_id + ".json")
    cache_file = os.path.join(cache_home, "herald", options.app_id + ".feed")
    mock = dbus.Interface(dbus.SessionBus().get_object(NAME, PATH), "org.freedesktop.DBus.Mock")

    numbers = {"seed": seed, "rounds": 0, "processes": 0, "kills": 0, "shown": 0, "answersConfirmed": 0,
               "answersLost": 0, "stateReads": 0, "temporariesLeftByKills": 0, "killsAfterShown": 0}
    problems = {"lost": [], "answeredTwice": [], "unparsableState": [], "unexpectedExits": [], "hung": [],
                "staleTemporaries": [], "failedEvents": []}
    confirmed = {}  # key -> the list it must be in
    shown_after = collections.deque(maxlen=20)  # seconds from start to first notification

    def kill_window():
        if options.kill_window > 0:
            return options.kill_window
        return 2 * sorted(shown_after)[len(shown_after) // 2] if shown_after else 1.0
    started = time.monotonic()
    max_rounds = options.max_rounds or 4 * options.kills
    time_limit = options.time_limit or 60 + options.kills

    def read_state(when):
        numbers["stateReads"] += 1
        try:
            with open(state_file, "rb") as file:
                json.loads(file.read())
        except FileNotFoundError:
            pass
        except ValueError as error:
            problems["unparsableState"].append(f"{when}: {error}")

    def run_round(number, kill):
        keys = [f"r{number:05d}-{index}" for index in range(options.messages)]
        with_link = {key: index % 3 != 2 for index, key in enumerate(keys)}
        publish(options.feed_root, feed_plist(keys, with_link))
        arguments = [options.herald, "check", "--json", "--force", "--feed", options.feed_url, "--app-id", options.app_id,
                     "--max", str(options.messages), "--wait", str(HANG_SECONDS)]
        selector = selectors.DefaultSelector()
        checks = []
        for _ in range(options.parallel if kill else 1):
            kill_at = time.monotonic() + rng.uniform(0, kill_window()) if kill else None
            check = Check(arguments, kill_at, options.work, numbers["processes"])
            numbers["processes"] += 1
            selector.register(check.process.stdout, selectors.EVENT_READ, check)
            checks.append(check)
        answers = []  # (when, notification id, key, action, check)
        running = set(checks)
        while running:
            now = time.monotonic()
            for answer in [a for a in answers if a[0] <= now]:
                answers.remove(answer)
                _, notification, key, action, check = answer
                # Half the time the kill follows the answer closely, to land while it is written.
                if check.kill_at is not None and rng.random() < 0.5:
                    check.kill_at = min(check.kill_at, now + rng.uniform(0, options.answer_kill_window))
                if action == "dismiss":
                    mock.EmitSignal(NAME, "NotificationClosed", "uu", [dbus.UInt32(notification), dbus.UInt32(2)])
                else:
                    mock.EmitSignal(NAME, "ActionInvoked", "us", [dbus.UInt32(notification), action])
            for check in list(running):
                if check.kill_at is not None and not check.killed and now >= check.kill_at:
                    check.kill_at = None
                    # send_signal reaps first and sends nothing to a process that already ended.
                    check.process.send_signal(signal.SIGKILL)
                    if check.process.returncode is None:
                        check.killed = True
                        numbers["kills"] += 1
                        read_state(f"round {number}, at a kill")
                if now >= check.give_up_at and not check.killed:
                    problems["hung"].append(f"round {number}: pid {check.process.pid}")
                    check.process.kill()
                    check.killed = True
            deadlines = ([a[0] for a in answers] + [c.kill_at for c in running if c.kill_at is not None]
                         + [c.give_up_at for c in running if not c.killed])
            timeout = max(0.0, min(deadlines, default=time.monotonic() + 1) - time.monotonic())
            for item, _ in selector.select(timeout):
                check = item.data
                new = check.read()
                if new is None:
                    selector.unregister(check.process.stdout)
                    check.process.stdout.close()
                    check.status = check.process.wait()
                    running.discard(check)
                    if check.killed:
                        numbers["killsAfterShown"] += check.shown_after is not None
                        pid = str(check.process.pid)
                        numbers["temporariesLeftByKills"] += sum(
                            os.path.exists(f"{path}.tmp-{pid}") for path in [state_file, cache_file])
                    continue
                for event in new:
                    kind = event.get("event")
                    if kind == "shown":
                        numbers["shown"] += 1
                        if check.shown_after is None:
                            check.shown_after = time.monotonic() - check.started
                            shown_after.append(check.shown_after)
                        key = event["key"]
                        choices = ["view", "remind", "ignore", "default", "dismiss"] if with_link[key] else ["ok", "default", "dismiss"]
                        action = rng.choice(choices)
                        answers.append((time.monotonic() + rng.uniform(0, options.answer_delay), event["id"], key, action, check))
                    elif kind == "answered" or (kind == "closed" and event.get("reason") == "dismissed"):
                        key = event["key"]
                        recorded = RECORDED[event["action"]] if kind == "answered" else "reminded"
                        if key in confirmed:
                            problems["answeredTwice"].append(key)
                        confirmed[key] = recorded
                        numbers["answersConfirmed"] += 1
                    elif kind == "failed":
                        problems["failedEvents"].append(event.get("message", ""))
        selector.close()
        for check in checks:
            if not check.killed and check.status != 0:
                with open(check.error_path) as error:
                    problems["unexpectedExits"].append(f"round {number}: exit {check.status}: {error.read().strip()}")
        read_state(f"after round {number}")
        return checks

    # A round that kills nothing first: how long a check takes to show here and now.
    run_round(numbers["rounds"], kill=False)
    numbers["rounds"] += 1
    while (numbers["kills"] < options.kills and numbers["rounds"] < max_rounds
           and time.monotonic() - started < time_limit):
        run_round(numbers["rounds"], kill=True)
        numbers["rounds"] += 1

    def temporaries():
        folders = [os.path.join(state_home, "herald"), os.path.join(cache_home, "herald")]
        return [name for folder in folders if os.path.isdir(folder) for name in os.listdir(folder) if ".tmp-" in name]

    # A round that kills nothing: its writes clean up after the killed writers.
    run_round(numbers["rounds"], kill=False)
    problems["staleTemporaries"] = temporaries()

    shown = subprocess.run([options.herald, "state", "--app-id", options.app_id, "--json"], capture_output=True)
    try:
        state = json.loads(shown.stdout) if shown.returncode == 0 else None
    except ValueError:
        state = None
    if state is None:
        problems["unparsableState"].append(f"herald state: exit {shown.returncode}: {shown.stderr.decode().strip()}")
        state = {}
    lists = {"viewed": set(state.get("viewed", [])), "ignored": set(state.get("ignored") or []),
             "reminded": set(state.get("reminded", {}).keys())}
    for key, recorded in sorted(confirmed.items()):
        if key not in lists[recorded]:
            problems["lost"].append(f"{key} ({recorded})")
    numbers["answersLost"] = len(problems["lost"])
    numbers["seconds"] = round(time.monotonic() - started, 1)
    numbers["killWindow"] = round(kill_window(), 2)
    print(json.dumps({**numbers, "problems": problems}, sort_keys=True))
    sys.exit(1 if any(problems.values()) or numbers["kills"] < options.kills else 0)


if __name__ == "__main__":
    main()
