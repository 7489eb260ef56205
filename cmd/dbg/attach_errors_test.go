package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// dbgFails runs the dbg binary with args and returns its stderr, failing
// the test unless it exits 1.
func dbgFails(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("%v: %v, want exit 1\n%s", cmd.Args, err, out)
	}
	return string(out)
}

// dbgIn is the dbg binary with args and a state directory of its own.
func dbgIn(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(dbgBinary, args...)
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir())
	return cmd
}

func TestAttachMissingPID(t *testing.T) {
	t.Parallel()
	// A pid past the kernel's limit never exists.
	out := dbgFails(t, dbgIn(t, "attach", "--pid", "4194305"))
	if !strings.Contains(out, "no process 4194305: it has exited or the pid is wrong") {
		t.Fatalf("output:\n%s", out)
	}
}

// Another user's process is refused before anything touches it. As root
// every process is debuggable, so dbg then runs as nobody against a
// process of root's.
func TestAttachOtherUsersProcess(t *testing.T) {
	t.Parallel()
	victim, _ := startTarget(t, "ready", goBinary(t, td("go/server")))
	cmd := dbgIn(t, "attach", "--pid", itoa(victim.Process.Pid))
	if os.Geteuid() == 0 {
		// nobody needs to reach the binary and a state directory: a
		// folder like /tmp (dbg refuses a state folder below one that
		// anyone can change).
		dir := t.TempDir()
		for d, m := range map[string]os.FileMode{dir: 0o777 | os.ModeSticky, filepath.Dir(dir): 0o755} {
			if err := os.Chmod(d, m); err != nil {
				t.Fatal(err)
			}
		}
		bin := filepath.Join(dir, "dbg")
		b, err := os.ReadFile(dbgBinary)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd = exec.Command(bin, "attach", "--pid", itoa(victim.Process.Pid))
		cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+filepath.Join(dir, "state"), "HOME="+dir)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else {
		cmd = dbgIn(t, "attach", "--pid", "1")
	}
	out := dbgFails(t, cmd)
	if !strings.Contains(out, "belongs to user") || !strings.Contains(out, "only to your own processes") {
		t.Fatalf("output:\n%s", out)
	}
	if !processAlive(victim.Process.Pid) {
		t.Fatal("the refused attach harmed the process")
	}
}

// A program dbg cannot classify (a native binary without debug info) is
// refused with what to pass instead.
func TestAttachUnknownKind(t *testing.T) {
	t.Parallel()
	sleeper, _ := startTarget(t, "", "sleep", "300")
	out := dbgFails(t, dbgIn(t, "attach", "--pid", itoa(sleeper.Process.Pid)))
	if !strings.Contains(out, "cannot tell what kind of program process") || !strings.Contains(out, "--language") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	out := dbgFails(t, dbgIn(t, "brake", "go-1", "main.go:3"))
	if !strings.Contains(out, `unknown command "brake"`) || !strings.Contains(out, "break") {
		t.Fatalf("output:\n%s", out)
	}
	// At the console, too.
	prog := fixture(t, "mock/loop.mock")
	cmd := dbgIn(t, "launch", prog)
	cmd.Stdin = strings.NewReader("brake 3\nquit\n")
	b, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(b), `unknown command "brake" (help lists the commands)`) {
		t.Fatalf("%v\n%s", err, b)
	}
}
