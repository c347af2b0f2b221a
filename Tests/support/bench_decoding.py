#!/usr/bin/python3
"""In-process decoding figures for Tests/scripts/bench.sh: Herald beside CPython.

  bench_decoding.py --tool HERALD_DECODE_BENCH --folder DIR [--rounds N] [--entries N] [--instructions]

Writes one feed of N entries (default 10,000; each with Title, Message, ActionURL,
ActionButton, MinVersion and MaxVersion, ids that sort by date) as an XML plist, a binary plist
and JSON into DIR. Then, round after round, parses each file in this process with CPython
(plistlib.loads, json.loads: five parses, their median) and runs the tool on the same files
(decode and order, five runs, their median), alternating which goes first. Prints one JSON line
per format with the median of the rounds' medians for each.

With --instructions, also counts the instructions of one parse on each side under valgrind's
callgrind ("herald_instructions", "python_instructions"): the count of a process that parses
four times less that of one that parses once, over three, so start-up, reading the file and the
first, cold parse cancel out. Unlike
milliseconds, counts do not move with the machine's load or speed.
"""
import argparse
import json
import os
import plistlib
import re
import statistics
import subprocess
import sys
import time

# A CPython child that reads a file and parses it N times.
PARSE_N_TIMES = """
import json, plistlib, sys
parse = json.loads if sys.argv[1] == "json" else plistlib.loads
data = open(sys.argv[2], "rb").read()
for _ in range(int(sys.argv[3])):
    parse(data)
"""


def feed(entries):
    messages = {}
    for number in range(entries):
        key = "%04d/%02d/%02d-%d" % (2000 + number // 365, 1 + (number // 28) % 12, 1 + number % 28, number)
        messages[key] = {
            "Title": "Message number %d with a title" % number,
            "Message": ("A body text for message %d, long enough to be like a real one. " % number) * 2,
            "ActionURL": "https://example.com/messages/%d" % number,
            "ActionButton": "Read more",
            "MinVersion": "1.0",
            "MaxVersion": "9.9",
        }
    return messages


def python_median(path, parse, repeats=5):
    with open(path, "rb") as handle:
        data = handle.read()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        parse(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def instructions(command):
    """The instructions a command runs, counted by callgrind (CPython with a fixed hash seed)."""
    environment = dict(os.environ, PYTHONHASHSEED="0")
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                            capture_output=True, text=True, env=environment)
    found = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or not found:
        sys.exit("bench_decoding: callgrind could not count %s: %s" % (command, result.stderr[-500:]))
    return int(found.group(1))


def instructions_per_parse(tool, name, path):
    """Instructions of one decode and order by the tool, and of one CPython parse."""
    # The tool decodes once more than --runs says; valgrind cannot read lld's debug information.
    stripped = tool + ".stripped"
    subprocess.run(["strip", "--strip-debug", "-o", stripped, tool], check=True)
    herald = (instructions([stripped, "--runs", "4", path]) - instructions([stripped, "--runs", "1", path])) // 3
    os.remove(stripped)
    # Both sides: four parses against one, so that neither counts a first, cold parse.
    python = (instructions([sys.executable, "-c", PARSE_N_TIMES, name, path, "4"])
              - instructions([sys.executable, "-c", PARSE_N_TIMES, name, path, "1"])) // 3
    return herald, python


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--folder", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--instructions", action="store_true")
    options = parser.parse_args()

    messages = feed(options.entries)
    files = {
        "xml": (os.path.join(options.folder, "feed-10k.plist"), plistlib.loads, "CPython plistlib.loads"),
        "binary": (os.path.join(options.folder, "feed-10k.bplist"), plistlib.loads, "CPython plistlib.loads"),
        "json": (os.path.join(options.folder, "feed-10k.json"), json.loads, "CPython json.loads"),
    }
    with open(files["xml"][0], "wb") as handle:
        plistlib.dump(messages, handle, fmt=plistlib.FMT_XML)
    with open(files["binary"][0], "wb") as handle:
        plistlib.dump(messages, handle, fmt=plistlib.FMT_BINARY)
    with open(files["json"][0], "w") as handle:
        json.dump(messages, handle)

    herald = {name: [] for name in files}
    python = {name: [] for name in files}
    for round_number in range(options.rounds):
        def run_tool():
            output = subprocess.run([options.tool, "--runs", "5"] + [path for path, _, _ in files.values()],
                                    check=True, capture_output=True, text=True).stdout
            by_path = {line["file"]: line for line in map(json.loads, output.splitlines())}
            for name, (path, _, _) in files.items():
                if by_path[path]["entries"] != options.entries:
                    sys.exit("bench_decoding: %s decoded to %d entries" % (path, by_path[path]["entries"]))
                herald[name].append(by_path[path]["median_ms"])

        def run_python():
            for name, (path, parse, _) in files.items():
                python[name].append(python_median(path, parse))

        first, second = (run_tool, run_python) if round_number % 2 == 0 else (run_python, run_tool)
        first()
        second()

    for name, (path, _, peer) in files.items():
        figure = {"format": name, "bytes": os.path.getsize(path), "entries": options.entries,
                  "rounds": options.rounds, "herald_ms": statistics.median(herald[name]),
                  "python_ms": statistics.median(python[name]), "peer": peer}
        if options.instructions:
            figure["herald_instructions"], figure["python_instructions"] = instructions_per_parse(
                options.tool, "json" if name == "json" else "plist", path)
        print(json.dumps(figure))


if __name__ == "__main__":
    main()
