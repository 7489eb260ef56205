package ide

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

// maxOutputLines caps the git output dbg reports.
const maxOutputLines = 200

// maxOutputBytes caps what is read from one git command.
const maxOutputBytes = 1 << 20

// gitCommand runs the git executable for network operations, never
// interactively: no terminal prompt, no askpass program, ssh in batch
// mode, no editor, stdin closed, a deadline on every call, and the whole
// process group killed when it passes.
type gitCommand struct {
	path    string // "" = look up "git" on PATH at each call
	timeout time.Duration
}

// GitError is a failed git command, with its redacted, capped output.
type GitError struct {
	Args     []string
	ExitCode int
	TimedOut bool
	Output   []string
	err      error
}

func (e *GitError) Error() string {
	if e.TimedOut {
		return fmt.Sprintf("git %s timed out", strings.Join(e.Args, " "))
	}
	last := ""
	for i := len(e.Output) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(e.Output[i]); s != "" {
			last = s
			break
		}
	}
	if last != "" {
		return fmt.Sprintf("git %s failed (exit %d): %s", strings.Join(e.Args, " "), e.ExitCode, last)
	}
	return fmt.Sprintf("git %s failed (exit %d)", strings.Join(e.Args, " "), e.ExitCode)
}

func (e *GitError) Unwrap() error { return e.err }

// ErrNoGit says the git command is not installed.
var ErrNoGit = errors.New("the git command is not installed")

func (g gitCommand) lookPath() (string, error) {
	p := g.path
	if p == "" {
		p = "git"
	}
	full, err := exec.LookPath(p)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoGit, err)
	}
	return full, nil
}

// gitEnv is the environment of every git command.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_TERMINAL_PROMPT", "GIT_ASKPASS", "SSH_ASKPASS",
			"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_MERGE_AUTOEDIT", "LC_ALL", "LANG", "GCM_INTERACTIVE", "GIT_SSH_COMMAND":
			continue
		}
		env = append(env, kv)
	}
	ssh := os.Getenv("GIT_SSH_COMMAND")
	if ssh == "" {
		ssh = "ssh"
	}
	return append(env,
		"GIT_TERMINAL_PROMPT=0",
		"GIT_ASKPASS=",
		"SSH_ASKPASS=",
		"GCM_INTERACTIVE=never",
		"GIT_SSH_COMMAND="+ssh+" -o BatchMode=yes",
		"GIT_EDITOR=true",
		"GIT_SEQUENCE_EDITOR=true",
		"GIT_MERGE_AUTOEDIT=no",
		"LC_ALL=C",
		"LANG=C",
	)
}

// cappedBuffer keeps the first maxOutputBytes written to it.
type cappedBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	dropped bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxOutputBytes - b.buf.Len(); room < len(p) {
		b.buf.Write(p[:max(room, 0)])
		b.dropped = true
		return len(p), nil
	}
	b.buf.Write(p)
	return len(p), nil
}

// run executes git args in dir and returns its output (stdout and
// stderr together), redacted and capped to maxOutputLines.
func (g gitCommand) run(ctx context.Context, dir string, args ...string) ([]string, error) {
	bin, err := g.lookPath()
	if err != nil {
		return nil, err
	}
	timeout := g.timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	cmd.Stdin = nil
	var out cappedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return proc.KillGroup(cmd.Process.Pid) }
	cmd.WaitDelay = 2 * time.Second
	runErr := cmd.Run()
	out.mu.Lock()
	lines := capLines(RedactText(out.buf.String()), out.dropped)
	out.mu.Unlock()
	if runErr == nil {
		return lines, nil
	}
	ge := &GitError{Args: args, ExitCode: -1, Output: lines, err: runErr}
	if ctx.Err() != nil {
		ge.TimedOut = true
		ge.err = fmt.Errorf("%w: %w", context.DeadlineExceeded, runErr)
	}
	var ee *exec.ExitError
	if errors.As(runErr, &ee) {
		ge.ExitCode = ee.ExitCode()
	}
	return lines, ge
}

// capLines splits text into lines and keeps the last maxOutputLines,
// saying how many were left out.
func capLines(text string, truncated bool) []string {
	text = strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if text == "" {
		return nil
	}
	// Progress output rewrites its line with \r: keep the final state.
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			lines[i] = l[j+1:]
		}
	}
	if len(lines) > maxOutputLines {
		omitted := len(lines) - (maxOutputLines - 1)
		lines = append([]string{fmt.Sprintf("[%d earlier lines omitted]", omitted)}, lines[len(lines)-(maxOutputLines-1):]...)
	} else if truncated {
		lines = append(lines, "[output truncated]")
	}
	return lines
}
