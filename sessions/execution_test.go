package sessions

import (
	"context"
	"testing"
	"time"
)

// The tools' step kinds map to DAP's step requests, and only those.
func TestStepKindCommand(t *testing.T) {
	t.Parallel()
	for k, want := range map[StepKind]string{StepOver: "next", StepInto: "stepIn", StepOut: "stepOut"} {
		if got, ok := k.command(); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", k, got, ok, want)
		}
	}
	if got, ok := StepKind(0).command(); ok {
		t.Errorf("the zero step kind maps to %q", got)
	}
}

// Once the program resumed, no answer describes the stop before: not the
// answer of its end, nor a wait_for_stop after it, nor one that times out
// while it runs. The stop itself is still answered while paused at it.
func TestNoStaleStop(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	s := mockStopped(t, m)
	if r, err := s.WaitForStop(ctx, time.Second, WantStop); err != nil || r.LastStop == nil || r.LastStop.Location.Line != 10 || len(r.Source) == 0 {
		t.Fatalf("wait_for_stop at the stop: %+v, %v", r, err)
	}
	if err := s.RemoveBreakpoint(ctx, s.Breakpoints()[0].ID); err != nil {
		t.Fatal(err)
	}
	end, err := s.Continue(ctx, 0, 10*time.Second, WantStop)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.WaitForStop(ctx, time.Second, WantStop)
	if err != nil {
		t.Fatal(err)
	}
	for what, r := range map[string]*Stop{"the end": end, "wait_for_stop after the end": again} {
		if r.State != StateTerminated || r.ExitCode == nil {
			t.Fatalf("%s: %+v, want terminated with an exit code", what, r)
		}
		if r.LastStop != nil || r.Source != nil {
			t.Errorf("%s describes the stop before the resume: %+v", what, r)
		}
	}

	// A program that runs on after the resume.
	r, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	prog := testdata(t, "mock/forever.mock")
	bp, err := r.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 6})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := r.Launch(ctx, StartRequest{ScriptPath: prog}); err != nil || res.State != StatePaused {
		t.Fatalf("launch: %+v, %v", res, err)
	}
	if err := r.RemoveBreakpoint(ctx, bp.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Continue(ctx, 0, 0, WantStop); err != nil {
		t.Fatal(err)
	}
	late, err := r.WaitForStop(ctx, 200*time.Millisecond, WantStop)
	if err != nil {
		t.Fatal(err)
	}
	if late.State != StateRunning || !late.Pending || late.LastStop != nil || late.Source != nil {
		t.Errorf("wait_for_stop that timed out while running: %+v, want running with no stop", late)
	}
}

// A pause answered with a step's reason, as lldb answers one that lands
// while its own plan steps the thread, is the pause: nobody stepped. A
// step asked for keeps its reason.
func TestPauseAnsweredAsAStepIsAPause(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Launch(ctx, StartRequest{ScriptPath: testdata(t, "mock/forever.mock"), Wait: 10 * time.Millisecond,
		DAPLaunchArgs: map[string]any{"pauseReason": "step"}}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Pause(ctx, 0, 10*time.Second, WantStop)
	if err != nil || r.State != StatePaused || r.LastStop == nil {
		t.Fatalf("pause: %+v, %v", r, err)
	}
	if r.LastStop.Reason != "pause" {
		t.Errorf("the pause's stop has reason %q, want pause", r.LastStop.Reason)
	}
	r, err = s.Step(ctx, StepOver, 0, 10*time.Second, WantStop)
	if err != nil || r.LastStop == nil || r.LastStop.Reason != "step" {
		t.Fatalf("the step after it: %+v, %v; want reason step", r, err)
	}
}
