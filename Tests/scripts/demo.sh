#!/usr/bin/env bash
# Sets up the machine, builds herald and shows the bundled sample feed on this desktop.
set -euo pipefail
cd "$(dirname "$0")/../.."
Tests/scripts/setup.sh
swift build -c release --product herald
exec .build/release/herald demo "$@"
