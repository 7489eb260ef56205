package main

import (
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// term runs the dbg binary on a pseudo-terminal, as a person would: what
// is typed goes through the terminal's line discipline (Ctrl-C is a
// signal while the program runs), and what dbg prints is read back.
type term struct {
	t    testing.TB
	pty  *os.File
	cmd  *exec.Cmd
	out  lineBuffer
	mark int // how much of the output expect has consumed
	done chan struct{}
}

// ansi matches the terminal escapes of colours and line editing.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// startTerm starts dbg with args on a pseudo-terminal in dir, its state
// in stateDir, with env added.
func startTerm(t testing.TB, dir, stateDir string, env []string, args ...string) *term {
	t.Helper()
	cmd := exec.Command(dbgBinary, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "DBG_STATE_DIR="+stateDir, "TERM=xterm"), env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 60, Cols: 250})
	if err != nil {
		t.Fatalf("start dbg on a pty: %v", err)
	}
	tm := &term{t: t, pty: f, cmd: cmd, done: make(chan struct{})}
	go func() {
		_, _ = io.Copy(&tm.out, f)
		close(tm.done)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-tm.done:
			case <-time.After(15 * time.Second):
				_ = cmd.Process.Kill()
			}
			_ = cmd.Wait()
		}
		_ = f.Close()
	})
	return tm
}

// text is the output so far without terminal escapes and carriage
// returns.
func (tm *term) text() string {
	return strings.ReplaceAll(ansi.ReplaceAllString(tm.out.String(), ""), "\r", "")
}

// expect waits until the output not yet consumed holds want, consumes it
// and returns what came before it.
func (tm *term) expect(want string, d time.Duration) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		text := tm.text()
		if tm.mark > len(text) {
			tm.mark = len(text)
		}
		if i := strings.Index(text[tm.mark:], want); i >= 0 {
			before := text[tm.mark : tm.mark+i]
			tm.mark += i + len(want)
			return before
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("dbg never printed %q; its screen after the last match:\n%s", want, text[tm.mark:])
		}
		select {
		case <-tm.done:
			if !strings.Contains(tm.text()[tm.mark:], want) {
				tm.t.Fatalf("dbg exited without printing %q; its screen after the last match:\n%s", want, tm.text()[tm.mark:])
			}
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// send types s.
func (tm *term) send(s string) {
	tm.t.Helper()
	if _, err := tm.pty.Write([]byte(s)); err != nil {
		tm.t.Fatalf("type %q: %v", s, err)
	}
}

// command types a command line at the prompt, waiting for the prompt
// first.
func (tm *term) command(line string) {
	tm.t.Helper()
	tm.expect("(dbg) ", 60*time.Second)
	tm.send(line + "\r")
}

// exited waits for dbg to exit and returns its exit status.
func (tm *term) exited(d time.Duration) int {
	tm.t.Helper()
	select {
	case <-tm.done:
	case <-time.After(d):
		tm.t.Fatalf("dbg did not exit; screen:\n%s", tm.text()[tm.mark:])
	}
	_ = tm.cmd.Wait()
	return tm.cmd.ProcessState.ExitCode()
}
