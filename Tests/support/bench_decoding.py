#!/usr/bin/python3
"""In-process decoding figures for Tests/scripts/bench.sh: Herald beside CPython.

  bench_decoding.py --tool HERALD_DECODE_BENCH --folder DIR [--rounds N] [--entries N]

Writes one feed of N entries (default 10,000; each with Title, Message, ActionURL,
ActionButton, MinVersion and MaxVersion, ids that sort by date) as an XML plist, a binary plist
and JSON into DIR. Then, round after round, parses each file in this process with CPython
(plistlib.loads, json.loads: five parses, their median) and runs the tool on the same files
(decode and order, five runs, their median), alternating which goes first. Prints one JSON line
per format with the median of the rounds' medians for each.
"""
import argparse
import json
import os
import plistlib
import statistics
import subprocess
import sys
import time


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--folder", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--entries", type=int, default=10000)
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
        print(json.dumps({"format": name, "bytes": os.path.getsize(path), "entries": options.entries,
                          "rounds": options.rounds, "herald_ms": statistics.median(herald[name]),
                          "python_ms": statistics.median(python[name]), "peer": peer}))


if __name__ == "__main__":
    main()
