package testrun

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

// maxRunnerOutput caps what is kept of a discovery command's output.
const maxRunnerOutput = 1 << 20

// runResult is what a runner command did.
type runResult struct {
	Output   string // stdout and stderr, interleaved, capped
	ExitCode int    // -1 when it did not run or was killed
}

// cappedBuffer keeps the first max bytes written to it.
type cappedBuffer struct {
	bytes.Buffer
	max int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		if len(p) > room {
			b.Buffer.Write(p[:room])
		} else {
			b.Buffer.Write(p)
		}
	}
	return len(p), nil
}

// run runs argv in dir with env added to the environment, in its own
// process group, killed whole when ctx ends.
func run(ctx context.Context, dir string, env map[string]string, argv []string) (runResult, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = nil
	out := &cappedBuffer{max: maxRunnerOutput}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return proc.KillGroup(cmd.Process.Pid) }
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	res := runResult{Output: out.String(), ExitCode: -1}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = nil
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, err
}

// mergeEnv is base with extra over it (the user's variables win).
func mergeEnv(base, extra map[string]string) map[string]string {
	env := make(map[string]string, len(base)+len(extra))
	for k, v := range base {
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	return env
}
