package daemon

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A daemon that exits before serving is reported with its log's tail.
func TestStartExitsEarly(t *testing.T) {
	state, project := t.TempDir(), t.TempDir()
	_, err := Start(context.Background(), StartConfig{StateDir: state, Project: project, Exe: "/bin/sh",
		Args: []string{"-c", "echo the port is taken >&2; exit 3"}})
	if err == nil || !strings.Contains(err.Error(), "exited before serving") || !strings.Contains(err.Error(), "the port is taken") {
		t.Fatalf("err %v", err)
	}
}

// A daemon that never announces itself is killed at the deadline.
func TestStartTimesOut(t *testing.T) {
	state, project := t.TempDir(), t.TempDir()
	start := time.Now()
	_, err := Start(context.Background(), StartConfig{StateDir: state, Project: project, Exe: "/bin/sleep", Args: []string{"30"}, Wait: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "did not serve within") || time.Since(start) > 10*time.Second {
		t.Fatalf("err %v after %s", err, time.Since(start))
	}
}

func TestStopNotRunning(t *testing.T) {
	if _, err := Stop(context.Background(), t.TempDir(), t.TempDir(), time.Second); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("err %v", err)
	}
}
