#!/usr/bin/env bash
# The test runners of debug_test and list_tests, pinned: pytest in the
# interpreter the python adapter picks for the fixture projects (python3
# first on PATH), and Jest, Vitest and Mocha in cache folders the tests
# link into their copy of the fixture project ($DBG_JEST_DIR, default
# ~/.cache/dbg-test/jest; $DBG_VITEST_DIR, default
# ~/.cache/dbg-test/vitest; $DBG_MOCHA_DIR, default
# ~/.cache/dbg-test/mocha; $DBG_TAPE_DIR, default ~/.cache/dbg-test/tape);
# nothing is installed into the repository.
# RSpec from Debian (ruby-rspec, for the ruby3.1 whose rdbg the ruby
# adapter runs). go test comes with Go, cargo with rustup, minitest with
# Ruby; Maven from Debian, with the JUnit fixtures' artifacts. Idempotent.
set -euo pipefail

PYTEST_VERSION=9.2.0
JEST_VERSION=30.5.2
JEST_DIR="${DBG_JEST_DIR:-$HOME/.cache/dbg-test/jest}"
# Vitest 4.1 is the newest that runs on Node 20.
VITEST_VERSION=4.1.12
VITEST_DIR="${DBG_VITEST_DIR:-$HOME/.cache/dbg-test/vitest}"
MOCHA_VERSION=12.0.3
MOCHA_DIR="${DBG_MOCHA_DIR:-$HOME/.cache/dbg-test/mocha}"
# tape has no support: its test runs the refusal's way (start_debugging
# of the test file).
TAPE_VERSION=5.10.2
TAPE_DIR="${DBG_TAPE_DIR:-$HOME/.cache/dbg-test/tape}"

py="$(command -v python3)"
if [ "$("$py" -c 'import pytest; print(pytest.__version__)' 2>/dev/null || true)" != "$PYTEST_VERSION" ]; then
  echo "+ $py -m pip install pytest==$PYTEST_VERSION"
  "$py" -m pip install --quiet "pytest==$PYTEST_VERSION" 2>/dev/null ||
    "$py" -m pip install --quiet --break-system-packages "pytest==$PYTEST_VERSION"
fi

# npm_pinned PACKAGE VERSION DIR installs PACKAGE@VERSION into DIR unless
# it is there already.
npm_pinned() {
  local pkg="$1" version="$2" dir="$3" installed=""
  if [ -f "$dir/node_modules/$pkg/package.json" ]; then
    installed="$(node -p "require('$dir/node_modules/$pkg/package.json').version")"
  fi
  if [ "$installed" != "$version" ]; then
    mkdir -p "$dir"
    echo "+ npm install $pkg@$version (in $dir)"
    npm install --no-audit --no-fund --save-exact --prefix "$dir" "$pkg@$version"
  fi
}
npm_pinned jest "$JEST_VERSION" "$JEST_DIR"
npm_pinned vitest "$VITEST_VERSION" "$VITEST_DIR"
npm_pinned mocha "$MOCHA_VERSION" "$MOCHA_DIR"
npm_pinned tape "$TAPE_VERSION" "$TAPE_DIR"

RSPEC_VERSION="3.12.0c0e1m1s0-1"
if [ "$(dpkg-query -W -f='${Version}' ruby-rspec 2>/dev/null || true)" != "$RSPEC_VERSION" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "ruby-rspec=$RSPEC_VERSION"
fi

MAVEN_VERSION="3.8.7-1"
if [ "$(dpkg-query -W -f='${Version}' maven 2>/dev/null || true)" != "$MAVEN_VERSION" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "maven=$MAVEN_VERSION"
fi
# The JUnit fixtures' artifacts, as debug_test fetches them, so that the
# tests run offline: the build and classpath of both, the console launcher
# of their JUnit Platform (which discovery of junit-surefire fetches), and
# Surefire's JUnit Platform provider (junit-surefire runs through it).
DEPENDENCY_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"
JUNIT_LAUNCHER="org.junit.platform:junit-platform-console-standalone:1.14.1"
for fixture in junit junit-surefire; do
  junit_copy="$(mktemp -d)"
  cp -r "$(dirname "$0")/../../testdata/tests/$fixture/." "$junit_copy"
  echo "+ mvn test-compile dependency:build-classpath surefire:help (testdata/tests/$fixture, in $junit_copy)"
  mvn -q -B -f "$junit_copy/pom.xml" test-compile "$DEPENDENCY_PLUGIN:build-classpath" surefire:help -Dmdep.includeScope=test -Dmdep.outputFile="$junit_copy/cp.txt" >/dev/null
  if [ "$fixture" = junit-surefire ]; then
    echo "+ mvn dependency:get $JUNIT_LAUNCHER; mvn surefire:test (testdata/tests/$fixture)"
    mvn -q -B -f "$junit_copy/pom.xml" "$DEPENDENCY_PLUGIN:get" -Dartifact="$JUNIT_LAUNCHER" -Dtransitive=false
    mvn -q -B -f "$junit_copy/pom.xml" surefire:test@default-test -Dtest='com.shop.CartTest#passes' >/dev/null
  fi
  rm -rf "$junit_copy"
done
# Groovy, which runs the Gradle init script's test (there is no Gradle here
# that runs on this JDK).
GROOVY="org.apache.groovy:groovy:4.0.33"
if [ ! -f "$HOME/.m2/repository/org/apache/groovy/groovy/4.0.33/groovy-4.0.33.jar" ]; then
  echo "+ mvn dependency:get $GROOVY"
  mvn -q -B "$DEPENDENCY_PLUGIN:get" -Dartifact="$GROOVY" -Dtransitive=false
fi

echo "test runners: pytest $("$py" -c 'import pytest; print(pytest.__version__)') ($py), jest $(node -p "require('$JEST_DIR/node_modules/jest/package.json').version"), vitest $(node -p "require('$VITEST_DIR/node_modules/vitest/package.json').version"), mocha $(node -p "require('$MOCHA_DIR/node_modules/mocha/package.json').version"), tape $(node -p "require('$TAPE_DIR/node_modules/tape/package.json').version"), rspec $(rspec --version | head -1), $(mvn -B -v | sed -n 1p)"
