#!/usr/bin/env bash
# Builds the Debian packages herald, herald-gtk-demo, herald-inbox, libherald-1-0, libherald-1-dev
# and gir1.2-herald-1 (each NAME_<version>_<arch>.deb) and prints their paths, one a line, in that
# order. Each holds the copyright file and the changelog; the programs and the library are release
# builds with the Swift runtime linked in, stripped. herald holds the herald command, its manual
# page and its bash, zsh and fish completions, the agent (/usr/libexec/herald-agent, which D-Bus
# starts), its manual page, desktop entry, D-Bus service and systemd user unit, the timer that
# checks every registered app (herald-check.timer and .service, which its postinst enables for
# every user and its postrm takes away) with the login entry that does so where there is no
# systemd user manager (/etc/xdg/autostart, a conffile), and the icons;
# herald-gtk-demo holds the GTK demo, its manual page, its desktop entry and (as an example) its
# login entry, and depends on herald of the same version, so that herald itself needs no GTK;
# herald-inbox the person's inbox window (GTK 4 and libadwaita), its manual page, desktop
# entry and AppStream metainfo, and depends on herald of the same version too (which holds its icon).
# libherald-1-0 holds libherald-1.so.0 (made by desktop/libherald/build.sh) in Debian's multiarch
# folder, with its shlibs and symbols files (every exported herald_* symbol, at this version) for
# the packages of apps that link it; libherald-1-dev its header, the libherald-1.so link,
# herald-1.pc, Herald-1.gir and herald-1.vapi; gir1.2-herald-1 the typelib. The version is the one
# the built herald reports (`herald --version`), and must be the changelog's latest. Each package
# with a program or a library depends on the libraries dpkg-shlibdeps finds it uses; herald and
# libherald-1-0 also on those Herald loads when it runs (libsoup, libnotify) and glib-networking
# (libsoup's TLS, for https feeds); herald recommends a notification server.
#
#   desktop/debian/build-deb.sh [--output DIR]        (default: the current folder)
#
# HERALD_BUILD_DIR names the release build folder (default .build-release, the one
# desktop/install.sh and the tests use, so the packages cost no build of their own there). When
# lintian is installed it checks the packages, and an error or a warning from it fails the
# script (HERALD_SKIP_LINTIAN=1 leaves that to the caller, as the tests do). Needs dpkg-dev and GTK 4's headers for the demo (Tests/scripts/setup.sh installs them).
set -euo pipefail
umask 022
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$root/desktop/release.sh"
output="$PWD"
while [ $# -gt 0 ]; do
  case $1 in
    --output)
      if [ $# -lt 2 ]; then echo "build-deb: --output takes a folder" >&2; exit 64; fi
      output=$2; shift 2 ;;
    *) echo "usage: $0 [--output DIR]" >&2; exit 64 ;;
  esac
done
say() { printf 'build-deb: %s\n' "$*" >&2; }
started=$(date +%s)

build_release "${HERALD_BUILD_DIR:-$root/.build-release}" >&2
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
build_libherald "$stage/libherald"
if [[ " ${products[*]} " != *" herald-gtk-demo "* ]]; then
  say "GTK 4 is missing (pkg-config gtk4), so herald-gtk-demo cannot be built: run Tests/scripts/setup.sh"
  exit 69
fi
if [[ " ${products[*]} " != *" herald-inbox "* ]]; then
  say "libadwaita is missing (pkg-config libadwaita-1), so herald-inbox cannot be built: run Tests/scripts/setup.sh"
  exit 69
