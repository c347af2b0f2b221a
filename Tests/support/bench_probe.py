#!/usr/bin/python3
"""Runs one command once for Tests/scripts/bench.sh and prints what it measured as one JSON line.

  bench_probe.py time [--shown REGEX] -- COMMAND...
      milliseconds from just before the process is started until it prints a line matching
      REGEX ("shown_ms") and until it exits ("exit_ms"), the CPU time it used, user and system
      ("cpu_ms"), and its exit status ("status")
  bench_probe.py hold --shown REGEX [--seconds S] -- COMMAND...
      starts the process, waits for the shown line, then, while it waits for an answer, reads
      its CPU ticks (utime + stime, /proc/PID/stat) S seconds apart ("ticks"), and at the end
      its memory (memory() below), in kB; then ends it with SIGTERM (SIGKILL after 5 s)

The command's standard output is a pseudo-terminal, so that programs using stdio print each
line as they write it (notify-send --print-id flushes only at exit into a pipe); its standard
input is /dev/null. Exits 1 with the command's output on stderr when the shown line never
came, the command failed, or /proc could not be read.
"""
import argparse
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

LIMIT_SECONDS = 20


class Run:
    """One started command whose pseudo-terminal output is read line by line."""

    def __init__(self, command, stderr):
        master, slave = pty.openpty()
        self.master = master
        self.buffer = b""
        self.output = b""
        self.usage = None
        self.started = time.monotonic_ns()
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=slave, stderr=stderr)
        os.close(slave)
        # Readable once the process has exited: waiting on it and on its output needs no polling.
        self.exited = os.pidfd_open(self.process.pid)

    def elapsed_ms(self):
        return (time.monotonic_ns() - self.started) / 1e6

    def wait_for_line(self, pattern):
        """Reads until a line matches; True when one did, False at end of output or time limit."""
        deadline = time.monotonic() + LIMIT_SECONDS
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if pattern.search(line.decode("utf-8", "replace").rstrip("\r")):
                    return True
            left = deadline - time.monotonic()
            if left <= 0 or not self.read(left):
                return False

    def read(self, timeout):
        """Reads what the process printed; False when nothing came within timeout seconds."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            chunk = b""
        self.buffer += chunk
        self.output += chunk
        return bool(chunk)

    def drain(self):
        while self.read(0):
            pass

    def wait(self):
        """Reads the output until the process exits; its status, or None at the time limit."""
        deadline = time.monotonic() + LIMIT_SECONDS
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.master, self.exited], [], [], left)
            if self.exited in ready:
                _, status, self.usage = os.wait4(self.process.pid, 0)
                self.process.returncode = os.waitstatus_to_exitcode(status)
                return self.process.returncode
            if ready:
                self.read(0)

    def end(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.drain()
        os.close(self.master)
        os.close(self.exited)


def ticks(pid):
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    # Fields 14 and 15 of proc(5), counted after the command name's closing parenthesis.
    return int(fields[11]) + int(fields[12])


def kilobytes(path, key):
    with open(path) as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise LookupError("%s has no %s" % (path, key))


def memory(pid):
    """A process's memory now, in kB: resident ("rss_kb", VmRSS) and peak resident ("vmhwm_kb",
    VmHWM) from /proc/PID/status; proportional ("pss_kb", Pss: each shared page divided among the
    processes mapping it) and private dirty ("private_dirty_kb") from /proc/PID/smaps_rollup."""
    status, rollup = "/proc/%d/status" % pid, "/proc/%d/smaps_rollup" % pid
    return {"rss_kb": kilobytes(status, "VmRSS"), "vmhwm_kb": kilobytes(status, "VmHWM"),
            "pss_kb": kilobytes(rollup, "Pss"), "private_dirty_kb": kilobytes(rollup, "Private_Dirty")}


def fail(run, stderr, why):
    run.end()
    stderr.seek(0)
    sys.stderr.write("%s: %s\n" % (" ".join(run.process.args), why))
    sys.stderr.write("  output: %r\n  errors: %r\n" % (run.output.decode("utf-8", "replace")[-2000:], stderr.read()[-2000:]))
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["time", "hold"])
    parser.add_argument("--shown", help="a regular expression for the line printed once the notification is shown")
    parser.add_argument("--seconds", type=float, default=1.0)
    argv = sys.argv[1:]
    if "--" not in argv:
        parser.error("the command goes after --")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1:]
    if not command or (args.mode == "hold" and not args.shown):
        parser.error("a command (after --) is needed, and --shown for hold")
    pattern = re.compile(args.shown) if args.shown else None
    with tempfile.TemporaryFile("w+") as stderr:
        run = Run(command, stderr)
        result = {}
        if pattern:
            if not run.wait_for_line(pattern):
                fail(run, stderr, "no line matching %r" % args.shown)
            result["shown_ms"] = run.elapsed_ms()
        if args.mode == "time":
            status = run.wait()
            result["exit_ms"] = run.elapsed_ms()
            result["status"] = status
            if run.usage:
                result["cpu_ms"] = (run.usage.ru_utime + run.usage.ru_stime) * 1000
            if status != 0:
                fail(run, stderr, "exit status %s" % status)
        else:
            pid = run.process.pid
            try:
                before = ticks(pid)
                time.sleep(args.seconds)
                run.drain()
                result["ticks"] = ticks(pid) - before
                if run.process.poll() is not None:
                    fail(run, stderr, "exited (status %s) instead of waiting for an answer" % run.process.returncode)
                result.update(memory(pid))
            except (OSError, LookupError, IndexError, ValueError) as error:
                fail(run, stderr, "could not read /proc while it waited: %s" % error)
        run.end()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
