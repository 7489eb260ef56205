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

# debugpy_install PY: pin debugpy into the interpreter PY (pip from apt
# when an apt-managed PY has none; --break-system-packages where PEP 668
# marks PY as externally managed).
debugpy_install() {
  local py="$1"
  if [ "$("$py" -c 'import debugpy; print(debugpy.__version__)' 2>/dev/null || true)" = "$DEBUGPY_VERSION" ]; then
    return 0
  fi
  if ! "$py" -m pip --version >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends python3-pip
  fi
  echo "+ $py -m pip install debugpy==$DEBUGPY_VERSION"
  "$py" -m pip install --quiet "debugpy==$DEBUGPY_VERSION" 2>/dev/null ||
    "$py" -m pip install --quiet --break-system-packages "debugpy==$DEBUGPY_VERSION"
}

# The python3 first on PATH (pyenv's, where pyenv is set up), and
# Debian's own: attach by pid runs the target's own interpreter's debugpy.
debugpy_install "$(command -v python3)"
if [ -x /usr/bin/python3 ] && [ "$(readlink -f /usr/bin/python3)" != "$(readlink -f "$(command -v python3)")" ]; then
  debugpy_install /usr/bin/python3
fi

if ! command -v gdb >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends gdb
fi

echo "core deps: $("$gobin/dlv" version | head -2 | tail -1), debugpy $(python3 -c 'import debugpy; print(debugpy.__version__)')$([ -x /usr/bin/python3 ] && echo " (and $(/usr/bin/python3 -c 'import debugpy; print(debugpy.__version__)') in /usr/bin/python3)"), $(gdb --version | head -1)"
