#!/usr/bin/python3
"""Runs a command on a pseudo-terminal, as a person at a terminal would.

  in_terminal.py ANSWER... -- COMMAND ARG...

Each time the command prints a prompt ending in "> ", the next ANSWER is typed. The
command's output is printed, then its exit status is the script's own. Gives up after 30 s.
"""
import os
import pty
import select
import sys
import time


def main():
    split = sys.argv.index("--")
    answers = sys.argv[1:split]
    command = sys.argv[split + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    output = b""
    pending = b""
    deadline = time.time() + 30
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
            pending += chunk
            if pending.rstrip(b" ").endswith(b">") and answers:
                os.write(fd, answers.pop(0).encode() + b"\n")
                pending = b""
        finished, status = os.waitpid(pid, os.WNOHANG)
        if finished:
            break
    else:
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0) if not finished else (pid, status)
    sys.stdout.write(output.decode(errors="replace"))
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
