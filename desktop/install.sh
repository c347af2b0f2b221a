#!/usr/bin/env bash
# Installs Herald for the current user (or into --prefix): the herald tool and the GTK demo,
# built with the Swift runtime linked in (they run without a Swift toolchain), their desktop
# entries and the icons. Undo with desktop/uninstall.sh and the same --prefix.
#
#   desktop/install.sh [--prefix DIR]      (default ~/.local)
set -euo pipefail
source "$(dirname "$0")/prefix.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${HERALD_BUILD_DIR:-$root/.build-release}"

products=(herald)
if pkg-config --exists gtk4; then products+=(herald-gtk-demo); fi
for product in "${products[@]}"; do
  swift build --package-path "$root" -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product"
done
bin="$(swift build --package-path "$root" -c release --scratch-path "$scratch" --show-bin-path)"

installed=()
put() { # put MODE SOURCE DESTINATION
  install -Dm"$1" "$2" "$3"
  installed+=("$3")
}
for product in "${products[@]}"; do
  put 755 "$bin/$product" "$prefix/bin/$product"
done
if [[ " ${products[*]} " == *" herald-gtk-demo "* ]]; then
  entry="$prefix/share/applications/org.herald.GtkDemo.desktop"
  mkdir -p "$(dirname "$entry")"
  sed -e "s|^Exec=herald-gtk-demo|Exec=$prefix/bin/herald-gtk-demo|" \
      -e "s|^Exec=herald |Exec=$prefix/bin/herald |" \
      "$root/desktop/org.herald.GtkDemo.desktop" > "$entry"
  installed+=("$entry")
fi
while IFS= read -r icon; do
  put 644 "$root/icons/$icon" "$prefix/share/icons/$icon"
done < <(cd "$root/icons" && find hicolor -type f \( -name '*.png' -o -name '*.svg' \) | sort)

mkdir -p "$(dirname "$manifest")"
printf '%s\n' "${installed[@]}" > "$manifest"
echo "installed ${#installed[@]} files under $prefix (list: $manifest)"
