package nodedap

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// LaunchConfig are the "launch" arguments the built-in adapter accepts. The
// names follow vscode-js-debug's node launch configuration so the same
// configuration works with either adapter.
type LaunchConfig struct {
	Program           string            `json:"program"`
	Args              []string          `json:"args"`
	Cwd               string            `json:"cwd"`
	Env               map[string]string `json:"env"`
	RuntimeExecutable string            `json:"runtimeExecutable"`
	RuntimeArgs       []string          `json:"runtimeArgs"`
	StopOnEntry       bool              `json:"stopOnEntry"`
	SkipFiles         []string          `json:"skipFiles"`
	// OutputCapture is "std" (default: the process's stdout and stderr) or
	// "console" (console API calls as reported by the inspector).
	OutputCapture string `json:"outputCapture"`
	// SourceMaps turns source-map support off when false (default on).
	SourceMaps *bool `json:"sourceMaps"`
	// ExceptionThreads "workers" applies the exception filters in worker
	// threads only: for a test runner that runs the tests in workers, the
	// exceptions its main thread throws and catches are never the test's.
	ExceptionThreads string `json:"exceptionThreads"`
	// AutoAttachChildProcesses false (js-debug's name) leaves the node
	// processes the program starts undebugged; by default each is a child
	// session (see children.go).
	AutoAttachChildProcesses *bool `json:"autoAttachChildProcesses"`
}

// followsChildren reports whether the launch debugs the program's node
// children.
func (cfg *LaunchConfig) followsChildren() bool {
	return cfg.AutoAttachChildProcesses == nil || *cfg.AutoAttachChildProcesses
}

// childInspectFlag, in NODE_OPTIONS, makes every node the program starts
// (a spawn or exec of node, not only a fork, which inherits execArgv) open
// its inspector and wait for a debugger; node's own command line flag
// wins for the program itself.
const childInspectFlag = "--inspect-brk=127.0.0.1:0"

// nodeProcess is a node started with its inspector waiting for us.
type nodeProcess struct {
	proc  *dap.Process
	wsURL string
}

var listeningRE = regexp.MustCompile(`Debugger listening on (ws://\S+)`)

// inspectorNoise are the lines node's inspector prints on stderr; they are
// not the program's output.
var inspectorNoise = []string{
	"Debugger listening on ws://",
	"For help, see: https://nodejs.org/en/docs/inspector",
	"Debugger attached.",
	"Waiting for the debugger to disconnect...",
	"Debugger ending on ws://",
}

func isInspectorNoise(line string) bool {
	for _, p := range inspectorNoise {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// nodeCommand builds the command line of a launch: runtime, runtime args,
// the inspector flag, the program and its args. It resolves the program to
// an absolute path against cwd.
func nodeCommand(cfg *LaunchConfig) (*exec.Cmd, error) {
	if cfg.Program == "" {
		return nil, errors.New("launch needs a program (the script to run)")
	}
	cwd := cfg.Cwd
	prog := cfg.Program
	if !filepath.IsAbs(prog) {
		base := cwd
		if base == "" {
			base, _ = os.Getwd()
		}
		prog = filepath.Join(base, prog)
	}
	if _, err := os.Stat(prog); err != nil {
		return nil, fmt.Errorf("program %s: %w", prog, err)
	}
	if cwd == "" {
		cwd = filepath.Dir(prog)
	}
	runtime := cfg.RuntimeExecutable
	if runtime == "" {
		runtime = "node"
	}
	path, err := exec.LookPath(runtime)
	if err != nil {
		return nil, fmt.Errorf("node runtime %q not found (install Node.js or set runtimeExecutable): %w", runtime, err)
	}
	argv := append([]string{}, cfg.RuntimeArgs...)
	argv = append(argv, "--inspect-brk=127.0.0.1:0", prog)
	argv = append(argv, cfg.Args...)
	cmd := exec.Command(path, argv...)
	cmd.Dir = cwd
	cmd.Env = mergeEnv(os.Environ(), cfg.Env)
	if cfg.followsChildren() {
		opts := strings.TrimSpace(envValue(cmd.Env, "NODE_OPTIONS") + " " + childInspectFlag)
		cmd.Env = mergeEnv(cmd.Env, map[string]string{"NODE_OPTIONS": opts})
	}
	cfg.Program = prog
	return cmd, nil
}

// envValue is the value of key in env (KEY=VALUE entries), last one wins.
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// mergeEnv overrides base (KEY=VALUE entries) with extra, in a stable order.
func mergeEnv(base []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := extra[k]; !ok {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+extra[k])
	}
	return out
}

// startNode starts cmd in its own process group and waits until its
// inspector listens. onLine receives the program's output lines (inspector
// noise removed), and, as stream "inspector", the address of every later
// inspector announced on the same stderr (child processes that inherited
// it); it runs on reader goroutines and must not block.
func startNode(ctx context.Context, cmd *exec.Cmd, onLine func(stream, line string)) (*nodeProcess, error) {
	urls := make(chan string, 1)
	var first atomic.Bool
	proc, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: func(stream, line string) {
		if stream == "stderr" {
			if m := listeningRE.FindStringSubmatch(line); m != nil {
				if first.CompareAndSwap(false, true) {
					urls <- m[1]
				} else if onLine != nil {
					onLine("inspector", m[1])
				}
				return
			}
		}
		if isInspectorNoise(line) {
			return
		}
		if onLine != nil {
			onLine(stream, line)
		}
	}})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	timer := time.NewTimer(15 * time.Second)
	defer timer.Stop()
	select {
	case u := <-urls:
		return &nodeProcess{proc: proc, wsURL: u}, nil
	case <-proc.Exited():
		return nil, fmt.Errorf("node exited before its inspector started: %s", strings.TrimSpace(proc.StderrTail()))
	case <-timer.C:
		proc.Kill()
		return nil, fmt.Errorf("node's inspector did not start within 15s: %s", strings.TrimSpace(proc.StderrTail()))
	case <-ctx.Done():
		proc.Kill()
		return nil, fmt.Errorf("starting node: %w", ctx.Err())
	}
}

// exitCode returns the exit status of an exited process (-1 if unknown).
func exitCode(p *dap.Process) int {
	err := p.ExitErr()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// fileURL is the URL node gives a script at an absolute path.
func fileURL(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// urlPath turns a script URL back into a file path ("" when it is not a
// file: node:internal/..., evaluated code).
func urlPath(u string) string {
	if strings.HasPrefix(u, "file://") {
		p, err := url.Parse(u)
		if err != nil {
			return ""
		}
		return filepath.FromSlash(p.Path)
	}
	if filepath.IsAbs(u) {
		return u
	}
	return ""
}

// portOf extracts the port from a ws:// URL (0 when absent).
func portOf(wsURL string) int {
	u, err := url.Parse(wsURL)
	if err != nil {
		return 0
	}
	p, _ := strconv.Atoi(u.Port())
	return p
}
