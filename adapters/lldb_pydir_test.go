package adapters

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLLDBPythonDirAskedOncePerBinary: the answer of `lldb -P` is kept
// for the adapter binary it was asked for, and asked again when that
// binary changes.
func TestLLDBPythonDirAskedOncePerBinary(t *testing.T) {
	t.Parallel()
	bin, py, write := fakeLLVM(t)
	calls := filepath.Join(t.TempDir(), "calls")
	write(filepath.Join(bin, "lldb"), "#!/bin/sh\necho x >> "+calls+"\necho /usr/lib/local/lib/python3.11/dist-packages\n", 0o755)
	d := nativeDebugger{kind: kindLLDBDAP, name: "lldb-vscode", path: filepath.Join(bin, "lldb-vscode")}
	var c lldbPyDirs
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if got := c.pythonDir(ctx, d); got != py {
			t.Fatalf("pythonDir = %q, want %q", got, py)
		}
	}
	if b, _ := os.ReadFile(calls); string(b) != "x\n" {
		t.Fatalf("lldb -P ran %d times for one binary", len(b)/2)
	}
	// A new LLDB in its place: its own answer.
	write(filepath.Join(bin, "lldb"), "#!/bin/sh\necho "+py+"\n", 0o755)
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(d.path, later, later); err != nil {
		t.Fatal(err)
	}
	if got := c.pythonDir(ctx, d); got != "" {
		t.Errorf("pythonDir = %q for the new LLDB that finds its module", got)
	}
}

// fakeLLVM makes an LLVM directory with an lldb-vscode in bin and LLDB's
// Python module in lib/python3.11/dist-packages (py); write writes more
// files into it.
func fakeLLVM(t *testing.T) (bin, py string, write func(p, text string, mode os.FileMode)) {
	t.Helper()
	llvm := t.TempDir()
	bin = filepath.Join(llvm, "bin")
	py = filepath.Join(llvm, "lib", "python3.11", "dist-packages")
	for _, dir := range []string{bin, filepath.Join(py, "lldb")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write = func(p, text string, mode os.FileMode) {
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(py, "lldb", "embedded_interpreter.py"), "", 0o644)
	write(filepath.Join(bin, "lldb-vscode"), "#!/bin/sh\n", 0o755)
	return bin, py, write
}
