package sessions

import (
	"context"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// Each session-driven nextAction, reached by a real state.
func TestStatusNextActions(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	next := func(sessionID string) *Status {
		t.Helper()
		st, err := m.BuildStatus(ctx, nil, t.TempDir(), sessionID)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := next(""); st.NextAction != toolkit.NextCreateDebugSession {
		t.Fatalf("no session: %s", st.NextAction)
	}
	created, _, _ := m.Create(ctx, CreateRequest{Language: "mock"})
	if st := next(""); st.NextAction != toolkit.NextSetBreakpoint {
		t.Fatalf("created session: %s (%s)", st.NextAction, st.Hint)
	}
	_ = m.CloseSession(ctx, created.ID())

	running, _, _ := m.Create(ctx, CreateRequest{Language: "mock"})
	if _, err := running.Launch(ctx, StartRequest{ScriptPath: testdata(t, "mock/forever.mock"), Wait: 10 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if st := next(running.ID()); st.NextAction != toolkit.NextSetBreakpoint || st.Session == nil || st.Session.State != StateRunning {
		t.Fatalf("running without breakpoints: %s", st.NextAction)
	}
	if _, err := running.SetBreakpoint(ctx, BreakpointSpec{File: testdata(t, "mock/forever.mock"), Line: 5}); err != nil {
		t.Fatal(err)
	}
	if st := next(running.ID()); st.NextAction != toolkit.NextContinue && st.NextAction != toolkit.NextInspectStop {
		t.Fatalf("running with a breakpoint: %s", st.NextAction)
	}
	_ = m.CloseSession(ctx, running.ID())

	a := mockStopped(t, m)
	if st := next(""); st.NextAction != toolkit.NextInspectStop {
		t.Fatalf("paused: %s", st.NextAction)
	}
	mockStopped(t, m)
	st := next("")
	if st.NextAction != toolkit.NextSelectDebuggerSession || len(st.Sessions) != 2 {
		t.Fatalf("two paused: %s", st.NextAction)
	}
	if st := next(a.ID()); st.NextAction != toolkit.NextInspectStop || st.Session.LastStop == nil {
		t.Fatalf("one session's view: %s", st.NextAction)
	}
	found := false
	for _, c := range st.Capabilities {
		if c.Name == "debugSessions" && c.State == toolkit.Available {
			found = true
		}
	}
	if !found {
		t.Fatalf("capabilities %+v", st.Capabilities)
	}
	if _, err := m.BuildStatus(ctx, nil, "", "nope"); err == nil {
		t.Fatal("unknown session accepted")
	}
}
