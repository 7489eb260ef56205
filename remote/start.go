package remote

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/toolkit"
)

// What dbg runs on a target besides the languages' own start scripts
// (adapters.Remote.Server): each is a POSIX sh script that reads only
// /proc and writes "dbg-KEY VALUE" lines.

// describeScript tells what process $1 is: its executable, working
// folder, user, command line (arguments joined by \037), and the
// variables of its environment named by the arguments after the second.
// It runs alone, or before a start script (so one command does both).
const describeScript = `[ -r "/proc/$1/cmdline" ] || { echo "dbg-fail no process $1 on the target"; exit 0; }
printf 'dbg-exe %s\n' "$(readlink "/proc/$1/exe" 2>/dev/null)"
printf 'dbg-cwd %s\n' "$(readlink "/proc/$1/cwd" 2>/dev/null)"
printf 'dbg-uid %s\n' "$(sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status")"
printf 'dbg-argv '; tr '\000\n' '\037 ' <"/proc/$1/cmdline"; echo
i=0
for name in "$@"; do
	i=$((i + 1))
	[ "$i" -gt 2 ] || continue
	v=$(tr '\000' '\n' <"/proc/$1/environ" 2>/dev/null | sed -n "s/^$name=//p" | head -n 1)
	[ -n "$v" ] && printf 'dbg-env %s=%s\n' "$name" "$v"
done
:
`

// listenScript waits until something listens on TCP port $1 of the
// target ($2 seconds at most), after sending signal $4 to process $3
// when $4 is set.
const listenScript = `port=$1; secs=$2; pid=$3; sig=$4
if [ -n "$sig" ]; then kill -s "$sig" "$pid" 2>/dev/null || { echo "dbg-fail could not send SIG$sig to process $pid: connect as its user or as root"; exit 0; }; fi
hex=$(printf '%04X' "$port")
n=0
while ! grep -q -i -E "^ *[0-9]+: [0-9A-F]+:$hex [0-9A-F]+:0+ 0A " /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
	[ "$n" -ge $((secs * 10)) ] && { echo "dbg-fail nothing listens on port $port of the target"; exit 0; }
	n=$((n + 1)); sleep 0.1
done
echo "dbg-port $port"
`

// teardownScript stops the helpers ($2...: pid:starttime, each only
// while that pid is still the process started then, and not a zombie)
// once they have had 3 seconds to end by themselves (a debug server
// detaches and exits when dbg disconnects), and removes folder $1 (one a
// start script made).
const teardownScript = `d=$1; shift
alive() {
	s=$(sed 's/^.*) //' "/proc/${1%%:*}/stat" 2>/dev/null) || return 1
	[ "${s%% *}" != Z ] && [ "$(printf '%s\n' "$s" | cut -d' ' -f20)" = "${1#*:}" ]
}
n=0
for h in "$@"; do while alive "$h" && [ "$n" -lt 30 ]; do n=$((n + 1)); sleep 0.1; done; done
for h in "$@"; do alive "$h" && kill "${h%%:*}" 2>/dev/null; done
n=0
for h in "$@"; do while alive "$h" && [ "$n" -lt 20 ]; do n=$((n + 1)); sleep 0.1; done; done
for h in "$@"; do alive "$h" && kill -9 "${h%%:*}" 2>/dev/null; done
case "$d" in */dbg-*) rm -rf "$d" ;; esac
echo dbg-done
`

// scriptResult is what a script's "dbg-" lines said.
type scriptResult struct {
	port     int
	helpers  []string // pid:starttime
	dirs     []string
	command  string
	missing  string // what|fix
	ptrace   string
	fail     string
	warnings []string
	verdicts []string
	exe, cwd string
	uid      int
	argv     []string
	env      map[string]string
}

