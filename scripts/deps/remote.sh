#!/usr/bin/env bash
# Remote debugging (create_debug_session's via): OpenSSH's server, which the
# ssh end-to-end tests run in a network namespace of their own, and
# gdbserver, the native debug server dbg starts on a target without
# lldb-server. The ssh client comes with the server at the same version.
# docker and kubectl are tested against recordings of their command line
# (no engine or cluster runs here), so neither is installed. Pinned to Debian
# bookworm. Idempotent: packages already at the pinned version are skipped.
#
# The server is installed and never started: Debian's postinst starts it
# unless policy-rc.d says no, so a refusing policy-rc.d is put in place for
# the install when the machine has none (containers usually have one), and
# any ssh service the install started is stopped again.
set -euo pipefail

pkgs=(
  "openssh-client=1:9.2p1-2+deb12u10"
  "openssh-sftp-server=1:9.2p1-2+deb12u10"
  "openssh-server=1:9.2p1-2+deb12u10"
  "gdbserver=13.1-3"
)

missing=()
for p in "${pkgs[@]}"; do
  name=${p%%=*}
  want=${p#*=}
  have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
  if [[ $have != "install ok installed $want" ]]; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  policy=/usr/sbin/policy-rc.d
  made_policy=""
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 0755 "$policy"
    made_policy=1
  fi
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
  if [[ -n $made_policy ]]; then
    rm -f "$policy"
  fi
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet ssh 2>/dev/null; then
    systemctl disable --now ssh || true
  fi
fi

# sshd refuses to start without its privilege-separation folder, which the
# service's start script makes on a booted system.
install -d -m 0755 /run/sshd

echo "remote deps: $(ssh -V 2>&1), $(/usr/sbin/sshd -V 2>&1 | head -1 || true), $(gdbserver --version | head -1)"
