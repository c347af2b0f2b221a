#!/usr/bin/env bash
# Runs the in-process tests (the library on a GLib main loop, in the test process itself) built
# with AddressSanitizer and with ThreadSanitizer, each in a build folder of its own.
#
#   Tests/scripts/sanitizers.sh [address] [thread]     (both by default)
#
# A sanitizer's report fails the run. The end-to-end tests run `herald` in child processes,
# which are not what is checked here, so only the in-process test modules run.
set -euo pipefail
cd "$(dirname "$0")/../.."

MODULES=${SANITIZER_MODULES:-"HeraldTests HeraldDesktopTests HeraldCoreTests HeraldPublishingTests HeraldTestingTests"}
# The concurrency rounds spend their time in child processes; the code they run in this
# process is what the other classes run too.
SKIP=${SANITIZER_SKIP:-"HeraldTests.ConcurrentChecksTests"}
sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)

status=0
for sanitizer in "${sanitizers[@]}"; do
  scratch=.build-$sanitizer
  echo "sanitizers: building the tests with --sanitize=$sanitizer in $scratch"
  mkdir -p "$scratch"
  swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" >"$scratch/build.log" 2>&1 || {
    tail -30 "$scratch/build.log"; echo "sanitizers: the $sanitizer build failed"; exit 1; }
  bundle=$scratch/debug/HeraldPackageTests.xctest
  pattern="^($(tr ' ' '|' <<<"$MODULES"))\\."
  skip="^($(tr ' ' '|' <<<"$SKIP"))\$"
  mapfile -t suites < <("$bundle" --list-tests | grep -E "$pattern" | sed 's|/.*||' | sort -u | grep -vE "$skip")
  log=$scratch/tests.log
  # halt_on_error: the first report ends the run with a failure, whatever the tests said.
  ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    "$bundle" "$(IFS=,; echo "${suites[*]}")" >"$log" 2>&1 || status=$?
  summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?[0-9]+ failures?" "$log" | tail -1 | sed 's/^[[:space:]]*//' || true)
  reports=$(grep -cE "^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer)" "$log" || true)
  echo "sanitizers: $sanitizer: ${summary:-no summary}; $reports sanitizer reports (log: $log)"
  if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ] || [ -z "$summary" ]; then
    grep -E -A25 "ERROR: AddressSanitizer|WARNING: ThreadSanitizer" "$log" | head -60 || true
    status=1
  fi
done
exit "$status"
