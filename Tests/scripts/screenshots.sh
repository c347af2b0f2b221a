#!/usr/bin/env bash
# Regenerates the screenshots the README and desktop/docs show: runs the tests that drive real
# notification servers under Xvfb and keeps their screenshots in desktop/screenshots.
set -euo pipefail
cd "$(dirname "$0")/../.."
Tests/scripts/setup.sh --tests
source Tests/scripts/build-flags.sh
swift build --build-tests "${HERALD_BUILD_FLAGS[@]}"
HERALD_SCREENSHOTS="$PWD/desktop/screenshots" swift test --skip-build --disable-swift-testing --filter DesktopIntegrationTests
ls -l desktop/screenshots
