package proc

import (
	"errors"
	"os/exec"
	"syscall"
	"testing"
)

// A held process reads as the one it was opened for: its stat while it
// runs and as a zombie, and ErrNoProcess once it is reaped.
func TestHeldFollowsItsProcess(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	h, err := Hold(pid)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	want, err := ReadStat(pid)
	if err != nil {
		t.Fatal(err)
	}
	st, err := h.Stat()
	if err != nil || st.PID != pid || st.StartTime != want.StartTime || st.Comm != "sleep" {
		t.Fatalf("held stat = %+v, %v; want pid %d started at %d", st, err, pid, want.StartTime)
	}
	if _, err := h.PendingSignals(); err != nil {
		t.Fatalf("pending signals: %v", err)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if _, err := h.Stat(); !errors.Is(err, ErrNoProcess) {
		t.Fatalf("stat of a reaped process: %v, want ErrNoProcess", err)
	}
	if _, err := h.PendingSignals(); !errors.Is(err, ErrNoProcess) {
		t.Fatalf("status of a reaped process: %v, want ErrNoProcess", err)
	}
	h.Release()
	if _, err := h.Stat(); !errors.Is(err, ErrReleased) {
		t.Fatalf("stat after release: %v, want ErrReleased", err)
	}
}
