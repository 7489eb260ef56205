package adapters

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// PathMapping pairs a folder of the machine a program runs on with the
// local folder that holds the same files (create_debug_session's
// pathMappings). Each adapter passes the mappings on as its own argument
// (debugpy's pathMappings, delve's substitutePath, lldb's
// target.source-map, the Java adapter's source roots, js-debug's
// localRoot/remoteRoot), or, where the adapter has none, through a layer
// that rewrites the paths of its messages ([PathMapLayer]): a breakpoint
// set on a local file binds in the remote program and its frames come
// back as local paths.
type PathMapping struct {
	RemoteRoot string `json:"remoteRoot"`
	LocalRoot  string `json:"localRoot"`
}

// RemoteEnd is a program on another machine, reached through a via
// (create_debug_session's via): its debug server, which dbg started
// there as the language's [Remote] declares, is forwarded to Addr on
// this machine's loopback. An adapter attaching to a RemoteEnd talks to
// that server and reads nothing of the program on this machine: its pid
// is the target's.
type RemoteEnd struct {
	// Addr is host:port on this machine where the debug server answers.
	Addr string
	// PID is the program's pid on its machine.
	PID int
	// Exe is the program's executable on its machine.
	Exe string
	// LocalExe is the local copy of Exe the path mappings name, when it
	// exists (native debuggers read its symbols).
	LocalExe string
}

// Remote declares how the language's programs are debugged on another
// machine, through a via: a debug server the target runs on its loopback
// (Server), or the port the program serves a debugger on already (Port).
// dbg runs what it declares through ssh, docker exec or kubectl exec, and
// forwards the port. The zero value declares nothing: a via attach by
// pid is refused, with Refused when it says why.
type Remote struct {
	// Server is a POSIX sh script, run on the target after
	// [RemotePrelude], that starts the language's debug server for the
	// program whose pid is $pid, listening on the target's loopback only,
	// and says what it did in lines RemotePrelude's say writes (see
	// there).
	Server string
	// Port, when set, finds the port the program serves a debugger on
	// already, from its command line and the variables of its
	// environment that Env names (JDWP's address, rdbg's port, the Node
	// inspector's): host is where it listens, as they say ("" or "*":
	// every address). An error says what the program lacks and how to
	// start it so that it serves one.
	Port func(argv []string, env map[string]string) (host string, port int, err error)
	// Env names the environment variables Port reads.
	Env []string
	// Signal, when set, is sent to the program before its Port is
	// reached (Node: USR1 opens the inspector).
	Signal string
	// LiveMapping, when set, is the expression that adds a path mapping
	// to a session already attached, evaluated in the repl context: dbg
	// sends it for a mapping it proposes from the stack after the attach.
	// Nil: mappings are fixed at attach.
	LiveMapping func(m PathMapping) string
	// Marks are strings all found in the executable of a compiled program
	// of the language (Go's build information marker), for telling the
	// language of a process on a machine whose files dbg does not read;
	// asked in decreasing [Traits.BinaryRank].
	Marks []string
	// Refused says why the language has no remote attach by pid ("": it
	// has one when Server or Port is set).
	Refused string
}

// Reachable reports whether r declares a way to debug a remote program.
func (r *Remote) Reachable() bool { return r != nil && (r.Server != "" || r.Port != nil) }

// RemotePrelude is the start of every remote script: $1 is the pid of
// the program to debug, in $pid, and $2, in $known, the verdicts the
// scripts said on this target before (joined by \037), which a script
// may trust instead of checking again. It gives the Server scripts these
// functions:
//
//	say KEY TEXT   write the line "dbg-KEY TEXT", which dbg reads:
//	               port N       the debug server listens on 127.0.0.1:N
//	               helper P S   a process the script started (pid P, start
//	                            time S), stopped when the session ends
//	               dir D        a folder the script made, removed then
//	               command C    the command it ran, for the answer
//	               missing W|F  the target lacks W; F installs it
//	               ptrace T     the kernel refused to let the server trace
//	               warn T       a warning for the answer
//	               verdict K    a check passed on the target, which K
//	                            names; dbg gives it back in $known
//	               fail T[|H]   the start failed, T says why and H,
//	                            when given, what to do
//	fail TEXT      say fail TEXT and stop
//	need PROG FIX  say missing PROG|FIX and stop unless PROG is on PATH
//	bg CMD...      run CMD in the background, its output in $dir/log;
//	               say helper, and set $helper to its pid
//	waitfor T N    wait until the shell test T holds, N seconds at most
//	logtail        the end of $dir/log on one line
//	denied         whether $dir/log says the kernel refused ptrace
//
// $dir is a private folder (mktemp -d) the script may use.
const RemotePrelude = `pid=$1
known=$2
say() { k=$1; shift; printf 'dbg-%s %s\n' "$k" "$*"; }
fail() { say fail "$*"; exit 0; }
need() { command -v "$1" >/dev/null 2>&1 || { say missing "$1|$2"; exit 0; }; }
[ -d "/proc/$pid" ] || fail "no process $pid on the target"
dir=$(mktemp -d "${TMPDIR:-/tmp}/dbg-XXXXXXXX") || fail "mktemp -d failed on the target"
say dir "$dir"
bg() {
	if command -v nohup >/dev/null 2>&1; then nohup "$@" >"$dir/log" 2>&1 </dev/null &
	else "$@" >"$dir/log" 2>&1 </dev/null & fi
	helper=$!
	say helper "$helper $(sed 's/^.*) //' "/proc/$helper/stat" 2>/dev/null | cut -d' ' -f20)"
}
waitfor() { n=0; while ! eval "$1"; do [ "$n" -ge $(($2 * 10)) ] && return 1; n=$((n + 1)); sleep 0.1; done; }
logtail() { tail -c 600 "$dir/log" 2>/dev/null | tr '\n' ' '; }
denied() { grep -qi -e 'operation not permitted' -e 'ptrace' "$dir/log" 2>/dev/null; }
`

