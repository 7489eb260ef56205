#!/usr/bin/env bash
# JavaScript/TypeScript debugging tests: node (the debuggee runtime and the
# inspector the built-in adapter speaks to) and a pinned TypeScript compiler
# for the source-map fixtures. The compiler goes to a cache folder the tests
# look in ($DBG_TS_DIR, default ~/.cache/dbg-test/ts); nothing is installed
# into the repository.
set -euo pipefail

TS_VERSION=5.9.3
TS_DIR="${DBG_TS_DIR:-$HOME/.cache/dbg-test/ts}"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm
  else
    echo "node.sh: node and npm are required" >&2
    exit 1
  fi
fi

installed=""
if [ -f "$TS_DIR/node_modules/typescript/package.json" ]; then
  installed="$(node -p "require('$TS_DIR/node_modules/typescript/package.json').version")"
fi
if [ "$installed" != "$TS_VERSION" ]; then
  mkdir -p "$TS_DIR"
  npm install --no-audit --no-fund --prefix "$TS_DIR" "typescript@$TS_VERSION"
fi
"$TS_DIR/node_modules/.bin/tsc" --version
