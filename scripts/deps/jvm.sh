#!/usr/bin/env bash
# JVM capabilities (debugtools/): a JDK (javac compiles the built-in agent
# and the fixture service), the H2 database the fixture talks JDBC to, and
# Logback/Log4j2 for the log capture tests.
set -euo pipefail

need=()
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless=17.0.15+6-1~deb12u1)
[ -f /usr/share/java/h2.jar ] || need+=(libh2-java=2.1.214-1)
# Logback and Log4j2: the agent's log capture is tested against both.
[ -f /usr/share/java/logback-classic.jar ] || need+=(liblogback-java=1:1.2.11-3)
[ -f /usr/share/java/log4j-core.jar ] || need+=(liblog4j2-java=2.19.0-2)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends "${need[@]}"; then
    apt-get update
    apt-get install -y --no-install-recommends "${need[@]}"
  fi
fi
test -f /usr/share/java/h2.jar
test -f /usr/share/java/logback-classic.jar
test -f /usr/share/java/log4j-core.jar
javac -version
