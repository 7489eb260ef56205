#!/usr/bin/env bash
# Runs every Go fuzz target of the repository for a few seconds each
# (FUZZTIME, default 3s), one after another, on the committed corpus
# (testdata/fuzz/FuzzX of each package) plus what the fuzzer makes.
#
#	bash scripts/fuzz.sh                  # every target, 3 s each
#	FUZZTIME=30s bash scripts/fuzz.sh ./dap/ FuzzFrameReader
#	bash scripts/fuzz.sh -corpus          # also add new interesting inputs to the committed corpus
#
# A failing input is written by go test to the package's testdata/fuzz
# and fails the run: commit it with the fix, it then runs in every
# go test. FUZZPARALLEL bounds the fuzzing workers (default 1: the run
# shares the machine with the test suite).
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime="${FUZZTIME:-3s}"
parallel="${FUZZPARALLEL:-1}"
corpus=0
if [ "${1:-}" = "-corpus" ]; then corpus=1; shift; fi
only_pkg="${1:-}"
only_name="${2:-}"
cache="$(go env GOCACHE)/fuzz"
keep="${FUZZKEEP:-40}" # inputs kept per target with -corpus

targets=$(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . |
  sed -E 's#^\./(.*)/[^/]*_test\.go:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*#./\1 \2#' | sort -u)
failed=0
count=0
start=$(date +%s)
while read -r pkg name; do
  [ -n "$pkg" ] || continue
  if [ -n "$only_pkg" ] && [ "${only_pkg%/}" != "${pkg%/}" ]; then continue; fi
  if [ -n "$only_name" ] && [ "$only_name" != "$name" ]; then continue; fi
  count=$((count + 1))
  echo "==> fuzz $pkg $name ($fuzztime)"
  fuzz() { go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel "$parallel" "$pkg" >"/tmp/dbg-fuzz-$$.log" 2>&1; }
  ok=1
  fuzz || ok=0
  # Go's fuzzing engine can report its own deadline, with no failing
  # input, when a worker is slow to stop at -fuzztime: run it again once.
  if [ "$ok" = 0 ] && grep -q "context deadline exceeded" "/tmp/dbg-fuzz-$$.log" &&
    ! grep -q "Failing input written" "/tmp/dbg-fuzz-$$.log"; then
    echo "    (the fuzzing engine's own deadline, no failing input: again)"
    ok=1
    fuzz || ok=0
  fi
  if [ "$ok" = 0 ]; then
    cat "/tmp/dbg-fuzz-$$.log"
    failed=$((failed + 1))
    continue
  fi
  tail -n 1 "/tmp/dbg-fuzz-$$.log"
  if [ "$corpus" = 1 ]; then
    imp=$(go list "$pkg")
    src="$cache/$imp/$name"
    dst="$pkg/testdata/fuzz/$name"
    if [ -d "$src" ]; then
      mkdir -p "$dst"
      # The smallest new inputs: they cover what the fuzzer found and keep the tree small.
      ls -S -r "$src" | head -n "$keep" | while read -r f; do cp -n "$src/$f" "$dst/$f"; done
    fi
  fi
done <<<"$targets"
rm -f "/tmp/dbg-fuzz-$$.log"
echo "==> fuzzed $count targets in $(( $(date +%s) - start ))s; $failed failed"
[ "$failed" = 0 ]
