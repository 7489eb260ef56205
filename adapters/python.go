package adapters

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// DebugpyVersion is the debugpy release `dbg adapters install python` installs.
const DebugpyVersion = "1.8.22"

// Python debugs Python with debugpy's adapter over stdio
// (`python -m debugpy.adapter`). debugpy sends "initialized" only after
// launch, and answers launch only after configurationDone; the session
// manager's launch sequence allows both.
//
// A launch runs the project's interpreter (see [Interpreter]); an attach
// by pid runs the target's own, after checking that gdb can inject into
// it on this machine (python_attach.go). Every socket between debugpy's
// adapter and the debuggee gets TCP_NODELAY (python_hooks.go).
//
// The zero value works; [NewPython] adds the caches a long-running
// server wants. The fields are dependencies a test may replace.
type Python struct {
	// GDB is the gdb that attach by pid checks and injects with ("":
	// PATH's; a path that is no executable: none).
	GDB string
	// LLDB is the lldb that attach by pid checks and injects with where
	// gdb cannot ("": those in PATH and beside LLDB's adapters in PATH; a
	// path that is no executable: none).
	LLDB string
	// StateDir keeps the injection checks' verdicts ("": dbg's state
	// directory).
	StateDir string
	// HookDir is where the sitecustomize hook is written ("": the user
	// cache directory's dbg folder).
	HookDir string
	// RemoteExec runs script in process pid with interpreter py, by
	// sys.remote_exec (Python 3.14+; nil: `py -c "sys.remote_exec(...)"`).
	RemoteExec func(ctx context.Context, py string, pid int, script string) error

	cache *pyCache
}

// NewPython returns the Python adapter with its caches: what the
// interpreters said about themselves, and the gdb check's verdicts.
func NewPython() Python { return Python{cache: newPyCache()} }

// Language implements Adapter.
func (Python) Language() string { return "python" }

// pathPython is python3 (or python) in PATH.
func pathPython() string {
	for _, name := range []string{"python3", "python"} {
		if p, err := lookPath(name); err == nil {
			return p
		}
	}
	return "python3"
}

// InstallCommands implements Installer: debugpy into PATH's python3.
func (p Python) InstallCommands() [][]string { return p.InstallCommandsFor("") }

// InstallCommandsFor is `dbg adapters install python --python PY`: the
// pinned debugpy into the interpreter py ("" = PATH's python3), with
// --break-system-packages where py is externally managed (PEP 668).
func (p Python) InstallCommandsFor(py string) [][]string {
	if py == "" {
		py = pathPython()
	}
	info := p.cache.probe(context.Background(), py)
	info.path = py
	return [][]string{info.pipArgv()}
}

// Find implements Adapter.
func (p Python) Find(ctx context.Context) Info {
	py := pathPython()
	info := Info{Language: "python", Adapter: "debugpy", Launch: true, AttachPID: true, AttachPort: true,
		InstallCommand: "dbg adapters install python  # " + py + " -m pip install debugpy==" + DebugpyVersion, Note: hookNote}
	if _, err := exec.LookPath(py); err != nil && !filepath.IsAbs(py) {
		info.Note = "no python3 in PATH"
		return info
	}
	v := p.cache.probe(ctx, py)
	if v.err != nil {
		// Not "not installed": the interpreter did not answer.
		info.Note = "could not ask " + py + " whether debugpy is installed: " + v.err.Error()
		return info
	}
	if v.debugpy == "" {
		return info
	}
	info.Found, info.Path, info.Version = true, py+" -m debugpy.adapter", v.dpVersion
	return info
}

// Start implements Adapter. Every endpoint opens the child sessions
// debugpy asks for (see [pythonChild]).
func (p Python) Start(ctx context.Context, t Target) (*Endpoint, error) {
	ep, err := p.start(ctx, t)
	if ep != nil {
		ep.Child = pythonChild
	}
	return ep, err
}

func (p Python) start(ctx context.Context, t Target) (*Endpoint, error) {
	if t.Remote != nil {
		return p.startRemote(ctx, t)
	}
	if t.Mode == Attach && t.Port != 0 {
		// `debugpy.listen` / `python -m debugpy --listen` serves its own
		// adapter on that port: talk to it directly.
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		c, err := dap.Dial(dctx, fmt.Sprintf("%s:%d", hostOr(t.Host), t.Port))
		if err != nil {
			return nil, fmt.Errorf("connect to debugpy at port %d: %w", t.Port, err)
		}
		px := dap.NewProxy(c, noDelayLayer(c)) // that debugpy runs without dbg's hook (python_nodelay.go)
		return &Endpoint{Conn: px.Client(), Cleanup: px.Stop}, nil
	}
	if t.Mode == Attach {
		return p.startAttach(ctx, t)
	}
	in, dp, err := p.launchPlan(ctx, t)
	if err != nil {
		return nil, err
	}
	progress(ctx, "starting debugpy %s for python %s (%s, %s)…", in.Debugpy, in.Version, in.Source, in.Path)
	hook, err := p.hookDir()
	if err != nil {
		hook = "" // no hook: debugpy at its own speed, but it works
	}
	cmd := exec.Command(dp.path, "-m", "debugpy.adapter")
	cmd.Env = p.adapterEnv(hook)
	proc, err := dap.StartProcess(cmd, dap.ProcessOptions{Stdio: true})
	if err != nil {
		return nil, fmt.Errorf("start debugpy: %w", err)
	}
	return &Endpoint{Conn: proc, Process: proc, Interpreter: &in}, nil
}

