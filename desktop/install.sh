#!/usr/bin/env bash
# Installs Herald for the current user (or into --prefix): the herald tool, the agent (in libexec,
# started by D-Bus), the inbox window (herald-inbox) and the GTK demo, built with the Swift runtime linked in (they run without a
# Swift toolchain) and stripped, their manual pages, herald's bash, zsh and fish completions, the
# desktop entries, the agent's D-Bus and systemd user services, the timer that checks every
# registered app (enabled for every user under /usr and /usr/local when run as root, for the
# user under ~/.local) and its login entry for sessions without systemd, the icons and the
# licence; and
# libherald-1 for apps in C, Python, JavaScript and Vala (desktop/docs/other-languages.md): the
# library in lib/<multiarch triplet> (lib where there is none), its header in include/herald-1,
# herald-1.pc, Herald-1.gir, Herald-1.typelib and herald-1.vapi. It then says which variables
# let programs find what it put where they do not look. Undo with desktop/uninstall.sh and the
# same --prefix.
#
#   desktop/install.sh [--prefix DIR]      (default ~/.local)
set -euo pipefail
source "$(dirname "$0")/prefix.sh"
source "$(dirname "$0")/release.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
build_release "${HERALD_BUILD_DIR:-$root/.build-release}"
generated="$(mktemp -d)"
trap 'rm -rf "$generated"' EXIT
write_manual_and_completions "$generated"
build_libherald "$generated/libherald"

installed=()
put() { # put MODE SOURCE DESTINATION
  install -Dm"$1" "$2" "$3"
  installed+=("$3")
}
for product in "${products[@]}"; do
  # The agent is started by D-Bus, not by hand: it lives in libexec (below).
  [ "$product" = herald-agent ] && continue
  install_stripped "$bin/$product" "$prefix/bin/$product"
  installed+=("$prefix/bin/$product")
  put 644 "$generated/man1/$product.1" "$prefix/share/man/man1/$product.1"
done
# Where bash-completion, zsh (under /usr/local, and in fpath elsewhere) and fish look.
put 644 "$generated/bash/herald" "$prefix/share/bash-completion/completions/herald"
put 644 "$generated/zsh/_herald" "$prefix/share/zsh/site-functions/_herald"
put 644 "$generated/fish/herald.fish" "$prefix/share/fish/vendor_completions.d/herald.fish"
if [[ " ${products[*]} " == *" herald-gtk-demo "* ]]; then
  entry="$prefix/share/applications/org.herald.GtkDemo.desktop"
  mkdir -p "$(dirname "$entry")"
  sed -e "s|^Exec=herald-gtk-demo|Exec=$prefix/bin/herald-gtk-demo|" \
      -e "s|^Exec=herald |Exec=$prefix/bin/herald |" \
      "$root/desktop/org.herald.GtkDemo.desktop" > "$entry"
  installed+=("$entry")
fi
# The person's inbox window, in the app grid.
if [[ " ${products[*]} " == *" herald-inbox "* ]]; then
  entry="$prefix/share/applications/org.herald.Inbox.desktop"
  mkdir -p "$(dirname "$entry")"
  sed -e "s|^Exec=herald-inbox|Exec=$prefix/bin/herald-inbox|" "$root/desktop/org.herald.Inbox.desktop" > "$entry"
  installed+=("$entry")
  put 644 "$root/desktop/org.herald.Inbox.metainfo.xml" "$prefix/share/metainfo/org.herald.Inbox.metainfo.xml"
fi
# The agent that D-Bus starts for a click in the desktop's list: its desktop entry (where
# GNOME Shell finds it), its session bus service and its systemd user unit (~/.local/share/systemd/user
# is where systemd looks for a user's own units; lib/systemd/user under /usr and /usr/local).
install_stripped "$bin/herald-agent" "$prefix/libexec/herald-agent"
installed+=("$prefix/libexec/herald-agent")
put 644 "$root/desktop/herald-agent.8" "$prefix/share/man/man8/herald-agent.8"
for unit in org.herald.Agent.desktop org.herald.Agent.service herald-agent.service; do
  sed -e "s|@LIBEXECDIR@|$prefix/libexec|" "$root/desktop/$unit" > "$generated/$unit"
