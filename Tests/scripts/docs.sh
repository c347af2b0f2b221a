#!/usr/bin/env bash
# Builds the DocC catalog of the Herald library (Sources/Herald/Herald.docc and the doc comments
# of what `import Herald` brings) with swift-docc-plugin, and fails on any DocC warning: a link
# to an article or a symbol that does not exist, a malformed article.
#
#   Tests/scripts/docs.sh [OUTPUT]
#
# The plugin is declared only when HERALD_DOCS=1 (Package.swift), so apps that depend on Herald
# never resolve it. It builds in .build, reusing the debug build the tests made (the full test
# run calls this script after its tests); the archive goes to OUTPUT (default
# .build/docs/Herald.doccarchive), which `docc preview` or any static web server shows. The last
# line is "docs: built OUTPUT, no warnings".
set -euo pipefail
case ${1:-} in
  -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "docs: unknown option $1 (see --help)" >&2; exit 64 ;;
esac
cd "$(dirname "$0")/../.."
output=${1:-.build/docs/Herald.doccarchive}
mkdir -p "$(dirname "$output")"
# DocC's own warnings are errors here (--warnings-as-errors), so its exit status says it all;
# SwiftPM's warnings about the C libraries' pkg-config flags are not the catalog's.
# With the tests' build flags, so that the debug build they made is reused, not redone.
source Tests/scripts/build-flags.sh
if ! HERALD_DOCS=1 swift package "${HERALD_BUILD_FLAGS[@]}" --allow-writing-to-directory "$(dirname "$output")" \
  generate-documentation --target Herald --output-path "$output" --warnings-as-errors; then
  echo "docs: the catalog has warnings or errors (above)" >&2
  exit 1
fi
echo "docs: built $output, no warnings"