// remoteNativeServer starts lldb-server (any version) in gdbserver mode,
// else gdbserver, attached to $pid on the target's loopback; lldb-dap
// connects to it with gdb-remote.
const remoteNativeServer = `srv=
for s in lldb-server lldb-server-20 lldb-server-19 lldb-server-18 lldb-server-17 lldb-server-16 lldb-server-15 lldb-server-14; do
	if command -v "$s" >/dev/null 2>&1; then srv=$s; break; fi
done
port=
if [ -n "$srv" ]; then
	: >"$dir/port"
	bg "$srv" gdbserver 127.0.0.1:0 --attach "$pid" --pipe 3 3>"$dir/port"
	say command "$srv gdbserver 127.0.0.1:0 --attach $pid"
	waitfor '[ -s "$dir/port" ] || ! kill -0 "$helper" 2>/dev/null' 30
	port=$(tr -d '\000' <"$dir/port")
elif command -v gdbserver >/dev/null 2>&1; then
	bg gdbserver --attach 127.0.0.1:0 "$pid"
	say command "gdbserver --attach 127.0.0.1:0 $pid"
	waitfor 'grep -q "Listening on port" "$dir/log" || ! kill -0 "$helper" 2>/dev/null' 30
	port=$(sed -n 's/.*Listening on port \([0-9][0-9]*\).*/\1/p' "$dir/log" | head -n 1)
else
	say missing "lldb-server|install lldb-server or gdbserver on the target (apt-get update && apt-get install -y gdbserver)"
	exit 0
fi
if [ -z "$port" ]; then
	if denied; then say ptrace "$(logtail)"; exit 0; fi
	fail "the debug server did not start: $(logtail)"
fi
say port "$port"
`

// remoteNativeMapping is lldb's command that adds a path mapping.
func remoteNativeMapping(m PathMapping) string {
	return "`settings append target.source-map " + lldbQuote(m.RemoteRoot) + " " + lldbQuote(m.LocalRoot)
}

// lldbQuote quotes an argument of an LLDB command.
func lldbQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// MapToLocal turns a path of the remote machine into the local path the
// mappings give it (the longest remote root that holds it wins); ok is
// false when no mapping holds it.
func MapToLocal(maps []PathMapping, path string) (string, bool) {
	return mapPath(maps, path, func(m PathMapping) (string, string) { return m.RemoteRoot, m.LocalRoot })
}

// MapToRemote is [MapToLocal] the other way.
func MapToRemote(maps []PathMapping, path string) (string, bool) {
	return mapPath(maps, path, func(m PathMapping) (string, string) { return m.LocalRoot, m.RemoteRoot })
}

func mapPath(maps []PathMapping, path string, sides func(PathMapping) (from, to string)) (string, bool) {
	best, out := -1, ""
	for _, m := range maps {
		from, to := sides(m)
		from = strings.TrimSuffix(from, "/")
		if from == "" && !strings.HasPrefix(path, "/") {
			continue
		}
		rest, ok := strings.CutPrefix(path, from)
		if !ok || (rest != "" && rest[0] != '/') || len(from) <= best {
			continue
		}
		best, out = len(from), strings.TrimSuffix(to, "/")+rest
	}
	if best < 0 {
		return path, false
	}
	return filepath.Clean(out), true
}

// remoteFiles is the script that writes files into the folder sub of a
// remote script's $dir, each through a here-document.
func remoteFiles(sub string, files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "mkdir \"$dir/%s\" || fail \"cannot write to $dir\"\n", sub)
	for _, n := range names {
		fmt.Fprintf(&b, "cat >\"$dir/%s/%s\" <<'DBG_FILE_END'\n%s\nDBG_FILE_END\n", sub, n, strings.TrimRight(string(files[n]), "\n"))
	}
	return b.String()
}
