# shellcheck shell=bash
# Read by install.sh and debian/build-deb.sh: builds what they install and writes the manual and
# the shell completions, so that both install the same things made the same way.
#
#   build_release SCRATCH          release builds with the Swift runtime linked in (the programs
#                                  run without a Swift toolchain) of herald, herald-agent (the
#                                  session's agent, installed in libexec), herald-gtk-demo when
#                                  GTK 4 is there, herald-inbox when libadwaita is too;
#                                  sets $bin (their folder) and $products (the programs to install)
#   link_release SCRATCH PRODUCT...
#                                  release builds of those products, each linked afresh; sets $bin
#   set_release_options SCRATCH    sets $release_options, the `swift build` options of those builds
#   set_static_libstdcxx_options SCRATCH
#                                  sets $static_libstdcxx_options, those that link libstdc++.a in
#   write_manual_and_completions DIR
#                                  DIR/man1/herald.1, DIR/man1/herald-gtk-demo.1, herald-inbox.1 and the
#                                  completions DIR/bash/herald, DIR/zsh/_herald, DIR/fish/herald.fish
#   install_stripped SOURCE DESTINATION [MODE]
#                                  a program (or, MODE 644, a library) without its symbols and
#                                  debug information (the release build keeps them: 27 MB for
#                                  herald, about half stripped)
#   build_libherald OUT            libherald-1 with its header, .pc, introspection data and .vapi,
#                                  made by desktop/libherald/build.sh into OUT (its layout)
#   library_folder                 where a prefix keeps libraries: lib/<multiarch triplet> on Debian
#                                  and its derivatives (as their packages and Meson put them), else lib
#   write_libherald_pc OUT PREFIX LIBRARY_FOLDER DESTINATION
#                                  OUT's herald-1.pc for the library installed in PREFIX/LIBRARY_FOLDER
#
# The manual and completions come from the built herald's own command tree (the manual is
# `herald _man`, which adds the exit statuses, files, environment and examples; the completions
# are `herald --generate-completion-script`), so they list exactly the options the program takes. Expects $root, the package folder.

build_release() {
  local scratch=$1
  products=(herald herald-agent)
  if pkg-config --exists gtk4; then products+=(herald-gtk-demo); fi
  if pkg-config --exists gtk4 libadwaita-1; then products+=(herald-inbox); fi
  link_release "$scratch" "${products[@]}"
}

link_release() {
  local scratch=$1 product
  shift
  set_release_options "$scratch"
  for product in "$@"; do
    # Linked afresh: SwiftPM does not see a change of desktop/link-order.txt, so a program
    # linked before it changed would keep the old layout.
    rm -f "$scratch/release/$product"
    swift build --package-path "$root" "${release_options[@]}" --scratch-path "$scratch" --product "$product"
  done
  bin="$(swift build --package-path "$root" "${release_options[@]}" --scratch-path "$scratch" --show-bin-path)"
}

# Sets $release_options, the `swift build` options of every release build (Tests/scripts/bench.sh
# measures with the same): release mode and the Swift runtime linked in; concrete types'
# metadata fetched by their accessors rather than by demangling their names at first use (the
# runtime then also searches every protocol conformance in the program for each requirement of
# a generic type: a check's state file cost 0.7 M instructions so, through the Codable types'
# containers, about a tenth of a check that is not due); and, when the toolchain has lld:
# - relative relocations packed (DT_RELR, which glibc reads since 2.36): the programs stay
#   position-independent, and their 40,000 relative relocations take 8 KB of the file instead
#   of 940 KB, which the loader no longer reads at every start;
# - each function in a section of its own, laid out in the order of desktop/link-order.txt (the
#   functions a check runs and those the agent runs, each program's together), so that each
#   touches fewer pages of its program. A function the list does not name, or a name no longer in
#   the code, only loses its place; `Tests/scripts/bench.sh --write-link-order` writes the list
#   afresh;
# - only the symbols the desktop's libraries call exported (the Swift runtime's link options ask
#   for every symbol of the program, which no library or plugin of Herald looks up): the loader
#   then has a few hundred names of the program to search instead of 3,600, in every lookup any
#   library makes;
# - the C++ library the Swift runtime uses linked in from libstdc++.a, where the toolchain has it
#   (the runtime's link options name -lstdc++; a folder of SCRATCH holding only the archive comes
#   first in the search): the program then does not load libstdc++.so and bind its 1,700
#   symbols at each start, and carries the 85 KB of it the runtime uses. A library that needs
#   libstdc++.so (GIO's libproxy module, when a fetch loads it) loads it as before; the program's
#   copy stays hidden from it.
set_release_options() {
  local scratch=$1
  release_options=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
  local swift_folder order
  swift_folder="$(dirname "$(readlink -f "$(command -v swift)")")"
  order="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/link-order.txt"
  set_static_libstdcxx_options "$scratch"
  release_options+=("${static_libstdcxx_options[@]}")
  if [ -x "$swift_folder/ld.lld" ]; then
    release_options+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xswiftc -Xfrontend -Xswiftc -function-sections
                      -Xlinker --no-export-dynamic)
    if [ -f "$order" ]; then
      release_options+=(-Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
    fi
  fi
}

