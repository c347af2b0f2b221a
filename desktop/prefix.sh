# Read by install.sh and uninstall.sh: takes [--prefix DIR] (default ~/.local) from their
# arguments and sets $prefix (absolute) and $manifest, the list of files an install put there.
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