// parseScript reads a script's output. Lines not starting with "dbg-"
// are ignored; a value is at most one line.
func parseScript(out string) scriptResult {
	var r scriptResult
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "dbg-")
		if !ok {
			continue
		}
		key, val, _ := strings.Cut(rest, " ")
		switch key {
		case "port":
			if n, err := strconv.Atoi(strings.TrimSpace(val)); err == nil && n > 0 && n < 65536 {
				r.port = n
			}
		case "helper":
			pid, st, _ := strings.Cut(strings.TrimSpace(val), " ")
			if n, err := strconv.Atoi(pid); err == nil && n > 0 && isDigits(st) {
				r.helpers = append(r.helpers, pid+":"+st)
			}
		case "dir":
			if strings.HasPrefix(val, "/") && strings.Contains(val, "/dbg-") {
				r.dirs = append(r.dirs, val)
			}
		case "command":
			r.command = val
		case "missing":
			r.missing = val
		case "ptrace":
			r.ptrace = firstNonEmpty(val, "ptrace refused")
		case "fail":
			r.fail = firstNonEmpty(val, "the script failed")
		case "warn":
			r.warnings = append(r.warnings, val)
		case "verdict":
			r.verdicts = append(r.verdicts, val)
		case "exe":
			r.exe = val
		case "cwd":
			r.cwd = val
		case "uid":
			r.uid, _ = strconv.Atoi(val)
		case "env":
			if k, v, ok := strings.Cut(val, "="); ok {
				if r.env == nil {
					r.env = map[string]string{}
				}
				r.env[k] = v
			}
		case "argv":
			for _, a := range strings.Split(strings.TrimSuffix(val, "\x1f"), "\x1f") {
				r.argv = append(r.argv, a)
			}
		}
	}
	return r
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// started is a debug server a start script left running on the target.
type started struct {
	port     int
	command  string
	helpers  []string
	dirs     []string
	warnings []string
	verdicts []string
}

// startServer runs, in one command, the description of process pid and
// the language's start script for it, with the verdicts earlier starts
// on this target said (known), and reads what it started and the
// process. What the target lacks is an error naming it and the fix, as
// the target's kind makes it (the docker run flag, the install).
func startServer(ctx context.Context, tg target, lang string, rm *adapters.Remote, pid int, known []string) (*started, scriptResult, error) {
	out, err := tg.exec(ctx, describeScript+adapters.RemotePrelude+rm.Server, strconv.Itoa(pid), strings.Join(known, "\x1f"))
	r := parseScript(out)
	st := &started{port: r.port, command: r.command, helpers: r.helpers, dirs: r.dirs, warnings: r.warnings, verdicts: r.verdicts}
	st, err = checkStarted(ctx, tg, lang, st, r, out, err, pid)
	return st, r, err
}

// checkStarted turns what a start script said into the error of what
// failed, tearing down what it left.
func checkStarted(ctx context.Context, tg target, lang string, st *started, r scriptResult, out string, err error, pid int) (*started, error) {
	fail := func(e error) (*started, error) {
		teardown(context.WithoutCancel(ctx), tg, st)
		return nil, e
	}
	switch {
	case err != nil:
		return fail(err)
	case r.exe == "" && strings.HasPrefix(r.fail, "no process"):
		return fail(toolkit.NewError(toolkit.CodeInvalidArgument, tg.tool()+": "+r.fail, "list_remote_processes lists the target's processes"))
	case r.missing != "":
		what, fix, _ := strings.Cut(r.missing, "|")
		return fail(toolkit.NewError(toolkit.CodeAttachFailed, fmt.Sprintf("%s: the target has no %s, which the %s debug server needs", tg.tool(), what, lang), tg.fix(false, fix)).
			WithNext(toolkit.NextReconnect).WithDetails(map[string]any{"tool": tg.tool(), "missing": what}))
	case r.ptrace != "":
		return fail(toolkit.NewError(toolkit.CodeAttachFailed, tg.tool()+": the debug server may not trace process "+strconv.Itoa(pid)+": "+r.ptrace, tg.fix(true, "")).
			WithNext(toolkit.NextReconnect).WithDetails(map[string]any{"tool": tg.tool()}))
	case r.fail != "":
		hint, _ := splitHint(r.fail)
		msg, _, _ := strings.Cut(r.fail, "|")
		return fail(toolkit.NewError(toolkit.CodeAttachFailed, tg.tool()+": "+msg, hint).WithNext(toolkit.NextReconnect).WithDetails(map[string]any{"tool": tg.tool()}))
	case r.port == 0:
		return fail(toolkit.NewError(toolkit.CodeAttachFailed, tg.tool()+": the "+lang+" debug server started on the target named no port", "run dbg again; the target's output was: "+strings.TrimSpace(out)))
	}
	return st, nil
}

// splitHint takes the fix after a "|" out of a script's fail text.
func splitHint(s string) (hint string, ok bool) {
	_, h, ok := strings.Cut(s, "|")
	if !ok {
		return "check the target, then attach again", false
	}
	return h, true
}

// teardown stops what a start script left on the target and removes its
// folders.
func teardown(ctx context.Context, tg target, st *started) {
	if st == nil || (len(st.helpers) == 0 && len(st.dirs) == 0) {
		return
	}
	dir := ""
	if len(st.dirs) > 0 {
		dir = st.dirs[0]
	}
	_, _ = tg.exec(ctx, teardownScript, append([]string{dir}, st.helpers...)...)
}
