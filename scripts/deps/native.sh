#!/usr/bin/env bash
# Native-language debuggers for the c, cpp, rust, ruby and cobol adapters:
# LLDB's DAP adapter in two versions, lldb-vscode-16 and Debian's default
# LLDB 14 (lldb-vscode-14), Ruby with its bundled rdbg (debug
# 1.4.0 in Debian bookworm's ruby3.1) and GnuCOBOL 3.1. A C compiler is
# needed to build C fixtures and cobc output. Versions are pinned to Debian
# bookworm. Idempotent: packages already at the pinned version are skipped.
set -euo pipefail

pkgs=(
  "lldb-16=1:16.0.6-15~deb12u1"
  "liblldb-14=1:14.0.6-12"
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

# LLDB 14 beside 16. Debian's lldb-14 and python3-lldb-14 conflict with
# python3-lldb-16 (both own /usr/lib/python3/dist-packages/lldb), so apt
# cannot hold both: liblldb-14 comes from apt above, and the two packages
# holding lldb-vscode-14, lldb-server and the lldb Python module are
# unpacked, at the same pinned version, into a prefix of their own.
# lldb-vscode-14 in /usr/local/bin links to it. liblldb stays the one apt
# installed, so the Python module and the adapter share it.
lldb14_version="1:14.0.6-12"
lldb14_prefix=${DBG_LLDB14_PREFIX:-/opt/dbg/lldb-14}
if [[ "$(cat "$lldb14_prefix/VERSION" 2>/dev/null)" != "$lldb14_version" ]]; then
  echo "unpacking lldb-14 $lldb14_version into $lldb14_prefix"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get download "lldb-14=$lldb14_version" "python3-lldb-14=$lldb14_version")
  rm -rf "$lldb14_prefix"
  mkdir -p "$lldb14_prefix"
  for deb in "$work"/*.deb; do
    dpkg-deb -x "$deb" "$lldb14_prefix"
  done
  llvm14="$lldb14_prefix/usr/lib/llvm-14"
  # The module's _lldb links to ../lib/liblldb.so (in liblldb-14-dev):
  # point it at apt's library.
  ln -sf /usr/lib/x86_64-linux-gnu/liblldb-14.so.1 "$llvm14/lib/liblldb.so"
  echo "$lldb14_version" >"$lldb14_prefix/VERSION"
fi
ln -sf "$lldb14_prefix/usr/lib/llvm-14/bin/lldb-vscode" /usr/local/bin/lldb-vscode-14

# Rust comes from rustup on the machine image; its lldb pretty-printers
# ship in the sysroot (lib/rustlib/etc/lldb_lookup.py), nothing to install.
lldb-vscode-16 --help >/dev/null
lldb-vscode-14 --help >/dev/null
rdbg3.1 --version
cobc --version | head -1
