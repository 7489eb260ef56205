#!/usr/bin/env bash
# JavaScript/TypeScript debugging tests: node (the debuggee runtime and the
# inspector the built-in adapter speaks to), a pinned TypeScript compiler
# for the source-map fixtures, and a pinned tsx (a .ts program run through
# the project's own tsx). They go to cache folders the tests look in
# ($DBG_TS_DIR, default ~/.cache/dbg-test/ts; $DBG_TSX_DIR, default
# ~/.cache/dbg-test/tsx); nothing is installed into the repository. The
# official MCP TypeScript client, pinned ($DBG_MCPSDK_DIR, default
# ~/.cache/dbg-test/mcpsdk), checks that dbg's tools/list and answers are
# what that client accepts (cmd/dbg TestTypeScriptClient).
set -euo pipefail

TS_VERSION=5.9.3
TS_DIR="${DBG_TS_DIR:-$HOME/.cache/dbg-test/ts}"
TSX_VERSION=4.23.15
TSX_DIR="${DBG_TSX_DIR:-$HOME/.cache/dbg-test/tsx}"
MCPSDK_VERSION=1.32.2
MCPSDK_DIR="${DBG_MCPSDK_DIR:-$HOME/.cache/dbg-test/mcpsdk}"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm
  else
    echo "node.sh: node and npm are required" >&2
    exit 1
  fi
fi

# install_pinned DIR PACKAGE VERSION: npm install PACKAGE@VERSION into DIR
# unless that exact version is there.
install_pinned() {
  local dir="$1" pkg="$2" version="$3" installed=""
  if [ -f "$dir/node_modules/$pkg/package.json" ]; then
    installed="$(node -p "require('$dir/node_modules/$pkg/package.json').version")"
  fi
  if [ "$installed" != "$version" ]; then
    mkdir -p "$dir"
    npm install --no-audit --no-fund --prefix "$dir" "$pkg@$version"
  fi
}

install_pinned "$TS_DIR" typescript "$TS_VERSION"
install_pinned "$TSX_DIR" tsx "$TSX_VERSION"
install_pinned "$MCPSDK_DIR" @modelcontextprotocol/sdk "$MCPSDK_VERSION"
"$TS_DIR/node_modules/.bin/tsc" --version
echo "tsx $(node -p "require('$TSX_DIR/node_modules/tsx/package.json').version")"
echo "@modelcontextprotocol/sdk $(node -p "require('$MCPSDK_DIR/node_modules/@modelcontextprotocol/sdk/package.json').version")"
