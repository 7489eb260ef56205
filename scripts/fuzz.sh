#!/usr/bin/env bash
# Runs every Go fuzz target of the repository for a few seconds each
# (FUZZTIME, default 3s; a count such as 1500x runs that many inputs, as
# scripts/test.sh does), on the committed corpus (testdata/fuzz/FuzzX
# of each package) plus what the fuzzer makes.
#
#	bash scripts/fuzz.sh                  # every target, 3 s each
#	FUZZTIME=30s bash scripts/fuzz.sh ./dap/ FuzzFrameReader
#	bash scripts/fuzz.sh -corpus          # also add new interesting inputs to the committed corpus
#
# Each package's test binary is built once, instrumented for fuzzing
# (go test -c -fuzz), and runs one target at a time from the package's
# folder with go test's own fuzz cache; FUZZJOBS targets run at once
# (default: the number of cores), each with FUZZPARALLEL fuzzing workers
# (default 1), so every target gets its FUZZTIME of one core.
# A failing input is written to the package's testdata/fuzz and fails
# the run: commit it with the fix, it then runs in every go test.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

fuzztime="${FUZZTIME:-3s}"
parallel="${FUZZPARALLEL:-1}"
jobs="${FUZZJOBS:-$(nproc)}"
corpus=0
if [ "${1:-}" = "-corpus" ]; then corpus=1; shift; fi
only_pkg="${1:-}"
only_name="${2:-}"
cache="$(go env GOCACHE)/fuzz"
keep="${FUZZKEEP:-40}" # inputs kept per target with -corpus
work=$(mktemp -d)      # private (0700): the test binaries and the logs
trap 'rm -rf "$work"' EXIT

targets=$(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . |
  sed -E 's#^\./(.*)/[^/]*_test\.go:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*#./\1 \2#' | sort -u |
  while read -r pkg name; do
    if [ -n "$only_pkg" ] && [ "${only_pkg%/}" != "${pkg%/}" ]; then continue; fi
    if [ -n "$only_name" ] && [ "$only_name" != "$name" ]; then continue; fi
    echo "$pkg $name"
  done)
start=$(date +%s)

# One instrumented test binary per package, named by its import path.
declare -A bin imp
for pkg in $(awk '{print $1}' <<<"$targets" | sort -u); do
  imp[$pkg]=$(go list "$pkg")
  bin[$pkg]="$work/$(tr / _ <<<"${imp[$pkg]}").test"
  echo "==> build $pkg"
  go test -c -fuzz=. -o "${bin[$pkg]}" "$pkg"
done
built=$(($(date +%s) - start))

# fuzz runs one target; its log is $work/N.log, its verdict $work/N.ok.
fuzz() {
  local n=$1 pkg=$2 name=$3 log="$work/$1.log"
  run() {
    (cd "$root/$pkg" && "${bin[$pkg]}" -test.run='^$' -test.fuzz="^${name}\$" -test.fuzztime="$fuzztime" \
      -test.parallel="$parallel" -test.timeout=10m -test.fuzzcachedir="$cache/${imp[$pkg]}") >>"$log" 2>&1
  }
  echo "==> fuzz $pkg $name ($fuzztime)" >"$log"
  if run; then touch "$work/$n.ok"; return; fi
  # Go's fuzzing engine can report its own deadline, with no failing
  # input, when a worker is slow to stop at -fuzztime: run it again once.
  if grep -q "context deadline exceeded" "$log" && ! grep -q "Failing input written" "$log"; then
    echo "    (the fuzzing engine's own deadline, no failing input: again)" >>"$log"
    if run; then touch "$work/$n.ok"; fi
  fi
}

# report prints target n's log: all of it when it failed, else its last count.
report() {
  local n=$1 log="$work/$1.log"
  if [ -e "$work/$n.ok" ]; then
    head -n 1 "$log"
    grep -F "(the fuzzing engine's own deadline" "$log" || true
    grep '^fuzz: elapsed' "$log" | tail -n 1
  else
    cat "$log"
  fi
}

count=0
running=0
next=1 # the next target to report, in order
while read -r pkg name; do
  [ -n "$pkg" ] || continue
  count=$((count + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  { fuzz "$count" "$pkg" "$name"; touch "$work/$count.done"; } &
  running=$((running + 1))
  # Print, in order, the targets that are done.
  while [ "$next" -lt "$count" ] && [ -e "$work/$next.done" ]; do report "$next"; next=$((next + 1)); done
done <<<"$targets"
wait
failed=0
for n in $(seq 1 "$count"); do
  [ "$n" -ge "$next" ] && report "$n"
  [ -e "$work/$n.ok" ] || failed=$((failed + 1))
done

if [ "$corpus" = 1 ]; then
  while read -r pkg name; do
    [ -n "$pkg" ] || continue
    src="$cache/${imp[$pkg]}/$name"
    dst="$pkg/testdata/fuzz/$name"
    if [ -d "$src" ]; then
      mkdir -p "$dst"
      # The smallest new inputs: they cover what the fuzzer found and keep the tree small.
      ls -S -r "$src" | head -n "$keep" | while read -r f; do cp -n "$src/$f" "$dst/$f"; done
    fi
  done <<<"$targets"
fi
echo "==> fuzzed $count targets in $(($(date +%s) - start))s (building took ${built}s); $failed failed"
[ "$failed" = 0 ]
