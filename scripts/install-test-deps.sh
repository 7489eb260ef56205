#!/usr/bin/env bash
# Installs everything the test suite needs, with pinned versions.
# Each area keeps its own list in scripts/deps/*.sh; this runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
for f in scripts/deps/*.sh; do
  echo "==> $f"
  bash "$f"
done
