#!/usr/bin/env bash
# Makes libherald-1's API reference with gi-docgen from Herald-1.gir (the header's and the
# sources' comments, as g-ir-scanner read them), and fails when a public symbol (a function, a
# method, a property, a signal, an enumeration's value, or a parameter of one) is not documented,
# or gi-docgen warns:
#
#   desktop/libherald/docs.sh OUT [GIR]
#
# OUT/index.html is the reference's first page (with a .devhelp2 index for Devhelp). GIR
# defaults to the one desktop/libherald/build.sh makes (into a temporary prefix). The last line is
# "libherald docs: built OUT, every public symbol documented". Needs gi-docgen (Debian:
# gi-docgen; Tests/scripts/setup.sh --tests).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 OUT [GIR]" >&2
  exit 64
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out=$1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ $# -eq 2 ]; then
  gir=$2
else
  "$root/desktop/libherald/build.sh" "$work/prefix" >&2
  gir="$work/prefix/share/gir-1.0/Herald-1.gir"
fi
version="$(sed -n 's/.*static let current = "\(.*\)"/\1/p' "$root/Sources/Herald/Herald.swift")"
sed -e "s|@VERSION@|$version|" "$root/desktop/libherald/herald-1.toml.in" > "$work/herald-1.toml"
# gi-docgen check names each undocumented symbol and exits 1; generate then fails on any warning.
if ! gi-docgen check --quiet --config "$work/herald-1.toml" "$gir"; then
  echo "libherald docs: document the symbols named above in Sources/libherald (gtk-doc comments)" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
gi-docgen generate --quiet --fatal-warnings --no-namespace-dir --config "$work/herald-1.toml" --output-dir "$out" "$gir"
echo "libherald docs: built $out, every public symbol documented"
