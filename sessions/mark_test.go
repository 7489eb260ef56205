package sessions

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A process is found by its session's mark, and only by its own.
func TestMarkedFindsTheProcessesOfTheMark(t *testing.T) {
	t.Parallel()
	mark, other := newMark(), newMark()
	if mark == other || len(mark) != 32 {
		t.Fatalf("marks %q and %q", mark, other)
	}
	env := withMark(map[string]string{"A": "1"}, mark)
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), MarkEnv+"="+env[MarkEnv], "A="+env["A"])
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if got := marked(mark); !slices.Equal(got, []int{cmd.Process.Pid}) {
		t.Fatalf("marked(mark) = %v, want [%d]", got, cmd.Process.Pid)
	}
	if got := marked(other); len(got) != 0 {
		t.Fatalf("another mark finds %v", got)
	}
	if got := marked(""); got != nil {
		t.Fatalf("no mark finds %v", got)
	}
}

// After a crash, the next server kills what held the dead session's mark
// even when its record names no live process (they left its tree).
func TestReapKillsTheMarkedProcessesOfADeadServer(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	mark := newMark()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	left := exec.Command("sleep", "30")
	left.Env = append(os.Environ(), MarkEnv+"="+mark)
	if err := left.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = left.Wait(); close(done) }()
	t.Cleanup(func() { _ = left.Process.Kill(); <-done })
	dead := NewManager(Config{StateDir: state})
	if err := dead.writeRecordMarked("sess-1", []int{gone.Process.Pid}, mark); err != nil {
		t.Fatal(err)
	}
	// Pretend the record was written by a server that has since died.
	recs, _ := filepath.Glob(filepath.Join(state, "sessions", "*.json"))
	if len(recs) != 1 {
		t.Fatalf("records: %v", recs)
	}
	b, _ := os.ReadFile(recs[0])
	b = []byte(strings.Replace(string(b), fmt.Sprintf(`"pid":%d,`, os.Getpid()), `"pid":999999999,`, 1))
	if err := os.WriteFile(recs[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := NewManager(Config{StateDir: state}).Reap(); n != 1 {
		t.Fatalf("reaped %d", n)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the marked process outlived the reap")
	}
}
