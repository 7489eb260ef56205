package adapters

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func startFor(t *testing.T, name string, args ...string) int {
	t.Helper()
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		t.Skipf("%s: %v", name, err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	time.Sleep(100 * time.Millisecond) // let exec finish
	return cmd.Process.Pid
}

func TestDetectLanguage(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]int{
		"python": startFor(t, "python3", "-c", "import time; time.sleep(30)"),
		"c":      startFor(t, "sleep", "30"),
	}
	if _, err := exec.LookPath("node"); err == nil {
		cases["javascript"] = startFor(t, "node", "-e", "setTimeout(()=>{}, 30000)")
	}
	// A Go binary, recognised by its build information.
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\nimport \"time\"\nfunc main() { time.Sleep(30 * time.Second) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "gobin")
	if out, err := exec.Command("go", "build", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v %s", err, out)
	}
	cases["go"] = startFor(t, bin)
	for want, pid := range cases {
		got, err := DetectLanguage(pid)
		if err != nil || got != want {
			t.Errorf("pid %d: %q %v, want %s", pid, got, err, want)
		}
	}
	if _, err := DetectLanguage(1 << 30); err == nil || !strings.Contains(err.Error(), "no process") {
		t.Errorf("missing pid: %v", err)
	}
}
