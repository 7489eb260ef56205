#!/usr/bin/env bash
# Native-language debuggers for the c, cpp, rust, ruby and cobol adapters:
# LLDB's DAP adapter (lldb-vscode-16), Ruby with its bundled rdbg (debug
# 1.4.0 in Debian bookworm's ruby3.1) and GnuCOBOL 3.1. A C compiler is
# needed to build C fixtures and cobc output. Versions are pinned to Debian
# bookworm. Idempotent: packages already at the pinned version are skipped.
set -euo pipefail

pkgs=(
  "lldb-16=1:16.0.6-15~deb12u1"
  "ruby3.1=3.1.7+really3.1.2-0+deb12u1"
  "libruby3.1=3.1.7+really3.1.2-0+deb12u1"
  "ruby=1:3.1"
  "gnucobol3=3.1.2-5+b1"
  "gcc=4:12.2.0-3"
  "g++=4:12.2.0-3"
)

missing=()
for p in "${pkgs[@]}"; do
  name=${p%%=*}
  want=${p#*=}
  [[ $want == "$p" ]] && want=""
  have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
  if [[ $have != "install ok installed"* ]] || { [[ -n $want ]] && [[ $have != *" $want" ]]; }; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Rust comes from rustup on the machine image; its lldb pretty-printers
# ship in the sysroot (lib/rustlib/etc/lldb_lookup.py), nothing to install.
lldb-vscode-16 --help >/dev/null
rdbg3.1 --version
cobc --version | head -1