done
put 644 "$generated/org.herald.Agent.desktop" "$prefix/share/applications/org.herald.Agent.desktop"
put 644 "$generated/org.herald.Agent.service" "$prefix/share/dbus-1/services/org.herald.Agent.service"
put 644 "$generated/herald-agent.service" "$units/herald-agent.service"
# Herald's categories as KDE notification events, which Plasma's settings list (5 and 6).
for folder in knotifications5 knotifications6; do
  put 644 "$root/desktop/herald.notifyrc" "$prefix/share/$folder/herald.notifyrc"
done
# The check of every app registered with Herald: a systemd user timer and its service, and one
# login entry for sessions without a systemd user manager (where there is one, systemd's
# xdg-autostart generator skips the entry and the timer runs the check).
sed -e "s|@BINDIR@|$prefix/bin|" "$root/desktop/systemd/herald-check.timer" > "$generated/herald-check.timer"
sed -e "s|@BINDIR@|$prefix/bin|" "$root/desktop/systemd/herald-check.service" > "$generated/herald-check.service"
sed -e "s|@BINDIR@|$prefix/bin|" "$root/desktop/autostart/org.herald.CheckRegistered.desktop" > "$generated/org.herald.CheckRegistered.desktop"
put 644 "$generated/herald-check.timer" "$units/herald-check.timer"
put 644 "$generated/herald-check.service" "$units/herald-check.service"
put 644 "$generated/org.herald.CheckRegistered.desktop" "$autostart/org.herald.CheckRegistered.desktop"
# libherald-1, laid out as build.sh made it, with the library where the system keeps libraries.
libraries="$(library_folder)"
libdir="$prefix/$libraries"
made="$generated/libherald"
install_stripped "$made/lib/libherald-1.so.0.0.0" "$libdir/libherald-1.so.0.0.0" 644
installed+=("$libdir/libherald-1.so.0.0.0")
for link in libherald-1.so.0 libherald-1.so; do
  ln -sfn "$(readlink "$made/lib/$link")" "$libdir/$link"
  installed+=("$libdir/$link")
done
put 644 "$made/include/herald-1/herald.h" "$prefix/include/herald-1/herald.h"
write_libherald_pc "$made" "$prefix" "$libraries" "$libdir/pkgconfig/herald-1.pc"
installed+=("$libdir/pkgconfig/herald-1.pc")
put 644 "$made/lib/girepository-1.0/Herald-1.typelib" "$libdir/girepository-1.0/Herald-1.typelib"
put 644 "$made/share/gir-1.0/Herald-1.gir" "$prefix/share/gir-1.0/Herald-1.gir"
put 644 "$made/share/vala/vapi/herald-1.vapi" "$prefix/share/vala/vapi/herald-1.vapi"
put 644 "$made/share/vala/vapi/herald-1.deps" "$prefix/share/vala/vapi/herald-1.deps"
# The licence, where a package keeps its documents.
put 644 "$root/LICENSE" "$prefix/share/doc/herald/LICENSE"
while IFS= read -r icon; do
  put 644 "$root/icons/$icon" "$prefix/share/icons/$icon"
done < <(cd "$root/icons" && find hicolor -type f \( -name '*.png' -o -name '*.svg' \) | sort)

mkdir -p "$(dirname "$manifest")"
printf '%s\n' "${installed[@]}" > "$manifest"
echo "installed ${#installed[@]} files under $prefix (list: $manifest)"

# --- Whether the timer runs ----------------------------------------------------------------
# Enabled where systemd looks for the units, for every user (a system prefix, as root) or for
# this one (~/.local); the user's running manager, if any, starts it now rather than at the
# next login.
if [ -z "$scope" ]; then
  cat <<MESSAGE

systemd does not look for user units in $units: to have herald-check.timer check
the registered apps at login and twice a day, link them for your user:
    systemctl --user link $units/herald-check.timer $units/herald-check.service
    systemctl --user enable herald-check.timer
