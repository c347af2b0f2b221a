#!/usr/bin/env bash
# What libherald-1 costs an app at start-up, against Herald's Swift library in the same run:
#   - loading it: a GLib program's start (from just before the parent starts it to its main)
#     without and with the library linked, and dlopen("libherald-1.so.0") in a fresh GLib process;
#   - herald_client_app_launched(): how long it holds the caller's thread (the call and the
#     main-loop work it queues), next to Herald.appLaunched() timed by herald-launch-bench, a
#     check due on both sides, and one not due that both stop at the check period (checked).
# ROUNDS rounds (default 15), each measuring every figure, which alternate which side goes
# first; the table gives the median of the rounds' medians.
#
#   Tests/scripts/libherald-bench.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
rounds=${1:-15}
work="$(mktemp -d /tmp/libherald-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT

echo "libherald-bench: building libherald-1 (desktop/libherald/build.sh) and herald-launch-bench as bench.sh builds it" >&2
desktop/libherald/build.sh "$work/prefix" >&2
source desktop/release.sh
link_release .build-release herald-launch-bench >&2
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
bench=Tests/Benchmarks/LibHerald
# shellcheck disable=SC2046 # pkg-config's flags are meant to split into words
{
  gcc -O2 -o "$work/plain" "$bench/start_bench.c" $(pkg-config --cflags --libs gobject-2.0)
  gcc -O2 -DLINKED -o "$work/linked" "$bench/start_bench.c" -Wl,--no-as-needed $(pkg-config --cflags --libs herald-1)
  gcc -O2 -DDLOPEN -o "$work/dlopen" "$bench/start_bench.c" $(pkg-config --cflags --libs gobject-2.0) -ldl
  gcc -O2 -o "$work/launch" "$bench/launch_bench.c" $(pkg-config --cflags --libs herald-1)
}

LD_LIBRARY_PATH="$work/prefix/lib" DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-bus" /usr/bin/python3 - "$work" "$bin/herald-launch-bench" "$rounds" <<'PY'
import json, os, statistics, subprocess, sys, time
work, swift_bench, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])

def start_us(program, times=20):
    spans = []
    for _ in range(times):
        env = dict(os.environ, HERALD_BENCH_SPAWNED=str(time.monotonic_ns()))
        spans.append(float(subprocess.run([program], check=True, capture_output=True, text=True, env=env).stdout))
    return statistics.median(spans)

# The gate each case's check must stop at, the same on both sides: none for a due check, the
# check period for one not due.
gates = {"due": None, "not-due": "check-period"}

def launch(command):
    os.makedirs(work + "/state", exist_ok=True)
    env = dict(os.environ, XDG_STATE_HOME=work + "/state")
    out = subprocess.run(command + ["--runs", "25"], check=True, capture_output=True, text=True, env=env).stdout
    figures = list(map(json.loads, out.splitlines()))
    for figure in figures:
        if figure["gate"] != gates[figure["case"]]:
            sys.exit(f"libherald-bench: {command[0]}'s {figure['case']} case stopped at {figure['gate']}, not {gates[figure['case']]}")
    return {figure["case"]: figure["median_us"] for figure in figures}

figures = {name: [] for name in ["plain", "linked", "dlopen", "swift-due", "swift-not-due", "c-due", "c-not-due"]}
for round in range(rounds):
    order = ["plain", "linked"] if round % 2 == 0 else ["linked", "plain"]
    for name in order:
        figures[name].append(start_us(work + "/" + name))
    figures["dlopen"].append(float(subprocess.run([work + "/dlopen"], check=True, capture_output=True, text=True).stdout))
    sides = [("swift", [swift_bench]), ("c", [work + "/launch"])]
    for side, command in (sides if round % 2 == 0 else sides[::-1]):
        for case, value in launch(command).items():
            figures[side + "-" + case].append(value)

median = {name: statistics.median(values) for name, values in figures.items()}
print(f"| libherald-1, µs (median of {rounds} rounds) | figure |")
print("|---|---|")
print(f"| a GLib program's start (until main), without the library | {median['plain']:.0f} |")
print(f"| the same, linked with libherald-1 | {median['linked']:.0f} |")
print(f"| added by loading libherald-1 at start | {median['linked'] - median['plain']:.0f} |")
print(f"| dlopen(\"libherald-1.so.0\") in a fresh GLib process | {median['dlopen']:.0f} |")
print(f"| Herald.appLaunched(), a check due (herald-launch-bench) | {median['swift-due']:.0f} |")
print(f"| herald_client_app_launched(), a check due | {median['c-due']:.0f} |")
print(f"| Herald.appLaunched(), no check due | {median['swift-not-due']:.0f} |")
print(f"| herald_client_app_launched(), no check due | {median['c-not-due']:.0f} |")
PY
