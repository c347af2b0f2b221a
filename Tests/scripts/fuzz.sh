#!/usr/bin/env bash
# Builds Herald's libFuzzer targets (with AddressSanitizer, into .build-fuzz) and runs each for a
# bounded time; fails if any finds a crash, a timeout or an out-of-memory.
#
#   Tests/scripts/fuzz.sh [--seconds N] [--keep-going] [--no-build] [TARGET...]
#
# TARGET: xml, binary, openstep, json, prompts, signature (all by default; `herald-fuzz --list`).
# --seconds N   how long each target runs (default 10: a minute for the six).
# --keep-going  run libFuzzer in fork mode and go on after a finding, to collect several in one
#               long run (duplicates of one bug are likely; compare their stacks).
# --no-build    use the fuzzers already in .build-fuzz.
#
# Each target starts from its seeds (Tests/Fuzz/corpus/<target>, read only) and from what earlier
# runs on this machine found (.build-fuzz/corpus/<target>, where new inputs go). A reproducer is
# saved as Tests/Fuzz/crashes/<target>/{crash,timeout,oom,leak}-<sha1>; FuzzCorpusTests replays
# every file there, so a finding stays a failing test until the decoder is fixed. The full log is
# .build-fuzz/logs/<target>.log. Replay one input: SWIFT_DETERMINISTIC_HASHING=1 HERALD_FUZZ_TARGET=<target>
# .build-fuzz/release/herald-fuzz FILE (or, without the sanitizers: swift build, then
# .build/debug/herald-fuzz FILE).
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=10
build=1
keep_going=0
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || { echo "fuzz: --seconds needs a whole number of seconds" >&2; exit 64; }
               seconds=$2; shift ;;
    --keep-going) keep_going=1 ;;
    --no-build) build=0 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz: unknown option $1" >&2; exit 64 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
all=(xml binary openstep json prompts signature)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for target in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $target "* ]] || { echo "fuzz: unknown target '$target' (targets: ${all[*]})" >&2; exit 64; }
done

scratch=.build-fuzz
fuzzer=$scratch/release/herald-fuzz
if [ "$build" = 1 ]; then
  # -sanitize=fuzzer,address in ONE flag: given as two -sanitize flags, the compiler keeps the
  # last only, and the code gets no coverage instrumentation (the fuzzer then runs blind).
  # -DHERALD_FUZZING makes main hand over to libFuzzer; @_extern(c) declares its driver.
  echo "fuzz: building herald-fuzz (release, -sanitize=fuzzer,address) in $scratch"
  start=$(date +%s)
  mkdir -p "$scratch"
  if ! swift build -c release --product herald-fuzz --scratch-path "$scratch" \
      -Xswiftc -sanitize=fuzzer,address -Xswiftc -DHERALD_FUZZING \
      -Xswiftc -enable-experimental-feature -Xswiftc Extern >"$scratch/build.log" 2>&1; then
    tail -30 "$scratch/build.log"
    echo "fuzz: the fuzz build failed (log: $scratch/build.log)"
    exit 1
  fi
  echo "fuzz: built in $(( $(date +%s) - start )) s"
fi
[ -x "$fuzzer" ] || { echo "fuzz: no fuzzer at $fuzzer (run without --no-build)" >&2; exit 1; }

# The Swift runtime's backtracer would hold the output open after a crash and slow each one
# down; ASan and libFuzzer print the stack themselves.
export SWIFT_BACKTRACE=enable=no
# Swift seeds its hashing per process, so a dictionary's order (and which path a decoder takes
# through it) changes from run to run: a reproducer found with a random seed may crash in one
# run out of five only. One fixed seed makes every finding replay as it was found.
export SWIFT_DETERMINISTIC_HASHING=1

status=0
summary=()
for target in "${targets[@]}"; do
  corpus=$scratch/corpus/$target
  artifacts=$scratch/artifacts/$target
  log=$scratch/logs/$target.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  rm -f "$artifacts"/*
  options=(-max_total_time="$seconds" -max_len=65536 -timeout=5 -rss_limit_mb=2048
           -print_final_stats=1 -artifact_prefix="$artifacts/" -dict="Tests/Fuzz/dicts/$target.dict")
  if [ "$keep_going" = 1 ]; then
    options+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  echo "fuzz: $target for $seconds s"
  code=0
  HERALD_FUZZ_TARGET=$target "$fuzzer" "${options[@]}" "$corpus" "Tests/Fuzz/corpus/$target" >"$log" 2>&1 || code=$?

  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  if [ -z "$rate" ]; then  # fork mode prints no final stats; its status lines carry exec/s
    rate=$(grep -o 'exec/s: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  fi
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  line="$target: ${runs:-?} runs, ${rate:-?} exec/s, ${coverage:-no coverage line}"

  found=()
  for file in "$artifacts"/*; do
    [ -f "$file" ] || continue
    mkdir -p "Tests/Fuzz/crashes/$target"
    cp "$file" "Tests/Fuzz/crashes/$target/"
    found+=("Tests/Fuzz/crashes/$target/$(basename "$file")")
  done
  if [ ${#found[@]} -gt 0 ] || [ "$code" -ne 0 ]; then
    status=1
    line+=", FOUND (exit $code): ${found[*]:-no reproducer written}"
    echo "fuzz: $target found a problem (exit $code); log: $log"
    # What the sanitizer or libFuzzer said, and the innermost frames of Herald's code.
    grep -E '^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*Fatal error:)|ALARM|out-of-memory|Swift runtime failure' "$log" | head -5 | sed 's/^/  /' || true
    # The first stack, each run of one repeated frame (a recursion) shown once, demangled.
    awk '/^ +#[0-9]+ 0x/ { seen = 1; name = $4; if (name != last) { print; n++ } ; last = name; if (n == 10) exit; next }
         seen { exit }' "$log" | { swift demangle --simplified 2>/dev/null || cat; } | cut -c1-220 | sed 's/^/  /' || true
    for file in "${found[@]}"; do echo "  reproducer: $file ($(wc -c <"$file") bytes)"; done
  fi
  summary+=("$line")
done

echo "fuzz: summary"
printf '  %s\n' "${summary[@]}"
if [ "$status" -ne 0 ]; then
  echo "fuzz: FAILED: reproducers are in Tests/Fuzz/crashes/ (replayed by FuzzCorpusTests); logs in $scratch/logs/"
else
  echo "fuzz: no crash, timeout or out-of-memory in ${#targets[@]} target(s) x $seconds s"
fi
exit "$status"
