#!/usr/bin/env bash
# Builds and runs README.md's "In an app" code as a new app developer would, so that it stays
# true. Each Swift block marked `<!-- readme-snippet: PATH -->` in that section becomes PATH in a
# new package in a temporary folder, beside a link named `herald` to this checkout (the README's
# `.package(path: "../herald")`): only the files the README tells its reader to create. It is
# built with `swift build` into a scratch folder of its own there.
#
#   Tests/scripts/readme-snippets.sh [DIR]
#
# The app then runs on a private session bus with python3-dbusmock's notification server,
# against a loopback feed server serving the README's sample feed (its "The feed" section) at
# FEED_URL. The script waits for the notification, clicks its "ignore" button, and checks the
# app's whole output and exit status; then runs the app again, which must find no check due and
# end at once. After that, the marked blocks of the DocC catalog's articles
# (Sources/Herald/Herald.docc/*.md) are added to the package, an article's block replacing a
# README's file of the same path (its Package.swift with a test target), and the package's tests
# run with `swift test`, with no session bus and no browser. The last line is
# "readme-snippets: passed (README PATHS; ARTICLE PATHS)". With DIR, the package, its build and
# the logs are made there and kept, instead of in a temporary folder that is removed.
#
# The README's package depends on Herald with `traits: []`, so it resolves nothing from the
# network. Needs (Debian 12), besides Swift: pkg-config libnotify-dev libsoup-3.0-dev dbus
# python3-dbus python3-dbusmock (Tests/scripts/setup.sh --tests installs them; this script
# installs nothing).
set -euo pipefail

case ${1:-} in
  -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "readme-snippets: unknown option $1 (see --help)" >&2; exit 64 ;;
esac
keep=
if [ -n "${1:-}" ]; then keep=$(mkdir -p "$1" && cd "$1" && pwd); fi
cd "$(dirname "$0")/../.."
checkout=$(pwd)

say() { printf 'readme-snippets: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

python=/usr/bin/python3
missing=()
for tool in swift dbus-daemon pkg-config; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -x "$python" ] && "$python" -c 'import dbus, dbusmock' 2>/dev/null || missing+=("python3-dbus/python3-dbusmock")
pkg-config --exists libsoup-3.0 libnotify 2>/dev/null || missing+=("libsoup-3.0-dev/libnotify-dev")
[ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]} (Tests/scripts/setup.sh --tests installs them)"

work=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/herald-readme.XXXXXX")}

