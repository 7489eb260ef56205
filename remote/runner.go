package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/textcut"
)

// Runner runs the client tools (ssh, docker, kubectl) on this machine.
// The capability is given one ([Config.Runner]), so tests answer for the
// tools. Implementations are safe for concurrent use.
type Runner interface {
	// Run runs argv to its end with stdin as its input and returns what
	// it wrote to stdout. A start failure or a non-zero exit is a
	// *CommandError holding its stderr; ctx's end kills it.
	Run(ctx context.Context, stdin string, argv ...string) (string, error)
	// Start starts argv, which runs until it is stopped or ends by itself
	// (a tunnel, a relay). onLine, when set, gets its output lines;
	// otherwise its stdin and stdout are the returned Process's stream.
	Start(argv []string, onLine func(stream, line string)) (Process, error)
}

// Process is a started tool. *dap.Process is one.
type Process interface {
	io.ReadWriteCloser
	// Exited is closed when it has ended.
	Exited() <-chan struct{}
	// StderrTail is the end of what it wrote to stderr.
	StderrTail() string
	// Stop ends it politely, then firmly, with whatever it started.
	Stop(ctx context.Context)
}

// CommandError is a client tool that failed: which, how, and what it said.
type CommandError struct {
	Argv     []string
	ExitCode int // -1: it did not start or was killed
	Stderr   string
	Err      error
}

func (e *CommandError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("%s failed (exit %d): %s", e.Argv[0], e.ExitCode, textcut.Clip(msg, 2000))
}

func (e *CommandError) Unwrap() error { return e.Err }

// ExecRunner runs the tools as child processes in process groups of
// their own, killed with dbg if it dies.
type ExecRunner struct{}

// Run implements Runner.
func (ExecRunner) Run(ctx context.Context, stdin string, argv ...string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return proc.KillGroup(cmd.Process.Pid) }
	cmd.WaitDelay = 2 * time.Second
	var out, errb limitedBuffer
	out.max, errb.max = 4<<20, 64<<10
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	err := cmd.Run()
	if err == nil {
		return out.String(), nil
	}
	code := -1
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.Exited() {
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return out.String(), &CommandError{Argv: argv, ExitCode: code, Stderr: errb.String(), Err: err}
}

// Start implements Runner.
func (ExecRunner) Start(argv []string, onLine func(stream, line string)) (Process, error) {
	p, err := dap.StartProcess(exec.Command(argv[0], argv[1:]...), dap.ProcessOptions{Stdio: onLine == nil, OnLine: onLine})
	if err != nil {
		return nil, &CommandError{Argv: argv, ExitCode: -1, Err: err}
	}
	return p, nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
