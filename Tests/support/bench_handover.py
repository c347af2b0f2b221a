#!/usr/bin/python3
"""Runs several apps' checks at once for Tests/scripts/bench.sh's handover figures, as autostart
starts them at login, and prints what it measured as one JSON line. In COMMAND, {n} stands for
1…N, the process's number.

  bench_handover.py hand-over --apps N [--lines L] --shown REGEX --calls FILE --method NAME [--also PATH]... [--seconds S] -- COMMAND...
      starts the N commands at once and waits for each to print L lines (1 unless given)
      matching REGEX ("last_shown_ms": when the last one had) and to exit with status 0
      ("last_exit_ms"; "cpu_ms": the CPU time, user and system, the N used, summed; "started":
      the N, and any process of COMMAND's program still on this session bus once they exited);
      then for FILE, a notification server's log of calls, to hold N × L more lines naming
      METHOD than before they started; then measures every process still running COMMAND's
      program, or a program --also names (the agent they started), on this session bus
      (DBUS_SESSION_BUS_ADDRESS), as bench_probe.py hold measures one: "processes", their CPU
      "ticks" over S seconds, then their memory (bench_probe.memory), each figure summed, and
      "cpu_ticks_total", the CPU ticks they had used since they started
  bench_handover.py wait --apps N --shown REGEX [--seconds S] -- COMMAND...
      starts the N commands at once, waits for each to print a line matching REGEX
      ("last_shown_ms"), measures every process running COMMAND's program on this session bus
      the same way, each of the N still waiting at the end, then ends the N with SIGTERM
  bench_handover.py end --program PATH --name NAME
      ends (SIGTERM; SIGKILL after 5 s) every process running PATH on this session bus, and
      waits until each has exited and NAME has no owner on the bus

Exits 1 with the commands' output on stderr when a command failed or did not print its line,
the calls did not come, a process ended while it was measured, or /proc could not be read.
hand-over and wait refuse to start while a process of the program runs on the bus: what they
measure is what the N commands leave.
"""
import argparse
import json
import os
import re
import select
import signal
import sys
import tempfile
import time

import dbus

from bench_probe import LIMIT_SECONDS, Run, memory, ticks


def bus_socket(address):
    """The address without its guid, which a process started by the bus may be given apart."""
    return address.split(",guid=", 1)[0]


def processes_of(program):
    """The processes running `program` (not zombies) whose session bus is this one."""
    real = os.path.realpath(program)
    variable = b"DBUS_SESSION_BUS_ADDRESS="
    ours = bus_socket(os.environ["DBUS_SESSION_BUS_ADDRESS"]).encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink("/proc/%s/exe" % entry) != real:
                continue
            with open("/proc/%s/environ" % entry, "rb") as handle:
                environment = handle.read().split(b"\0")
        except OSError:
            continue
        if any(bus_socket(setting[len(variable):].decode()).encode() == ours for setting in environment if setting.startswith(variable)):
            found.append(int(entry))
    return sorted(found)


def measure(pids, seconds):
    """The processes' CPU ticks over `seconds` and then their memory, summed."""
    result = {"processes": len(pids), "ticks": 0, "rss_kb": 0, "vmhwm_kb": 0, "pss_kb": 0, "private_dirty_kb": 0, "cpu_ticks_total": 0}
    if not pids:
        return result
    before = {pid: ticks(pid) for pid in pids}
    result["cpu_ticks_total"] = sum(before.values())
    time.sleep(seconds)
    for pid in pids:
        result["ticks"] += ticks(pid) - before[pid]
        for key, value in memory(pid).items():
            result[key] += value
    return result


def count_calls(path, method):
    pattern = re.compile(r"\b%s\b" % re.escape(method))
    try:
        with open(path, errors="replace") as handle:
            return sum(1 for line in handle if pattern.search(line))
    except FileNotFoundError:
        return 0


