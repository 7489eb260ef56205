package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/internal/dbgtest"
	"github.com/dbg-dev/dbg/proc"
)

func pyTestdata(rel string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "python", rel)
}

// fakePython makes an executable named python in dir/bin.
func fakePython(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(bin, "python")
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// The project's interpreter, in order: .venv/venv from the program's
// directory up to the project root, $VIRTUAL_ENV, uv, pyenv's
// .python-version, PATH.
func TestPythonInterpreterOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	sub := filepath.Join(root, "pkg", "app")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[project]\nname='x'\n"), 0o644)
	prog := filepath.Join(sub, "main.py")
	os.WriteFile(prog, []byte("print(1)\n"), 0o644)
	pyenvRoot := t.TempDir()
	pyenvPy := fakePython(t, filepath.Join(pyenvRoot, "versions", "9.9.9"))
	virtualEnv := t.TempDir()
	vePy := fakePython(t, virtualEnv)
	uvEnv := filepath.Join(root, "uvenv")
	uvPy := fakePython(t, uvEnv)
	p := Python{}
	base := Target{Program: prog, Env: map[string]string{"PYENV_ROOT": pyenvRoot, "VIRTUAL_ENV": "", "UV_PROJECT_ENVIRONMENT": ""}}
	pick := func(tg Target) Interpreter { return p.resolveInterpreter(context.Background(), tg) }

	if in := pick(base); in.Source != "path" {
		t.Errorf("nothing set: %+v, want path", in)
	}
	os.WriteFile(filepath.Join(sub, ".python-version"), []byte("9.9.9\n"), 0o644)
	if in := pick(base); in.Source != "pyenv" || in.Path != pyenvPy {
		t.Errorf(".python-version: %+v, want %s", in, pyenvPy)
	}
	tg := base
	tg.Env = map[string]string{"PYENV_ROOT": pyenvRoot, "VIRTUAL_ENV": "", "UV_PROJECT_ENVIRONMENT": "uvenv"}
	if in := pick(tg); in.Source != "uv" || in.Path != uvPy {
		t.Errorf("uv: %+v, want %s", in, uvPy)
	}
	tg.Env = map[string]string{"PYENV_ROOT": pyenvRoot, "VIRTUAL_ENV": virtualEnv}
	if in := pick(tg); in.Source != "virtualenv" || in.Path != vePy {
		t.Errorf("VIRTUAL_ENV: %+v, want %s", in, vePy)
	}
	venvPy := fakePython(t, filepath.Join(root, "venv"))
	if in := pick(tg); in.Source != "venv" || in.Path != venvPy {
		t.Errorf("project venv: %+v, want %s", in, venvPy)
	}
	dotVenvPy := fakePython(t, filepath.Join(root, ".venv"))
	if in := pick(tg); in.Source != "venv" || in.Path != dotVenvPy {
		t.Errorf("project .venv: %+v, want %s (before venv)", in, dotVenvPy)
	}
	// The cwd's project counts when the program's has none.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "x.py"), []byte(""), 0o644)
	os.WriteFile(filepath.Join(other, "setup.py"), []byte(""), 0o644)
	tg.Program, tg.Cwd = filepath.Join(other, "x.py"), sub
	if in := pick(tg); in.Source != "venv" || in.Path != dotVenvPy {
		t.Errorf("cwd's project: %+v, want %s", in, dotVenvPy)
	}
	tg.ExecutablePath = "/opt/python"
	if in := pick(tg); in.Source != "executablePath" || in.Path != "/opt/python" {
		t.Errorf("executablePath: %+v", in)
	}
	// A venv above the project root is not the project's.
	outer := t.TempDir()
	fakePython(t, filepath.Join(outer, ".venv"))
	inner := filepath.Join(outer, "proj")
	os.MkdirAll(inner, 0o755)
	os.WriteFile(filepath.Join(inner, "pyproject.toml"), []byte(""), 0o644)
	os.WriteFile(filepath.Join(inner, "m.py"), []byte(""), 0o644)
	if in := pick(Target{Program: filepath.Join(inner, "m.py"), Env: map[string]string{"VIRTUAL_ENV": ""}}); in.Source == "venv" {
		t.Errorf("venv above the project root picked: %+v", in)
	}
}

func TestPythonDebugpySupportsAndPip(t *testing.T) {
	t.Parallel()
	i := pyInfo{path: "/usr/bin/python3.11", requires: ">=3.10", managed: true}
	for v, want := range map[string]bool{"3.9.18": false, "3.10.0": true, "3.14.0": true, "4.0.0": true} {
		if got := i.supports(v); got != want {
			t.Errorf("supports(%s) = %v", v, got)
		}
	}
	if got := i.pipCommand(); got != "/usr/bin/python3.11 -m pip install debugpy=="+DebugpyVersion+" --break-system-packages" {
		t.Errorf("pip command: %s", got)
	}
	if cmds := NewPython().InstallCommandsFor("/usr/bin/python3"); len(cmds) != 1 || cmds[0][0] != "/usr/bin/python3" || cmds[0][len(cmds[0])-1] != "--break-system-packages" {
		t.Errorf("install for Debian's python3: %v", cmds)
	}
}

