#!/usr/bin/env bash
# Removes what desktop/install.sh installed into the same prefix, and nothing else.
#
#   desktop/uninstall.sh [--prefix DIR]    (default ~/.local)
set -euo pipefail
source "$(dirname "$0")/prefix.sh"
if [ ! -f "$manifest" ]; then
  echo "nothing to remove: no $manifest" >&2
  exit 0
fi
# The timer first, while its unit is there to disable: the links enabling it are not in the manifest.
if [ "$scope" = --global ] && [ "$(id -u)" != 0 ]; then scope=; fi
if [ -n "$scope" ] && command -v systemctl >/dev/null && grep -qx "$units/herald-check.timer" "$manifest"; then
  systemctl "$scope" disable herald-check.timer || true
  if [ "$scope" = --user ]; then systemctl --user stop herald-check.timer 2>/dev/null || true; fi
fi
count=0
while IFS= read -r file; do
  case "$file" in "$prefix"/* | "$autostart/org.herald.CheckRegistered.desktop") ;; *) echo "skipping $file: outside $prefix" >&2; continue ;; esac
  # -L: a link to a file removed before it still goes.
  if [ -e "$file" ] || [ -L "$file" ]; then rm -f "$file"; count=$((count + 1)); fi
  # Folders under the prefix go when empty; those outside it (the login entry's) stay.
  dir="$(dirname "$file")"
  case "$dir" in "$prefix"/*) ;; *) continue ;; esac
  while [ "$dir" != "$prefix" ] && rmdir "$dir" 2>/dev/null; do dir="$(dirname "$dir")"; done
done < "$manifest"
rm -f "$manifest"
rmdir "$prefix/share/herald" "$prefix/share" 2>/dev/null || true
echo "removed $count files from $prefix"
