#!/usr/bin/env bash
# Builds the Debian package herald_<version>_<arch>.deb and prints its path: the release programs
# with the Swift runtime linked in and stripped, herald's manual page and its bash, zsh and fish
# completions, the GTK demo's manual page and desktop entry, the agent's desktop entry, D-Bus service
# and systemd user unit, the icons, the copyright file and the changelog. The version is the one the built herald reports (`herald --version`), and must be the
# changelog's latest. The dependencies are the libraries dpkg-shlibdeps finds the programs use,
# plus glib-networking (libsoup's TLS, for https feeds); a notification server is recommended.
#
#   desktop/debian/build-deb.sh [--output DIR]        (default: the current folder)
#
# HERALD_BUILD_DIR names the release build folder (default .build-release, the one
# desktop/install.sh and the tests use, so the package costs no build of its own there). When
# lintian is installed it checks the package, and an error or a warning from it fails the
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
if [[ " ${products[*]} " != *" herald-gtk-demo "* ]]; then
  say "GTK 4 is missing (pkg-config gtk4), so herald-gtk-demo cannot be built: run Tests/scripts/setup.sh"
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
# The package's file times, and so the package, depend on the sources only.
SOURCE_DATE_EPOCH="$(date -d "$(dpkg-parsechangelog -l "$here/changelog" -S Date)" +%s)"
export SOURCE_DATE_EPOCH

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
package="$stage/herald"
write_manual_and_completions "$stage/generated"
for product in herald herald-gtk-demo; do
  install_stripped "$bin/$product" "$package/usr/bin/$product"
  install -Dm644 "$stage/generated/man1/$product.1" "$package/usr/share/man/man1/$product.1"
  gzip -9n "$package/usr/share/man/man1/$product.1"
done
install -Dm644 "$stage/generated/bash/herald" "$package/usr/share/bash-completion/completions/herald"
install -Dm644 "$stage/generated/zsh/_herald" "$package/usr/share/zsh/vendor-completions/_herald"
install -Dm644 "$stage/generated/fish/herald.fish" "$package/usr/share/fish/vendor_completions.d/herald.fish"
install -Dm644 "$root/desktop/org.herald.GtkDemo.desktop" "$package/usr/share/applications/org.herald.GtkDemo.desktop"
install -Dm644 "$root/desktop/org.herald.Agent.desktop" "$package/usr/share/applications/org.herald.Agent.desktop"
for unit in org.herald.Agent.service herald-agent.service; do
  sed -e "s|@BINDIR@|/usr/bin|" "$root/desktop/$unit" > "$stage/$unit"
done
install -Dm644 "$stage/org.herald.Agent.service" "$package/usr/share/dbus-1/services/org.herald.Agent.service"
install -Dm644 "$stage/herald-agent.service" "$package/usr/lib/systemd/user/herald-agent.service"
while IFS= read -r icon; do
  install -Dm644 "$root/icons/$icon" "$package/usr/share/icons/$icon"
done < <(cd "$root/icons" && find hicolor -type f \( -name '*.png' -o -name '*.svg' \) | sort)
doc="$package/usr/share/doc/herald"
install -Dm644 "$here/copyright" "$doc/copyright"
install -Dm644 "$here/changelog" "$doc/changelog"
gzip -9n "$doc/changelog"
# The login entry `herald autostart enable` writes for the demo, as an example: installed where
# every session would read it, it would check a feed at every user's login.
install -Dm644 "$root/desktop/org.herald.GtkDemo.herald.desktop" "$doc/examples/org.herald.GtkDemo.herald.desktop"
find "$package" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

# dpkg-shlibdeps reads the source package's control file; this one names only the package.
mkdir -p "$stage/debian" "$package/DEBIAN"
printf 'Source: herald\n\nPackage: herald\nArchitecture: %s\n' "$arch" > "$stage/debian/control"
depends="$(cd "$stage" && dpkg-shlibdeps -O herald/usr/bin/herald herald/usr/bin/herald-gtk-demo)"
depends=${depends#shlibs:Depends=}
installed_size="$(du -sk --apparent-size "$package" | cut -f 1)"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
  "$here/control.in" > "$package/DEBIAN/control"
(cd "$package" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$package/DEBIAN/md5sums"
chmod 644 "$package/DEBIAN/control" "$package/DEBIAN/md5sums"

mkdir -p "$output"
deb="$(cd "$output" && pwd)/herald_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$package" "$deb" >&2
if [ "${HERALD_SKIP_LINTIAN:-0}" = 1 ]; then
  :
elif command -v lintian >/dev/null; then
  lintian --fail-on error,warning "$deb" >&2
else
  say "lintian is not installed: the package is not checked"
fi
say "$(du -k "$deb" | cut -f 1) KiB in $(($(date +%s) - started)) s"
echo "$deb"
