# Read by install.sh and uninstall.sh: takes [--prefix DIR] (default ~/.local) from their
# arguments and sets $prefix (absolute), $manifest, the list of files an install put there,
# and where the prefix's systemd user units and login entry go:
#   $units       lib/systemd/user under /usr and /usr/local, share/systemd/user elsewhere
#                (~/.local/share/systemd/user is where systemd looks for a user's own units)
#   $autostart   /etc/xdg/autostart for /usr and /usr/local (XDG_CONFIG_DIRS is /etc/xdg
#                unless set), the user's own autostart folder for ~/.local, else
#                PREFIX/etc/xdg/autostart (read once XDG_CONFIG_DIRS names PREFIX/etc/xdg)
#   $scope       systemctl's option that enables a user unit there for every user
#                (--global) or for this one (--user); empty where systemd does not look
prefix="$HOME/.local"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    *) echo "usage: $0 [--prefix DIR]" >&2; exit 64 ;;
  esac
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
if [[ ! "$prefix" =~ ^[A-Za-z0-9/._+-]+$ ]]; then
  # The desktop entries name the installed programs in Exec lines; keep those plain.
  echo "choose a prefix of letters, digits and / . _ + - only: $prefix" >&2
  exit 64
fi
manifest="$prefix/share/herald/installed-files"
case "$prefix" in
  /usr | /usr/local)
    units="$prefix/lib/systemd/user" autostart=/etc/xdg/autostart scope=--global ;;
  "$HOME/.local")
    units="$prefix/share/systemd/user" autostart="${XDG_CONFIG_HOME:-$HOME/.config}/autostart" scope=--user ;;
  *)
    units="$prefix/share/systemd/user" autostart="$prefix/etc/xdg/autostart" scope= ;;
esac
