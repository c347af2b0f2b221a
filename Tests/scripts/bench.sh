#!/usr/bin/env bash
# Measures the release `herald` against the floor (Tests/Benchmarks/Floor/floor.c: the same job in
# plain C with the same libraries) and notify-send (showing without fetching), and prints one
# Markdown table of medians with herald's ratio to its peer.
#
#   Tests/scripts/bench.sh [--quick] [--runs N] [--keep DIR] [--instructions] [--only-handover]
#                          [--only-registered] [--against HERALD | --against-rev REV]
#   Tests/scripts/bench.sh --write-link-order
#
# Every figure comes from runs interleaved with its peers' (each iteration runs herald, the
# floor and notify-send in turn, starting with a different one each time), after warm-up
# iterations that are not counted: 10 runs each by default, 3 with --quick. Everything runs
# on a private session bus with python3-dbusmock's notification server and a loopback feed
# server serving a 5-entry XML plist feed. HERALD_FLOOR_SOURCE overrides where floor.c is;
# --keep DIR keeps every run's measurements there (Tests/support/bench_probe.py's lines).
#
# The handover table (DESIGN.md D23) measures five apps' checks at login, each showing one message
# that is left unanswered, on two more private buses that can start the release-built
# `herald-agent` (as desktop/org.herald.Agent.service does): one like Plasma, Xfce or dunst (a
# notification server only), where the agent holds the five notifications, and one like GNOME
# (a stand-in owning org.gtk.Notifications, Tests/support/handover_mocks.py, and the agent's
# desktop entry installed), where no process stays. It sets the memory of the Herald processes
# left against the floor's one process waiting, and against five `herald check --no-handover`
# waiting (before the handover), and a handing-over check's start → exit against the floor's
# start → shown, interleaved in rounds of their own. --only-handover measures only that table.
#
# The table of one check for every app (DESIGN.md D27) measures, on the same two buses, 1, 5 and
# 20 registered apps ($XDG_DATA_HOME/herald/apps/<app-id>.conf), each with a due feed of one new
# message, checked at login by the one `herald check --registered`, against "before": as many
# `herald check --feed … --app-id …` started at once (one autostart entry per app), and against
# the floor's one process, in interleaved rounds of their own: the Herald processes started, their
# CPU time (÷ the floor's), start → the last message handed over and → exit, and what is left.
# It runs after the handover table (about 15 s a round: 75 s with --quick); --only-registered
# measures only it.
#
# --against HERALD also measures another release `herald` (the build before, say) in the same
# interleaved runs, in a column of its own beside this tree's; --against-rev REV first builds
# REV's `herald` as desktop/release.sh builds it, in .build-against/REV (its sources, from
# `git archive`, and its scratch folder; kept for the next run). Besides the rows below, both
# are measured on a check of a 2,100-message feed (0.9 MB) under the default attention budget,
# each with a state and ledger of its own kept from run to run, as a person's are, and on
# `herald validate` of a 10,000-entry XML plist, beside CPython's `plistlib.load` of it (each a
# process of its own, from its start to its exit).
#
# --instructions also counts, under valgrind's callgrind, the instructions of one decode on each
# side of the decoding table (a figure the machine's load and speed do not move; a few minutes).
#
# --write-link-order measures nothing: it runs herald under callgrind through a check that is
# not due, one that shows a message and one of a 1 MiB feed, and herald-agent through holding a
# message a check hands it until it is dismissed, in the same private desktop, and writes the
# functions they ran to desktop/link-order.txt (Tests/support/link_order.py: each program's
# together, in the order they first ran), which release builds hand the linker
# (desktop/release.sh) so that each program's functions sit together. Needs valgrind.
#
# Exits 0 whatever the figures are: no timing fails it. Exits non-zero only when something
# could not be measured (a build failed, a program did not show its notification or failed).
#
# Needs (Debian 12), besides Swift: gcc pkg-config libsoup-3.0-dev libnotify-dev libnotify-bin
# dbus python3-dbus python3-dbusmock python3-gi (Tests/scripts/setup.sh --tests installs most of
# them; this script installs nothing).
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=10
warmups=2
keep=
against_option=
against=
write_link_order=0
only_handover=0
only_registered=0
instructions=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) runs=3; warmups=1 ;;
    --runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then echo "bench: --runs takes a positive number" >&2; exit 64; fi
      runs=$2; shift ;;
    --keep)
      if [ $# -lt 2 ]; then echo "bench: --keep takes a folder" >&2; exit 64; fi
      keep=$2; shift ;;
    --write-link-order) write_link_order=1 ;;
    --instructions) instructions=(--instructions) ;;
    --only-handover) only_handover=1 ;;
    --only-registered) only_registered=1 ;;
    --against|--against-rev)
      if [ $# -lt 2 ]; then echo "bench: $1 takes a herald program or a revision" >&2; exit 64; fi
      against_option=$1; against=$2; shift ;;
    -h|--help) sed -n '2,60p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown argument $1 (see --help)" >&2; exit 64 ;;
  esac
  shift
done

