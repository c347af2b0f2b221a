#!/usr/bin/env bash
# Sets up the machine and runs every test: unit tests of the policy, in-process tests of the
# library on a GLib main loop, and end-to-end tests of `herald` against a private session bus,
# python3-dbusmock and a loopback feed server (among them, when run as root, the Debian package:
# built from the release build the install test makes, installed with apt-get, run, purged). Then the checks that need builds or tools of their
# own, each of which fails the run on a finding:
#   the in-process tests under valgrind memcheck   Tests/scripts/memcheck.sh    HERALD_SKIP_MEMCHECK=1
#   the same under AddressSanitizer and ThreadSanitizer  Tests/scripts/sanitizers.sh  HERALD_SKIP_SANITIZERS=1
#   each decoder's fuzzer for a few seconds        Tests/scripts/fuzz.sh        HERALD_SKIP_FUZZ=1
#   the DocC catalog, built without a warning (beside memcheck)  Tests/scripts/docs.sh  HERALD_SKIP_DOCS=1
# and the benchmark in its quick form, so that it keeps working (no timing fails the run; only a
# figure that cannot be measured does)   Tests/scripts/bench.sh --quick     HERALD_SKIP_BENCH=1
# (the variables leave one out).
#
#   Tests/scripts/test.sh --quick
#
# runs only the tests a developer runs between edits: the unit tests (HeraldCoreTests,
# HeraldFleetTests, HeraldPublishingTests, and heraldTests of the command line's own values) and
# the in-process tests of the library, its GLib side and its test double (HeraldTests,
# HeraldDesktopTests, HeraldTestingTests), in about two minutes after the build; no end-to-end
# test, no sanitizer, valgrind, fuzzing, documentation, packaging or benchmark.
#
#   Tests/scripts/test.sh --unit
#
# runs only the rules as plain values: HeraldCoreTests, HeraldFleetTests, HeraldPublishingTests
# and heraldTests, without the few of their tests that start a process or take more than a few
# seconds in a debug build (below, `unit_skip`; --quick runs them), in about fifteen seconds
# after the build; no session bus, no main loop, nothing installed beyond the build's own
# packages. A unit test that starts a process belongs in `unit_skip`.
set -euo pipefail
quick=0
unit=0
case ${1:-} in
  --quick) quick=1 ;;
  --unit) quick=1; unit=1 ;;
  "") ;;
  *) echo "test: unknown option $1 (--quick runs the unit and in-process tests only, --unit the unit tests only)" >&2; exit 64 ;;
esac
cd "$(dirname "$0")/../.."
if [ "$unit" = 1 ]; then Tests/scripts/setup.sh; else Tests/scripts/setup.sh --tests; fi
source Tests/scripts/build-flags.sh
swift build --build-tests "${HERALD_BUILD_FLAGS[@]}"
log=$(mktemp)
docs_log=$(mktemp)
trap 'rm -f "$log" "$docs_log"' EXIT
status=0
tests=()
# Test targets, not classes: a new class of a quick target is quick without a change here.
[ "$quick" = 0 ] || tests=(--filter '^(HeraldCoreTests|HeraldFleetTests|HeraldDesktopTests|HeraldPublishingTests|HeraldTests|HeraldTestingTests|heraldTests)\.')
# The unit tests that start a process (the fuzz corpus's replays, a child to see end, a killed
# writer, bash completing, groff and man rendering the manual, the built herald-fleet) and the
# three that take 5 to 45 s in a debug build (every option line through the parser, a state
# past the size limit).
unit_skip='FuzzCorpusTests|testThisProcessIsFoundWithItsStartTimeAndAnEndedChildIsNotEvenBeforeItIsReaped|testTemporaryFileOfAKilledWriterIsRemovedAtTheNextWrite|CompletionTests|testManualPageRendersWithoutWarnings|testTheToolPrintsTheSameReportForTheSameSeed'
unit_skip+='|testThePlainReadingRefusesWhatTheParserRefusesWithTheParsersFirstMessage|testEveryOptionOfTheParserReachesTheLineThePlainReadingAndTheAutostartArguments|testStateThatWouldOutgrowTheSizeLimitIsNotWrittenAndTheOldFileStays'
[ "$unit" = 0 ] || tests=(--filter '^(HeraldCoreTests|HeraldFleetTests|HeraldPublishingTests|heraldTests)\.' --skip "$unit_skip")
swift test --skip-build --disable-swift-testing "${tests[@]}" 2>&1 | tee "$log" || status=$?
further=0
docs=
if [ "$quick" = 0 ] && [ "${HERALD_SKIP_DOCS:-0}" != 1 ]; then
  # Beside memcheck, whose valgrind keeps one core busy: the catalog adds no time of its own.
  Tests/scripts/docs.sh >"$docs_log" 2>&1 &
  docs=$!
fi
if [ "$quick" = 0 ] && [ "${HERALD_SKIP_MEMCHECK:-0}" != 1 ]; then
  Tests/scripts/memcheck.sh --skip-build || further=1
fi
if [ -n "$docs" ]; then
  if wait "$docs"; then tail -n 1 "$docs_log"; else cat "$docs_log"; further=1; fi
fi
if [ "$quick" = 0 ] && [ "${HERALD_SKIP_SANITIZERS:-0}" != 1 ]; then
  Tests/scripts/sanitizers.sh address thread || further=1
fi
if [ "$quick" = 0 ] && [ "${HERALD_SKIP_FUZZ:-0}" != 1 ] && [ -x Tests/scripts/fuzz.sh ]; then
  Tests/scripts/fuzz.sh || further=1
fi
if [ "$quick" = 0 ] && [ "${HERALD_SKIP_BENCH:-0}" != 1 ]; then
  Tests/scripts/bench.sh --quick || further=1
fi
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?[0-9]+ failures?" "$log" | tail -1 || true)
total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.*[ ,] ?([0-9]+) failures?.*/\1/' <<<"$summary")
skipped=0
if [[ $summary =~ ([0-9]+)\ tests?\ skipped ]]; then skipped=${BASH_REMATCH[1]}; fi
if [ -z "$summary" ] || [ "$total" -eq 0 ]; then
  echo "tests: no test ran"
  exit 1
fi
if [ "$further" -ne 0 ] && [ "$status" -eq 0 ]; then status=1; fi
if [ "$failed" -ne 0 ]; then
  # The failures again, at the end, where a reader of the run's last lines sees them.
  echo "tests: failures"
  grep -E "^.*error: |^Test Case '.*' failed \(" "$log" | sed 's/^/  /' || true
fi
echo "tests: $((total - failed - skipped)) passed, $failed failed$([ "$skipped" -eq 0 ] || echo ", $skipped skipped")"
exit "$status"