func TestPythonRemoteExecDecision(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"3.11.7": false, "3.13.0": false, "3.14.0": true, "3.15.1": true, "4.0.0": true} {
		if got := usesRemoteExec(v); got != want {
			t.Errorf("usesRemoteExec(%s) = %v", v, got)
		}
	}
}

// The sys.remote_exec script, run for real by a Python 3.11 target that
// executes scripts as sys.remote_exec does (no 3.14 on this machine):
// debugpy listens in the target, dbg talks to it, and the script leaves
// neither sys.path entries nor names in __main__.
func TestPythonRemoteExecScript(t *testing.T) {
	t.Parallel()
	py := "/root/.pyenv/versions/3.11.7/bin/python3"
	if _, err := os.Stat(py); err != nil {
		py = pathPython()
	}
	p := NewPython()
	p.HookDir = t.TempDir()
	info := p.cache.probe(context.Background(), py)
	if info.debugpy == "" {
		t.Fatalf("%s has no debugpy: run scripts/deps/core.sh", py)
	}
	trigger := filepath.Join(t.TempDir(), "trigger")
	cmd := exec.Command(py, pyTestdata("attach/remote_exec_sim.py"), trigger)
	out := &lockedBuffer{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	waitFor(t, func() bool { return strings.Contains(out.String(), "tick 2") })
	var execd string
	p.RemoteExec = func(_ context.Context, gotPy string, pid int, script string) error {
		if gotPy != py || pid != cmd.Process.Pid {
			t.Errorf("remote exec with %s into %d", gotPy, pid)
		}
		execd = script
		return os.WriteFile(trigger, []byte(script), 0o644)
	}
	plan := &pyAttachPlan{info: info, label: "pyenv", remote: true, in: Interpreter{Path: py, Version: info.version, Source: "process", Debugpy: info.dpVersion}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ep, err := p.remoteAttach(ctx, Target{Mode: Attach, PID: cmd.Process.Pid}, plan)
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close(ctx)
	if ep.Interpreter == nil || ep.Interpreter.Path != py {
		t.Errorf("interpreter: %+v", ep.Interpreter)
	}
	conn := dap.NewConn(ep.Conn, dap.Options{Timeout: 20 * time.Second})
	if _, err := conn.Request(ctx, "initialize", map[string]any{"adapterID": "python", "clientID": "dbg"}); err != nil {
		t.Fatalf("initialize the target's debugpy: %v", err)
	}
	// The adapter debugpy.listen started runs dbg's hook.
	hooked := false
	for _, pid := range proc.PIDs() {
		argv, _ := proc.Cmdline(pid)
		env, _ := proc.Environ(pid)
		if strings.Contains(strings.Join(argv, " "), "--for-server") && strings.Contains(strings.Join(env, "\n"), "PYTHONPATH="+p.HookDir) {
			hooked = true
		}
	}
	if !hooked {
		t.Error("the adapter that debugpy.listen started does not run dbg's hook")
	}
	if _, err := os.Stat(execd); !os.IsNotExist(err) {
		t.Errorf("the script %s is still there", execd)
	}
	waitFor(t, func() bool { return strings.Contains(out.String(), "after ") })
	var before, after struct {
		Path []string
		Main []string
	}
	text := out.String()
	json.Unmarshal([]byte(lineAfter(text, "before ")), &before)
	json.Unmarshal([]byte(lineAfter(text, "after ")), &after)
	if strings.Join(before.Path, ":") != strings.Join(after.Path, ":") || strings.Join(before.Main, ",") != strings.Join(after.Main, ",") {
		t.Errorf("the script changed the target:\nbefore %+v\nafter  %+v", before, after)
	}
	n := strings.Count(out.String(), "tick ")
	waitFor(t, func() bool { return strings.Count(out.String(), "tick ") > n+3 })
}

func lineAfter(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimPrefix(l, prefix)
		}
	}
	return ""
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	dbgtest.WaitFor(t, 20*time.Second, "the condition", ok)
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Attach by pid never uses another interpreter than the target's: not a
// non-Python process, not an executablePath that is another Python.
func TestPythonAttachPlanRefusesOtherInterpreters(t *testing.T) {
	t.Parallel()
	sleep := exec.Command("sleep", "30")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sleep.Process.Kill(); _ = sleep.Wait() }()
	p := Python{GDB: "/nonexistent/gdb", StateDir: t.TempDir()}
	ctx := context.Background()
	_, err := p.attachPlan(ctx, Target{Mode: Attach, PID: sleep.Process.Pid})
	var refused *AttachRefusedError
	if !errors.As(err, &refused) || !strings.Contains(refused.Reason, "not a Python interpreter") {
		t.Errorf("a sleep process: %v", err)
	}
	py := exec.Command("/usr/bin/python3", "-c", "import time; time.sleep(30)")
	if err := py.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = py.Process.Kill(); _ = py.Wait() }()
	_, err = p.attachPlan(ctx, Target{Mode: Attach, PID: py.Process.Pid, ExecutablePath: "/bin/sh"})
	if !errors.As(err, &refused) || !strings.Contains(refused.Reason, "target's own interpreter") {
		t.Errorf("another executablePath: %v", err)
	}
}