say() { printf 'bench: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

floor_source=${HERALD_FLOOR_SOURCE:-Tests/Benchmarks/Floor/floor.c}
have_floor=1
if [ ! -f "$floor_source" ]; then
  # Only an override can point elsewhere; the floor is then left out, not the bench.
  say "the floor's source $floor_source is missing (HERALD_FLOOR_SOURCE names floor.c); its column stays empty"
  have_floor=0
fi
python=/usr/bin/python3
missing=()
for tool in gcc pkg-config dbus-daemon notify-send swift; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -x "$python" ] && "$python" -c 'import dbus, dbusmock, gi' 2>/dev/null || missing+=("python3-dbus/python3-dbusmock/python3-gi")
pkg-config --exists libsoup-3.0 libnotify 2>/dev/null || missing+=("libsoup-3.0-dev/libnotify-dev")
if [ ${#instructions[@]} -gt 0 ] || [ "$write_link_order" = 1 ]; then
  for tool in valgrind strip; do command -v "$tool" >/dev/null || missing+=("$tool"); done
fi
[ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]} (apt-get install gcc pkg-config libsoup-3.0-dev libnotify-dev libnotify-bin dbus python3-dbus python3-dbusmock python3-gi)"

work=$(mktemp -d "${TMPDIR:-/tmp}/herald-bench.XXXXXX")
pids=()
clean_up() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap clean_up EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits up to 10 s for a file to hold a whole line.
wait_for_line() {
  local _
  for _ in $(seq 200); do
    if [ -f "$1" ] && [ "$(wc -l <"$1")" -ge 1 ]; then return 0; fi
    sleep 0.05
  done
  return 1
}

say "building herald as desktop/release.sh builds it (release, static Swift runtime) in .build-release (shared with desktop/install.sh)"
source desktop/release.sh
root=$PWD
products=(herald herald-agent herald-decode-bench herald-launch-bench)
[ "$only_handover" = 0 ] && [ "$only_registered" = 0 ] || products=(herald herald-agent)
link_release .build-release "${products[@]}" >&2
bin_path=$bin
herald="$bin_path/herald"
agent="$bin_path/herald-agent"
for product in "${products[@]}"; do [ -x "$bin_path/$product" ] || die "no $product binary in $bin_path"; done
# The other herald (--against, --against-rev), measured beside this one as "before".
before=
if [ "$against_option" = --against-rev ]; then
  commit=$(git rev-parse --verify --quiet "$against^{commit}") || die "--against-rev: no revision $against in this repository"
  other_tree="$root/.build-against/$(git rev-parse --short "$commit")"
  if [ ! -f "$other_tree/Package.swift" ]; then
    mkdir -p "$other_tree"
    git archive "$commit" | tar -x -C "$other_tree"
  fi
  say "building $against's herald as its desktop/release.sh builds it, in $other_tree"
  # shellcheck disable=SC1091 # the other revision's own release.sh
  (root=$other_tree; cd "$other_tree" && source desktop/release.sh && link_release "$other_tree/.build-release" herald >&2 && echo "$bin") >"$work/other-bin" \
    || die "$against's herald could not be built"
  before="$(cat "$work/other-bin")/herald"
elif [ "$against_option" = --against ]; then
  before=$against
fi
[ -z "$before" ] || [ -x "$before" ] || die "no herald program at $before"
if [ "$have_floor" = 1 ]; then
  say "building the floor from $floor_source"
  # shellcheck disable=SC2046 # pkg-config's flags are meant to split into words
  gcc "$floor_source" -O2 -o "$work/floor" $(pkg-config --cflags --libs libsoup-3.0 libnotify)
fi
# The binaries just linked are written back before anything is measured: a page of a file that
# is still dirty in the page cache counts as Private_Dirty in every process that maps it, so a
# fresh build's pages would count as the program's own memory until the kernel writes them.
sync

# A desktop of our own: no display, XDG folders and HOME in the work folder, no proxy.
for folder in home state config cache data feed; do mkdir -p "$work/$folder"; done
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"
export XDG_STATE_HOME="$work/state" XDG_DATA_DIRS=/usr/local/share:/usr/share LANG=C.UTF-8 NOTIFY_IGNORE_PORTAL=1
unset DISPLAY WAYLAND_DISPLAY LANGUAGE LC_ALL LC_MESSAGES http_proxy https_proxy all_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY no_proxy NO_PROXY

# Writes a session bus's configuration to CONF: listening at SOCKET, starting only the services
# in SERVICES, and letting every client own, call and watch anything.
write_bus_config() {
  local conf=$1 socket=$2 services=$3
  cat >"$conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$socket</listen>
  <servicedir>$services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
}

# A session bus that can start nothing (an empty service folder): an agent installed on the
# machine (org.herald.Agent.service) is out of its reach, so a check, as shipped, finds no agent
# to hand over to and shows its message itself, as the floor does.
mkdir -p "$work/services"
write_bus_config "$work/bus.conf" "$work/bus" "$work/services"
dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=1 >"$work/bus-address" 2>"$work/bus.log" &
pids+=($!)
wait_for_line "$work/bus-address" || die "dbus-daemon did not start: $(cat "$work/bus.log")"
DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$work/bus-address")
export DBUS_SESSION_BUS_ADDRESS

"$python" -m dbusmock --template notification_daemon -p '{"capabilities": "actions body body-markup"}' \
  --logfile "$work/notification-server.log" >"$work/notification-server.out" 2>&1 &
pids+=($!)
"$python" Tests/support/notification_server.py wait || die "the notification server did not start: $(cat "$work/notification-server.out")"

{
  printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">' \
    '<plist version="1.0">' '<dict>'
  for day in 1 2 3 4 5; do
    printf '  <key>2026/01/0%s</key>\n  <dict>\n' "$day"
    printf '    <key>Message</key><string>Message %s: a new feature, a release or a tip.</string>\n' "$day"
    printf '    <key>Title</key><string>Title %s</string>\n  </dict>\n' "$day"
  done
  printf '%s\n' '</dict>' '</plist>'
} >"$work/feed/feed.plist"
# A feed at the default size cap of a check (1 MiB), for the CPU a whole check of it costs.
"$python" - "$work/feed/big.plist" <<'PY'
import plistlib, sys
messages, size, number = {}, 0, 0
while True:
    key = "2020/%02d/%02d-%d" % (1 + number // 28 % 12, 1 + number % 28, number)
    # No ActionURL: the bench's desktop has no browser, and a message whose link no
    # application opens is skipped before it is shown.
    messages[key] = {"Title": "Message %d" % number, "Message": "A body text of a real length, for message %d." % number,
                     "ActionButton": "Read more", "MinVersion": "1.0", "MaxVersion": "9.9"}
    number += 1
    if number % 100 == 0 and len(plistlib.dumps(messages)) > 1000 * 1024:
        break
with open(sys.argv[1], "wb") as handle:
    plistlib.dump(messages, handle)
PY
# A feed of 2,100 messages (0.9 MB), for a check under the default attention budget: most of them
# are held back, as a person's first checks of a long feed hold them back.
"$python" - "$work/feed/budget.plist" <<'PY'
import plistlib, sys
messages = {}
for number in range(2100):
    messages["2020/%02d/%02d-%d" % (1 + number // 28 % 12, 1 + number % 28, number)] = {
        "Title": "Message %d" % number, "Message": ("A body text of a real length, for message %d. " % number) * 3,
        "ActionButton": "Read more", "MinVersion": "1.0", "MaxVersion": "9.9"}
with open(sys.argv[1], "wb") as handle:
    plistlib.dump(messages, handle)
PY
# The 10,000-entry XML plist of the decoding table, for `herald validate` (--against).
"$python" - "$work/feed/validate.plist" <<'PY'
import importlib.util, plistlib, sys
spec = importlib.util.spec_from_file_location("bench_decoding", "Tests/support/bench_decoding.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
with open(sys.argv[1], "wb") as handle:
    plistlib.dump(module.feed(10000), handle, fmt=plistlib.FMT_XML)
PY
"$python" Tests/support/feed_server.py --root "$work/feed" --log "$work/feed-requests.log" --lifetime 86400 >"$work/feed-port" 2>"$work/feed-server.log" &
pids+=($!)
wait_for_line "$work/feed-port" || die "the feed server did not start: $(cat "$work/feed-server.log")"
feed="http://127.0.0.1:$(head -n 1 "$work/feed-port")/feed.plist"
big_feed="http://127.0.0.1:$(head -n 1 "$work/feed-port")/big.plist"
budget_feed="http://127.0.0.1:$(head -n 1 "$work/feed-port")/budget.plist"

app=org.example.Bench
herald_shown='"event":"shown"'
floor_shown='^shown '
notify_shown='^[0-9]+$'

# The "no check due" state: a real check's state whose last check is then set a minute back;
# each herald makes its own.
make_due_state() {
local program=$1 due_state=$2
mkdir -p "$due_state"
XDG_STATE_HOME="$due_state" "$program" check --feed "$feed" --app-id "$app" --force --max 1 --wait 0.001 --json >"$work/due-setup.log" 2>&1 \
  || die "$program could not make the 'no check due' state: $(cat "$work/due-setup.log")"
"$python" - "$due_state/herald/$app.json" <<'PY' || die "could not set the last check of $due_state/herald/$app.json"
import datetime, json, sys
path = sys.argv[1]
with open(path) as handle:
    state = json.load(handle)
if "lastChecked" not in state:
    sys.exit("no lastChecked in " + path)
minute_ago = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=1)
state["lastChecked"] = minute_ago.strftime("%Y-%m-%dT%H:%M:%SZ")
with open(path, "w") as handle:
    json.dump(state, handle)
PY
}
due_state="$work/due-state"
make_due_state "$herald" "$due_state"
[ -z "$before" ] || make_due_state "$before" "$work/due-state-before"

probe() { "$python" Tests/support/bench_probe.py "$@"; }
fresh_state() { rm -rf "$work/state"; mkdir -p "$work/state"; }

if [ "$write_link_order" = 1 ]; then
  command -v valgrind >/dev/null || die "--write-link-order needs valgrind (apt-get install valgrind)"
  # valgrind cannot read the debug information lld writes; the symbols are enough.
  profiled="$work/herald-profiled"
  strip --strip-debug -o "$profiled" "$herald"
  profile() { valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind-$1" "${@:2}" >"$work/callgrind-$1.log" 2>&1 \
    || die "herald failed under callgrind: $(tail -n 5 "$work/callgrind-$1.log")"; }
  XDG_STATE_HOME="$due_state" profile not-due "$profiled" check --feed "$feed" --app-id "$app" --json
  fresh_state; profile shown "$profiled" check --feed "$feed" --app-id "$app" --force --max 1 --wait 0.3 --json
  fresh_state; profile big "$profiled" check --feed "$big_feed" --app-id "$app" --force --max 1 --wait 0.3 --json
  # The agent, started on this bus as D-Bus would start it: a check hands it its message, the
  # server says the person dismissed it, the agent records that and exits once idle.
  profiled_agent="$work/herald-agent-profiled"
  strip --strip-debug -o "$profiled_agent" "$agent"
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind-agent" "$profiled_agent" --idle-exit 1 \
    >"$work/callgrind-agent.log" 2>&1 &
  agent_pid=$!
  pids+=("$agent_pid")
  "$python" -c 'import dbus, sys, time
bus = dbus.SessionBus()
for _ in range(600):
    if bus.name_has_owner("org.herald.Agent"):
        sys.exit(0)
    time.sleep(0.05)
sys.exit(1)' || die "herald-agent did not own its name under callgrind: $(tail -n 5 "$work/callgrind-agent.log")"
  fresh_state
  shown=$("$herald" check --feed "$feed" --app-id "$app" --force --max 1 --json | grep '"handedOver":"agent"') \
    || die "the check did not hand its message to herald-agent"
  held_id=$(printf '%s\n' "$shown" | grep -o '"id":[0-9]*' | cut -d : -f 2)
  "$python" Tests/support/notification_server.py close "$held_id" 2
  wait "$agent_pid" || die "herald-agent failed under callgrind: $(tail -n 5 "$work/callgrind-agent.log")"
  {
    echo "# The functions a check runs (in the order a check that is not due, one that shows a message"
    echo "# and one of a 1 MiB feed first ran them) and those the agent runs holding a message until it"
    echo "# is dismissed (callgrind): the check's alone, both's, the agent's alone, for the linker to put"
    echo "# each program's together: written by Tests/scripts/bench.sh --write-link-order, read by"
    echo "# desktop/release.sh."
    "$python" Tests/support/link_order.py "$profiled" "$work/callgrind-not-due" "$work/callgrind-shown" "$work/callgrind-big" \
      --and "$profiled_agent" "$work/callgrind-agent"
  } >"$work/link-order.txt" || die "no functions of herald or herald-agent in callgrind's output"
  mv "$work/link-order.txt" desktop/link-order.txt
  say "wrote desktop/link-order.txt: $(grep -vc '^#' desktop/link-order.txt) functions"
  exit 0
fi

results="$work/results"
mkdir -p "$results"

# One run of one program for one figure; its measurements are appended to results/FIGURE-PROGRAM
# unless it is a warm-up. A run that fails ends the script (set -e).
run_once() {
  local figure=$1 program=$2 record=$3 line herald=$herald due_state=$due_state
  if [ "$program" = before ]; then
    # The other herald, in the same runs as this one's, with its own states.
    herald=$before due_state="$work/due-state-before"
    program=herald
  fi
  case $figure-$program in
    exit-herald) fresh_state; line=$(probe time --shown "$herald_shown" -- "$herald" check --feed "$feed" --app-id "$app" --force --max 1 --wait 0.001 --json) ;;
    exit-floor) line=$(EXIT_AFTER_SHOW=1 probe time --shown "$floor_shown" -- "$work/floor" "$feed") ;;
    exit-notify) line=$(probe time --shown "$notify_shown" -- notify-send --print-id "Message 1" "Body text") ;;
    hold-herald) fresh_state; line=$(probe hold --shown "$herald_shown" -- "$herald" check --feed "$feed" --app-id "$app" --force --max 1 --json) ;;
    hold-floor) line=$(probe hold --shown "$floor_shown" -- "$work/floor" "$feed") ;;
    hold-notify) line=$(probe hold --shown "$notify_shown" -- notify-send --print-id -A view=View -A ignore=Ignore "Message 1" "Body text") ;;
    big-herald) fresh_state; line=$(probe time --shown "$herald_shown" -- "$herald" check --feed "$big_feed" --app-id "$app" --force --max 1 --wait 0.001 --json) ;;
    big-floor) line=$(EXIT_AFTER_SHOW=1 probe time --shown "$floor_shown" -- "$work/floor" "$big_feed") ;;
    due-herald) line=$(XDG_STATE_HOME="$due_state" probe time --shown '"event":"check-skipped"' -- "$herald" check --feed "$feed" --app-id "$app" --json) ;;
    due-notify) line=$(probe time -- notify-send --version) ;;
    budget-herald) line=$(XDG_STATE_HOME="$work/budget-$2" probe time -- "$herald" check --feed "$budget_feed" --app-id "$app" --force --max 1 --wait 0.001 --json) ;;
    budget-floor) line=$(EXIT_AFTER_SHOW=1 probe time --shown "$floor_shown" -- "$work/floor" "$budget_feed") ;;
    # Its 10,000 lines to /dev/null, as a publisher's CI keeps only the exit status: a terminal would time its reader.
    validate-herald) line=$(probe time -- sh -c 'exec "$0" validate "$1" >/dev/null' "$herald" "$work/feed/validate.plist") ;;
    validate-notify) line=$(probe time -- "$python" -c 'import plistlib, sys; plistlib.load(open(sys.argv[1], "rb"))' "$work/feed/validate.plist") ;;
    *) die "no run for $figure-$program" ;;
  esac
  if [ "$record" = 1 ]; then printf '%s\n' "$line" >>"$results/$figure-$2"; fi
}

