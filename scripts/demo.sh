#!/usr/bin/env bash
# Builds dbg and debugs a shipped Go example with delve: it stops at a
# breakpoint and prints the stack and the locals, steps, and runs to the end.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
go build -o bin/dbg ./cmd/dbg
if ! bin/dbg adapters --json | grep -A3 '"language": "go"' | grep -q '"found": true'; then
  bin/dbg adapters install go
fi
exec bin/dbg demo --language go --program testdata/go/loop/main.go