# What the run starts in the background, stopped when the script ends.
pids=()
clean_up() {
  if [ ${#pids[@]} -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
  fi
  if [ -z "$keep" ]; then
    rm -rf "$work"
    # SwiftPM's locks for the scratch folder, named after its path, in the temporary folder.
    rm -f "${TMPDIR:-/tmp}/$(tr / _ <<<"$work/scratch")"*.lock
  fi
}
trap clean_up EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts a server in the background and sets `listening` to the first line it prints (where
# it listens), waiting up to 10 s for it; its standard error goes to $work/NAME.log.
start_server() {
  local name=$1 out
  shift
  exec {out}< <(exec "$@" 2>"$work/$name.log")
  pids+=($!)
  read -r -t 10 listening <&"$out" || die "$name did not start: $(cat "$work/$name.log")"
}

# The package: the marked blocks, as the README has them (the files the README tells a reader
# to create, nothing more); the catalog's articles' blocks wait in $work/articles until the
# README's app has run, and an article's block may replace a README's file (an article's
# Package.swift adds the test target its tests need). The feed: the README's sample.
app="$work/app"
articles="$work/articles"
rm -rf "$app" "$articles" "$work/feed"
mkdir -p "$app" "$articles" "$work/feed"
ln -sfn "$checkout" "$work/herald"
snippets=$("$python" - README.md "$app" "$articles" "$work/feed/messages.plist" <<'PY'
import glob, os, re, sys

readme, app, articles, feed = sys.argv[1:5]
with open(readme, encoding="utf-8") as handle:
    text = handle.read()


def section(heading):
    found = re.search(r"^## " + re.escape(heading) + r"\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not found:
        sys.exit("README.md has no '## %s' section" % heading)
    return found.group(1)


def marked(where, source):
    markers = re.findall(r"^<!-- readme-snippet: (.*?) -->$", source, re.M)
    blocks = re.findall(r"^<!-- readme-snippet: (.*?) -->\n```swift\n(.*?)^```$", source, re.M | re.S)
    if len(blocks) != len(markers):
        sys.exit("%s: every readme-snippet marker must stand right before a ```swift block" % where)
    return blocks


def write(folder, blocks, where, allowed_again=()):
    names = [name for name, _ in blocks]
    for name, code in blocks:
        if os.path.isabs(name) or ".." in name.split("/") or (names.count(name) > 1 and name not in allowed_again):
            sys.exit("readme-snippet %r in %s must be a relative path, used once" % (name, where))
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(code)
    return names


# The README's "In an app": one package; then the catalog's articles, in name order.
readme_names = write(app, marked("README.md", section("In an app")), "README.md")
if "Package.swift" not in readme_names or len(readme_names) < 2:
    sys.exit("README.md's 'In an app' marks no Package.swift and source file (<!-- readme-snippet: PATH -->)")
article_blocks = []
for article in sorted(glob.glob("Sources/Herald/Herald.docc/*.md")):
    with open(article, encoding="utf-8") as handle:
        article_blocks += marked(article, handle.read())
article_names = write(articles, article_blocks, "the catalog's articles")
sample = re.search(r"^```xml\n(.*?)^```$", section("The feed"), re.M | re.S)
if not sample:
    sys.exit("README.md's 'The feed' has no ```xml sample feed")
with open(feed, "w", encoding="utf-8") as handle:
    handle.write(sample.group(1))
print(", ".join(readme_names) + "; " + ", ".join(article_names))
PY
) || die "could not take the snippets out of README.md"
# The key the sample feed's one message is shown and answered under.
key=$("$python" -c 'import plistlib, sys; keys = list(plistlib.load(open(sys.argv[1], "rb"))); print(keys[0] if len(keys) == 1 else "")' \
  "$work/feed/messages.plist") || die "the README's sample feed is not a property list"
[ -n "$key" ] || die "the README's sample feed must have exactly one message"
say "README.md's snippets: $snippets; its sample feed's message: $key"

started=$(date +%s)
say "building the README's app in $app (scratch $work/scratch)"
if ! (cd "$app" && swift build --scratch-path "$work/scratch") >"$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log" >&2
  die "the README's app does not build (whole log: $work/build.log, kept when a folder is given)"
fi
say "built in $(($(date +%s) - started)) s"
# The one program the package makes (what `swift run` would run).
mapfile -t programs < <(find "$work/scratch/debug/" -maxdepth 1 -type f -perm -u+x ! -name '*.xctest')
[ ${#programs[@]} -eq 1 ] || die "the README's package must make one program; $work/scratch/debug has: ${programs[*]}"

# A desktop of our own: no display, XDG folders and HOME in the work folder, no proxy.
for folder in home state config cache data; do rm -rf "${work:?}/$folder"; mkdir -p "$work/$folder"; done
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"
export XDG_STATE_HOME="$work/state" XDG_DATA_DIRS=/usr/local/share:/usr/share LANG=C.UTF-8 NOTIFY_IGNORE_PORTAL=1
unset DISPLAY WAYLAND_DISPLAY LANGUAGE LC_ALL LC_MESSAGES http_proxy https_proxy all_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY no_proxy NO_PROXY
# A browser stand-in that records links: Herald shows a message only when some application
# opens its link, and a test machine may have no browser.
mkdir -p "$XDG_DATA_HOME/applications"
cat >"$work/record-link" <<EOF
#!/bin/sh
printf '%s\n' "\$1" >>'$work/opened-links'
EOF
chmod +x "$work/record-link"
printf '%s\n' '[Desktop Entry]' Type=Application 'Name=Link recorder' "Exec=$work/record-link %u" \
  'MimeType=x-scheme-handler/https;x-scheme-handler/http;' NoDisplay=true >"$XDG_DATA_HOME/applications/link-recorder.desktop"
printf '%s\n' '[Default Applications]' x-scheme-handler/https=link-recorder.desktop x-scheme-handler/http=link-recorder.desktop \
  >"$XDG_CONFIG_HOME/mimeapps.list"


start_server bus dbus-daemon --session --nofork --print-address=1
export DBUS_SESSION_BUS_ADDRESS=$listening
"$python" -m dbusmock --template notification_daemon -p '{"capabilities": "actions body"}' >"$work/notification-server.log" 2>&1 &
pids+=($!)
"$python" Tests/support/notification_server.py wait || die "the notification server did not start: $(cat "$work/notification-server.log")"
start_server feed-server "$python" Tests/support/feed_server.py --root "$work/feed" --log "$work/feed-requests.log" --lifetime 600
export FEED_URL="http://127.0.0.1:$listening/messages.plist"

# Runs the app in its package's folder, output in $work/NAME.out and .err, in the background.
start_app() {
  (cd "$app" && exec "${programs[0]}") >"$work/$1.out" 2>"$work/$1.err" &
  app_pid=$!
  pids+=("$app_pid")
}

# Waits up to SECONDS for the app to exit and sets app_status; fails when it does not.
wait_for_exit() {
  local _
  for _ in $(seq $(($1 * 20))); do
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.05
  done
  if kill -0 "$app_pid" 2>/dev/null; then
    kill "$app_pid" 2>/dev/null || true
    die "the app did not exit within $1 s; it printed: $(cat "$work/$2.out" "$work/$2.err")"
  fi
  app_status=0
  wait "$app_pid" || app_status=$?
}

# How many notifications the server was asked to show so far.
notify_calls() {
  "$python" Tests/support/notification_server.py calls | "$python" -c 'import json, sys; print(sum(call["method"] == "Notify" for call in json.load(sys.stdin)))'
}

start_app first
shown=0
deadline=$((SECONDS + 30))
while [ "$shown" -eq 0 ] && [ $SECONDS -lt $deadline ] && kill -0 "$app_pid" 2>/dev/null; do
  sleep 0.05
  shown=$(notify_calls)
done
[ "$shown" -eq 1 ] || die "the app showed $shown notifications, not 1; it printed: $(cat "$work/first.out" "$work/first.err")"
# The mock numbers notifications from 1: the first Notify's is 1.
"$python" Tests/support/notification_server.py action 1 ignore
wait_for_exit 30 first

expected="shown: $key
ignore: $key
check over: 1 answered"
say "the app printed, after the ignore click:"
sed 's/^/  /' "$work/first.out" >&2
[ ! -s "$work/first.err" ] || { say "and on standard error:"; sed 's/^/  /' "$work/first.err" >&2; }
[ "$app_status" -eq 0 ] || die "the app exited $app_status, not 0"
[ "$(cat "$work/first.out")" = "$expected" ] || die "the app's output is not, line for line:
$expected"

# Checked a moment ago: the second run skips the check and ends without showing anything.
start_app second
wait_for_exit 30 second
[ "$app_status" -eq 0 ] || die "the second run exited $app_status, not 0: $(cat "$work/second.out" "$work/second.err")"
[ "$(notify_calls)" -eq 1 ] || die "the second run showed a notification"
second_pattern='^no check: checked recently; next check due [0-9T:Z-]+
check over: 0 answered$'
[[ "$(cat "$work/second.out")" =~ $second_pattern ]] || die "the second run printed, instead of 'no check: checked recently; …' and 'check over: 0 answered':
$(cat "$work/second.out")"

# The catalog's articles added to the README's app ("Testing Your Delegate" and "Your Own
# Interface": their files, and the Package.swift with the test target), built, and their tests
# run as a CI machine runs them: no session bus, no browser, an xdg-open that fails and says it was called.
mkdir -p "$work/no-browser"
cat >"$work/no-browser/xdg-open" <<EOF
#!/bin/sh
printf '%s\n' "\$1" >>'$work/xdg-open-calls'
exit 3
EOF
chmod +x "$work/no-browser/xdg-open"
cp -R "$articles/." "$app/"
say "running the articles' tests without a session bus or a browser"
if ! (cd "$app" && env -u DBUS_SESSION_BUS_ADDRESS BROWSER=/bin/false PATH="$work/no-browser:$PATH" \
  swift test --scratch-path "$work/scratch") >"$work/test.log" 2>&1; then
  tail -n 40 "$work/test.log" >&2
  die "the app's tests fail (whole log: $work/test.log, kept when a folder is given)"
fi
[ ! -e "$work/xdg-open-calls" ] || die "the app's tests opened links: $(cat "$work/xdg-open-calls")"
grep -E '^Test Suite .All tests. passed' "$work/test.log" >/dev/null || die "the app's tests did not all pass: $(tail -n 5 "$work/test.log")"
say "the app's tests passed: $(grep -Eo 'Executed [0-9]+ tests?, with 0 failures' "$work/test.log" | tail -n 1)"

say "done in $(($(date +%s) - started)) s"
echo "readme-snippets: passed ($snippets)"