# Runs each program of a figure once, starting with the iteration's turn.
run_iteration() {
  local iteration=$1 record=$2 figure programs count start index
  local figures=(exit hold big due)
  [ -z "$before" ] || figures+=(budget validate)
  for figure in "${figures[@]}"; do
    case $figure in
      due|validate) programs=(herald notify) ;;
      big|budget) programs=(herald floor) ;;
      *) programs=(herald floor notify) ;;
    esac
    [ -z "$before" ] || programs+=(before)
    if [ "$have_floor" = 0 ]; then
      local kept=() program
      for program in "${programs[@]}"; do [ "$program" = floor ] || kept+=("$program"); done
      programs=("${kept[@]}")
    fi
    count=${#programs[@]}
    start=$((iteration % count))
    for ((index = 0; index < count; index++)); do
      run_once "$figure" "${programs[$(((start + index) % count))]}" "$record"
    done
  done
}

# The handover table: five apps' checks at login, each showing one message left unanswered, on
# buses that can start `herald-agent` (DESIGN.md D23), in rounds of their own that interleave
# the floor, the two ways a check hands over and five checks waiting as they did before.
hand="$work/handover"
fresh_handover_state() { rm -rf "$hand/state"; mkdir -p "$hand/state"; }

# Starts a private bus, $hand/NAME, whose only service is the release-built agent, with the
# environment ENVIRONMENT... (which the agent it starts inherits); prints its address.
start_handover_bus() {
  local name=$1
  shift
  write_bus_config "$hand/$name.conf" "$hand/$name-bus" "$hand/services"
  env "$@" dbus-daemon --config-file="$hand/$name.conf" --nofork --print-address=1 >"$hand/$name-address" 2>"$hand/$name.log" &
  pids+=($!)
  wait_for_line "$hand/$name-address" || die "dbus-daemon did not start: $(cat "$hand/$name.log")"
}

