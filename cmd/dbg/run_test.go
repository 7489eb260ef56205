package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/ide"
)

func TestCLIRunFlags(t *testing.T) {
	t.Parallel()
	f, _, _ := cliFactory(t)
	var list *queryOptions
	cmd := newCmdRunList(f, func(_ context.Context, o *queryOptions) error { list = o; return nil })
	cmd.SetArgs([]string{"--project", "/p", "--json"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if list.project != "/p" || !list.asJSON || list.IO != f.io || list.ToolClient == nil {
		t.Fatalf("list options %+v", *list)
	}

	var restart *runRestartOptions
	cmd = newCmdRunRestart(f, func(_ context.Context, o *runRestartOptions) error { restart = o; return nil })
	cmd.SetArgs([]string{"api", "--source", ".vscode/launch.json"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if restart.name != "api" || restart.source != ".vscode/launch.json" || restart.asJSON || restart.poll <= 0 {
		t.Fatalf("restart options %+v", *restart)
	}

	var debug *runDebugOptions
	cmd = newCmdRunDebug(f, func(_ context.Context, o *runDebugOptions) error { debug = o; return nil })
	cmd.SetArgs([]string{"Go: api", "--break", "cmd/api/main.go:12", "--break", "/abs/x.py:3", "--stop-on-entry"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	args, err := debugArgs(debug)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"configurationName": "Go: api", "stopOnEntry": true, "breakpoints": []map[string]any{
		{"file": "cmd/api/main.go", "line": 12}, {"file": "/abs/x.py", "line": 3}}}
	if !reflect.DeepEqual(args, want) {
		t.Fatalf("debug arguments %v, want %v", args, want)
	}
}

// firstColumn returns the names of a table printed with a NAME header
// (names may contain single spaces; columns are two spaces apart).
func firstColumn(out string) []string {
	var names []string
	for i, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if i == 0 {
			continue
		}
		name, _, _ := strings.Cut(l, "  ")
		names = append(names, name)
	}
	return names
}

func TestCLIRunList(t *testing.T) {
	t.Parallel()
	cases := []struct {
		project string
		want    []string
	}{
		{"projects/intellij-app", []string{"Main", "OrderApplication", "Build", "Package", "OrderServiceTest.placesOrder", "go-server", "server tests", "worker"}},
		{"projects/vscode-app", []string{"Launch Server", "Python: worker", "Python: module", "Go: api", "Go: tests", "Attach to 9229", "Server + Worker"}},
	}
	for _, c := range cases {
		t.Run(c.project, func(t *testing.T) {
			dir := fixture(t, c.project)
			out, _, err := runCLI(t, "run", "list", "--project", dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := firstColumn(out); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("names %q, want %q\n%s", got, c.want, out)
			}
			if !strings.HasPrefix(out, "NAME ") || strings.Contains(out, "Scratch") {
				t.Fatalf("table:\n%s", out)
			}
			out, _, err = runCLI(t, "run", "list", "--project", dir, "--json")
			if err != nil {
				t.Fatal(err)
			}
			var res ide.ListConfigurationsResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("--json: %v\n%s", err, out)
			}
			var names []string
			for _, cfg := range res.Configurations {
				names = append(names, cfg.Name)
			}
			if !reflect.DeepEqual(names, c.want) || res.ProjectPath != dir {
				t.Fatalf("--json names %q in %s, want %q in %s", names, res.ProjectPath, c.want, dir)
			}
		})
	}
	// The compound lists its members, the attach entry says why it does
	// not run.
	out, _, err := runCLI(t, "run", "list", "--project", fixture(t, "projects/vscode-app"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "compound: Launch Server, Python: worker") || !strings.Contains(out, "(not runnable: ") {
		t.Fatalf("table:\n%s", out)
	}
}

// pythonProject writes a project with two launch.json configurations:
// "once" prints and exits with status 3, "forever" starts a child
// process, prints both pids and ticks until stopped.
func pythonProject(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed (scripts/deps/core.sh installs it)")
	}
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	files := map[string]string{
		".vscode/launch.json": `{
  // two programs
  "configurations": [
    {"type": "python", "request": "launch", "name": "once", "program": "${workspaceFolder}/once.py"},
    {"type": "python", "request": "launch", "name": "forever", "program": "${workspaceFolder}/forever.py"},
  ]
}`,
		"once.py": `import sys
print("hello from once", flush=True)
print("to stderr", file=sys.stderr, flush=True)
sys.exit(3)
`,
		"forever.py": `import os, subprocess, time
child = subprocess.Popen(["sleep", "600"])
print("child", child.pid, flush=True)
print("started", os.getpid(), flush=True)
i = 0
while True:
    print("tick", i, flush=True)
    i += 1
    time.sleep(0.1)
`,
	}
	writeFiles(t, dir, files)
	return dir
}

func TestCLIRunRestartExitStatus(t *testing.T) {
	t.Parallel()
	dir := pythonProject(t)
	out, errOut, code := runCLIBinary(t, dir, "run", "restart", "once")
	if out != "hello from once\n" {
		t.Fatalf("stdout %q, want the program's stdout", out)
	}
	if code != 1 || !strings.Contains(errOut, "to stderr\n") || !strings.Contains(errOut, "the program exited with status 3") ||
		!strings.Contains(errOut, "start_scheduled: pid ") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}

	// --json answers at once; the process ends with dbg.
	out, errOut, code = runCLIBinary(t, dir, "run", "restart", "forever", "--json")
	var started ide.RestartResult
	if err := json.Unmarshal([]byte(out), &started); err != nil || code != 0 || started.Action != ide.ActionStart || started.PID <= 0 ||
		started.ConfigurationName != "forever" {
		t.Fatalf("restart --json: exit %d, stdout %s, stderr %s", code, out, errOut)
	}
	t.Cleanup(func() { _ = syscall.Kill(-started.PID, syscall.SIGKILL) })
	cliWaitGone(t, started.PID, 10*time.Second)
	if pids := groupMembers(started.PID); len(pids) > 0 {
		t.Fatalf("processes %v of the configuration's group outlived dbg", pids)
	}

	out, errOut, code = runCLIBinary(t, dir, "run", "restart", "nope", "--json")
	var env toolclient.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 1 || env.Success || env.Error.Code != "RUN_CONFIGURATION_NOT_FOUND" ||
		!reflect.DeepEqual(env.Error.AvailableOptions, []string{"once", "forever"}) {
		t.Fatalf("unknown name: exit %d, stdout %s, stderr %s", code, out, errOut)
	}
}

// TestCLIRunRestartInterrupt runs a program that never ends in the
// foreground: its output streams, and an interrupt stops it with dbg.
func TestCLIRunRestartInterrupt(t *testing.T) {
	t.Parallel()
	dir := pythonProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, dbgBinary, "run", "restart", "forever")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	type seen struct {
		pid, child int
		ticks      int
	}
	got := make(chan seen, 1)
	go func() {
		var s seen
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 2 && f[0] == "started":
				s.pid, _ = strconv.Atoi(f[1])
			case len(f) == 2 && f[0] == "child":
				s.child, _ = strconv.Atoi(f[1])
			case len(f) == 2 && f[0] == "tick" && f[1] == strconv.Itoa(s.ticks):
				s.ticks++
			}
			if s.pid > 0 && s.child > 0 && s.ticks == 3 {
				got <- s
				_, _ = io.Copy(io.Discard, stdout)
				return
			}
		}
		close(got)
	}()
	var s seen
	select {
	case v, ok := <-got:
		if !ok {
			t.Fatalf("dbg ended before the program ticked three times; stderr:\n%s", errOut.String())
		}
		s = v
	case <-time.After(60 * time.Second):
		t.Fatalf("no output within 60s; stderr:\n%s", errOut.String())
	}
	t.Cleanup(func() { _ = syscall.Kill(-s.pid, syscall.SIGKILL) })
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("dbg exited with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("dbg did not exit within 30s of the interrupt")
	}
	if !strings.Contains(errOut.String(), "interrupted: stopped pid ") {
		t.Fatalf("stderr:\n%s", errOut.String())
	}
	cliWaitGone(t, s.pid, 10*time.Second)
	cliWaitGone(t, s.child, 10*time.Second)
}

func TestCLIRunDebug(t *testing.T) {
	t.Parallel()
	dir := pythonProject(t)
	if err := exec.Command("python3", "-c", "import debugpy").Run(); err != nil {
		t.Skip("debugpy not installed (scripts/deps/core.sh installs it)")
	}
	out, errOut, err := runCLI(t, "run", "debug", "once", "--project", dir, "--break", "once.py:3")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{
		"(python, ",
		"state paused\n",
		"stopped (breakpoint) at " + filepath.Join(dir, "once.py") + ":3",
		"locals:\n",
		"  sys module = ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "closes as this command exits") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

// groupMembers lists the live processes of process group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if g, err := syscall.Getpgid(pid); err == nil && g == pgid && !cliProcessGone(pid) {
			out = append(out, pid)
		}
	}
	return out
}