Sessions without systemd read the login entry in $autostart once
XDG_CONFIG_DIRS names $prefix/etc/xdg.
MESSAGE
elif ! command -v systemctl >/dev/null; then
  : # No systemd: the login entry runs the check.
elif [ "$scope" = --global ] && [ "$(id -u)" != 0 ]; then
  printf '\nTo have herald-check.timer run for every user: sudo systemctl --global enable herald-check.timer\n'
else
  systemctl "$scope" enable herald-check.timer
  if [ "$scope" = --user ] && systemctl --user daemon-reload 2>/dev/null; then
    systemctl --user start herald-check.timer
  fi
fi

# --- Whether programs find libherald-1 ------------------------------------------------------
# The loader searches /usr and /usr/local (once its cache knows the library), pkg-config its
# pc_path, and GObject Introspection the system's typelib folder alone; anything else needs a
# variable, which the user sets where their apps and builds start.
case "$prefix" in
  /usr | /usr/local)
    if [ "$(id -u)" = 0 ]; then ldconfig; fi
    loader_finds=1 ;;
  *) loader_finds=0 ;;
esac
pc_path="$(pkg-config --variable pc_path pkg-config 2>/dev/null || true)"
typelib_path="$(pkg-config --variable typelibdir gobject-introspection-1.0 2>/dev/null || echo /usr/lib/girepository-1.0)"
settings=()
if [ "$loader_finds" = 0 ]; then
  settings+=("export LD_LIBRARY_PATH=\"$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\"")
fi
if [ "$typelib_path" != "$libdir/girepository-1.0" ]; then
  settings+=("export GI_TYPELIB_PATH=\"$libdir/girepository-1.0\${GI_TYPELIB_PATH:+:\$GI_TYPELIB_PATH}\"")
fi
if [[ ":$pc_path:" != *":$libdir/pkgconfig:"* ]]; then
  settings+=("export PKG_CONFIG_PATH=\"$libdir/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\"")
fi
if [ ${#settings[@]} -gt 0 ]; then
  cat <<MESSAGE

Programs find libherald-1 under $prefix once these are set (in ~/.profile, or where the
app and its build start):
MESSAGE
  printf '    %s\n' "${settings[@]}"
fi

# --- Whether the session bus finds the agent's service file ---------------------------------
# dbus-daemon starts session services from $XDG_DATA_HOME/dbus-1/services and each
# $XDG_DATA_DIRS/dbus-1/services of its own environment (defaults ~/.local/share, then
# /usr/local/share:/usr/share), which is the systemd user manager's in a systemd session. A
# --prefix elsewhere is not among them unless the user adds it: say how, once installed.
bus_variable() { # bus_variable NAME: its value in the bus's environment, as far as it can be known
  { systemctl --user show-environment 2>/dev/null || env; } | sed -n "s/^$1=//p" | head -n 1
}
bus_lists_agent() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.ListActivatableNames 2>/dev/null | grep -q "'org.herald.Agent'"
}
bus_data_home="$(bus_variable XDG_DATA_HOME)"
bus_data_dirs="$(bus_variable XDG_DATA_DIRS)"
seen=":${bus_data_home:-$HOME/.local/share}:${bus_data_dirs:-/usr/local/share:/usr/share}:"
if [[ "$seen" != *":$prefix/share:"* && "$seen" != *":$prefix/share/:"* ]] && ! bus_lists_agent; then
  cat <<MESSAGE

The session bus starts the Herald agent only from a folder among its XDG_DATA_DIRS, and
$prefix/share is not among them: until it is, herald check shows its messages and waits for
the answers itself. Add it for your next login, in ~/.config/environment.d/herald.conf
(systemd sessions):
    XDG_DATA_DIRS=$prefix/share:\${XDG_DATA_DIRS:-/usr/local/share:/usr/share}
or in ~/.profile:
    export XDG_DATA_DIRS="$prefix/share:\${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
MESSAGE
fi
