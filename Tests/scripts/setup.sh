#!/usr/bin/env bash
# Installs what Herald needs on Debian 12, with apt-get, only what is missing.
#
#   Tests/scripts/setup.sh           to build and run: the C libraries Herald builds against
#                                    (GTK 4 for the demo app, libadwaita for the inbox window), the TLS module libsoup uses, and
#                                    gobject-introspection, libgirepository1.0-dev and valac for
#                                    libherald-1's introspection data and .vapi (desktop/install.sh
#                                    and build-deb.sh install them)
#   Tests/scripts/setup.sh --tests   also what the tests run against: a session bus, a mock and
#                                    two real notification servers, an X server, xdotool,
#                                    imagemagick, desktop-file-utils, appstream, valgrind, and gcc and
#                                    libnotify-bin for the benchmark's C floor and notify-send,
#                                    python3-gi and libjson-glib-dev for desktop/examples, and
#                                    dpkg-dev, lintian and man-db for the Debian package's test,
#                                    and the desktops of the desktop matrix: GNOME Shell, Plasma,
#                                    xfce4-notifyd with xfconf, the portal with its gtk backend,
#                                    bubblewrap for the sandbox, tesseract to read screenshots,
#                                    faketime to run a check with the clock a year ahead, and
#                                    gi-docgen for libherald-1's API reference (desktop/libherald/docs.sh),
#                                    and systemd for herald-check.timer's tests (systemd-analyze and
#                                    a user manager of the test's own, with dbus-user-session's bus
#                                    for it), and tmux to drive
#                                    herald inbox in a terminal and read what it shows
set -euo pipefail
packages=(pkg-config libnotify-dev libglib2.0-dev libglib2.0-bin libsoup-3.0-dev glib-networking
          gsettings-desktop-schemas libgtk-4-dev libadwaita-1-dev gobject-introspection libgirepository1.0-dev valac)
if [ "${1:-}" = "--tests" ]; then
  packages+=(dbus python3-dbus python3-dbusmock xvfb xauth notification-daemon dunst xdotool
             imagemagick desktop-file-utils appstream valgrind gcc libnotify-bin python3-gi libjson-glib-dev
             dpkg-dev lintian man-db
             gnome-shell gjs plasma-workspace plasma-desktop xfce4-notifyd xfconf xdg-desktop-portal
             xdg-desktop-portal-gtk bubblewrap tesseract-ocr tesseract-ocr-eng faketime
             gi-docgen systemd dbus-user-session tmux)
fi
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
