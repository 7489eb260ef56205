package sessions

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// mockFamily launches the mock's forever program with a child session
// (the mock's startDebugging) and returns the parent and the child once
// the child is paused at its entry.
func mockFamily(t *testing.T, m *Manager) (*Session, *Session) {
	t.Helper()
	ctx := context.Background()
	s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Launch(ctx, StartRequest{ScriptPath: testdata(t, "mock/forever.mock"), Wait: 10 * time.Millisecond,
		DAPLaunchArgs: map[string]any{"childSession": true}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if kids := m.childrenOf(s); len(kids) == 1 && kids[0].State() == StatePaused {
			return s, kids[0]
		}
	}
	t.Fatalf("no paused child session: %+v", m.List())
	return nil, nil
}

// A wait on the parent answers its child's stop, naming the child; a
// breakpoint set on the parent reaches the child, and removing it removes
// the child's; the child's end is told in the parent's output.
func TestFamilyWaitAndBreakpoints(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	parent, child := mockFamily(t, m)
	got, r, err := m.Wait(ctx, WaitRequest{SessionIDs: []string{parent.ID()}, Timeout: 5 * time.Second})
	if err != nil || got != child || r.SessionID != child.ID() || r.LastStop == nil || r.LastStop.Reason != "entry" {
		t.Fatalf("the wait on the parent answered %v %+v (%v), want the child's entry stop", got, r, err)
	}
	if !strings.Contains(r.Message, "in session "+child.ID()) {
		t.Errorf("the answer %q does not name the child", r.Message)
	}
	prog := testdata(t, "mock/forever.mock")
	bp, err := parent.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 2})
	if err != nil {
		t.Fatal(err)
	}
	if cbs := child.Breakpoints(); len(cbs) != 1 || cbs[0].File != bp.File || cbs[0].Line != 2 {
		t.Fatalf("the child's breakpoints %+v, want the parent's at line 2", cbs)
	}
	if err := parent.RemoveBreakpoint(ctx, bp.ID); err != nil {
		t.Fatal(err)
	}
	if cbs := child.Breakpoints(); len(cbs) != 0 {
		t.Errorf("the child keeps %+v after the parent's was removed", cbs)
	}
	if err := m.CloseSession(ctx, child.ID()); err != nil {
		t.Fatal(err)
	}
	if cs := parent.ChildProcesses(); cs.Supported {
		t.Errorf("the mock says it follows child processes: %+v", cs)
	}
	if err := m.CloseSession(ctx, parent.ID()); err != nil {
		t.Fatal(err)
	}
}

// A wait on several sessions answers the paused one, naming it; with no
// stop it answers that they run; pause and continue of all act on each.
func TestWaitOnSeveralAndAll(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	prog := testdata(t, "mock/forever.mock")
	var ids []string
	for range 2 {
		s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: 10 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID())
	}
	_, r, err := m.Wait(ctx, WaitRequest{SessionIDs: ids, Timeout: 50 * time.Millisecond})
	if err != nil || r.State != StateRunning || !strings.Contains(r.Message, "no stop within") {
		t.Fatalf("a wait on two running sessions answered %+v (%v)", r, err)
	}
	paused := m.ForAll(ctx, func(ctx context.Context, s *Session) (*Stop, error) { return s.Pause(ctx, 0, 0, WantStop) })
	if len(paused) != 2 || paused[0].State != StatePaused || paused[1].State != StatePaused {
		t.Fatalf("pause all answered %+v", paused)
	}
	s, r, err := m.Wait(ctx, WaitRequest{All: true, Timeout: time.Second})
	if err != nil || r.State != StatePaused || r.SessionID != s.ID() || s.ID() != ids[0] {
		t.Fatalf("a wait on all answered %v %+v (%v), want the first pause, %s's", s, r, err, ids[0])
	}
	resumed := m.ForAll(ctx, func(ctx context.Context, s *Session) (*Stop, error) { return s.Continue(ctx, 0, 0, WantStop) })
	if len(resumed) != 2 || resumed[0].State != StateRunning {
		t.Fatalf("continue all answered %+v", resumed)
	}
	if _, _, err := m.Wait(ctx, WaitRequest{SessionIDs: []string{"nosuch"}, Timeout: time.Millisecond}); err == nil {
		t.Errorf("a wait on an unknown session succeeded")
	}
	m.AddGroup("both", ids, true)
	if g := m.Groups(); len(g) != 1 || len(g[0].Sessions) != 2 || !g[0].StopAll {
		t.Fatalf("groups %+v", g)
	}
	if err := m.CloseSession(ctx, ids[1]); err != nil {
		t.Fatal(err)
	}
	if n := len(m.List()); n != 0 {
		t.Errorf("%d sessions left after closing one of a stopAll group", n)
	}
}

// Following children is refused where the adapter cannot, with its
// reason, and a core file where the adapter has no core target.
func TestRefusals(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	on := true
	_, _, err := m.Create(ctx, CreateRequest{Language: "mock", ChildProcesses: &on})
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != toolkit.CodeUnsupported || !strings.Contains(te.Message, "childSession") {
		t.Errorf("childProcesses: true on the mock: %v", err)
	}
	_, _, err = m.Create(ctx, CreateRequest{Language: "mock", CoreFile: "core", Program: "prog"})
	if !errors.As(err, &te) || te.Code != toolkit.CodeUnsupported || !strings.Contains(te.Message, "no core files") {
		t.Errorf("a core file on the mock: %v", err)
	}
	if n := len(m.List()); n != 0 {
		t.Errorf("%d sessions left by refused creates", n)
	}
}