fi
version="$("$bin/herald" --version)"
version=${version#herald }
changelog_version="$(dpkg-parsechangelog -l "$here/changelog" -S Version)"
if [ "$version" != "$changelog_version" ]; then
  say "herald is version $version but desktop/debian/changelog's latest entry is $changelog_version: add an entry for $version"
  exit 65
fi
arch="$(dpkg --print-architecture)"
# The packages' file times, and so the packages, depend on the sources only.
SOURCE_DATE_EPOCH="$(date -d "$(dpkg-parsechangelog -l "$here/changelog" -S Date)" +%s)"
export SOURCE_DATE_EPOCH

cli="$stage/herald"
demo="$stage/herald-gtk-demo"
inbox="$stage/herald-inbox"
library="$stage/libherald-1-0"
dev="$stage/libherald-1-dev"
typelib="$stage/gir1.2-herald-1"
write_manual_and_completions "$stage/generated"

# A package's program and its manual page.
install_program() {
  local product=$1 package=$2
  install_stripped "$bin/$product" "$package/usr/bin/$product"
  install -Dm644 "$stage/generated/man1/$product.1" "$package/usr/share/man/man1/$product.1"
  gzip -9n "$package/usr/share/man/man1/$product.1"
}

# What every package holds in /usr/share/doc: the copyright file and the changelog.
install_doc() {
  local package=$1 doc
  doc="$package/usr/share/doc/$(basename "$package")"
  install -Dm644 "$here/copyright" "$doc/copyright"
  install -Dm644 "$here/changelog" "$doc/changelog"
  gzip -9n "$doc/changelog"
}

install_program herald "$cli"
install -Dm644 "$stage/generated/bash/herald" "$cli/usr/share/bash-completion/completions/herald"
install -Dm644 "$stage/generated/zsh/_herald" "$cli/usr/share/zsh/vendor-completions/_herald"
install -Dm644 "$stage/generated/fish/herald.fish" "$cli/usr/share/fish/vendor_completions.d/herald.fish"
install_stripped "$bin/herald-agent" "$cli/usr/libexec/herald-agent"
install -Dm644 "$root/desktop/herald-agent.8" "$cli/usr/share/man/man8/herald-agent.8"
gzip -9n "$cli/usr/share/man/man8/herald-agent.8"
for unit in org.herald.Agent.desktop org.herald.Agent.service herald-agent.service; do
  sed -e "s|@LIBEXECDIR@|/usr/libexec|" "$root/desktop/$unit" > "$stage/$unit"
done
install -Dm644 "$stage/org.herald.Agent.desktop" "$cli/usr/share/applications/org.herald.Agent.desktop"
install -Dm644 "$stage/org.herald.Agent.service" "$cli/usr/share/dbus-1/services/org.herald.Agent.service"
install -Dm644 "$stage/herald-agent.service" "$cli/usr/lib/systemd/user/herald-agent.service"
# Herald's categories as KDE notification events, which Plasma's settings list (5 and 6).
for folder in knotifications5 knotifications6; do
  install -Dm644 "$root/desktop/herald.notifyrc" "$cli/usr/share/$folder/herald.notifyrc"
done
# The check of every registered app: the timer (enabled for every user by the postinst), its
# service, and the login entry for sessions without a systemd user manager (a conffile).
for unit in herald-check.timer herald-check.service; do
  sed -e "s|@BINDIR@|/usr/bin|" "$root/desktop/systemd/$unit" > "$stage/$unit"
  install -Dm644 "$stage/$unit" "$cli/usr/lib/systemd/user/$unit"
done
sed -e "s|@BINDIR@|/usr/bin|" "$root/desktop/autostart/org.herald.CheckRegistered.desktop" > "$stage/org.herald.CheckRegistered.desktop"
install -Dm644 "$stage/org.herald.CheckRegistered.desktop" "$cli/etc/xdg/autostart/org.herald.CheckRegistered.desktop"
mkdir -p "$cli/DEBIAN"
printf '/etc/xdg/autostart/org.herald.CheckRegistered.desktop\n' > "$cli/DEBIAN/conffiles"
install -m755 "$here/herald.postinst" "$cli/DEBIAN/postinst"
install -m755 "$here/herald.postrm" "$cli/DEBIAN/postrm"
chmod 644 "$cli/DEBIAN/conffiles"
# Herald's icons: the agent's, the default of every check's messages, and the demo's; the inbox
# window's.
while IFS= read -r icon; do
  install -Dm644 "$root/icons/$icon" "$cli/usr/share/icons/$icon"
done < <(cd "$root/icons" && find hicolor -type f \( -name '*.png' -o -name '*.svg' \) | sort)
install_doc "$cli"

install_program herald-gtk-demo "$demo"
install -Dm644 "$root/desktop/org.herald.GtkDemo.desktop" "$demo/usr/share/applications/org.herald.GtkDemo.desktop"
install_doc "$demo"
# The registration `herald autostart enable` writes for the demo, and the login entry from before
# that `enable` moves into it, as examples: installed where every session would read them, they
# would check a feed for every user.
install -Dm644 "$root/desktop/org.herald.GtkDemo.conf" "$demo/usr/share/doc/herald-gtk-demo/examples/org.herald.GtkDemo.conf"
install -Dm644 "$root/desktop/org.herald.GtkDemo.herald.desktop" "$demo/usr/share/doc/herald-gtk-demo/examples/org.herald.GtkDemo.herald.desktop"

install_program herald-inbox "$inbox"
install -Dm644 "$root/desktop/org.herald.Inbox.desktop" "$inbox/usr/share/applications/org.herald.Inbox.desktop"
install -Dm644 "$root/desktop/org.herald.Inbox.metainfo.xml" "$inbox/usr/share/metainfo/org.herald.Inbox.metainfo.xml"
install_doc "$inbox"

# libherald-1, in the folders where Debian keeps a library, its development files and typelibs.
libraries="usr/$(library_folder)"
made="$stage/libherald"
install_stripped "$made/lib/libherald-1.so.0.0.0" "$library/$libraries/libherald-1.so.0.0.0" 644
ln -s libherald-1.so.0.0.0 "$library/$libraries/libherald-1.so.0"
install_doc "$library"
install -Dm644 "$made/include/herald-1/herald.h" "$dev/usr/include/herald-1/herald.h"
mkdir -p "$dev/$libraries"
ln -s libherald-1.so.0 "$dev/$libraries/libherald-1.so"
write_libherald_pc "$made" /usr "${libraries#usr/}" "$dev/$libraries/pkgconfig/herald-1.pc"
install -Dm644 "$made/share/gir-1.0/Herald-1.gir" "$dev/usr/share/gir-1.0/Herald-1.gir"
install -Dm644 "$made/share/vala/vapi/herald-1.vapi" "$dev/usr/share/vala/vapi/herald-1.vapi"
install -Dm644 "$made/share/vala/vapi/herald-1.deps" "$dev/usr/share/vala/vapi/herald-1.deps"
install_doc "$dev"
install -Dm644 "$made/lib/girepository-1.0/Herald-1.typelib" "$typelib/$libraries/girepository-1.0/Herald-1.typelib"
install_doc "$typelib"

# dpkg-shlibdeps and dpkg-gensymbols read the source package's control file; this one names only the packages.
mkdir -p "$stage/debian"
{
  printf 'Source: herald\n'
  for package in "$cli" "$demo" "$inbox" "$library" "$dev" "$typelib"; do
    printf '\nPackage: %s\nArchitecture: %s\n' "$(basename "$package")" "$arch"
  done
} > "$stage/debian/control"
# The library's symbols file (every symbol it exports, at this version, which is the first that
# has them) and its shlibs file, from which the packages of apps linking it get their dependency;
# its trigger has the loader's cache learn it.
mkdir -p "$library/DEBIAN"
(cd "$stage" && dpkg-gensymbols -q -plibherald-1-0 -v"$version" -P"$library" -e"$library/$libraries/libherald-1.so.0.0.0" -O"$library/DEBIAN/symbols")
printf 'libherald-1 0 libherald-1-0 (>= %s)\n' "$version" > "$library/DEBIAN/shlibs"
printf 'activate-noawait ldconfig\n' > "$library/DEBIAN/triggers"
chmod 644 "$library/DEBIAN/symbols" "$library/DEBIAN/shlibs" "$library/DEBIAN/triggers"

mkdir -p "$output"
debs=()
for package in "$cli" "$demo" "$inbox" "$library" "$dev" "$typelib"; do
  name="$(basename "$package")"
  find "$package" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
  mkdir -p "$package/DEBIAN"
  # Each package's libraries from its own programs only, so that herald's are not the demo's.
  case $name in
    herald) programs=("$name/usr/bin/$name" "$name/usr/libexec/herald-agent") ;;
    herald-gtk-demo | herald-inbox) programs=("$name/usr/bin/$name") ;;
    libherald-1-0) programs=("$name/$libraries/libherald-1.so.0.0.0") ;;
    *) programs=() ;;
  esac
  depends=
  if [ ${#programs[@]} -gt 0 ]; then
    depends="$(cd "$stage" && dpkg-shlibdeps -O "${programs[@]}")"
    depends=${depends#shlibs:Depends=}
  fi
  installed_size="$(du -sk --apparent-size "$package" | cut -f 1)"
  # control.in holds one paragraph for each package.
  awk -v RS= -v name="$name" '$0 ~ "^Package: " name "\n" { print }' "$here/control.in" |
    sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    > "$package/DEBIAN/control"
  (cd "$package" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$package/DEBIAN/md5sums"
  chmod 644 "$package/DEBIAN/control" "$package/DEBIAN/md5sums"
  deb="$(cd "$output" && pwd)/${name}_${version}_${arch}.deb"
  dpkg-deb --root-owner-group -Zxz --build "$package" "$deb" >&2
  debs+=("$deb")
done
if [ "${HERALD_SKIP_LINTIAN:-0}" = 1 ]; then
  :
elif command -v lintian >/dev/null; then
  lintian --fail-on error,warning "${debs[@]}" >&2
else
  say "lintian is not installed: the packages are not checked"
fi
say "$(du -kc "${debs[@]}" | tail -n 1 | cut -f 1) KiB in $(($(date +%s) - started)) s"
printf '%s\n' "${debs[@]}"