// LaunchArgs implements Adapter.
func (p Python) LaunchArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.Program == "" {
		return nil, errors.New("scriptPath is required: the .py file to run")
	}
	prog := absPath(t.Program)
	in := p.resolveInterpreter(ctx, t)
	args := map[string]any{
		"program": prog, "console": "internalConsole", "redirectOutput": true,
		"stopOnEntry": t.StopOnEntry, "python": append([]string{in.Path}, t.Through...), "showReturnValue": true,
		"subProcess": !t.NoChildren,
	}
	if isPythonModule(t.Program) {
		delete(args, "program")
		args["module"] = strings.TrimSpace(strings.TrimPrefix(t.Program, "-m "))
	}
	args["args"] = append([]string{}, t.Args...)
	cwd := t.Cwd
	if cwd == "" {
		cwd = filepath.Dir(prog)
	}
	args["cwd"] = absPath(cwd)
	hook, err := p.hookDir()
	if err != nil {
		hook = ""
	}
	if env := debuggeeEnv(hook, t.Env); len(env) > 0 {
		args["env"] = env
	}
	if t.JustMyCode != nil {
		args["justMyCode"] = *t.JustMyCode
	}
	return merge(args, t.Extra), nil
}

// AttachArgs implements Adapter: by pid (debugpy injects itself with gdb)
// or by the port of `python -m debugpy --listen`.
func (p Python) AttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	var args map[string]any
	switch {
	case t.Remote != nil:
		args = map[string]any{"processId": t.Remote.PID}
	case t.Port != 0:
		args = map[string]any{"connect": map[string]any{"host": hostOr(t.Host), "port": t.Port}}
	case t.PID != 0 && p.remoteTarget(ctx, t):
		// Python 3.14+: the target runs debugpy.listen itself (see
		// remoteAttach), and Start connects to that adapter.
		args = map[string]any{"connect": map[string]any{"host": "127.0.0.1"}}
	case t.PID != 0:
		args = map[string]any{"processId": t.PID}
	default:
		return nil, errors.New("python attach needs processId or port")
	}
	if t.JustMyCode != nil {
		args["justMyCode"] = *t.JustMyCode
	}
	if maps := pythonPathMappings(t); len(maps) > 0 {
		args["pathMappings"] = maps
	}
	return merge(args, t.Extra), nil
}

// StopReason implements Adapter.
func (Python) StopReason(r string) string { return r }

// ExceptionFilters implements Adapter: debugpy's "raised" is every raise.
func (Python) ExceptionFilters(mode string) []string {
	switch mode {
	case "all":
		return []string{"raised", "uncaught"}
	case "uncaught":
		return []string{"uncaught"}
	}
	return []string{}
}

// Traits implements Adapter: a program "-m pkg" names a module; a trace
// probe records in its condition (debugpy would drop queued logpoint
// output at exit); debugpy goes into the interpreter the user names and
// runs on the project's (python_env.go).
func (p Python) Traits() Traits {
	return Traits{
		NamedProgram: isPythonModule,
		Extensions:   []string{".py"}, Commands: []string{"python*", "pypy*", "*.py"},
		ProbeCondition:    pythonProbeCondition,
		NoDataBreakpoints: "debugpy has no data breakpoints: it does not announce supportsDataBreakpoints",
		InstallInto:       p.InstallCommandsFor,
		Interpreter:       p.ResolveInterpreter,
		LaunchTypes:       []string{"debugpy", "python"},
		RunsThrough:       true,
		Children: ChildProcesses{Follows: true, Reason: "debugpy's subProcess: the Python programs it starts " +
			"(subprocess of sys.executable, multiprocessing fork, spawn and forkserver, os.fork, a reloader's re-exec); " +
			"not after an attach by processId, where debugpy reports none"},
		NoCore: "debugpy debugs live interpreters only; read a Python core with `pystack core CORE PROGRAM`, " +
			"or the stacks of a live one with `py-spy dump --pid PID` (pystack remote PID)",
		Remote: pythonRemote(),
	}
}

// pythonChild opens the connection of a child session: debugpy's adapter
// asks for one with startDebugging whose configuration names the address
// it serves clients on (connect.host and connect.port); the attach that
// follows names the child (subProcessId).
func pythonChild(ctx context.Context, cfg map[string]any) (io.ReadWriteCloser, error) {
	conn, _ := cfg["connect"].(map[string]any)
	host, _ := conn["host"].(string)
	port, _ := conn["port"].(float64)
	if port <= 0 || port > 65535 {
		return nil, errors.New("debugpy's startDebugging names no port to connect to")
	}
	return dap.Dial(ctx, net.JoinHostPort(hostOr(host), strconv.Itoa(int(port))))
}

// isPythonModule reports whether a launch program names a module
// ("-m pkg"), which debugpy runs as `python -m pkg`.
func isPythonModule(program string) bool { return strings.HasPrefix(program, "-m ") }
