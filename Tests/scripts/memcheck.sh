#!/usr/bin/env bash
# Runs the in-process tests (the library on a GLib main loop, in the test process itself) under
# valgrind memcheck, and fails if a block Herald's code allocated is lost (definitely, or held
# by a lost block: a leaked reference cycle), or if a test fails under valgrind.
#
#   Tests/scripts/memcheck.sh [--skip-build] [SUITE...]
#
# SUITE is what the XCTest bundle takes: Module.Class or Module.Class/test. Without any, every
# class of the modules in MEMCHECK_MODULES runs (the end-to-end tests run `herald` in child
# processes, which valgrind does not follow, so they are left out). The report is
# Tests/support/memcheck_report.py's; the XML and the test output stay in .build/memcheck/.
# Then Tests/scripts/libherald-memcheck.sh checks libherald-1 in the C example's process.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The test modules whose classes run in-process, and Herald's own modules (whose leaks count).
MEMCHECK_MODULES=${MEMCHECK_MODULES:-"HeraldTests HeraldDesktopTests HeraldTestingTests"}
# Classes left out: the concurrency rounds spend their time in fifty rounds of child processes,
# which valgrind does not follow, and the rollout runs the same check 2,000 times for a share;
# the library code both run in-process is the same the other classes run.
MEMCHECK_SKIP=${MEMCHECK_SKIP:-"HeraldTests.ConcurrentChecksTests HeraldTests.RolloutPipelineTests"}
HERALD_MODULES=${HERALD_MODULES:-"Herald,HeraldCore,HeraldDesktop,HeraldTesting"}
BUNDLE=.build/debug/HeraldPackageTests.xctest
OUT=.build/memcheck

build=1
suites=()
for argument in "$@"; do
  case $argument in
    --skip-build) build=0 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "memcheck: unknown option $argument" >&2; exit 64 ;;
    *) suites+=("$argument") ;;
  esac
done

command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
# With test.sh's flags (C in DWARF 4, which this valgrind reads), so either build serves both.
source Tests/scripts/build-flags.sh
if [ "$build" = 1 ]; then swift build --build-tests "${HERALD_BUILD_FLAGS[@]}"; fi
[ -x "$BUNDLE" ] || { echo "memcheck: no test bundle at $BUNDLE (build the tests first)" >&2; exit 1; }

if [ ${#suites[@]} -eq 0 ]; then
  pattern="^($(tr ' ' '|' <<<"$MEMCHECK_MODULES"))\\."
  skip="^($(tr ' ' '|' <<<"$MEMCHECK_SKIP"))\$"
  mapfile -t suites < <("$BUNDLE" --list-tests | grep -E "$pattern" | sed 's|/.*||' | sort -u | grep -vE "$skip")
  [ ${#suites[@]} -gt 0 ] || { echo "memcheck: no test class in modules $MEMCHECK_MODULES" >&2; exit 1; }
fi

mkdir -p "$OUT"
rm -f "$OUT"/memcheck.xml "$OUT"/valgrind.log "$OUT"/tests.log

# Foundation's Process (the tests start their bus, notification server and feed server with it)
# asks posix_spawn to close every descriptor it finds in /proc/self/fd. Under valgrind that lists
# valgrind's own descriptors too, above the limit valgrind shows the program, and posix_spawn
# fails with EBADF. This shim skips closing descriptors beyond that limit: they are valgrind's,
# close-on-exec, and not the program's to close.
shim_source=$OUT/spawn-shim.c
shim=$OUT/spawn-shim.so
cat > "$shim_source" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <unistd.h>

int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *actions, int fd) {
    static int (*next)(posix_spawn_file_actions_t *, int);
    if (!next) next = (int (*)(posix_spawn_file_actions_t *, int))dlsym(RTLD_NEXT, "posix_spawn_file_actions_addclose");
    if (fd >= getdtablesize()) return 0;
    return next(actions, fd);
}
C
compiler=$(command -v cc || command -v clang || true)  # clang comes with the Swift toolchain
[ -n "$compiler" ] || { echo "memcheck: no C compiler (cc or clang) to build $shim" >&2; exit 1; }
"$compiler" -shared -fPIC -O2 -o "$shim" "$shim_source" -ldl

echo "memcheck: ${#suites[@]} test classes under valgrind: ${suites[*]}"
start=$SECONDS
status=0
# G_SLICE/G_DEBUG: GLib allocates with plain malloc and clears freed pointers, so memcheck sees
# every block. Indirectly-lost blocks are in the XML too: of a leaked reference cycle memcheck
# calls one object, any of them, definitely lost and the others indirectly lost (see the
# report's notes). --child-silent-after-fork keeps forked children out of the XML.
G_SLICE=always-malloc G_DEBUG=gc-friendly LD_PRELOAD="$(realpath "$shim")" \
  valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite,indirect --num-callers=40 --child-silent-after-fork=yes \
    --xml=yes --xml-file="$OUT/memcheck.xml" --log-file="$OUT/valgrind.log" \
    "$BUNDLE" "$(IFS=,; echo "${suites[*]}")" >"$OUT/tests.log" 2>&1 || status=$?
elapsed=$((SECONDS - start))

summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?[0-9]+ failures?" "$OUT/tests.log" | tail -1 | sed 's/^[[:space:]]*//' || true)
echo "memcheck: tests under valgrind: ${summary:-no summary} (exit $status, ${elapsed}s)"
if [ "$status" -ne 0 ] || [ -z "$summary" ] || [[ $summary == "Executed 0 tests"* ]]; then
  grep -E "error:|Fatal error|crashed" "$OUT/tests.log" | head -20 || true
  echo "memcheck: the tests failed or did not run under valgrind; output in $OUT/tests.log, valgrind's in $OUT/valgrind.log"
  exit 1
fi

/usr/bin/python3 Tests/support/memcheck_report.py --modules "$HERALD_MODULES" --sources Sources "$OUT/memcheck.xml"

# libherald-1 runs in a C app's process: its memory is checked there (MEMCHECK_LIBHERALD=0 skips it).
if [ "${MEMCHECK_LIBHERALD:-1}" = 1 ]; then
  Tests/scripts/libherald-memcheck.sh --skip-build
fi
