package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

// cliFactory is a factory writing to buffers, with its own state
// directory so the manager's reaper never touches another server's
// records.
func cliFactory(t *testing.T) (*factory, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	state := t.TempDir()
	ios, _, stdout, stderr := iostreams.Test()
	f := &factory{io: ios, now: time.Now, registry: adapters.Default,
		getenv: func(k string) string {
			if k == "DBG_STATE_DIR" {
				return state
			}
			return os.Getenv(k)
		}}
	return f, stdout, stderr
}

// runCLI runs dbg's root command in-process with a deadline.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	f, out, errOut := cliFactory(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	root := newCmdRoot(f)
	root.SetArgs(args)
	err = root.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

// runCLIBinary runs the dbg binary built by TestMain in dir and returns
// its output and exit status.
func runCLIBinary(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, dbgBinary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("dbg %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// cliProcessGone reports whether pid has exited (a zombie counts as gone).
func cliProcessGone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// cliWaitGone waits up to d for pid to exit.
func cliWaitGone(t *testing.T, pid int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cliProcessGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d still runs after %s", pid, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestCLIFlagErrors checks flag and argument errors, answered before any
// tool runs.
func TestCLIFlagErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"status", "extra"}, `unknown command "extra"`},
		{[]string{"status", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"jvm", "attach"}, "accepts 1 arg(s), received 0"},
		{[]string{"jvm", "attach", "abc"}, `PID must be a process id, not "abc"`},
		{[]string{"jvm", "attach", "0"}, `PID must be a process id, not "0"`},
		{[]string{"jvm", "attach", "12", "--wait", "-1s"}, "--wait must not be negative"},
		{[]string{"jvm", "invoke", "--method", "m"}, `required flag(s) "class" not set`},
		{[]string{"jvm", "invoke", "--class", "C"}, `required flag(s) "method" not set`},
		{[]string{"jvm", "invoke", "--class", "C", "--method", "m", "--pid", "1", "--connection-id", "a-1"}, "none of the others can be"},
		{[]string{"jvm", "invoke", "--class", "C", "--method", "m", "--args", "{bad"}, "--args is not valid JSON"},
		{[]string{"jvm", "invoke", "--class", "C", "--method", "m", "--timeout", "0s"}, "--timeout and --wait must be positive"},
		{[]string{"jvm", "invoke", "--class", "C", "--method", "m", "--pid", "x"}, `invalid argument "x" for "--pid"`},
		{[]string{"run", "restart"}, "accepts 1 arg(s), received 0"},
		{[]string{"run", "debug", "x", "--break", "main.go"}, `breakpoint "main.go": want FILE:LINE`},
		{[]string{"run", "debug", "x", "--break", "main.go:zero"}, "the line must be a positive number"},
		{[]string{"run", "list", "extra"}, `unknown command "extra"`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, _, err := runCLI(t, c.args...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}