# Starts python3-dbusmock's notification server for the bus NAME, with the bus's ENVIRONMENT...
start_notification_server() {
  local name=$1
  shift
  env "$@" "$python" -m dbusmock --template notification_daemon -p '{"capabilities": "actions body body-markup"}' \
    --logfile "$hand/$name-notifications.log" >"$hand/$name-server.out" 2>&1 &
  pids+=($!)
  env "$@" "$python" Tests/support/notification_server.py wait || die "the notification server did not start: $(cat "$hand/$name-server.out")"
}

handover_set_up=0
set_up_handover() {
  handover_set_up=1
  mkdir -p "$hand/services" "$hand/config" "$hand/data/applications" "$hand/gnome-data/applications"
  # One message with a link for each of six apps: five checking at login, a sixth checking
  # alone; and a seventh app's message without a link, which no application is looked up for.
  "$python" - "$work/feed" <<'PY'
import plistlib, sys
for number in range(1, 8):
    message = {"Title": "News of app %d" % number, "Message": "A new feature, a release or a tip."}
    if number < 7:
        message.update({"ActionURL": "https://example.com/app%d" % number, "ActionButton": "Read more"})
    with open("%s/app%d.plist" % (sys.argv[1], number), "wb") as handle:
        plistlib.dump({"2026/01/%02d" % number: message}, handle)
PY
  # Six apps show a message each in a round: the person's budget (three a day unless they set
  # theirs) is set out of the way, as the tests' sessions do, so that every check shows its own.
  mkdir -p "$hand/config/herald"
  printf '%s\n' '[budget]' 'PerDay=1000' 'PerWeek=1000' >"$hand/config/herald/herald.conf"
  # A browser for the links: a message whose link no application opens is not shown.
  printf '%s\n' '[Desktop Entry]' 'Type=Application' 'Name=Link opener' 'Exec=/bin/true %u' \
    'MimeType=x-scheme-handler/https;' 'NoDisplay=true' >"$hand/data/applications/link-opener.desktop"
  cp "$hand/data/applications/link-opener.desktop" "$hand/gnome-data/applications/"
  printf '%s\n' '[Default Applications]' 'x-scheme-handler/https=link-opener.desktop' >"$hand/config/mimeapps.list"
  # On GNOME the agent's desktop entry is installed as desktop/install.sh installs it: its Exec the
  # agent's full path.
  sed "s|@LIBEXECDIR@|$bin_path|" desktop/org.herald.Agent.desktop >"$hand/gnome-data/applications/org.herald.Agent.desktop"
  printf '%s\n' '[D-BUS Service]' 'Name=org.herald.Agent' "Exec=$agent" >"$hand/services/org.herald.Agent.service"
  held=(XDG_STATE_HOME="$hand/state" XDG_CONFIG_HOME="$hand/config" XDG_DATA_HOME="$hand/data")
  gnome=(XDG_STATE_HOME="$hand/state" XDG_CONFIG_HOME="$hand/config" XDG_DATA_HOME="$hand/gnome-data")
  start_handover_bus held "${held[@]}"
  held+=(DBUS_SESSION_BUS_ADDRESS="$(head -n 1 "$hand/held-address")")
  start_handover_bus gnome "${gnome[@]}"
  gnome+=(DBUS_SESSION_BUS_ADDRESS="$(head -n 1 "$hand/gnome-address")")
  # Plasma, Xfce, dunst: a notification server. GNOME: the shell's list and its server.
  start_notification_server held "${held[@]}"
  start_notification_server gnome "${gnome[@]}"
  env "${gnome[@]}" "$python" Tests/support/handover_mocks.py "$hand/gnome-list.log" --gtk >"$hand/gnome-list.out" 2>"$hand/gnome-list.err" &
  pids+=($!)
  wait_for_line "$hand/gnome-list.out" || die "the stand-in for GNOME's list did not start: $(cat "$hand/gnome-list.err")"
  feed_base="http://127.0.0.1:$(head -n 1 "$work/feed-port")"
  checks=(check --feed "$feed_base/app{n}.plist" --app-id "org.example.Bench{n}" --app-name "Bench App {n}" --show-on-first-launch --json)
  sixth=(check --feed "$feed_base/app6.plist" --app-id org.example.Bench6 --app-name "Bench App 6" --show-on-first-launch --json)
  seventh=(check --feed "$feed_base/app7.plist" --app-id org.example.Bench7 --app-name "Bench App 7" --show-on-first-launch --json)
}

