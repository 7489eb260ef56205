#!/usr/bin/env bash
# Test dependencies of package ide: git (repositories made by the tests;
# fetch/pull/push), python3, node and a JDK (run configurations started as
# real processes) and debugpy (debug_run_configuration). Idempotent; installs only what is missing, at the pinned
# Debian bookworm versions, falling back to the current bookworm version
# when a security update has replaced the pinned one.
set -euo pipefail

GIT_VERSION="1:2.39.5-0+deb12u3"
PYTHON3_VERSION="3.11.2-1+b1"

need=()
command -v git >/dev/null 2>&1 || need+=("git=$GIT_VERSION")
command -v python3 >/dev/null 2>&1 || need+=("python3=$PYTHON3_VERSION")
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)

if ((${#need[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if ! apt-get install -y -qq --no-install-recommends "${need[@]}"; then
    echo "ide.sh: pinned versions unavailable, installing bookworm's current ones" >&2
    apt-get install -y -qq --no-install-recommends "${need[@]%%=*}"
  fi
fi

# debugpy for debug_run_configuration on Python configurations.
DEBUGPY_VERSION="1.8.22"
if ! python3 -c 'import debugpy' >/dev/null 2>&1; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends python3-pip
  fi
  python3 -m pip install --quiet "debugpy==$DEBUGPY_VERSION" 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages "debugpy==$DEBUGPY_VERSION"
fi

# git >= 2.28 is needed for `git init -b`; bookworm ships 2.39.
ver=$(git --version | awk '{print $3}')
major=${ver%%.*}; rest=${ver#*.}; minor=${rest%%.*}
if (( major < 2 || (major == 2 && minor < 28) )); then
  echo "ide.sh: git $ver is too old, need 2.28 or later" >&2
  exit 1
fi
echo "ide deps: git $ver, $(python3 --version), debugpy $(python3 -c 'import debugpy; print(debugpy.__version__)'), node $(node --version), $(javac -version 2>&1)"
