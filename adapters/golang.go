package adapters

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/safefs"
)

// DelveVersion is the delve release `dbg adapters install go` installs.
const DelveVersion = "v1.27.2"

// Go debugs Go programs with delve's DAP server (`dlv dap`).
//
// delve dials back to dbg (--client-addr), so no port is parsed from its
// output. A program launched from source is built by dbg into a cache
// and run by delve as a binary, so an unchanged program is not rebuilt
// (golang_build.go). Where delve builds it (the build failed, or the
// launch names its own output or build flags), it builds in its working
// directory, so dlv is told the program's module directory (dlvCwd).
//
// The zero value works.
type Go struct {
	// BuildDir is where built programs are kept ("": the user cache
	// directory's dbg/go-debug).
	BuildDir string
}

// Language implements Adapter.
func (Go) Language() string { return "go" }

func (Go) install() string { return "go install github.com/go-delve/delve/cmd/dlv@" + DelveVersion }

// InstallCommands implements Installer.
func (g Go) InstallCommands() [][]string { return [][]string{strings.Fields(g.install())} }

// Find implements Adapter.
func (g Go) Find(ctx context.Context) Info {
	info := Info{Language: "go", Adapter: "delve (dlv dap)", Launch: true, AttachPID: true, AttachPort: true, InstallCommand: "dbg adapters install go  # " + g.install()}
	p, err := lookPath("dlv")
	if err != nil {
		return info
	}
	info.Found, info.Path, info.Version = true, p, commandVersion(ctx, p, "version")
	return info
}

// Start implements Adapter.
func (g Go) Start(ctx context.Context, t Target) (*Endpoint, error) {
	if t.Remote != nil {
		return g.startRemote(ctx, t)
	}
	p, err := lookPath("dlv")
	if err != nil {
		return nil, &NotFoundError{Language: "go", What: "delve (dlv)", Install: "dbg adapters install go"}
	}
	if t.Mode == Attach && t.PID == 0 && t.Port != 0 {
		// A headless `dlv dap` or `dlv --headless --accept-multiclient` already listens.
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		c, err := dap.Dial(dctx, fmt.Sprintf("%s:%d", hostOr(t.Host), t.Port))
		if err != nil {
			return nil, err
		}
		px := dap.NewProxy(c, goPauseLayer)
		return &Endpoint{Conn: px.Client(), Cleanup: px.Stop}, nil
	}
	ln, err := dap.Listen("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(p, "dap", "--client-addr="+ln.Addr())
	cmd.Dir = goModuleDir(t)
	cmd.Env = envList(nil)
	proc, err := dap.StartProcess(cmd, dap.ProcessOptions{})
	if err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("start dlv: %w", err)
	}
	actx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	go func() {
		select {
		case <-proc.Exited():
			cancel() // dlv died before dialling in
		case <-actx.Done():
		}
	}()
	conn, err := ln.Accept(actx)
	if err != nil {
		proc.Kill()
		if tail := proc.StderrTail(); tail != "" {
			return nil, fmt.Errorf("dlv did not connect: %s: %w", tail, err)
		}
		return nil, fmt.Errorf("dlv did not connect: %w", err)
	}
	px := dap.NewProxy(conn, goPauseLayer)
	return &Endpoint{Conn: px.Client(), Process: proc, Cleanup: px.Stop}, nil
}

