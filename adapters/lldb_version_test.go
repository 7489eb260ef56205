package adapters

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNativePicksLLDBVersion(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"lldb-vscode-14", "lldb-vscode-16"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	t.Setenv(LLDBEnv, "")
	ctx := context.Background()
	if d, err := NewC().findDebugger(ctx, lldbWanted(nil)); err != nil || d.name != "lldb-vscode-16" {
		t.Errorf("default: %+v %v, want the newest", d, err)
	}
	t.Setenv(LLDBEnv, "14")
	if d, err := NewC().findDebugger(ctx, lldbWanted(nil)); err != nil || d.name != "lldb-vscode-14" || d.major != 14 {
		t.Errorf("$%s=14: %+v %v", LLDBEnv, d, err)
	}
	// adapterConfig wins over the environment, as a number or a path.
	if d, err := NewC().findDebugger(ctx, lldbWanted(map[string]any{"lldb": float64(16)})); err != nil || d.name != "lldb-vscode-16" {
		t.Errorf("adapterConfig lldb=16: %+v %v", d, err)
	}
	p := filepath.Join(dir, "lldb-vscode-14")
	if d, err := NewC().findDebugger(ctx, lldbWanted(map[string]any{"lldb": p})); err != nil || d.path != p || d.major != 14 {
		t.Errorf("adapterConfig lldb=%s: %+v %v", p, d, err)
	}
	_, err := NewC().findDebugger(ctx, lldbWanted(map[string]any{"lldb": "15"}))
	if err == nil || !strings.Contains(err.Error(), "LLDB 15 was asked for") || !strings.Contains(err.Error(), "lldb-vscode-14") {
		t.Errorf("a missing version: %v, want the refusal naming what is installed", err)
	}
	if _, err := NewC().findDebugger(ctx, lldbWanted(map[string]any{"lldb": "new"})); err == nil {
		t.Error("lldb=new accepted")
	}
	if _, err := NewC().findDebugger(ctx, lldbWanted(map[string]any{"lldb": "/no/such/lldb-dap"})); err == nil {
		t.Error("a missing path accepted")
	}
	// dbg's key is not passed on to the adapter.
	args, err := NewC().AttachArgs(ctx, Target{Mode: Attach, PID: os.Getpid(), Extra: map[string]any{"lldb": "14", "x": 1}})
	if err != nil || args["lldb"] != nil || args["x"] != 1 {
		t.Errorf("attach args %v %v", args, err)
	}
}

// TestLLDBPythonDir: an LLDB whose `lldb -P` names a directory without
// its module gets the one in its LLVM directory; one that finds its
// module gets nothing.
func TestLLDBPythonDir(t *testing.T) {
	bin, py, write := fakeLLVM(t)
	write(filepath.Join(bin, "lldb"), "#!/bin/sh\necho /usr/lib/local/lib/python3.11/dist-packages\n", 0o755)
	d := nativeDebugger{kind: kindLLDBDAP, name: "lldb-vscode", path: filepath.Join(bin, "lldb-vscode")}
	if got := lldbPythonDir(context.Background(), d); got != py {
		t.Errorf("lldbPythonDir = %q, want %q", got, py)
	}
	write(filepath.Join(bin, "lldb"), "#!/bin/sh\necho "+py+"\n", 0o755)
	if got := lldbPythonDir(context.Background(), d); got != "" {
		t.Errorf("lldbPythonDir = %q for an LLDB that finds its module", got)
	}
	env := lldbPythonEnv(py)
	if last := env[len(env)-1]; !strings.HasPrefix(last, "PYTHONPATH="+py) {
		t.Errorf("adapter environment ends with %q", last)
	}
	t.Setenv("PYTHONPATH", "")
	if got := lldbPythonRestore(Target{}); got != "settings set target.unset-env-vars PYTHONPATH" {
		t.Errorf("restore without PYTHONPATH: %q", got)
	}
	t.Setenv("PYTHONPATH", "/mine")
	if got := lldbPythonRestore(Target{}); got != `settings set target.env-vars "PYTHONPATH=/mine"` {
		t.Errorf("restore with PYTHONPATH: %q", got)
	}
	if got := lldbPythonRestore(Target{Env: map[string]string{"PYTHONPATH": "/x"}}); got != "" {
		t.Errorf("restore when the session sets PYTHONPATH: %q", got)
	}
}
