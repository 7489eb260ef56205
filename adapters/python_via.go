package adapters

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// pythonRemoteServer starts debugpy's adapter on the target's loopback,
// on the target program's own interpreter (its argv[0] when that is a
// path, for a virtual environment, else its executable), after checking
// that the interpreter has debugpy and that gdb, with which debugpy
// injects itself, can call into a throwaway process of that interpreter
// there: where it cannot (some kernels and CPUs), the injection would
// kill the program. dbg then attaches through the adapter by pid, so the
// adapter injects debugpy into the program as a local attach does, and
// the adapter exits when the session ends. The port is the one the
// adapter writes to DEBUGPY_ADAPTER_ENDPOINTS. A passed check is said as
// a verdict naming what it held for (the interpreter and its change
// time, the machine's boot, gdb's version), so the next attach to that
// target skips it while all of them are the same: a rebuilt
// interpreter, another machine behind the same name, a reboot or
// another gdb is checked again.
const pythonRemoteServer = `py=$(tr '\000' '\n' <"/proc/$pid/cmdline" 2>/dev/null | head -n 1)
case "$py" in /*) [ -x "$py" ] || py= ;; *) py= ;; esac
[ -n "$py" ] && "$py" -c 'import debugpy' 2>/dev/null || py=$(readlink "/proc/$pid/exe") ||
	fail "cannot read the executable of process $pid: connect as its user or as root"
"$py" -c 'import debugpy' 2>/dev/null || { say missing "debugpy|$py -m pip install debugpy==` + DebugpyVersion + `"; exit 0; }
need gdb "install gdb on the target (apt-get update && apt-get install -y gdb): debugpy injects itself into the program with it"
verdict="gdb-calls $py $(stat -c %Y "$py" 2>/dev/null) $(cat /proc/sys/kernel/random/boot_id 2>/dev/null) $(gdb --version 2>/dev/null | head -n 1)"
case "$(printf '\037%s\037' "$known")" in
*"$(printf '\037%s\037' "$verdict")"*) ;;
*)
	"$py" -c 'import time; time.sleep(60)' </dev/null >/dev/null 2>&1 &
	probe=$!
	out=$(gdb --nx --nh -p "$probe" -batch -ex 'call (int)getpid()' 2>&1)
	kill "$probe" 2>/dev/null
	case "$out" in
	*"= $probe"*) say verdict "$verdict" ;;
	*) if printf '%s' "$out" | grep -qi -e 'operation not permitted' -e 'ptrace'; then say ptrace "gdb: $(printf '%s' "$out" | tail -n 2 | tr '\n' ' ')"; exit 0; fi
		fail "gdb cannot call into a process of $py on the target, so debugpy's injection would kill the program ($(printf '%s' "$out" | tail -n 2 | tr '\n' ' '))|restart it under $py -m debugpy --listen 127.0.0.1:5678 and attach with via and port 5678" ;;
	esac ;;
esac
export DEBUGPY_ADAPTER_ENDPOINTS="$dir/endpoints"
PYTHONPATH="$dir/hooks${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH
bg "$py" -m debugpy.adapter --host 127.0.0.1 --port 0
say command "$py -m debugpy.adapter --host 127.0.0.1 --port 0, attaching to $pid"
waitfor '[ -s "$dir/endpoints" ] || ! kill -0 "$helper" 2>/dev/null' 30
port=$(sed -n 's/.*"port": *\([0-9][0-9]*\).*/\1/p' "$dir/endpoints" 2>/dev/null)
[ -n "$port" ] || fail "debugpy's adapter did not start: $(logtail)"
say port "$port"
`

// pythonRemote declares Python's remote attach: debugpy's adapter,
// started on the target, injects debugpy into the program. dbg's hook
// (python_hooks.go) goes with it, first on the adapter's PYTHONPATH, so
// that the adapter's sockets and pydevd's in the program get TCP_NODELAY
// as in a local attach: steps do not wait for delayed ACKs.
func pythonRemote() *Remote {
	return &Remote{Server: remoteFiles("hooks", map[string][]byte{"sitecustomize.py": pyHook, "pydevd_nodelay.py": pyNoDelay}) + pythonRemoteServer}
}

// startRemote connects to the debugpy adapter started on the target.
func (p Python) startRemote(ctx context.Context, t Target) (*Endpoint, error) {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := dap.Dial(dctx, t.Remote.Addr)
	if err != nil {
		return nil, fmt.Errorf("connect to debugpy's adapter on the target (through %s): %w", t.Remote.Addr, err)
	}
	return &Endpoint{Conn: c}, nil
}

// pythonPathMappings is debugpy's pathMappings of t: the via's mappings,
// then sourcePaths' remote=local pairs.
func pythonPathMappings(t Target) []map[string]string {
	var maps []map[string]string
	for _, m := range t.PathMappings {
		maps = append(maps, map[string]string{"remoteRoot": m.RemoteRoot, "localRoot": m.LocalRoot})
	}
	for _, sp := range t.SourcePaths {
		if remote, local, ok := strings.Cut(sp, "="); ok {
			maps = append(maps, map[string]string{"remoteRoot": remote, "localRoot": local})
		}
	}
	return maps
}
