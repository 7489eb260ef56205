package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/safefs"
)

// StartConfig is how [Start] runs a project's daemon in the background.
type StartConfig struct {
	StateDir string
	Project  string   // absolute
	Exe      string   // the dbg binary
	Args     []string // its arguments, e.g. serve --addr 127.0.0.1:0 --project P
	Env      []string // its environment (nil = this process's)
	// Wait bounds how long the daemon may take to announce itself
	// (default 30 seconds).
	Wait time.Duration
}

// LogPath is where a background daemon of project writes its output.
func LogPath(stateDir, project string) string {
	return strings.TrimSuffix(Path(stateDir, project), ".json") + ".log"
}

// Start runs the project's daemon in its own session, detached from the
// caller's terminal, and returns its record once it serves. Its output
// goes to [LogPath]; the log's tail explains a daemon that exits early.
func Start(ctx context.Context, cfg StartConfig) (Record, error) {
	logPath := LogPath(cfg.StateDir, cfg.Project)
	if err := safefs.Dir(filepath.Dir(logPath)); err != nil {
		return Record{}, err
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return Record{}, err
	}
	defer logf.Close()
	cmd := exec.Command(cfg.Exe, cfg.Args...)
	cmd.Dir = cfg.Project
	cmd.Env = cfg.Env
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return Record{}, fmt.Errorf("start the daemon: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	wait := cfg.Wait
	if wait <= 0 {
		wait = 30 * time.Second
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		if d, ok := Find(cfg.StateDir, cfg.Project); ok && d.PID == cmd.Process.Pid {
			return d, nil
		}
		select {
		case err := <-exited:
			return Record{}, fmt.Errorf("the daemon exited before serving (%v): %s", err, logTail(logPath))
		case <-deadline.C:
			_ = cmd.Process.Kill()
			return Record{}, fmt.Errorf("the daemon did not serve within %s: %s", wait, logTail(logPath))
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			return Record{}, ctx.Err()
		case <-tick.C:
		}
	}
}

// logTail is the end of a daemon's log, on one line.
func logTail(path string) string {
	b, _ := os.ReadFile(path)
	b = bytes.TrimSpace(b)
	if len(b) > 600 {
		b = b[len(b)-600:]
	}
	if len(b) == 0 {
		return "it wrote nothing"
	}
	return strings.ReplaceAll(string(b), "\n", " | ")
}

// ErrNotRunning is [Stop]'s answer when no daemon serves the project.
var ErrNotRunning = errors.New("no dbg daemon runs for this project")

// Stop ends the project's daemon: SIGTERM, which closes its sessions
// (attached processes are detached and keep running), then SIGKILL if it
// has not exited within grace.
func Stop(ctx context.Context, stateDir, project string, grace time.Duration) (Record, error) {
	d, ok := Find(stateDir, project)
	if !ok {
		return Record{}, ErrNotRunning
	}
	if err := syscall.Kill(d.PID, syscall.SIGTERM); err != nil {
		return d, fmt.Errorf("signal the daemon %d: %w", d.PID, err)
	}
	deadline := time.Now().Add(grace)
	for proc.Alive(d.PID) && proc.StartTime(d.PID) == d.Start {
		if time.Now().After(deadline) {
			_ = syscall.Kill(d.PID, syscall.SIGKILL)
			return d, fmt.Errorf("the daemon %d did not stop within %s; killed", d.PID, grace)
		}
		select {
		case <-ctx.Done():
			return d, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	return d, nil
}