# A line of measurements for results/handover-FIGURE, kept unless RECORD is 0 (a warm-up).
record_line() { if [ "$1" = 1 ]; then printf '%s\n' "$3" >>"$results/handover-$2"; fi; }
# Runs COMMAND... on the bus like Plasma's (held) or like GNOME's (gnome), in its environment.
on_bus() {
  local bus=$1
  shift
  if [ "$bus" = held ]; then env "${held[@]}" "$@"; else env "${gnome[@]}" "$@"; fi
}
# RECORD FIGURE BUS ROUTE CHECK-ARGUMENTS...: one check, timed to its line saying it handed its
# message over to ROUTE ("agent" or "desktop-list") and to its exit.
time_one_check() {
  local record=$1 figure=$2 bus=$3 route=$4 line
  shift 4
  line=$(on_bus "$bus" "$python" Tests/support/bench_probe.py time --shown "\"handedOver\":\"$route\"" -- "$herald" "$@")
  record_line "$record" "$figure" "$line"
}
# RECORD FIGURE BUS ROUTE CALLS METHOD: the five checks at once, then what they left on the bus.
hand_over_five() {
  local line
  line=$(on_bus "$3" "$python" Tests/support/bench_handover.py hand-over --apps 5 --shown "\"handedOver\":\"$4\"" \
    --calls "$5" --method "$6" --also "$agent" -- "$herald" "${checks[@]}")
  record_line "$1" "$2" "$line"
}
end_agent() { on_bus held "$python" Tests/support/bench_handover.py end --program "$agent" --name org.herald.Agent; }
# RECORD FIGURE: the floor on the bus like Plasma's, to start → shown (and exit, and its CPU time).
time_floor() {
  record_line "$1" "$2" "$(on_bus held env EXIT_AFTER_SHOW=1 "$python" Tests/support/bench_probe.py time --shown "$floor_shown" -- "$work/floor" "$feed_base/app1.plist")"
}
# RECORD FIGURE: the floor waiting 1 s with its notification shown, then its memory.
hold_floor() {
  record_line "$1" "$2" "$(on_bus held "$python" Tests/support/bench_probe.py hold --shown "$floor_shown" -- "$work/floor" "$feed_base/app1.plist")"
}

# One block of a round.
handover_once() {
  local block=$1 record=$2 line
  case $block in
    floor) time_floor "$record" floor-time ;;
    floor-hold) hold_floor "$record" floor-hold ;;
    held)
      # Five checks at once start the agent, which holds their notifications; then a sixth
      # check hands over to the running agent.
      fresh_handover_state
      hand_over_five "$record" held held agent "$hand/held-notifications.log" Notify
      time_one_check "$record" held-running held agent "${sixth[@]}"
      end_agent ;;
    held-start)
      # One check alone, which starts the agent.
      fresh_handover_state
      time_one_check "$record" held-start held agent "${sixth[@]}"
      end_agent ;;
    gnome)
      fresh_handover_state
      hand_over_five "$record" gnome gnome desktop-list "$hand/gnome-list.log" AddNotification
      time_one_check "$record" gnome-one gnome desktop-list "${sixth[@]}"
      time_one_check "$record" gnome-no-link gnome desktop-list "${seventh[@]}" ;;
    waiting)
      # As before the handover: five checks that show their message and wait for its answer.
      fresh_handover_state
      line=$(on_bus held "$python" Tests/support/bench_handover.py wait --apps 5 --shown '"event":"shown"' -- \
        "$herald" "${checks[@]}" --no-handover)
      record_line "$record" waiting "$line" ;;
    *) die "no handover block $block" ;;
  esac
}

