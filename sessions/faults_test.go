package sessions

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/sessions/toolkit"
)

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed", name)
	}
}

// markedLine returns the first line of path containing marker.
func markedLine(t *testing.T, path, marker string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), marker) {
			return n
		}
	}
	t.Fatalf("no %s in %s", marker, path)
	return 0
}

// A Go program SIGKILLed while paused under delve: delve answers the next
// step with a stop ("no such process") and never reports the end. The
// session must turn terminated with the reason, and say so everywhere.
func TestFaultDebuggeeKilledWhilePaused(t *testing.T) {
	needTool(t, "dlv")
	m := newTestManager(t)
	ctx := context.Background()
	other := mockStopped(t, m)
	s, _, err := m.Create(ctx, CreateRequest{Language: "go"})
	if err != nil {
		t.Fatal(err)
	}
	prog := testdata(t, "go/loop/main.go")
	line := markedLine(t, prog, "BREAK")
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: line}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: time.Minute})
	if err != nil || res.State != StatePaused {
		t.Fatalf("launch: %+v %v", res, err)
	}
	info := s.Info()
	if info.PID == 0 {
		t.Fatalf("no debuggee pid: %+v", info)
	}
	adapterPID := info.AdapterPID
	if err := syscall.Kill(info.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	r, err := s.Step(sctx, StepOver, 0, 0)
	if time.Since(start) > 20*time.Second {
		t.Fatalf("the step took %s", time.Since(start))
	}
	if err == nil && r.State != StateTerminated {
		t.Fatalf("step after the debuggee died: %+v", r)
	}
	info = s.Info()
	if info.State != StateTerminated || !strings.Contains(info.Reason, "is gone") {
		t.Fatalf("session after the debuggee died: %+v", info)
	}
	if !strings.Contains(info.Reason, "killed by SIGKILL") || !strings.Contains(info.Reason, "pid") {
		t.Errorf("reason %q does not say how the debuggee ended", info.Reason)
	}
	listed := false
	for _, li := range m.List() {
		if li.ID == s.ID() && li.State == StateTerminated && li.Reason == info.Reason {
			listed = true
		}
	}
	if !listed {
		t.Fatalf("list does not show the end: %+v", m.List())
	}
	if _, err := s.Evaluate(ctx, "total", 0, ""); !isCode(err, toolkit.CodeInvalidState) {
		t.Fatalf("evaluate on a dead debuggee: %v", err)
	}
	if _, err := s.Continue(ctx, 0, 0); !isCode(err, toolkit.CodeInvalidState) {
		t.Fatalf("continue on a dead debuggee: %v", err)
	}
	// Other sessions keep working.
	if r, err := other.Step(ctx, StepOver, 0, 10*time.Second); err != nil || r.State != StatePaused {
		t.Fatalf("other session: %+v %v", r, err)
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	waitDead(t, 5*time.Second, adapterPID)
}

func isCode(err error, code string) bool {
	te, ok := err.(*toolkit.ToolError)
	return ok && te.Code == code
}

// waitDead fails unless every pid exits within d.
func waitDead(t *testing.T, d time.Duration, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, p := range pids {
		for p > 0 && proc.Alive(p) {
			if time.Now().After(deadline) {
				t.Errorf("process %d outlived its session", p)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