# Sets $static_libstdcxx_options, the `swift build` options that link the C++ library the Swift
# runtime uses from libstdc++.a where the toolchain has it (a folder of SCRATCH holding only the
# archive, first in the search, stands for the -lstdc++ of the runtime's link options); none
# where it has not. The programs' builds and libherald-1's (desktop/libherald/build.sh) use it.
set_static_libstdcxx_options() {
  local scratch=$1 swift_folder archive
  static_libstdcxx_options=()
  swift_folder="$(dirname "$(readlink -f "$(command -v swift)")")"
  archive="$("$swift_folder/clang" -print-file-name=libstdc++.a 2>/dev/null || true)"
  if [ -f "$archive" ]; then
    mkdir -p "$scratch/static-libstdc++"
    ln -sfn "$archive" "$scratch/static-libstdc++/libstdc++.a"
    static_libstdcxx_options=(-Xswiftc "-L$(cd "$scratch/static-libstdc++" && pwd)")
  fi
}

write_manual_and_completions() {
  local out=$1 date shell
  mkdir -p "$out/man1" "$out/bash" "$out/zsh" "$out/fish"
  # The manual's date is the last commit's, so that the same sources make the same page.
  date="$(git -C "$root" log -1 --format=%cs 2>/dev/null || date -u +%F)"
  "$bin/herald" _man --date "$date" > "$out/man1/herald.1"
  cp "$root/desktop/herald-gtk-demo.1" "$out/man1/herald-gtk-demo.1"
  cp "$root/desktop/herald-inbox.1" "$out/man1/herald-inbox.1"
  for shell in bash zsh fish; do
    "$bin/herald" --generate-completion-script "$shell" > "$out/$shell/$(completion_name "$shell")"
  done
  # bash-completion sources the file; a #! line would say it is a program to run.
  sed -i '1{/^#!/d}' "$out/bash/herald"
}

# The file name each shell looks a command's completion up by.
completion_name() {
  case $1 in
    bash) echo herald ;;
    zsh) echo _herald ;;
    fish) echo herald.fish ;;
  esac
}

install_stripped() {
  install -Dm"${3:-755}" "$1" "$2"
  # What Debian's dh_strip does for a program.
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$2"
}

build_libherald() {
  local tool
  for tool in g-ir-scanner g-ir-compiler vapigen; do
    if ! command -v "$tool" >/dev/null; then
      echo "$(basename "$0"): libherald-1's introspection data needs $tool, which is missing: run Tests/scripts/setup.sh (Debian: gobject-introspection, libgirepository1.0-dev, valac)" >&2
      exit 69
    fi
  done
  "$root/desktop/libherald/build.sh" "$1" >&2
}

library_folder() {
  local triplet
  triplet="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || true)"
  echo "lib${triplet:+/$triplet}"
}

write_libherald_pc() {
  local out=$1 prefix=$2 folder=$3 destination=$4
  mkdir -p "$(dirname "$destination")"
  sed -e "s|^prefix=.*|prefix=$prefix|" -e "s|^libdir=.*|libdir=\${prefix}/$folder|" "$out/lib/pkgconfig/herald-1.pc" > "$destination"
  chmod 644 "$destination"
}
