package adapters

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// natFakeTool writes an executable script named name into dir that
// records its arguments in dir/<name>.args, answers --version, and
// otherwise waits (an adapter on stdio).
func natFakeTool(t *testing.T, dir, name, version string) {
	t.Helper()
	script := "#!/bin/sh\necho \"$@\" > \"" + filepath.Join(dir, name+".args") + "\"\n" +
		"if [ \"$1\" = --version ]; then echo '" + version + "'; exit 0; fi\nexec sleep 30\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// natStartFake starts a, whose tool is the fake name in dir, waits for
// the arguments the tool recorded, stops the adapter and checks that its
// process group is gone. It returns the arguments.
func natStartFake(t *testing.T, a Adapter, dir, name string) string {
	t.Helper()
	_ = os.Remove(filepath.Join(dir, name+".args"))
	ep, err := a.Start(context.Background(), Target{Mode: Launch})
	if err != nil {
		t.Fatal(err)
	}
	args := natWaitArgs(t, dir, name)
	pgid := ep.Process.Pid()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ep.Close(ctx)
	natWaitGone(t, -pgid)
	return args
}

// natWaitArgs waits for the fake tool's recorded arguments.
func natWaitArgs(t *testing.T, dir, name string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(dir, name+".args"))
		if err == nil && len(b) > 0 {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never ran", name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestDotnetDiscoveryAndStart(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/usr/bin:/bin")
	a := NewDotnet()
	natWantMissing(t, a, Target{})
	natFakeTool(t, dir, "netcoredbg", "NET Core debugger 3.1.2.1054 (release)")
	info := a.Find(context.Background())
	if !info.Found || info.Version != "3.1.2" || info.Path != filepath.Join(dir, "netcoredbg") || !info.AttachPID {
		t.Errorf("info %+v", info)
	}
	if got := natStartFake(t, a, dir, "netcoredbg"); got != "--interpreter=vscode" {
		t.Errorf("netcoredbg started with %q", got)
	}
}

func TestDotnetArgs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dll := filepath.Join(dir, "app.dll")
	if err := os.WriteFile(dll, []byte("MZ"), 0o644); err != nil {
		t.Fatal(err)
	}
	no := false
	a := NewDotnet()
	args, err := a.LaunchArgs(context.Background(), Target{Mode: Launch, Program: "app.dll", Cwd: dir, Args: []string{"x"},
		Env: map[string]string{"A": "1"}, StopOnEntry: true, JustMyCode: &no, Extra: map[string]any{"enableStepFiltering": false}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"type": "coreclr", "request": "launch", "program": dll, "cwd": dir, "stopAtEntry": true, "justMyCode": false, "enableStepFiltering": false}
	for k, v := range want {
		if args[k] != v {
			t.Errorf("launch %s = %v, want %v", k, args[k], v)
		}
	}
	if env, _ := args["env"].(map[string]string); env["A"] != "1" {
		t.Errorf("env %v", args["env"])
	}
	at, err := a.AttachArgs(context.Background(), Target{Mode: Attach, PID: 77})
	if err != nil || at["processId"] != 77 || at["request"] != "attach" {
		t.Errorf("attach %v %v", at, err)
	}
	if _, err := a.AttachArgs(context.Background(), Target{Mode: Attach}); err == nil {
		t.Error("attach without pid accepted")
	}
	if _, err := a.LaunchArgs(context.Background(), Target{Mode: Launch, Program: filepath.Join(dir, "none.dll")}); err == nil {
		t.Error("missing program accepted")
	}
	if f := a.ExceptionFilters("uncaught"); len(f) != 1 || f[0] != "user-unhandled" {
		t.Errorf("filters %v", f)
	}
}

func TestDotnetAssembly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Hello.csproj"), []byte("<Project/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "bin", "Debug", "net6.0", "Hello.dll")
	newer := filepath.Join(dir, "bin", "Debug", "net8.0", "Hello.dll")
	for i, p := range []string{old, newer} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("MZ"), 0o644); err != nil {
			t.Fatal(err)
		}
		ts := time.Now().Add(time.Duration(i-2) * time.Hour)
		_ = os.Chtimes(p, ts, ts)
	}
	for _, proj := range []string{dir, filepath.Join(dir, "Hello.csproj")} {
		got, err := dotnetAssembly(dir, proj)
		if err != nil || got != newer {
			t.Errorf("dotnetAssembly(%s) = %s, %v; want %s", proj, got, err, newer)
		}
	}
	if _, err := dotnetAssembly(t.TempDir(), t.TempDir()); err == nil {
		t.Error("a directory without a project was accepted")
	}
}

func TestDotnetInstallCommandsPinned(t *testing.T) {
	t.Parallel()
	cmds := NewDotnet().InstallCommands()
	joined := ""
	for _, c := range cmds {
		joined += strings.Join(c, " ") + "\n"
	}
	if !strings.Contains(joined, netcoredbgVersion) || !strings.Contains(joined, "--version 8.0") {
		t.Errorf("install commands not pinned:\n%s", joined)
	}
}
