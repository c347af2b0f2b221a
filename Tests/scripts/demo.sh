#!/usr/bin/env bash
# Sets up the machine, builds herald and shows the bundled sample feed on this desktop.
#
# The build is the release build desktop/install.sh installs (in .build-release, made by
# desktop/release.sh), so that installing after the demo links the other programs and compiles
# nothing twice.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
Tests/scripts/setup.sh
source desktop/release.sh
link_release "${HERALD_BUILD_DIR:-$root/.build-release}" herald
exec "$bin/herald" demo "$@"
