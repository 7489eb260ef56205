#!/usr/bin/env bash
# Test dependencies of the built-in Java adapter (adapters/javadap) and its
# benchmark: a JDK 17 with java, javac, jar and jdb. Idempotent; installs
# only when missing, at the pinned Debian bookworm version, falling back to
# bookworm's current one when a security update has replaced it. The
# adapter's tests also run on JDK 25: the machine image ships a Temurin 25
# JDK under /usr/lib/jvm, which this script checks (it has no package to
# install here).
set -euo pipefail

JDK_VERSION="17.0.15+6-1~deb12u1"

missing=0
for tool in java javac jar jdb; do
  command -v "$tool" >/dev/null 2>&1 || missing=1
done

if ((missing)); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if ! apt-get install -y -qq --no-install-recommends "openjdk-17-jdk-headless=$JDK_VERSION"; then
    echo "java.sh: openjdk-17-jdk-headless=$JDK_VERSION unavailable, installing bookworm's current one" >&2
    apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless
  fi
fi

for tool in java javac jar jdb; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "java.sh: $tool still missing after installing the JDK" >&2
    exit 1
  fi
done

jdk25=""
for home in /usr/lib/jvm/temurin-25-jdk-*; do
  if [[ -x "$home/bin/java" && -x "$home/bin/javac" ]]; then
    jdk25=$home
    break
  fi
done
if [[ -z "$jdk25" ]]; then
  echo "java.sh: no Temurin 25 JDK under /usr/lib/jvm (the machine image ships /usr/lib/jvm/temurin-25-jdk-amd64); the Java adapter's JDK 25 tests need it" >&2
  exit 1
fi
echo "java deps: $(javac -version 2>&1), $(java -version 2>&1 | head -1); JDK 25: $("$jdk25/bin/java" -version 2>&1 | head -1) at $jdk25"
