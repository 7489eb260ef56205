#!/usr/bin/env bash
# Installs the peer the benchmarks compare dbg with: mcp-debugger 0.24.2
# (npm @debugmcp/mcp-debugger, which bundles vscode-js-debug), into a cache
# folder outside the repository. Only the benchmarks use it.
set -euo pipefail
dir="${DBG_BENCH_CACHE:-$HOME/.cache/dbg-bench}/mcp-debugger"
mkdir -p "$dir"
cd "$dir"
if [ ! -f node_modules/@debugmcp/mcp-debugger/package.json ] ||
   ! grep -q '"version": "0.24.2"' node_modules/@debugmcp/mcp-debugger/package.json; then
  npm install --no-audit --no-fund --silent @debugmcp/mcp-debugger@0.24.2
fi
echo "$dir/node_modules/@debugmcp/mcp-debugger/dist/cli"