handover_table() {
  say "handover at login: five apps' checks on two more private buses that can start herald-agent"
  set_up_handover
  local blocks=(floor held held-start gnome floor-hold waiting) round index count load_before load_after
  if [ "$have_floor" = 0 ]; then blocks=(held held-start gnome waiting); fi
  count=${#blocks[@]}
  load_before=$(cut -d ' ' -f 1 /proc/loadavg)
  for ((round = 0; round < warmups + runs; round++)); do
    for ((index = 0; index < count; index++)); do
      handover_once "${blocks[$(((round + index) % count))]}" $((round >= warmups))
    done
    if ((round >= warmups)); then say "handover round $((round - warmups + 1))/$runs done"; fi
  done
  load_after=$(cut -d ' ' -f 1 /proc/loadavg)
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$results"/handover-* "$keep"/; fi
  echo
  echo "Handover at login: $runs interleaved rounds after $warmups warm-up, medians, load average $load_before → $load_after"
  "$python" - "$results" <<'PY'
import statistics, sys
sys.path.insert(0, "Tests/support")
from bench_tables import median, ratios, with_quartiles
from bench_tables import runs as runs_in

def runs(name):
    return runs_in(sys.argv[1], name)

floor_hold, floor_time = runs("floor-hold"), runs("floor-time")
columns = [runs("held"), runs("gnome"), runs("waiting")]
print("\n| after five checks each showed one message, left unanswered | floor: its one process waiting |"
      " herald, Plasma/Xfce/dunst: the agent left | herald, GNOME: what is left | before: five `herald check --no-handover` waiting |")
print("|---|---|---|---|---|")
print("| processes | %s | %s |" % ("1" if floor_hold else "—", " | ".join("%d" % median(lines, "processes") for lines in columns)))
for label, key in [("resident (VmRSS), MiB", "rss_kb"), ("proportional (Pss), MiB", "pss_kb"),
                   ("private dirty (Private_Dirty), MiB", "private_dirty_kb"), ("peak resident (VmHWM), MiB", "vmhwm_kb")]:
    cells = ["%.1f" % (median(floor_hold, key) / 1024) if floor_hold else "—"]
    for lines in columns:
        cell = "%.1f" % (median(lines, key) / 1024) if median(lines, key) else "0"
        if floor_hold and median(lines, key):
            cell += " (%.2f×)" % statistics.median(ratios(lines, key, floor_hold, key))
        cells.append(cell)
    print("| %s, all of them (÷ floor, median per round) | %s |" % (label, " | ".join(cells)))
print("| CPU ticks in 1 s of waiting, all of them | %s | %s |" % ("%d" % median(floor_hold, "ticks") if floor_hold else "—",
                                                                " | ".join("%d" % median(lines, "ticks") for lines in columns)))

print("\n| `herald check`, ms | start → its shown line (handed over) | start → exit | floor: start → shown |"
      " exit ÷ floor, per round: median [quartiles] | shown line ÷ floor, per round |")
print("|---|---|---|---|---|---|")
floor = "%.1f" % median(floor_time, "shown_ms") if floor_time else "—"
for label, name, shown, exited in [("one check, handing over to the agent, which runs", "held-running", "shown_ms", "exit_ms"),
                                   ("one check, handing over to the agent, which it starts", "held-start", "shown_ms", "exit_ms"),
                                   ("one check, handing over to GNOME's list", "gnome-one", "shown_ms", "exit_ms"),
                                   ("the same, its message without a link", "gnome-no-link", "shown_ms", "exit_ms"),
                                   ("five at once, until the last (they start the agent)", "held", "last_shown_ms", "last_exit_ms"),
                                   ("five at once, until the last (GNOME's list)", "gnome", "last_shown_ms", "last_exit_ms"),
                                   ("before: five `--no-handover` at once, until the last (they stay)", "waiting", "last_shown_ms", None)]:
    lines = runs(name)
    cells = ["%.1f" % median(lines, shown), "%.1f" % median(lines, exited) if exited else "—", floor]
    for key in (exited, shown):
        cells.append(with_quartiles(ratios(lines, key, floor_time, "shown_ms")) if floor_time and key else "—")
    print("| %s | %s |" % (label, " | ".join(cells)))
PY
  echo
  echo "Each round runs, in turn from a different one: the floor to start → shown (EXIT_AFTER_SHOW=1) and, apart, waiting 1 s" \
    "with its notification shown; five checks at once (fresh states, one message with a link each, --show-on-first-launch)" \
    "on a bus like Plasma's, where they start herald-agent and hand it their messages, then a sixth check handing over to" \
    "it, then the agent ended; a sixth check alone that starts the agent; the five and the sixth on a bus like GNOME's" \
    "(org.gtk.Notifications owned, the agent's desktop entry installed), and a seventh whose message has no link; five checks with --no-handover waiting 1 s. Memory:" \
    "every process of the release herald or herald-agent left on that bus once the five checks exited and the server had their" \
    "notifications, measured as the floor's, after 1 s of waiting; MiB: the kernel's kB / 1024."
}

# The table of one check for every app (DESIGN.md D27): 1, 5 and 20 registered apps, each with a
# due feed of one new message, checked at login by the one `herald check --registered` and, as
# before, by as many `herald check` started at once, on the two buses of the handover table,
# against the floor's one process, in rounds of their own.
registered_counts=(1 5 20)

# The apps' feeds, and for each bus and count a data folder of its own (the bus's applications,
# and that many registrations), which the checks of that block read as their XDG_DATA_HOME.
set_up_registered() {
  local bus applications count number folder
  "$python" - "$work/feed" "${registered_counts[-1]}" <<'PY'
import plistlib, sys
for number in range(1, int(sys.argv[2]) + 1):
    message = {"Title": "News of registered app %d" % number, "Message": "A new feature, a release or a tip.",
               "ActionURL": "https://example.com/registered%d" % number, "ActionButton": "Read more"}
    with open("%s/registered%d.plist" % (sys.argv[1], number), "wb") as handle:
        plistlib.dump({"2026/02/%02d" % number: message}, handle)
PY
  for bus in held gnome; do
    applications="$hand/data/applications"
    [ "$bus" = held ] || applications="$hand/gnome-data/applications"
    for count in "${registered_counts[@]}"; do
      folder="$hand/registered/$bus-$count"
      mkdir -p "$folder/herald/apps"
      cp -r "$applications" "$folder/"
      for ((number = 1; number <= count; number++)); do
        printf '%s\n' '[Herald]' "Feed=$feed_base/registered$number.plist" "Name=Bench App $number" 'Version=1' \
          'ShowOnFirstLaunch=true' >"$folder/herald/apps/org.example.Registered$number.conf"
      done
    done
  done
}

# RECORD WAY BUS COUNT: COUNT apps checked at login on BUS, from a fresh state, by the one
# `herald check --registered` (WAY registered) or, as before, by COUNT `herald check` at once,
# each app with the same options (WAY before); timed to the last message handed over and to the
# last exit, then what they left measured.
registered_once() {
  local record=$1 way=$2 bus=$3 count=$4 route=agent calls="$hand/held-notifications.log" method=Notify line
  if [ "$bus" = gnome ]; then route=desktop-list calls="$hand/gnome-list.log" method=AddNotification; fi
  fresh_handover_state
  local measure=("$python" Tests/support/bench_handover.py hand-over --shown "\"handedOver\":\"$route\"" --calls "$calls" --method "$method"
                 --also "$agent")
  if [ "$way" = registered ]; then
    line=$(on_bus "$bus" env XDG_DATA_HOME="$hand/registered/$bus-$count" "${measure[@]}" --apps 1 --lines "$count" -- \
      "$herald" check --registered --json)
  else
    line=$(on_bus "$bus" env XDG_DATA_HOME="$hand/registered/$bus-$count" "${measure[@]}" --apps "$count" -- \
      "$herald" check --feed "$feed_base/registered{n}.plist" --app-id "org.example.Registered{n}" --app-name "Bench App {n}" \
      --app-version 1 --show-on-first-launch --json)
  fi
  record_line "$record" "registered-$way-$bus-$count" "$line"
  if [ "$bus" = held ]; then end_agent; fi
}

registered_table() {
  say "one check for every app: 1, 5 and 20 registered apps at login, on the two buses of the handover table"
  [ "$handover_set_up" = 1 ] || set_up_handover
  set_up_registered
  local blocks=() bus count round index load_before load_after block total
  [ "$have_floor" = 0 ] || blocks=(floor floor-hold)
  for bus in held gnome; do
    for count in "${registered_counts[@]}"; do blocks+=("registered $bus $count" "before $bus $count"); done
  done
  total=${#blocks[@]}
  load_before=$(cut -d ' ' -f 1 /proc/loadavg)
  for ((round = 0; round < warmups + runs; round++)); do
    for ((index = 0; index < total; index++)); do
      block=${blocks[$(((round + index) % total))]}
      case $block in
        floor) time_floor $((round >= warmups)) registered-floor-time ;;
        floor-hold) hold_floor $((round >= warmups)) registered-floor-hold ;;
        # shellcheck disable=SC2086 # the block is its way, bus and count, split into words
        *) registered_once $((round >= warmups)) $block ;;
      esac
    done
    if ((round >= warmups)); then say "registered round $((round - warmups + 1))/$runs done"; fi
  done
  load_after=$(cut -d ' ' -f 1 /proc/loadavg)
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$results"/handover-registered-* "$keep"/; fi
  echo
  echo "One check for every app at login: $runs interleaved rounds after $warmups warm-up, medians, load average $load_before → $load_after"
  "$python" - "$results" "$(getconf CLK_TCK)" "${registered_counts[@]}" <<'PY'
import statistics, sys
sys.path.insert(0, "Tests/support")
from bench_tables import median, ratios, with_quartiles
from bench_tables import runs as runs_in

folder, tick_ms, counts = sys.argv[1], 1000 / int(sys.argv[2]), [int(count) for count in sys.argv[3:]]

def runs(name):
    return runs_in(folder, "registered-" + name)

