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
count=0
while IFS= read -r file; do
  case "$file" in "$prefix"/*) ;; *) echo "skipping $file: outside $prefix" >&2; continue ;; esac
  # -L: a link to a file removed before it still goes.
  if [ -e "$file" ] || [ -L "$file" ]; then rm -f "$file"; count=$((count + 1)); fi
  dir="$(dirname "$file")"
  while [ "$dir" != "$prefix" ] && rmdir "$dir" 2>/dev/null; do dir="$(dirname "$dir")"; done
done < "$manifest"
rm -f "$manifest"
rmdir "$prefix/share/herald" "$prefix/share" 2>/dev/null || true
echo "removed $count files from $prefix"
