package sessions

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// retrySetBreakpoint sets the same breakpoint five times, as an agent
// retrying a call that timed out would, then changes its condition.
func retrySetBreakpoint(t *testing.T, s *Session, file string, line int) Breakpoint {
	t.Helper()
	ctx := context.Background()
	first, err := s.SetBreakpoint(ctx, BreakpointSpec{File: file, Line: line})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		again, err := s.SetBreakpoint(ctx, BreakpointSpec{File: file, Line: line})
		if err != nil {
			t.Fatal(err)
		}
		if again.ID != first.ID {
			t.Fatalf("retry %d gave breakpoint %d, want %d", i, again.ID, first.ID)
		}
	}
	if bps := s.Breakpoints(); len(bps) != 1 {
		t.Fatalf("5 calls on one line gave %d breakpoints: %+v", len(bps), bps)
	}
	return first
}

// updateCondition sets the breakpoint again with a condition, a hit
// condition and then a log message: each time the same id, updated.
func updateCondition(t *testing.T, s *Session, file string, line, id int, cond string) {
	t.Helper()
	bp, err := s.SetBreakpoint(context.Background(), BreakpointSpec{File: file, Line: line, Condition: cond})
	if err != nil {
		t.Fatal(err)
	}
	bps := s.Breakpoints()
	if bp.ID != id || bp.Condition != cond || len(bps) != 1 || bps[0].Condition != cond {
		t.Fatalf("update: %+v, list %+v", bp, bps)
	}
}

// endedAnswers checks what detach and close answer on a session whose
// program has ended: clear answers, and a second close says it is
// already closed.
func endedAnswers(t *testing.T, m *Manager, s *Session) {
	t.Helper()
	ctx := context.Background()
	before := s.Info().Reason
	for i := 0; i < 2; i++ {
		if err := s.Detach(ctx, false); err != nil {
			t.Fatalf("detach %d of an ended session: %v", i, err)
		}
	}
	if got := s.Info(); got.State != StateTerminated || got.Reason != before {
		t.Fatalf("detach changed the ended session: %s %q, was %q", got.State, got.Reason, before)
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatalf("close of an ended session: %v", err)
	}
	err := m.CloseSession(ctx, s.ID())
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != toolkit.CodeSessionNotFound || te.Message != "session "+s.ID()+" is already closed" {
		t.Fatalf("second close: %v", err)
	}
}

func runToEnd(t *testing.T, s *Session) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.ClearBreakpoints(ctx, ""); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20 && s.Info().State != StateTerminated; i++ {
		if _, err := s.Continue(ctx, 0, 10*time.Second); err != nil && s.Info().State != StateTerminated {
			t.Fatal(err)
		}
	}
	if st := s.Info().State; st != StateTerminated {
		t.Fatalf("program did not end: %s", st)
	}
}

// retryScenario sets one breakpoint five times before and after launch,
// makes it conditional and checks the adapter stops only where the
// condition holds (evaluating variable), then runs the program to its end
// and checks detach and close of the ended session.
func retryScenario(t *testing.T, m *Manager, language, script, file string, line int, cond, variable, want string) *Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, _, err := m.Create(ctx, CreateRequest{Language: language})
	if err != nil {
		t.Fatal(err)
	}
	bp := retrySetBreakpoint(t, s, file, line) // pending, before launch
	res, err := s.Launch(ctx, StartRequest{ScriptPath: script, Wait: 2 * time.Minute})
	if err != nil || res.State != StatePaused {
		t.Fatalf("launch: %+v %v", res, err)
	}
	if again := retrySetBreakpoint(t, s, file, line); again.ID != bp.ID || !again.Verified {
		t.Fatalf("live retry: %+v", again)
	}
	// The adapter gets the new condition.
	updateCondition(t, s, file, line, bp.ID, cond)
	r, err := s.Continue(ctx, 0, 30*time.Second)
	if err != nil || r.State != StatePaused {
		t.Fatalf("continue: %+v %v", r, err)
	}
	if v, err := s.Evaluate(ctx, variable, 0, ""); err != nil || v.Result != want {
		t.Fatalf("stopped with %s = %+v %v, want %s", variable, v, err, want)
	}
	return s
}

// Retried set_breakpoint calls give back one breakpoint, before and after
// launch; ended sessions answer detach and close clearly (mock adapter).
func TestRetriesAreSafeMock(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	prog := testdata(t, "mock/loop.mock")
	s := retryScenario(t, m, "mock", prog, prog, 10, "i == 3", "i", "3")
	bp := s.Breakpoints()[0]
	// Hit condition and log message replace the condition.
	hit, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 10, HitCondition: "2"})
	if err != nil || hit.ID != bp.ID || hit.Condition != "" || hit.HitCondition != "2" {
		t.Fatalf("hit condition: %+v %v", hit, err)
	}
	logp, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 10, LogMessage: "at {i}"})
	if err != nil || logp.ID != bp.ID || logp.HitCondition != "" || logp.LogMessage != "at {i}" || len(s.Breakpoints()) != 1 {
		t.Fatalf("log message: %+v %v", logp, err)
	}
	// Function breakpoints: one per function.
	f1, _ := s.SetBreakpoint(ctx, BreakpointSpec{Function: "add"})
	f2, _ := s.SetBreakpoint(ctx, BreakpointSpec{Function: "add"})
	if f1.ID != f2.ID || len(s.Breakpoints()) != 2 {
		t.Fatalf("function breakpoints %+v %+v: %+v", f1, f2, s.Breakpoints())
	}
	runToEnd(t, s)
	endedAnswers(t, m, s)
}

// The same with delve, on a Go program.
func TestRetriesAreSafeDelve(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"go", "dlv"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	m := newTestManager(t)
	dir := testdata(t, "go/loop")
	s := retryScenario(t, m, "go", dir, filepath.Join(dir, "main.go"), 20, "i == 2", "i", "2")
	runToEnd(t, s)
	endedAnswers(t, m, s)
}
