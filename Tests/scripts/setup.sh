#!/usr/bin/env bash
# Installs what Herald needs on Debian 12: the C libraries it builds against, the TLS module
# libsoup uses, and the session bus and mock notification server its tests run against.
set -euo pipefail
packages=(pkg-config libnotify-dev libglib2.0-dev libglib2.0-bin libsoup-3.0-dev glib-networking
          gsettings-desktop-schemas dbus python3-dbus python3-dbusmock)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
