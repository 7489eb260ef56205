package sessions

import (
	"os"
	"os/exec"
	"slices"
	"testing"
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