floor_time, floor_hold = runs("floor-time"), runs("floor-hold")
print("\n| apps at login, each with one new message | Herald processes started | CPU time, all of them, ms |"
      " CPU ÷ floor's one process, per round [quartiles] | ÷ floor, per app | start → last handed over, ms |"
      " start → last exit, ms | left once they exited: processes, resident (VmRSS) MiB | CPU of what is left since it started, ms |")
print("|---|---|---|---|---|---|---|---|---|")
if floor_time:
    print("| the floor: its one process (fetch one feed, show it) | 1 | %.1f | 1 | — | %.1f (shown) | %.1f | %s | — |" % (
        median(floor_time, "cpu_ms"), median(floor_time, "shown_ms"), median(floor_time, "exit_ms"),
        "1 waiting, %.1f" % (median(floor_hold, "rss_kb") / 1024) if floor_hold else "—"))
names = {"held": "Plasma/Xfce/dunst", "gnome": "GNOME"}
for bus in ("held", "gnome"):
    for count in counts:
        for way in ("registered", "before"):
            lines = runs("%s-%s-%d" % (way, bus, count))
            if not lines:
                continue
            apps = "%d app%s" % (count, "" if count == 1 else "s")
            label = ("%s, %s: one `herald check --registered`" % (apps, names[bus]) if way == "registered"
                     else "%s, %s, before: %d `herald check` at once" % (apps, names[bus], count))
            cells = ["%d" % median(lines, "started"), "%.1f" % median(lines, "cpu_ms")]
            if floor_time:
                per_round = ratios(lines, "cpu_ms", floor_time, "cpu_ms")
                cells += [with_quartiles(per_round), "%.2f" % (statistics.median(per_round) / count)]
            else:
                cells += ["—", "—"]
            cells += ["%.1f" % median(lines, "last_shown_ms"), "%.1f" % median(lines, "last_exit_ms")]
            left = median(lines, "processes")
            cells.append("%d, %.1f" % (left, median(lines, "rss_kb") / 1024) if left else "0")
            cells.append("%.0f" % (median(lines, "cpu_ticks_total") * tick_ms) if left else "—")
            print("| %s | %s |" % (label, " | ".join(cells)))
PY
  echo
  echo "Each round runs, in turn from a different one: the floor to start → shown (EXIT_AFTER_SHOW=1; its CPU time start → exit)" \
    "and, apart, waiting 1 s with its notification shown; then, on the bus like Plasma's and on the one like GNOME's, for 1, 5 and" \
    "20 apps registered in XDG_DATA_HOME/herald/apps (Feed, Name, Version=1, ShowOnFirstLaunch=true; a fresh state, the budget" \
    "out of the way, a one-message feed with a link each): one \`herald check --registered --json\`, and as many" \
    "\`herald check --feed … --app-id … --app-name … --app-version 1 --show-on-first-launch --json\` started at once. Herald" \
    "processes started: those started, and any process of herald's still on the bus once they exited; the agent D-Bus starts" \
    "is counted in what is left. CPU time: the processes' own (wait4), user + system. Last handed over: the last shown line" \
    "(handedOver agent or desktop-list); then the server's Notify or the list's AddNotification calls are waited for, and every" \
    "herald or herald-agent process left on the bus is measured after 1 s; its CPU since it started is in clock ticks of" \
    "$(awk -v ticks="$(getconf CLK_TCK)" 'BEGIN { print 1000 / ticks }') ms. The agent is ended after each block on the bus like Plasma's."
}

cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
machine="$(nproc) CPUs, ${cpu:-unknown CPU}, Linux $(uname -r), Debian $(cat /etc/debian_version 2>/dev/null || echo '?')"
revision=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
if [ -n "$(git status --porcelain -- Sources Package.swift 2>/dev/null)" ]; then revision+=" with uncommitted changes"; fi
# How much of desktop/link-order.txt this herald still has: the list goes stale as the code changes.
ordered="no link order"
if [ -f desktop/link-order.txt ] && command -v nm >/dev/null; then
  ordered="$(grep -v '^#' desktop/link-order.txt | sort -u | comm -12 - <(nm "$herald" | awk '{print $NF}' | sort -u) | wc -l) of the"
  ordered+=" $(grep -vc '^#' desktop/link-order.txt) functions of desktop/link-order.txt in it"
fi

started=$(date +%s)
if [ "$only_handover" = 1 ] || [ "$only_registered" = 1 ]; then
  echo "Herald bench: $machine; herald $revision ($ordered)"
  [ "$only_handover" = 0 ] || handover_table
  [ "$only_registered" = 0 ] || registered_table
  say "done in $(($(date +%s) - started)) s of measuring"
  exit 0
fi
load_before=$(cut -d ' ' -f 1 /proc/loadavg)
if [ -n "$before" ]; then
  # A person's state and ledger after the first checks of the 2,100-message feed: the day's
  # budget spent, the rest held back; each herald keeps its own from run to run.
  for program in herald before; do
    for _ in 1 2 3 4; do run_once budget "$program" 0; done
  done
fi
say "warming up ($warmups iterations), then $runs measured iterations"
for ((iteration = 0; iteration < warmups; iteration++)); do run_iteration "$iteration" 0; done
for ((iteration = 0; iteration < runs; iteration++)); do
  run_iteration "$iteration" 1
  say "iteration $((iteration + 1))/$runs done"
done

load_after=$(cut -d ' ' -f 1 /proc/loadavg)
if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$results"/* "$keep"/; fi

# The median of one measurement (a key of the probe's JSON lines) of one figure and program.
median() {
  local file="$results/$1-$2" key=$3
  [ -s "$file" ] || die "no runs recorded in $file"
  grep -o "\"$key\": [0-9.e+-]*" "$file" | awk '{print $2}' | sort -g | awk '
    { value[NR] = $1 }
    END { if (NR == 0) exit 1; print (NR % 2) ? value[(NR + 1) / 2] : (value[NR / 2] + value[NR / 2 + 1]) / 2 }'
}
total() { grep -o "\"$3\": [0-9]*" "$results/$1-$2" | awk '{sum += $2} END {print sum + 0}'; }
format() { awk -v value="$1" -v scale="$2" -v digits="$3" 'BEGIN { printf "%.*f", digits, value / scale }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "—"; else printf "%.2f", a / b }'; }

# A table row: figure, then the programs' medians of a key (scaled), herald ÷ peer (and, with
# --against, the other herald's column and its ratio).
row() {
  local label=$1 figure=$2 key=$3 scale=$4 digits=$5 peer=$6 program cells=() values=() columns=(herald floor notify)
  [ -z "$before" ] || columns=(herald floor notify before)
  for program in "${columns[@]}"; do
    if [ -s "$results/$figure-$program" ]; then
      values+=("$(median "$figure" "$program" "$key")")
      cells+=("$(format "${values[-1]}" "$scale" "$digits")")
    else
      values+=(0)
      cells+=("—")
    fi
  done
  local peer_value=${values[1]} peer_name=${peer/notify/notify-send}
  [ "$peer" = notify ] && peer_value=${values[2]}
  [ "$figure" = validate ] && peer_name=plistlib
  if [ -z "$before" ]; then
    printf '| %s | %s | %s | %s | %s |\n' "$label" "${cells[0]}" "${cells[1]}" "${cells[2]}" "$(ratio "${values[0]}" "$peer_value") (÷ $peer_name)"
  else
    printf '| %s | %s | %s | %s | %s | %s (÷ %s) | %s |\n' "$label" "${cells[0]}" "${cells[3]}" "${cells[1]}" "${cells[2]}" \
      "$(ratio "${values[0]}" "$peer_value")" "$peer_name" "$(ratio "${values[3]}" "$peer_value")"
  fi
}

