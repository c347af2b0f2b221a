#!/usr/bin/env bash
# The faults loop at full length: SIGKILLs `herald check` processes at random moments while
# they claim and answer (Tests/support/kill_loop.py, through FaultTests' KillLoopTests, on a
# private session bus with python3-dbusmock and a loopback feed server), then fails if the
# state file ever did not parse or an answer a check confirmed before it died was lost.
#
#   Tests/scripts/kill-loop.sh [KILLS] [--seed N] [--skip-build]
#
# KILLS defaults to 300 (the default test run does 100). HERALD_SCRATCH_PATH picks the build
# folder (default .build). The numbers are printed as one JSON line, "kill loop: {...}".
set -euo pipefail
cd "$(dirname "$0")/../.."
kills=300
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) export HERALD_KILL_LOOP_SEED="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    *[!0-9]*|'') echo "usage: $0 [KILLS] [--seed N] [--skip-build]" >&2; exit 64 ;;
    *) kills="$1"; shift ;;
  esac
done
scratch="${HERALD_SCRATCH_PATH:-.build}"
if [ "$build" = 1 ]; then
  Tests/scripts/setup.sh --tests
  source Tests/scripts/build-flags.sh
  swift build --build-tests --scratch-path "$scratch" "${HERALD_BUILD_FLAGS[@]}"
fi
HERALD_KILL_LOOP_KILLS="$kills" swift test --skip-build --scratch-path "$scratch" --disable-swift-testing \
  --filter 'HeraldEndToEndTests.KillLoopTests' 2>&1 | grep -E '^kill loop: |error|Executed .* tests?' | tail -3
exit "${PIPESTATUS[0]}"
