#!/usr/bin/env bash
# JVM capabilities (debugtools/): a JDK (javac compiles the built-in agent
# and the fixture service) and the H2 database the fixture talks JDBC to.
set -euo pipefail

need=()
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
[ -f /usr/share/java/h2.jar ] || need+=(libh2-java=2.1.214-1)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends "${need[@]}"; then
    apt-get update
    apt-get install -y --no-install-recommends "${need[@]}"
  fi
fi
test -f /usr/share/java/h2.jar
javac -version