ticks_cell() { printf '%s (%s in all)' "$(median hold "$1" ticks)" "$(total hold "$1" ticks)"; }

echo "Herald bench: $machine, load average $load_before → $load_after; herald $revision ($ordered);" \
  "$runs interleaved runs each after $warmups warm-up, medians"
echo
if [ -z "$before" ]; then
  echo "| figure | herald | floor | notify-send | ratio |"
  echo "|---|---|---|---|---|"
else
  echo "Before: $before"
  echo
  echo "| figure | herald | before | floor | notify-send (validate: plistlib) | herald ÷ peer | before ÷ peer |"
  echo "|---|---|---|---|---|---|---|"
fi
row "start → shown, ms (http, 5-entry feed; exits after showing)" exit shown_ms 1 1 floor
row "start → exit, ms (same runs)" exit exit_ms 1 1 floor
row "CPU time start → exit (user+sys), ms (same runs)" exit cpu_ms 1 1 floor
row "start → shown, ms (stays to wait for an answer, 2 actions)" hold shown_ms 1 1 floor
row "peak resident while waiting (VmHWM), MiB" hold vmhwm_kb 1024 1 floor
row "private dirty while waiting (Private_Dirty), MiB" hold private_dirty_kb 1024 2 floor
ticks_herald=$(ticks_cell herald)
ticks_floor=—
[ "$have_floor" = 0 ] || ticks_floor=$(ticks_cell floor)
ticks_notify=$(ticks_cell notify)
ticks_ratio="$([ "$have_floor" = 0 ] && echo — || ratio "$(total hold herald ticks)" "$(total hold floor ticks)") (÷ floor, totals)"
if [ -z "$before" ]; then
  printf '| CPU ticks (utime+stime, 1/%s s) in 1 s of waiting | %s | %s | %s | %s |\n' "$(getconf CLK_TCK)" \
    "$ticks_herald" "$ticks_floor" "$ticks_notify" "$ticks_ratio"
else
  printf '| CPU ticks (utime+stime, 1/%s s) in 1 s of waiting | %s | %s | %s | %s | %s | %s |\n' "$(getconf CLK_TCK)" \
    "$ticks_herald" "$(ticks_cell before)" "$ticks_floor" "$ticks_notify" "$ticks_ratio" \
    "$([ "$have_floor" = 0 ] && echo — || ratio "$(total hold before ticks)" "$(total hold floor ticks)")"
fi
row "CPU time of a whole check of a 1 MiB feed (user+sys), ms" big cpu_ms 1 1 floor
row "no check due: start → exit, ms (herald: checked a minute ago; notify-send --version)" due exit_ms 1 1 notify
row "no check due: CPU time (user+sys), ms" due cpu_ms 1 1 notify
if [ -n "$before" ]; then
  row "CPU time of a check of a 2,100-message feed (0.9 MB) under the default budget, its state kept, ms" budget cpu_ms 1 1 floor
  row "herald validate of a 10,000-entry XML plist (5.1 MB), start → exit, ms (plistlib.load)" validate exit_ms 1 1 notify
  row "the same, CPU time (user+sys), ms" validate cpu_ms 1 1 notify
fi
echo
echo "start → shown: from just before the process is started until it prints its shown line" \
  "(herald --json \"shown\" event, the floor's \"shown\", notify-send --print-id's id), all after the" \
  "server answered Notify. herald runs with --force --max 1 and a fresh state each run; to exit after" \
  "showing, herald uses --wait 0.001 (it closes what it showed) and the floor EXIT_AFTER_SHOW=1;" \
  "notify-send exits after showing only without actions, so its exit runs have none. MiB: the kernel's kB / 1024."

handover_table
registered_table

say "decoding in-process: herald-decode-bench beside CPython, $runs rounds"
"$python" Tests/support/bench_decoding.py --tool "$bin_path/herald-decode-bench" --folder "$work" --rounds "$runs" "${instructions[@]}" >"$work/decoding.json" \
  || die "the decoding figures could not be measured"
# The decoding table, and with --instructions the table of instruction counts.
"$python" - "$work/decoding.json" <<'PY'
import json, sys
names = {"xml": "XML plist", "binary": "binary plist", "json": "JSON"}
figures = [json.loads(line) for line in open(sys.argv[1])]
tables = [("in-process, ms", "_ms", lambda figure: ", %.1f MB (CPython: %s)" % (figure["bytes"] / 1e6, figure["peer"]), 1)]
if "herald_instructions" in figures[0]:
    tables.append(("millions of instructions (callgrind)", "_instructions", lambda figure: "", 1e6))
for title, suffix, detail, scale in tables:
    print("\n| decode and order a 10,000-entry feed, %s | herald | CPython | CPython ÷ herald |\n|---|---|---|---|" % title)
    for figure in figures:
        herald, python = figure["herald" + suffix], figure["python" + suffix]
        print("| %s%s | %.1f | %.1f | %.2f |" % (names[figure["format"]], detail(figure), herald / scale, python / scale, python / herald))
PY
echo
echo "In-process: herald-decode-bench runs FeedDecoder.decode and CheckPolicy.order on the bytes five times" \
  "per round and reports the median; CPython parses the same bytes five times per round in one process;" \
  "the table shows the median of the rounds, which alternate which goes first. Instructions (--instructions):" \
  "a process parsing four times less one parsing once, over three, on each side; CPython with PYTHONHASHSEED=0."

say "appLaunched() on the caller's thread: herald-launch-bench"
XDG_STATE_HOME="$work/launch" "$bin_path/herald-launch-bench" --runs $((runs * 5)) >"$work/launch.json" \
  || die "the appLaunched() figures could not be measured"
echo
echo "| Herald.appLaunched(), the call and the main-loop work it queues, µs (median of $((runs * 5))) | herald |"
echo "|---|---|"
"$python" - "$work/launch.json" <<'PY'
import json, sys
names = {"due": "a check is due: reads the state, starts the fetch", "not-due": "no check due: reads the state, stops"}
for line in open(sys.argv[1]):
    figure = json.loads(line)
    print("| %s | %.0f |" % (names[figure["case"]], figure["median_us"]))
PY
say "done in $(($(date +%s) - started)) s of measuring"
