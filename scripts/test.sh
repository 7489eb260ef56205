#!/usr/bin/env bash
# Installs what the tests need (pinned versions) and runs the whole suite:
# gofmt, go vet, and go test -race over every package, against real
# adapters and real programs; meanwhile every fuzz target for a while
# (scripts/fuzz.sh; FUZZTIME sets how long, FUZZTIME=0 skips them).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-test-deps.sh
export PATH="$(go env GOPATH)/bin:$PATH"
work=$(mktemp -d) # private (0700)

echo "==> gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "==> go vet"
go vet ./...
echo "==> go test -race"
# The summary prints each package as it ends, the output of every failing
# test, then the time of each package and the slowest tests; the events
# are kept in a private folder for a closer look (TESTJSON names a file).
# Independent tests run TESTPARALLEL at a time in each package (default
# 3: most of an end-to-end test's time is the adapters' and programs'
# start, not CPU; the conformance table runs two languages at a time
# among them). cmd/dbg, the end-to-end package and the longest by far,
# starts first; the others run beside it.
go build -o "$work/testsummary" ./internal/testsummary
# A race-enabled binary sleeps a second before it exits, after reporting
# the races it saw: not here, where test binaries and the dbg servers
# they start exit by the hundred.
export GORACE="${GORACE:-atexit_sleep_ms=0}"
# The fuzz targets run meanwhile at the lowest priority, on what the
# tests leave of the cores (scripts/fuzz.sh; FUZZTIME=0 skips them).
fuzzing=""
if [ "${FUZZTIME:-1500x}" != "0" ]; then
  FUZZTIME="${FUZZTIME:-1500x}" FUZZJOBS="${FUZZJOBS:-1}" nice -n 19 bash scripts/fuzz.sh >"$work/fuzz.log" 2>&1 &
  fuzzing=$!
fi
events="${TESTJSON:-$work/test.json}"
status=0
go test -race -count=1 -timeout 60m -json -parallel "${TESTPARALLEL:-3}" \
  ./cmd/dbg/ $(go list ./... | grep -v '/cmd/dbg$') |
  "$work/testsummary" -top 10 -save "$events" || status=$?
echo "    (events in $events)"
if [ -n "$fuzzing" ]; then
  echo "==> fuzz"
  wait "$fuzzing" || status=1
  cat "$work/fuzz.log"
fi
exit "$status"