// goModuleDir is the directory dlv runs in: the module root of the
// program, else its directory, else the requested cwd.
func goModuleDir(t Target) string {
	if t.Program == "" {
		return t.Cwd
	}
	dir := absPath(t.Program)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// LaunchArgs implements Adapter: a .go file or package directory is
// debugged from source ("debug"), a _test.go file or testFlags as a test,
// anything else as a prebuilt binary ("exec"). An extra mode "auto" or
// "debug" (VS Code Go's launch.json) leaves the choice to the adapter.
func (g Go) LaunchArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.Program == "" {
		return nil, errors.New("scriptPath is required: a .go file, a package directory or a binary")
	}
	prog := absPath(t.Program)
	st, err := os.Stat(prog)
	if err != nil {
		return nil, fmt.Errorf("scriptPath %s does not exist", prog)
	}
	mode := "exec"
	switch {
	case strings.HasSuffix(prog, "_test.go"):
		mode, prog = "test", filepath.Dir(prog)
	case st.IsDir(), strings.HasSuffix(prog, ".go"):
		mode = "debug"
	}
	args := map[string]any{
		"mode": mode, "program": prog, "stopOnEntry": t.StopOnEntry,
		"outputMode": "remote", // debuggee output arrives as output events
		"dlvCwd":     goModuleDir(Target{Program: prog}),
		"followExec": !t.NoChildren, // followExecRegex, when given, comes with t.Extra
	}
	extraMode, _ := t.Extra["mode"].(string)
	if extraMode == "test" && mode == "debug" && st.IsDir() {
		// A package's tests, asked for by mode: built like a _test.go file's.
		mode = "test"
	}
	if mode != "exec" && (extraMode == "" || extraMode == "auto" || extraMode == "debug" || (extraMode == "test" && mode == "test")) {
		if bin := g.prebuild(ctx, t, mode, prog); bin != "" {
			args["mode"], args["program"] = "exec", bin
			mode = "exec"
		}
	}
	if mode != "exec" {
		// Build outside the user's tree: delve's default is the package
		// folder, where a killed dlv leaves __debug_bin files behind.
		// delve removes the binary when the session ends.
		// The folder is private and checked: in a shared one, another
		// user could put her binary in the place of the one delve runs.
		dir, err := safefs.CacheDir("go-build")
		if err != nil {
			return nil, err
		}
		f, err := safefs.CreateTemp(dir, "__debug_bin*")
		if err != nil {
			return nil, err
		}
		_ = f.Close()
		args["output"] = f.Name()
	}
	if len(t.Args) > 0 {
		args["args"] = t.Args
	}
	cwd := t.Cwd
	if cwd == "" {
		cwd = filepath.Dir(prog)
		if st.IsDir() {
			cwd = prog
		}
	}
	args["cwd"] = absPath(cwd)
	if len(t.Env) > 0 {
		args["env"] = t.Env
	}
	if len(t.SourcePaths) > 0 {
		args["substitutePath"] = substitutePaths(t.SourcePaths)
	}
	extra := t.Extra
	if m, _ := extra["mode"].(string); m == "auto" || m == "debug" || (m == "test" && mode == "exec") {
		extra = withoutKey(extra, "mode")
	}
	return merge(args, extra), nil
}

func substitutePaths(paths []string) []map[string]string {
	out := make([]map[string]string, 0, len(paths))
	for _, p := range paths {
		if from, to, ok := strings.Cut(p, "="); ok {
			out = append(out, map[string]string{"from": from, "to": to})
		}
	}
	return out
}

// AttachArgs implements Adapter. delve stops the target itself when asked
// to (stopOnEntry, from StopOnAttach): its attach leaves the process
// halted, and it reports the stop at configurationDone, so the manager
// sends no pause. A pause sent after an attach that let
// the target run is lost where the program loads shared libraries (a Go
// program using net, cgo): delve takes the first pauses for a request to
// cancel debug-info downloads and never answers them (goPauseLayer).
func (Go) AttachArgs(_ context.Context, t Target) (map[string]any, error) {
	if t.Remote != nil {
		t.PID = t.Remote.PID
	}
	if t.PID == 0 && t.Port == 0 {
		return nil, errors.New("go attach needs processId (a running Go program) or port (a headless dlv server)")
	}
	args := map[string]any{"mode": "local", "processId": t.PID, "stopOnEntry": t.StopOnAttach}
	if t.PID == 0 {
		args = map[string]any{"mode": "remote"}
	}
	if len(t.PathMappings) > 0 {
		args["substitutePath"] = goSubstitutePath(t.PathMappings)
	}
	return merge(args, t.Extra), nil
}

// StopReason implements Adapter; delve already speaks DAP's reasons.
func (Go) StopReason(r string) string { return r }

// ExceptionFilters implements Adapter. Go has no caught exceptions: both
// "all" and "uncaught" stop on unrecovered panics and fatal throws.
func (Go) ExceptionFilters(mode string) []string {
	if mode == "all" || mode == "uncaught" {
		return []string{"unrecovered-panic", "runtime-fatal-throw"}
	}
	return []string{}
}

// Traits implements Adapter: delve evaluates Go expressions, which
// goSideEffectFree checks for calls and assignments, and writes a
// logpoint's output while the thread is held. A Go binary is told by
// its build information. Its banner is no line of the program's.
func (Go) Traits() Traits {
	return Traits{
		SideEffectFree: goSideEffectFree,
		Extensions:     []string{".go"}, ProjectFiles: []string{"go.mod"},
		Binary: (*Executable).GoBuild, BinaryRank: 50,
		HeldLogpoints: true,
		SetNote: "delve writes the variable's memory: code that holds a copy in a register (a parameter, under Go's " +
			"register ABI, even in -N -l builds) goes on with the old value",
		LaunchTypes: []string{"go"},
		Chatter:     []string{"Type 'dlv help' for list of commands."},
		Children: ChildProcesses{Follows: true, Shared: true, Selected: delveSelected, Select: delveSelect,
			Reason: "delve's followExec: the programs the Go program execs (built with -gcflags=all=-N -l to stop at their lines), " +
				"picked by followExecRegex; delve stops and resumes them together with it"},
		Core:       goCore,
		SignalExit: func(code int) int { return max(-code, 0) }, // delve reports a death by signal N as -N
		Remote:     goRemote(),
	}
}
