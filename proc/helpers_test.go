package proc

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// missingPID is above any pid_max, so no process ever has it.
const missingPID = 1 << 30

// needProc skips where there is no /proc.
func needProc(t testing.TB) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
}

// started runs a shell command as the leader of a new process group and
// returns it with a channel closed once it has been reaped. The group is
// killed when the test ends.
func started(t *testing.T, script string, env ...string) (*exec.Cmd, <-chan struct{}) {
	t.Helper()
	needProc(t)
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(reaped)
	}()
	t.Cleanup(func() {
		_ = KillGroup(cmd.Process.Pid)
		<-reaped
	})
	return cmd, reaped
}
