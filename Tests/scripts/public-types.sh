#!/usr/bin/env bash
# Counts the public types `import Herald` brings into an app, nested types included, from the
# built Herald module's symbol graph (swift-symbolgraph-extract, with every module of the
# package allowed as a re-export), and lists them one a line, sorted.
#
#   Tests/scripts/public-types.sh [--limit N] [BIN_PATH]
#
# BIN_PATH is the build's products folder (`swift build --show-bin-path`, the default); the
# Herald module must be built there. With --limit, more than N types is a failure (exit 1).
# The last line is "public-types: COUNT" (and "over the limit of N" when it is).
set -euo pipefail

limit=
case ${1:-} in
  -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  --limit) limit=${2:?--limit needs a number}; shift 2 ;;
  -*) echo "public-types: unknown option $1 (see --help)" >&2; exit 64 ;;
esac
cd "$(dirname "$0")/../.."
bin=${1:-$(swift build --show-bin-path)}
[ -d "$bin/Modules" ] && modules="$bin/Modules" || modules="$bin"
[ -e "$modules/Herald.swiftmodule" ] || { echo "public-types: no Herald module in $modules (swift build first)" >&2; exit 66; }

# Every Swift module the build made may be re-exported; the graph keeps only what Herald does.
allowed=$(cd "$modules" && ls -d *.swiftmodule | sed 's/\.swiftmodule$//' | paste -sd, -)
out=$(mktemp -d "${TMPDIR:-/tmp}/herald-public-types.XXXXXX")
trap 'rm -rf "$out"' EXIT
flags=()
for map in "$bin"/*.build/module.modulemap Sources/C*/module.modulemap; do
  [ -e "$map" ] && flags+=(-Xcc "-fmodule-map-file=$map")
done
for dir in $(pkg-config --cflags-only-I gobject-2.0 | sed 's/-I//g'); do flags+=(-Xcc "-I$dir"); done
swift-symbolgraph-extract -module-name Herald -I "$modules" "${flags[@]}" \
  -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public \
  -experimental-allowed-reexported-modules="$allowed" -output-dir "$out" >&2

/usr/bin/python3 - "$out/Herald.symbols.json" "$limit" <<'PY'
import json, sys

graph, limit = json.load(open(sys.argv[1])), sys.argv[2]
kinds = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}
names = sorted(".".join(s["pathComponents"]) for s in graph["symbols"] if s["kind"]["identifier"] in kinds)
print("\n".join(names))
over = limit != "" and len(names) > int(limit)
print(f"public-types: {len(names)}" + (f", over the limit of {limit}" if over else ""))
sys.exit(1 if over else 0)
PY
