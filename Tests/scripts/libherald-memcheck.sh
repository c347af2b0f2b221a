#!/usr/bin/env bash
# Runs libherald-1's memory tests: the C example under valgrind's memcheck, from the library as
# desktop/libherald/build.sh installs it, showing a message on a private bus's mock server and
# hearing its click (no block the library allocated may be definitely lost, and no value it
# reads uninitialised but the one Tests/support/libherald.supp explains), the same for a program
# that reads the app's inbox (Tests/support/libherald_ownership.c), and the counts from
# C of what the library finalizes and frees (LibHeraldTests), also for a client released on
# another thread. memcheck.sh runs it after its own.
#
#   Tests/scripts/libherald-memcheck.sh [--skip-build]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "libherald-memcheck: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
source Tests/scripts/build-flags.sh
if [ "${1:-}" != "--skip-build" ]; then swift build --build-tests "${HERALD_BUILD_FLAGS[@]}"; fi
swift test --skip-build --disable-swift-testing \
  --filter 'LibHeraldTests/(testTheCExampleLosesNoMemoryOfItsOwnUnderValgrind|testReadingTheInboxLosesNoMemoryOfItsOwnUnderValgrind|testClientAndMessagesAreFinalizedOnceAndEveryHandlersUserDataIsFreedOnce|testAClientReleasedOnAnotherThreadIsFinalizedOnceOnTheMainThreadAndHearsNothingAfter)$'