class Runs:
    """N commands started at once, each with its own pseudo-terminal and error file."""

    def __init__(self, command, count):
        self.errors = [tempfile.TemporaryFile("w+") for _ in range(count)]
        self.runs = []
        for number in range(1, count + 1):
            argv = [argument.replace("{n}", str(number)) for argument in command]
            self.runs.append(Run(argv, self.errors[number - 1]))
        self.started = min(run.started for run in self.runs)

    def elapsed_ms(self):
        return (time.monotonic_ns() - self.started) / 1e6

    def wait_for_lines(self, pattern, lines=1):
        """Waits for each to print `lines` lines matching pattern; returns when the last one had."""
        for run in self.runs:
            for number in range(lines):
                if not run.wait_for_line(pattern):
                    self.fail("%d lines matching %r, not %d" % (number, pattern.pattern, lines))
        return self.elapsed_ms()

    def end(self):
        for run in self.runs:
            run.end()

    def fail(self, why):
        self.end()
        sys.stderr.write("%s\n" % why)
        for run, errors in zip(self.runs, self.errors):
            errors.seek(0)
            sys.stderr.write("%s\n  output: %r\n  errors: %r\n" % (" ".join(run.process.args), run.output.decode("utf-8", "replace")[-2000:],
                                                                    errors.read()[-2000:]))
        sys.exit(1)


def refuse_if_running(program):
    running = processes_of(program)
    if running:
        sys.exit("%s already runs on this bus (process %s): end it first" % (program, ", ".join(map(str, running))))


def hand_over(args, command):
    programs = [command[0]] + args.also
    for program in programs:
        refuse_if_running(program)
    before = count_calls(args.calls, args.method)
    runs = Runs(command, args.apps)
    result = {"last_shown_ms": runs.wait_for_lines(args.shown, args.lines)}
    for run in runs.runs:
        status = run.wait()
        if status != 0:
            runs.fail("exit status %s" % status)
    result["last_exit_ms"] = runs.elapsed_ms()
    result["cpu_ms"] = sum((run.usage.ru_utime + run.usage.ru_stime) * 1000 for run in runs.runs)
    # A process the commands started that outlived them would be theirs too: none is expected.
    result["started"] = args.apps + len(processes_of(command[0]))
    runs.end()
    deadline = time.monotonic() + LIMIT_SECONDS
    expected = args.apps * args.lines
    while count_calls(args.calls, args.method) < before + expected:
        if time.monotonic() > deadline:
            sys.exit("%s holds %d %s calls, not %d" % (args.calls, count_calls(args.calls, args.method) - before, args.method, expected))
        time.sleep(0.01)
    try:
        result.update(measure([pid for program in programs for pid in processes_of(program)], args.seconds))
    except (OSError, LookupError, IndexError, ValueError) as error:
        sys.exit("could not read /proc of what the checks left: %s" % error)
    return result


def wait(args, command):
    refuse_if_running(command[0])
    runs = Runs(command, args.apps)
    result = {"last_shown_ms": runs.wait_for_lines(args.shown)}
    try:
        result.update(measure(processes_of(command[0]), args.seconds))
    except (OSError, LookupError, IndexError, ValueError) as error:
        runs.fail("could not read /proc while they waited: %s" % error)
    for run in runs.runs:
        run.drain()
        if run.process.poll() is not None:
            runs.fail("a check exited (status %s) instead of waiting for an answer" % run.process.returncode)
    runs.end()
    return result


def end(args):
    pidfds = []
    for pid in processes_of(args.program):
        try:
            pidfds.append((pid, os.pidfd_open(pid)))
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for pid, pidfd in pidfds:
        # A pidfd turns readable when its process has exited, child of ours or not.
        if not select.select([pidfd], [], [], 5)[0]:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            select.select([pidfd], [], [], LIMIT_SECONDS)
        os.close(pidfd)
    bus = dbus.SessionBus()
    deadline = time.monotonic() + LIMIT_SECONDS
    while bus.name_has_owner(args.name):
        if time.monotonic() > deadline:
            sys.exit("%s still has an owner on the bus" % args.name)
        time.sleep(0.01)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["hand-over", "wait", "end"])
    parser.add_argument("--apps", type=int, default=5)
    parser.add_argument("--lines", type=int, default=1)
    parser.add_argument("--shown", type=re.compile)
    parser.add_argument("--calls")
    parser.add_argument("--method")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--also", action="append", default=[])
    parser.add_argument("--program")
    parser.add_argument("--name")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    command = argv[split + 1:]
    if args.mode == "end":
        if not args.program or not args.name:
            parser.error("end takes --program and --name")
        end(args)
        return
    if not command or not args.shown or (args.mode == "hand-over" and not (args.calls and args.method)):
        parser.error("a command (after --) and --shown are needed, and --calls and --method for hand-over")
    print(json.dumps(hand_over(args, command) if args.mode == "hand-over" else wait(args, command)))


if __name__ == "__main__":
    main()
