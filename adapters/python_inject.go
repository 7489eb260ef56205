package adapters

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// debugpy attaches to a pid by making a debugger call functions inside
// the target: dlopen of its attach library, then DoAttach, which runs
// Python code there. On Linux debugpy asks gdb. Whether a debugger can
// make such inferior calls depends on the debugger, the CPU and the
// kernel (gdb 13.1 fails them on some CPUs: "Couldn't write extended
// state status: Bad address"), and where it cannot the target dies. So
// dbg tries each injector it has, gdb first, then lldb, on a throwaway
// process of the same interpreter (python_gdbcheck.go), and attaches
// with the first that works. With gdb, debugpy injects as it does
// without dbg; with lldb, dbg's hook has debugpy's injector run lldb
// with the very command line the check ran (lldbInjectArgv).

// pyInjector is a debugger that can inject code into a Python process.
type pyInjector struct {
	Kind string // "gdb" or "lldb"
	Path string
}

// Name is how answers name the injector: "gdb", "lldb-16".
func (j pyInjector) Name() string {
	if j.Kind == "lldb" {
		if m := lldbMajor(j.Path); m > 0 {
			return "lldb-" + strconv.Itoa(m)
		}
	}
	return j.Kind
}

// injectors are the debuggers dbg may inject with, in the order it
// prefers them: gdb (debugpy's own way), then each lldb, newest first.
func (p Python) injectors() []pyInjector {
	var out []pyInjector
	if g := p.gdbPath(); g != "" {
		out = append(out, pyInjector{Kind: "gdb", Path: g})
	}
	for _, l := range p.lldbPaths() {
		out = append(out, pyInjector{Kind: "lldb", Path: l})
	}
	return out
}

var (
	lldbCLIRE     = regexp.MustCompile(`^lldb(-\d+)?$`)
	lldbAdapterRE = regexp.MustCompile(`^(lldb-dap|lldb-vscode)(-\d+)?$`)
)

// lldbPaths are the lldb command-line debuggers of this machine: LLDB
// when set (alone), else lldb and lldb-NN in PATH, and the lldb beside
// each LLDB DAP adapter in PATH (an LLDB unpacked in a prefix of its own
// often puts only its adapter in PATH). Newest first, each build once.
func (p Python) lldbPaths() []string {
	if p.LLDB != "" {
		if isExec(p.LLDB) {
			return []string{p.LLDB}
		}
		return nil
	}
	cands := execsInPath(lldbCLIRE)
	for _, a := range execsInPath(lldbAdapterRE) {
		if real, err := filepath.EvalSymlinks(a); err == nil {
			if l := filepath.Join(filepath.Dir(real), "lldb"); isExec(l) {
				cands = append(cands, l)
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range cands {
		real, err := filepath.EvalSymlinks(c)
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return lldbMajor(out[i]) > lldbMajor(out[j]) })
	return out
}

// injectCodeBytes is the placeholder of lldbInjectArgv's template that
// the hook fills with the code's UTF-8 bytes, comma-separated; injectPID
// the one it fills with the target's pid.
const (
	injectPID       = "{pid}"
	injectCodeBytes = "{code_bytes}"
)

// lldbLater is what lldb makes the target run. lldb ends a call into the
// process at the first fork or vfork the call makes, and rolls the
// thread back, which leaves the interpreter broken (debugpy's attach
// code spawns a process). So the call only starts a thread, which waits
// until no debugger traces the process any more and then runs the code,
// in a namespace of its own: the fork then happens with no debugger
// attached. threading is imported in the call, on the thread lldb
// stopped (the main thread): imported first by another thread, it
// would take that one for the main thread (bpo-37416).
const lldbLater = `import _thread, threading, time
def _dbg_later(code):
    threading.current_thread().is_pydev_daemon_thread = True  # debugpy neither lists nor traces it
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with open("/proc/self/status") as f:
                if "TracerPid:\t0\n" in f.read():
                    break
        except OSError:
            break
        time.sleep(0.01)
    exec(code.decode(), {"__name__": "__dbg_attach__"})
_thread.start_new_thread(_dbg_later, (c,))
`

// lldbInjectArgv is the lldb command line that runs the code whose bytes
// are codeBytes (see byteList) in process pid through the attach library
// lib: attach, dlopen, DoAttach of lldbLater, detach. DoAttach's code
// goes in a C string, so it is bytes: no quotes, one line. In batch mode
// lldb stops at the first command that fails, and detaches as it quits.
func lldbInjectArgv(lldb, lib, pid, codeBytes string) []string {
	code := "exec(bytes([" + byteList(lldbLater) + "]).decode(),dict(c=bytes([" + codeBytes + "])))"
	return []string{lldb, "--no-lldbinit", "--batch", "-p", pid,
		"-o", fmt.Sprintf("expr (void*)dlopen(%s, 2)", cString(lib)),
		"-o", "expr (int)DoAttach(0, \"" + code + "\", 0)",
		"-o", "process detach"}
}

// byteList is s's UTF-8 bytes, comma-separated.
func byteList(s string) string {
	parts := make([]string, len(s))
	for i := 0; i < len(s); i++ {
		parts[i] = strconv.Itoa(int(s[i]))
	}
	return strings.Join(parts, ",")
}

// cString quotes s as a C string literal.
func cString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// lldbInjectEnv is the variable that makes dbg's hook inject through
// lldb: the command line's template, with the pid and the code left to
// fill in.
func lldbInjectEnv(lldb, lib string) string {
	b, _ := json.Marshal(lldbInjectArgv(lldb, lib, injectPID, injectCodeBytes))
	return "DBG_PYHOOK_INJECT=" + string(b)
}

// injectChoice is the outcome of trying the injectors for one
// interpreter: the one to use, or why none works.
type injectChoice struct {
	With   *pyInjector // nil: none works
	Reason string      // why none works (each injector's reason)
}

// chooseInjector tries the injectors in order for interpreter py run as
// u, and takes the first whose check passes.
func (p Python) chooseInjector(ctx context.Context, py pyInfo, u *pyUser) injectChoice {
	injs := p.injectors()
	if len(injs) == 0 {
		return injectChoice{Reason: "neither gdb nor lldb is installed (debugpy attaches by pid through a debugger's inferior calls)"}
	}
	var why []string
	for _, j := range injs {
		v := p.injectCheck(ctx, j, py, u)
		if v.OK {
			return injectChoice{With: &j}
		}
		why = append(why, j.Name()+": "+v.Reason)
	}
	return injectChoice{Reason: strings.Join(why, "; ")}
}
