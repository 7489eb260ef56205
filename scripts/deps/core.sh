#!/usr/bin/env bash
# The spine's real adapters: delve (go install) and debugpy (pip), pinned.
# These are the same commands `dbg adapters install go python` runs.
# gdb is what debugpy uses to attach by pid. Idempotent.
set -euo pipefail

DELVE_VERSION="v1.27.2"   # keep in step with adapters.DelveVersion
DEBUGPY_VERSION="1.8.22"  # keep in step with adapters.DebugpyVersion

gobin="$(go env GOPATH)/bin"
if ! "$gobin/dlv" version 2>/dev/null | grep -q "Version: ${DELVE_VERSION#v}"; then
  echo "+ go install github.com/go-delve/delve/cmd/dlv@$DELVE_VERSION"
  go install "github.com/go-delve/delve/cmd/dlv@$DELVE_VERSION"
fi

if [ "$(python3 -c 'import debugpy; print(debugpy.__version__)' 2>/dev/null || true)" != "$DEBUGPY_VERSION" ]; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends python3-pip
  fi
  echo "+ python3 -m pip install debugpy==$DEBUGPY_VERSION"
  python3 -m pip install --quiet "debugpy==$DEBUGPY_VERSION" 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages "debugpy==$DEBUGPY_VERSION"
fi

if ! command -v gdb >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends gdb
fi

echo "core deps: $("$gobin/dlv" version | head -2 | tail -1), debugpy $(python3 -c 'import debugpy; print(debugpy.__version__)'), $(gdb --version | head -1)"
