#!/usr/bin/env bash
# dbg beside mcp-debugger, in one command: installs the pinned peer
# (scripts/deps/peer.sh, into $DBG_PEER_DIR, default ~/.cache/dbg-test/peer)
# and runs both servers through the same MCP client on the same fixtures,
# alternating. It writes bench/results/peer.md and bench/results/peer.svg
# and puts the table into the README. Flags go to the Go program:
#
#	bash bench/peer.sh                 # python, go, javascript, java; 5 runs
#	bash bench/peer.sh -n 3 -langs python,javascript
#
# Java runs on JDK 25 (/usr/lib/jvm/temurin-25-jdk-amd64; -java-home
# changes it) for both servers: mcp-debugger needs JDK 21 or later.
set -euo pipefail
cd "$(dirname "$0")/.."
cli="$(bash scripts/deps/peer.sh)"
exec go run ./bench/peer -peer "$cli" "$@"
