package sessions

import (
	"context"
	"errors"
	"testing"

	"github.com/dbg-dev/dbg/toolkit"
)

// The mock restarts frames and can do none of the other live edits: each
// of those answers UNSUPPORTED naming the alternative.
func TestLiveEditsOnTheMock(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	s := mockStopped(t, m)
	if got := s.LiveEdits(); got != (LiveEditSupport{RestartFrame: true}) {
		t.Fatalf("mock live edits %+v, want restartFrame only", got)
	}
	if _, err := s.Step(ctx, StepInto, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Step(ctx, StepOver, 0, 0); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Evaluate(ctx, "sum", 0, ""); err != nil || v.Result != "1" {
		t.Fatalf("sum in add = %+v %v, want 1", v, err)
	}
	frames, _, err := s.StackTrace(ctx, 0, 0, 10)
	if err != nil || len(frames) < 2 {
		t.Fatalf("stack %v %v", frames, err)
	}
	if _, err := s.RestartFrame(ctx, frames[len(frames)-1].ID, 0); !hasCode(err, toolkit.CodeInvalidArgument) {
		t.Errorf("restarting the bottom frame: %v, want INVALID_ARGUMENT", err)
	}
	r, err := s.RestartFrame(ctx, frames[0].ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.State != StatePaused || r.LastStop.Reason != "restart" || r.LastStop.Location.Function != frames[0].Name {
		t.Errorf("restart answered %+v (stop %+v), want a restart stop in %s", r, r.LastStop, frames[0].Name)
	}
	if r.LastStop.Location.Line != 3 {
		t.Errorf("restarted at line %d, want add's first line 3", r.LastStop.Location.Line)
	}
	if v, err := s.Evaluate(ctx, "b", 0, ""); err != nil || v.Result != "1" {
		t.Errorf("b after the restart = %+v %v, want its entry value 1", v, err)
	}
	if _, err := s.Evaluate(ctx, "sum", 0, ""); err == nil {
		t.Error("sum is still set after the restart")
	}
	if _, err := s.HotReload(ctx, nil, true, 0); !hasCode(err, toolkit.CodeUnsupported) {
		t.Errorf("hot reload: %v, want UNSUPPORTED", err)
	}
	if _, err := s.GotoLine(ctx, testdata(t, "mock/loop.mock"), 12, 0, 0); !hasCode(err, toolkit.CodeUnsupported) {
		t.Errorf("goto: %v, want UNSUPPORTED", err)
	}
	if _, err := s.EvaluateSafe(ctx, "total + 1", 0, ""); !hasCode(err, toolkit.CodeUnsupported) {
		t.Errorf("evaluation without side effects: %v, want UNSUPPORTED", err)
	}
	if _, err := s.RestartFrame(ctx, 0, 0); !hasCode(err, toolkit.CodeInvalidArgument) {
		t.Errorf("restart without a frame: %v, want INVALID_ARGUMENT", err)
	}
}

func hasCode(err error, code string) bool {
	var te *toolkit.ToolError
	return errors.As(err, &te) && te.Code == code
}
