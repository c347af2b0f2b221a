#!/usr/bin/env bash
# Sets up the machine and runs every test: unit tests of the policy and end-to-end tests of
# `herald` against a private session bus, python3-dbusmock and a loopback feed server.
set -euo pipefail
cd "$(dirname "$0")/../.."
Tests/scripts/setup.sh
swift build --build-tests
swift test --skip-build
