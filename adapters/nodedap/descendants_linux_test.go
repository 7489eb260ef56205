package nodedap

import (
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"
)

func TestDescendants(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & sleep 30 & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	var kids []int
	for deadline := time.Now().Add(5 * time.Second); len(kids) < 2; time.Sleep(10 * time.Millisecond) {
		kids = descendants(cmd.Process.Pid)
		if time.Now().After(deadline) {
			t.Fatalf("descendants of %d: %v", cmd.Process.Pid, kids)
		}
	}
	if len(kids) != 2 || slices.Contains(kids, cmd.Process.Pid) {
		t.Fatalf("descendants %v", kids)
	}
	for _, k := range kids {
		if c := cmdline(k); c != "sleep 30" {
			t.Fatalf("cmdline of %d = %q", k, c)
		}
	}
	if got := descendants(1 << 30); got != nil {
		t.Fatalf("descendants of a missing process: %v", got)
	}
	if c := cmdline(1 << 30); c != "" {
		t.Fatalf("cmdline of a missing process: %q", c)
	}
}
