#!/usr/bin/env bash
# Builds libherald-1, Herald as a GObject library, with its introspection data, into a prefix:
#
#   desktop/libherald/build.sh OUT
#
# makes, in OUT:
#   lib/libherald-1.so.0.0.0          the library (SONAME libherald-1.so.0), with the Swift runtime
#   lib/libherald-1.so.0, .so         linked inside it, and libstdc++ (no Swift toolchain at run time); it exports
#                                     herald_* alone (desktop/libherald/libherald-1.map)
#   include/herald-1/herald.h         the C API, with gtk-doc/introspection annotations
#   lib/pkgconfig/herald-1.pc         pkg-config's herald-1; its first line, prefix=OUT, may be
#                                     rewritten when the files move
#   share/gir-1.0/Herald-1.gir        GI namespace Herald, version 1 (g-ir-scanner, which must give
#                                     no warning: one fails the build)
#   lib/girepository-1.0/Herald-1.typelib
#   share/vala/vapi/herald-1.vapi, herald-1.deps    for valac --pkg herald-1
#
# The Swift build is kept in .build-lib of the package (HERALD_LIB_SCRATCH sets another), so the
# next run only links what changed. Needs: the Swift toolchain, libglib2.0-dev,
# gobject-introspection and libgirepository1.0-dev, valac, binutils' strip (Tests/scripts/setup.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUT" >&2
  exit 64
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/desktop/libherald"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
scratch="${HERALD_LIB_SCRATCH:-$root/.build-lib}"
version="$(sed -n 's/.*static let current = "\(.*\)"/\1/p' "$root/Sources/Herald/Herald.swift")"

# Release mode with the Swift runtime linked in (SwiftPM passes --static-swift-stdlib to the
# links of programs alone, so the library's link is given -static-stdlib itself), the linker told the SONAME and what to export;
# concrete types' metadata fetched by their accessors (as desktop/release.sh builds the programs),
# and, with the toolchain's lld, relative relocations packed so that loading reads fewer.
options=(-c release --static-swift-stdlib -Xswiftc -static-stdlib --disable-local-rpath --product herald-1 --scratch-path "$scratch"
         -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
         -Xlinker "--version-script=$here/libherald-1.map" -Xlinker -soname=libherald-1.so.0)
swift_folder="$(dirname "$(readlink -f "$(command -v swift)")")"
# The C++ library the Swift runtime uses linked in from libstdc++.a, as desktop/release.sh links
# the programs, hidden by the version script: an app that has not loaded libstdc++.so then does
# not load it with libherald (about 0.9 ms of a start).
# shellcheck source=desktop/release.sh
source "$root/desktop/release.sh"
set_static_libstdcxx_options "$scratch"
options+=("${static_libstdcxx_options[@]}")
if [ -x "$swift_folder/ld.lld" ]; then
  options+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
fi
swift build --package-path "$root" "${options[@]}"
bin="$(swift build --package-path "$root" "${options[@]}" --show-bin-path)"

mkdir -p "$out/lib/pkgconfig" "$out/include/herald-1" "$out/share/gir-1.0" "$out/lib/girepository-1.0" "$out/share/vala/vapi"
# Without its debug information (27 MB with it, 23 without), which Debian 12's valgrind cannot
# read (DWARF 5); the copy in the build folder keeps it.
strip --strip-debug -o "$out/lib/libherald-1.so.0.0.0" "$bin/libherald-1.so"
chmod 644 "$out/lib/libherald-1.so.0.0.0"
ln -sfn libherald-1.so.0.0.0 "$out/lib/libherald-1.so.0"
ln -sfn libherald-1.so.0 "$out/lib/libherald-1.so"
install -m 644 "$root/Sources/libherald/include/herald.h" "$out/include/herald-1/herald.h"
sed -e "s|@PREFIX@|$out|" -e "s|@VERSION@|$version|" "$here/herald-1.pc.in" > "$out/lib/pkgconfig/herald-1.pc"

# The scanner reads the header and the comments of the sources, and runs a program linked with
# the library to ask the types for their properties and signals.
scan_log="$(mktemp)"
trap 'rm -f "$scan_log"' EXIT
g-ir-scanner --quiet --warn-all --namespace=Herald --nsversion=1 --identifier-prefix=Herald --symbol-prefix=herald \
  --include=GObject-2.0 --pkg=gobject-2.0 --pkg-export=herald-1 --c-include=herald.h \
  --library=herald-1 --library-path="$out/lib" -L"$out/lib" -I"$out/include/herald-1" \
  --output="$out/share/gir-1.0/Herald-1.gir" \
  "$out/include/herald-1/herald.h" "$root"/Sources/libherald/herald-*.c 2>&1 | tee "$scan_log" >&2
if [ -s "$scan_log" ]; then
  echo "$0: g-ir-scanner warned (above): fix the annotations" >&2
  exit 1
fi
g-ir-compiler --output="$out/lib/girepository-1.0/Herald-1.typelib" "$out/share/gir-1.0/Herald-1.gir"
vapigen --quiet --library=herald-1 --pkg=gobject-2.0 --metadatadir="$here" --directory="$out/share/vala/vapi" "$out/share/gir-1.0/Herald-1.gir"
printf 'gobject-2.0\n' > "$out/share/vala/vapi/herald-1.deps"
